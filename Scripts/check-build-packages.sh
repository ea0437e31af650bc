#!/usr/bin/env bash
# Fails when a build read a header, or linked a library, from a Debian development
# package that is not on the list in Documentation/SettingUp.md ("Prerequisites") — so a
# reintroduced `#include <zstd.h>` or `link "zstd"` cannot slip past a machine that
# happens to have libzstd-dev.
#
#   bash Scripts/check-build-packages.sh [BUILD_DIR]   (default .build)
#
# What the build read: the system headers named in the compiler's dependency files
# (*.d) and in the Clang modules it built (*.pcm, where system library targets' headers
# are recorded). What it linked: the NEEDED entries of the executables built. Each is
# traced to its package with dpkg -S; a package named *-dev must be on the list.
set -euo pipefail
build=${1:-.build}

# Documentation/SettingUp.md's list (keep the two in step), and the C toolchain's own headers.
allowed='^(libexpat1-dev|libxml2-dev|libsqlite3-dev|zlib1g-dev|libbz2-dev|liblzma-dev'
allowed+='|libc6-dev|linux-libc-dev|libcrypt-dev|libgcc-[0-9]+-dev|libstdc\+\+-[0-9]+-dev)(:[a-z0-9]+)?$'

command -v dpkg >/dev/null || { echo "check-build-packages: no dpkg here: nothing to check"; exit 0; }
[ -d "$build" ] || { echo "check-build-packages: no build folder $build" >&2; exit 2; }

headers=$( {
    find "$build" -name '*.d' -type f -exec grep -ho '/usr/[^ :\\]*\.h' {} + 2>/dev/null || true
    find "$build" -name '*.pcm' -type f -exec strings {} + 2>/dev/null | grep -o '^/usr/[^ ]*\.h$' || true
} | sort -u)

# For each library an executable needs, the unversioned name a linker opened
# (libzstd.so.1 → libzstd.so), which only a -dev package installs.
libraries=$(find "$build" -maxdepth 3 -type f -perm -u+x -name 'ingest*' ! -name '*.*' \
                -exec sh -c 'readelf -d "$1" 2>/dev/null' _ {} \; |
            sed -n 's/.*(NEEDED).*\[\(lib[^]]*\)\.so\.[0-9.]*\]/\1.so/p' | sort -u)
linked=""
for library in $libraries; do
    for directory in /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu /usr/lib /lib/x86_64-linux-gnu; do
        [ -e "$directory/$library" ] && linked+="$directory/$library"$'\n' && break
    done
done

[ -n "$headers" ] || { echo "check-build-packages: no dependency files under $build: build first" >&2; exit 2; }

# dpkg -S knows files by the path the package installed, so links are resolved first.
paths=$(grep . <<< "$headers"$'\n'"$linked" | xargs -r readlink -f | sort -u || true)
owners=$(xargs -r dpkg -S <<< "$paths" 2>/dev/null | sed -n 's/^\([^:, ]*\)\(:[a-z0-9]*\)\{0,1\}: \(.*\)$/\1 \3/p' || true)

failed=0
used=$(awk '$1 ~ /-dev$/ {print $1}' <<< "$owners" | sort -u)
while read -r owner path; do
    case "$owner" in *-dev) ;; *) continue ;; esac
    if ! [[ "$owner" =~ $allowed ]]; then
        echo "check-build-packages: the build used $path, from $owner, which is not on the list in Documentation/SettingUp.md"
        failed=1
    fi
done <<< "$owners"

echo "check-build-packages: development packages the build used: $(tr '\n' ' ' <<< "$used")"
exit $failed
