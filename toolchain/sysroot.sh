#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Gives the presets of one architecture their static sysroot (alsa-lib, tinyxml2, libsystemd, libcurl) in the
# clone's LOCALDIR: copied from the machine-wide cache when it holds a verified entry for the same key, else built
# by build-sysroot.sh and published there. Ordinary build caching, like ccache: a missing, stale or damaged entry
# only costs a rebuild (about 3 minutes for x86_64 and 4 for aarch64 on 2 cores).
# Usage: sysroot.sh ARCH(x86_64|aarch64) LOCALDIR RESULTFILE
#   RESULTFILE  receives the sysroot folder (LOCALDIR) and a line saying how it was obtained
# Cache: ${SOTTO_SYSROOT_CACHE_DIR:-/var/cache/sotto-sysroot}/<arch>-<key>, key = sha256 of build-sysroot.sh, the
# exact Debian source packages (.dsc names and checksums), the compiler, meson and the library headers built
# against. An entry is written to a temporary folder and renamed into place; its MANIFEST (sha256 of every file)
# is checked before each use. SOTTO_SYSROOT_CACHE_DIR= (empty) turns the cache off.
set -euo pipefail
arch=${1:?arch}; local_dir=${2:?local dir}; result=${3:?result file}
here=$(cd "$(dirname "$0")" && pwd)
cache_root=${SOTTO_SYSROOT_CACHE_DIR-/var/cache/sotto-sysroot}
# The builder (tests/toolchain/ substitutes a fast stand-in to check the cache's rules).
builder=${SOTTO_SYSROOT_BUILDER:-$here/build-sysroot.sh}

say() { echo "sysroot($arch): $*" >&2; }
use() { printf '%s\n%s\n' "$1" "$2" > "$result"; }
build_local() {
  bash "$builder" "$arch" "$local_dir" >&2
  use "$(cd "$local_dir" && pwd)" "$1"
}

case "$arch" in
  x86_64)  cc=gcc; debarch=amd64; cross_libc="libc6-dev linux-libc-dev" ;;
  aarch64) cc=aarch64-linux-gnu-gcc; debarch=arm64; cross_libc="libc6-dev-arm64-cross linux-libc-dev-arm64-cross" ;;
  *) echo "sysroot: unknown arch '$arch'" >&2; exit 2 ;;
esac

if [ -z "$cache_root" ]; then build_local "built (cache off)"; exit 0; fi

# The key. Without deb-src entries apt cannot name the exact sources: no cache then (the build needs them anyway,
# unless the sources were already unpacked here).
key_text() {
  echo "arch $arch"
  sha256sum "$builder" | cut -d' ' -f1
  local p line n=0
  # One apt call for all four (it loads its caches once: about 2 s). SOTTO_SYSROOT_SOURCES stands in for apt's
  # answer in the cache's own test.
  while IFS= read -r line; do
    echo "source $line"; n=$((n + 1))
  done < <(if [ -n "${SOTTO_SYSROOT_SOURCES:-}" ]; then printf '%s\n' "$SOTTO_SYSROOT_SOURCES"; else
             apt-get source --print-uris -qq tinyxml2 alsa-lib curl systemd 2>/dev/null \
               | grep -E "^'[^']*\.dsc' " | cut -d' ' -f2-; fi)
  [ "$n" = 4 ] || return 1
  echo "cc $("$cc" --version | head -n 1)"
  echo "meson $(meson --version)"
  for p in $cross_libc libssl-dev:$debarch libcap-dev:$debarch; do
    echo "pkg $p $(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || echo none)"
  done
}
# The key's inputs change only with apt's lists, the installed packages or the build script: while those files are
# unchanged, the key computed last time for this LOCALDIR stands (every configure asks; apt takes seconds).
inputs="$(stat -c '%n %Y %s' /var/lib/apt/lists /var/lib/dpkg/status "$builder" 2>/dev/null) $(sha256sum "$builder") $arch ${SOTTO_SYSROOT_SOURCES:-}"
if [ -f "$local_dir.key-inputs" ] && [ "$(cat "$local_dir.key-inputs")" = "$inputs" ] && [ -f "$local_dir/KEY" ]; then
  text=$(cat "$local_dir/KEY")
