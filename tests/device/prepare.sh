#!/usr/bin/env bash
# Run HERE (Debian 12, with network), before a device session: downloads every Debian 12 package that the `cli` build
# of CreditLab needs and the device machine may lack (the -dev packages, their runtime libraries and those libraries'
# own dependencies, pkgconf and ninja) into .devdeps/ at the repository root, and ignores that folder in git.
# tests/device/run.sh unpacks them there into a prefix with `dpkg -x` (never into /).
#
# Idempotent: a package whose .deb is already there is not downloaded again. Usage: tests/device/prepare.sh
set -euo pipefail

root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
cd "$root"
dest=.devdeps
mkdir -p "$dest"

# The folder travels with the device tool's `carry`, so git must ignore it (info/exclude is shared by worktrees).
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qxF '/.devdeps/' "$exclude" 2>/dev/null || echo '/.devdeps/' >>"$exclude"

# What CMakeLists.txt, core/CMakeLists.txt and core/hf/CMakeLists.txt find, plus the tools.
wanted=(
    libspdlog-dev libfmt-dev libyaml-cpp-dev libcli11-dev nlohmann-json3-dev
    libcpp-httplib-dev zlib1g-dev libbrotli-dev libssl-dev   # cpp-httplib.pc requires openssl, zlib and brotli
    libsqlite3-dev libcurl4-openssl-dev
    libonig-dev libutf8proc-dev
    pkgconf-bin libpkgconf3 ninja-build
)
# Part of any glibc system, or not needed to build (catch2 is a stray dependency of libspdlog-dev).
skip=" catch2 gcc-12-base libc-dev-bin libc6 libc6-dev libcrypt-dev libcrypt1 libgcc-s1 libnsl-dev libnsl2 libstdc++6"
skip+=" libtirpc-common libtirpc-dev libtirpc3 linux-libc-dev rpcsvc-proto "

mapfile -t closure < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
    --no-replaces --no-enhances "${wanted[@]}" 2>/dev/null | grep -v '^ ' | grep -v '^<' | sort -u)

missing=()
for pkg in $skip; do rm -f "$dest/${pkg}"_*.deb; done # left by an earlier version of this script
for pkg in "${closure[@]}"; do
    [[ $skip == *" $pkg "* ]] && continue
    compgen -G "$dest/${pkg}_*.deb" >/dev/null || missing+=("$pkg")
done
if ((${#missing[@]})); then
    echo "prepare: downloading ${#missing[@]} package(s): ${missing[*]}"
    if ! (cd "$dest" && apt-get download "${missing[@]}"); then
        echo "prepare: apt-get download failed; refreshing the package lists once" >&2
        apt-get update -qq
        (cd "$dest" && apt-get download "${missing[@]}")
    fi
fi

# A manifest of what is there, for the log.
find "$dest" -maxdepth 1 -name '*.deb' -printf '%f\n' | sort >"$dest/MANIFEST"
echo "prepare: $(wc -l <"$dest/MANIFEST") packages, $(du -sh "$dest" | cut -f1) in $dest"
