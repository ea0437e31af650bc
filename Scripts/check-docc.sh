#!/usr/bin/env bash
# Builds the DocC documentation of every library module — its catalog
# (Sources/MODULE/MODULE.docc) and the doc comments of its public declarations — with
# the toolchain's `docc`, and fails if DocC warns about anything: a ``Symbol`` link
# that resolves to nothing, a parameter documented that does not exist, a topic that
# names no page. It needs no package plugin: docc comes with the toolchain.
#
#   bash Scripts/check-docc.sh            # archives in .build-docs/archives
#
# Symbol graphs come from a build of its own in .build-docs (the first one takes as
# long as a clean build), so the main .build is not rebuilt with other flags; with
# extension blocks, as the swift-docc-plugin asks for them, so that what a module adds
# to another module's types (IngestCompression's InputFile.decompressed) has a page. Each
# module is converted after the modules it depends on, with their archives as
# dependencies, so that a link to another module's symbol, written with a leading
# slash (``/IngestCore/Output``), resolves.
set -euo pipefail
cd "$(dirname "$0")/.."

docc=${DOCC:-$(dirname "$(readlink -f "$(command -v swift)")")/docc}
scratch=.build-docs
graphs=$PWD/$scratch/symbol-graphs
archives=$scratch/archives
mkdir -p "$graphs"
rm -rf "$archives"
mkdir -p "$archives"

# A module's symbol graphs are written when it compiles; an up-to-date module keeps
# the ones written before, so the directory is never emptied. IngestKit's graph holds
# the symbols it re-exports, with their doc comments, but it does not recompile when
# only those comments change: its build products are removed to make it.
rm -f "$scratch"/*/debug/IngestKit.build/*.o "$scratch"/*/debug/Modules/IngestKit.swiftmodule
for target in IngestKit IngestTesting IngestPostgres IngestFeedFetch; do
  swift build --scratch-path "$scratch" --target "$target" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" \
    -Xswiftc -emit-extension-block-symbols
done

# Modules in dependency order, each with the library modules it depends on.
modules=(
  "IngestCore:"
  "IngestPOSIX:IngestCore"
  "IngestParsers:IngestCore IngestPOSIX"
  "IngestCompression:IngestCore IngestParsers"
  "IngestTree:IngestCore IngestParsers"
  "IngestFiles:IngestCore IngestPOSIX"
  "IngestSchema:IngestCore IngestParsers IngestPOSIX"
  "IngestSQLite:IngestCore IngestPOSIX"
  "IngestPostgres:IngestCore IngestPOSIX"
  "IngestTesting:IngestCore"
  "IngestFeeds:IngestCore IngestParsers"
  "IngestFeedArchive:IngestCore IngestParsers IngestFeeds"
  "IngestFeedFetch:IngestCore IngestParsers IngestPOSIX IngestCompression IngestFeeds IngestFeedArchive"
  "IngestKit:IngestCore IngestParsers IngestPOSIX IngestCompression IngestTree IngestFiles IngestSchema IngestSQLite IngestFeeds IngestFeedArchive"
)
warnings=0
for entry in "${modules[@]}"; do
  module=${entry%%:*}
  dependencies=()
  for dependency in ${entry#*:}; do dependencies+=(--dependency "$archives/$dependency.doccarchive"); done
  input=$scratch/module-graphs/$module
  rm -rf "$input"
  mkdir -p "$input"
  cp "$graphs/$module.symbols.json" "$input/"
  for extension in "$graphs/$module@"*.symbols.json; do
    [ -e "$extension" ] && cp "$extension" "$input/"
  done
  log=$scratch/$module.docc.log
  "$docc" convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$input" \
    --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
    --output-path "$archives/$module.doccarchive" \
    --enable-experimental-external-link-support "${dependencies[@]}" >"$log" 2>&1 || true
  count=$(grep -c -E '^(warning|error):' "$log" || true)
  if [ ! -d "$archives/$module.doccarchive" ] || [ "$count" -gt 0 ]; then
    echo "check-docc: $module: $count warnings"
    sed -n '/^\(warning\|error\):/,/^$/p' "$log"
    warnings=$((warnings + count))
    [ -d "$archives/$module.doccarchive" ] || warnings=$((warnings + 1))
  else
    echo "check-docc: $module: no warnings"
  fi
done
if [ "$warnings" -gt 0 ]; then
  echo "check-docc: $warnings warnings in all"
  exit 1
fi
echo "check-docc: every module's documentation builds without warnings ($archives)"