elif ! text=$(key_text); then
  say "apt cannot name the exact source packages (no deb-src entry?): building without the cache"
  build_local "built (no cache key)"; exit 0
fi
key=$(printf '%s\n' "$text" | sha256sum | cut -c1-16)
entry=$cache_root/$arch-$key

verify() { # verify DIR: every file of the MANIFEST present with its checksum, and the archives we link are listed
  local dir=$1 lib
  [ -s "$dir/MANIFEST" ] || return 1
  for lib in libasound.a libtinyxml2.a libsystemd.a libcurl.a; do
    grep -q "  \./lib/$lib\$" "$dir/MANIFEST" || return 1
  done
  (cd "$dir" && sha256sum --quiet --strict -c MANIFEST) >/dev/null 2>&1
}

# Presets of one architecture share LOCALDIR: one of us at a time (build-sysroot.sh locks LOCALDIR.lock itself).
mkdir -p "$(dirname "$local_dir")"
exec 8>"$local_dir.cache-lock"
flock 8

# LOCALDIR made for this very key (by a build or a copy from the cache): nothing to do. Made for another key (older
# script or packages), or before the cache existed: it is stale as a whole.
if [ -f "$local_dir/KEY" ] && [ "$(cat "$local_dir/KEY")" = "$text" ] && [ -f "$local_dir/.stamp" ]; then
  printf '%s\n' "$inputs" > "$local_dir.key-inputs"
  use "$(cd "$local_dir" && pwd)" "up to date in this clone"; exit 0
fi
rm -rf "$local_dir"

# The build folders keep using LOCALDIR (a copy), so pruning the cache never breaks an existing build.
if [ -d "$entry" ]; then
  if verify "$entry"; then
    mkdir -p "$local_dir" && cp -a "$entry/." "$local_dir/"
    printf '%s\n' "$inputs" > "$local_dir.key-inputs"
    use "$(cd "$local_dir" && pwd)" "copied from the cache ($entry, checksums verified)"; exit 0
  fi
  say "cache entry $entry is damaged: removing it and building"
  rm -rf "$entry.bad.$$"; mv "$entry" "$entry.bad.$$" 2>/dev/null && rm -rf "$entry.bad.$$" || true
fi

build_local "built"
printf '%s\n' "$text" > "$local_dir/KEY"
printf '%s\n' "$inputs" > "$local_dir.key-inputs"
# Publish: a copy in a temporary folder beside the entry, its manifest, then one rename. A concurrent builder that
# got there first wins and our copy is dropped; an unwritable cache only costs the next clone a rebuild.
if ! mkdir -p "$cache_root" 2>/dev/null || [ ! -w "$cache_root" ]; then
  say "cache $cache_root is not writable: not cached"; exit 0
fi
tmp=$(mktemp -d "$cache_root/.$arch-$key.XXXXXX")
if cp -a "$local_dir/." "$tmp/" && (cd "$tmp" && find . -type f ! -name MANIFEST -print0 | LC_ALL=C sort -z \
       | xargs -0 sha256sum > MANIFEST) && verify "$tmp" && mv -T "$tmp" "$entry" 2>/dev/null; then
  say "cached as $entry"
  use "$(cd "$local_dir" && pwd)" "built and cached ($entry)"
  # Entries for other keys are stale (another script or package version): keep the newest two per architecture.
  ls -1dt "$cache_root/$arch-"* 2>/dev/null | grep -v '\.bad\.' | tail -n +3 | xargs -r rm -rf
else
  rm -rf "$tmp"
  say "could not publish to $cache_root (another build may have): not cached"
fi
