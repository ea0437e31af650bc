#!/usr/bin/env bash
# Builds the ingest command as it is installed and measured, and prints the binary's path.
#
#   bash Scripts/build-release.sh [more swift build options]
#
# This is `swift build -c release --product ingest`, which on Linux already links the
# Swift runtime and Foundation into the binary (Package.swift: -static-stdlib and lld for
# the ingest target, release only), so it runs on machines without a Swift toolchain.
# Where glibc is 2.36 or later it also packs the binary's relative relocations
# (-z pack-relative-relocs): the loader then maps and relocates only what the command
# uses (BENCHMARKS.md). That flag reaches the link alone, so after `swift build -c release`
# this relinks the command and compiles nothing; older loaders cannot read packed
# relocations, which is why the flag is here and not in Package.swift.
set -euo pipefail
cd "$(dirname "$0")/.."

flags=(-c release --product ingest)
if [[ "$(uname -s)" == Linux ]]; then
    glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
    if [[ -n "$glibc" ]] && printf '2.36\n%s\n' "$glibc" | sort -V -C; then
        flags+=(-Xlinker -z -Xlinker pack-relative-relocs)
    fi
fi
swift build "${flags[@]}" "$@" >&2
echo "$(swift build "${flags[@]}" "$@" --show-bin-path)/ingest"
