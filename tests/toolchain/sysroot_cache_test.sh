#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# toolchain/sysroot.sh's cache rules with a stand-in builder (seconds, not minutes): a miss builds and publishes, a
# fresh clone copies the verified entry, a damaged entry is rebuilt, another builder is another key, stale entries
# are pruned, and an unusable or disabled cache still gives a sysroot. The source package list stands in for apt's.
set -euo pipefail
script=$(cd "$(dirname "$0")/../.." && pwd)/toolchain/sysroot.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache=$work/cache
count=$work/builds

export SOTTO_SYSROOT_SOURCES="tinyxml2_1.dsc 1 SHA256:1
alsa-lib_1.dsc 1 SHA256:2
curl_1.dsc 1 SHA256:3
systemd_1.dsc 1 SHA256:4"

# The stand-in: the four archives and the stamps build-sysroot.sh leaves, and one line per build in $count.
make_builder() { # make_builder FILE FLAVOUR
  cat > "$1" <<EOF
#!/usr/bin/env bash
set -e
out=\$2; mkdir -p "\$out/lib" "\$out/include"
for lib in libasound.a libtinyxml2.a libsystemd.a libcurl.a; do echo "$2 \$lib \$RANDOM" > "\$out/lib/\$lib"; done
echo "built" > "\$out/.stamp"
echo "\$1" >> "$count"
EOF
}
make_builder "$work/builder-a.sh" a
make_builder "$work/builder-b.sh" b

fail() { echo "FAIL: $*"; exit 1; }
builds() { [ -f "$count" ] && wc -l < "$count" || echo 0; }
run() { # run CLONE [BUILDER]: sysroot.sh for CLONE's build/sysroot/x86_64; prints how it got it
  SOTTO_SYSROOT_CACHE_DIR=$cache SOTTO_SYSROOT_BUILDER=${2:-$work/builder-a.sh} \
    bash "$script" x86_64 "$work/$1/build/sysroot/x86_64" "$work/result" 2>"$work/stderr" || fail "sysroot.sh: $(cat "$work/stderr")"
  [ "$(sed -n 1p "$work/result")" = "$work/$1/build/sysroot/x86_64" ] || fail "the sysroot is not the clone's folder"
  sed -n 2p "$work/result"
}

how=$(run clone1)
case "$how" in "built and cached ("*) ;; *) fail "first run: $how" ;; esac
[ "$(builds)" = 1 ] || fail "first run built $(builds) times"
entry=$(ls -d "$cache"/x86_64-*)
[ -s "$entry/MANIFEST" ] && [ -s "$entry/KEY" ] || fail "the entry has no manifest or key"
[ -z "$(ls -A "$cache" | grep '^\.')" ] || fail "a temporary folder was left in the cache"

how=$(run clone1)
[ "$how" = "up to date in this clone" ] || fail "second run in the same clone: $how"

how=$(run clone2)
case "$how" in "copied from the cache ($entry, checksums verified)") ;; *) fail "fresh clone: $how" ;; esac
[ "$(builds)" = 1 ] || fail "a fresh clone built instead of copying"
cmp -s "$entry/lib/libcurl.a" "$work/clone2/build/sysroot/x86_64/lib/libcurl.a" || fail "the copy differs from the entry"

# One changed byte in an archive: detected, rebuilt and published again.
echo x >> "$entry/lib/libsystemd.a"
how=$(run clone3)
case "$how" in "built and cached ($entry)") ;; *) fail "damaged entry: $how" ;; esac
grep -q "damaged" "$work/stderr" || fail "the damage was not reported"
[ "$(builds)" = 2 ] || fail "the damaged entry was not rebuilt"
(cd "$entry" && sha256sum --quiet --strict -c MANIFEST) || fail "the republished entry does not verify"

# A missing archive is damage too.
rm "$entry/lib/libtinyxml2.a"
how=$(run clone4)
case "$how" in "built and cached ($entry)") ;; *) fail "entry missing an archive: $how" ;; esac

# Another source package version is another key (the clone's sysroot is rebuilt whole), and so is another build
# script.
how=$(SOTTO_SYSROOT_SOURCES="${SOTTO_SYSROOT_SOURCES/curl_1/curl_2}" run clone4)
case "$how" in "built and cached ("*) ;; *) fail "new curl source: $how" ;; esac
[ "$(ls -d "$cache"/x86_64-* | wc -l)" = 2 ] || fail "expected two entries, one per key"
rm -rf "$(ls -dt "$cache"/x86_64-* | head -n 1)"
# Another build script: a new entry beside the old one; a clone of the old key is rebuilt whole.
how=$(run clone1 "$work/builder-b.sh")
case "$how" in "built and cached ("*) ;; *) fail "new builder: $how" ;; esac
[ "$(ls -d "$cache"/x86_64-* | wc -l)" = 2 ] || fail "expected two entries, one per key"
grep -q "^b libcurl.a" "$work/clone1/build/sysroot/x86_64/lib/libcurl.a" || fail "the clone kept the old key's sysroot"
# A third key prunes the oldest: two entries per architecture at most.
make_builder "$work/builder-c.sh" c
run clone5 "$work/builder-c.sh" >/dev/null
[ "$(ls -d "$cache"/x86_64-* | wc -l)" = 2 ] || fail "stale entries were not pruned"

# No usable cache: still a sysroot, built in the clone.
how=$(SOTTO_SYSROOT_CACHE_DIR=/proc/sotto-no-cache SOTTO_SYSROOT_BUILDER=$work/builder-a.sh \
      bash "$script" x86_64 "$work/clone6/build/sysroot/x86_64" "$work/result" 2>"$work/stderr"; sed -n 2p "$work/result")
[ "$how" = "built" ] || fail "unwritable cache: $how"
grep -q "not writable" "$work/stderr" || fail "the unwritable cache was not reported"
how=$(SOTTO_SYSROOT_CACHE_DIR= SOTTO_SYSROOT_BUILDER=$work/builder-a.sh \
      bash "$script" x86_64 "$work/clone7/build/sysroot/x86_64" "$work/result" 2>/dev/null; sed -n 2p "$work/result")
[ "$how" = "built (cache off)" ] || fail "cache off: $how"
echo "sysroot cache: $(builds) builds, every rule held"
