#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the static archives Debian does not ship (alsa-lib, tinyxml2, libsystemd, libcurl) from the bookworm
# source packages into a per-architecture sysroot cache, the way Buildroot does.
# Usage: build-sysroot.sh ARCH(x86_64|aarch64) OUTDIR
# Result: OUTDIR/{include,lib}/ and OUTDIR/.stamp; rerunning with a complete stamp does nothing.
set -euo pipefail
arch=${1:?arch}; out=${2:?outdir}
out=$(mkdir -p "$out" && cd "$out" && pwd)
# Presets of one architecture share this sysroot: one builder at a time.
exec 9>"$out.lock"
flock 9
stamp_want="alsa-lib tinyxml2 systemd v4 $arch"
# alsa-lib also has a stamp of its own, so a change to its build rebuilds only alsa-lib.
alsa_stamp_want="alsa-lib builtin-plugins v1 $arch"
stamp_is() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }
all_ok=0; if stamp_is "$out/.stamp" "$stamp_want"; then all_ok=1; fi
alsa_ok=0; if stamp_is "$out/.stamp-alsa" "$alsa_stamp_want"; then alsa_ok=1; fi
# libcurl (HTTP/HTTPS only, OpenSSL from Debian's static archives) has its own stamp too: adding it to an existing
# sysroot builds only libcurl and leaves the other archives alone.
curl_stamp_want="curl openssl http-only v1 $arch"
curl_ok=0; if stamp_is "$out/.stamp-curl" "$curl_stamp_want"; then curl_ok=1; fi
if [ $all_ok = 1 ] && [ $alsa_ok = 1 ] && [ $curl_ok = 1 ] && [ -f "$out/src/tinyxml2.cpp" ]; then exit 0; fi

case "$arch" in
  x86_64)  triplet=x86_64-linux-gnu; cc=gcc; cxx=g++; ar=ar; host_flag="" ;;
  aarch64) triplet=aarch64-linux-gnu; cc=aarch64-linux-gnu-gcc; cxx=aarch64-linux-gnu-g++; ar=aarch64-linux-gnu-ar
           host_flag="--host=aarch64-linux-gnu" ;;
  *) echo "build-sysroot: unknown arch '$arch'" >&2; exit 2 ;;
esac
for tool in "$cc" "$cxx" "$ar" meson ninja dpkg-source; do
  command -v "$tool" >/dev/null || { echo "build-sysroot: '$tool' is missing: run toolchain/install-deps.sh" >&2; exit 1; }
done

# Sources are architecture-independent: one download cache beside the sysroots.
src=$(dirname "$out")/src
mkdir -p "$src" "$out/include" "$out/lib"
jobs=$(nproc)
log=$out/build.log; : > "$log"
fail() { echo "build-sysroot($arch): $1 failed; last lines of $log:" >&2; tail -n 30 "$log" >&2; exit 1; }

fetch() { # fetch PKG -> prints the unpacked source dir, named after the exact .dsc apt chooses today
  local pkg=$1 dsc dir
  dsc=$(apt-get source --print-uris -qq "$pkg" 2>/dev/null | grep -oE "^'[^']*\.dsc' [^ ]+" | cut -d' ' -f2 | head -n 1)
  [ -n "$dsc" ] || fail "apt-get source --print-uris $pkg (is there a deb-src entry? run toolchain/install-deps.sh)"
  dir=$src/${dsc%.dsc}
  if [ ! -f "$dir/.unpacked" ]; then
    rm -rf "$dir"
    (cd "$src" && apt-get source -qq --download-only "$pkg" >>"$log" 2>&1) || fail "apt-get source $pkg"
    (cd "$src" && dpkg-source -x --no-check "$dsc" "$dir" >>"$log" 2>&1) || fail "unpack $pkg"
    touch "$dir/.unpacked"
  fi
  echo "$dir"
}

if [ $all_ok = 0 ]; then
# tinyxml2: one translation unit.
t2=$(fetch tinyxml2)
mkdir -p "$out/obj"
$cxx -O2 -fPIC -fstack-protector-strong -D_FORTIFY_SOURCE=2 -c "$t2/tinyxml2.cpp" -o "$out/obj/tinyxml2.o" >>"$log" 2>&1 || fail tinyxml2
rm -f "$out/lib/libtinyxml2.a"; $ar rcs "$out/lib/libtinyxml2.a" "$out/obj/tinyxml2.o"
cp "$t2/tinyxml2.h" "$out/include/"
fi
# The fuzz build compiles the XML parser again with coverage: its one source file travels with the sysroot.
if [ ! -f "$out/src/tinyxml2.cpp" ]; then
  t2=$(fetch tinyxml2)
  mkdir -p "$out/src" && cp "$t2/tinyxml2.cpp" "$t2/tinyxml2.h" "$out/src/"
fi

# alsa-lib: autotools, static, plugins built in; config files read from /usr/share/alsa on the target.
# Position-independent code (our executables are PIE) but built --without-pic, because alsa-lib keys on the PIC
# macro: with it defined it looks up its built-in plugins (hw, plug, dmix, file, null, ...) by dlopen()ing the
# running executable, which glibc refuses for PIE and static programs ("cannot dynamically load
# position-independent executable"), so no PCM could be opened at all; without it they come from the built-in
# symbol table (snd_dlsym_start).
if [ $alsa_ok = 0 ]; then
al=$(fetch alsa-lib)
rm -rf "$out/alsa-build" "$out/stage"; mkdir -p "$out/alsa-build"
( cd "$out/alsa-build" && CC=$cc CFLAGS="-O2 -fPIC -fstack-protector-strong -D_FORTIFY_SOURCE=2" "$al/configure" $host_flag --prefix=/usr \
    --enable-static --disable-shared --without-pic --disable-python --disable-topology --disable-alisp \
    --disable-old-symbols --without-debug && make -j"$jobs" -C src && make -C src install DESTDIR="$out/stage" \
    && make -C include install DESTDIR="$out/stage" ) >>"$log" 2>&1 || fail alsa-lib
cp "$out/stage/usr/lib/libasound.a" "$out/lib/"
rm -rf "$out/include/alsa"; cp -r "$out/stage/usr/include/alsa" "$out/include/"
# The static library reads its configuration from the target's /usr/share/alsa; keep it for the image.
rm -rf "$out/share"; mkdir -p "$out/share"; cp -r "$al/src/conf" "$out/share/alsa"

echo "$alsa_stamp_want" > "$out/.stamp-alsa"
fi

if [ $curl_ok = 0 ]; then
# libcurl: Debian's OpenSSL flavour (its last two patches switch the tree to GnuTLS and NSS: take them back out, as
# debian/rules does), HTTP and HTTPS only, every optional dependency off. The CA bundle default is Debian's.
cu=$(fetch curl)
for tool in autoreconf libtoolize patch; do
  command -v "$tool" >/dev/null || { echo "build-sysroot: '$tool' is missing: run toolchain/install-deps.sh" >&2; exit 1; }
done
rm -rf "$out/curl-build"; cp -r "$cu" "$out/curl-build"
pcdir=/usr/lib/$triplet/pkgconfig
( cd "$out/curl-build" && patch -R -p1 < debian/patches/99_nss.patch && patch -R -p1 < debian/patches/90_gnutls.patch \
  && autoreconf -fi && PKG_CONFIG_LIBDIR=$pcdir:/usr/share/pkgconfig CC=$cc \
    CFLAGS="-O2 -fPIC -fstack-protector-strong -D_FORTIFY_SOURCE=2" ./configure $host_flag --prefix=/usr \
    --enable-static --disable-shared --with-pic --with-openssl --without-zlib --without-brotli --without-zstd \
    --without-libpsl --without-libidn2 --without-nghttp2 --without-ngtcp2 --without-nghttp3 --without-librtmp \
    --without-libssh --without-libssh2 --without-gssapi --without-libgsasl --disable-ldap --disable-ldaps \
    --disable-rtsp --disable-dict --disable-telnet --disable-tftp --disable-pop3 --disable-imap --disable-smb \
    --disable-smtp --disable-gopher --disable-mqtt --disable-ftp --disable-file --disable-manual --disable-ntlm \
    --disable-ntlm-wb --disable-kerberos-auth --disable-negotiate-auth --disable-aws --disable-cookies \
    --disable-netrc --disable-alt-svc --disable-websockets --disable-docs --enable-threaded-resolver \
    --with-ca-bundle=/etc/ssl/certs/ca-certificates.crt --with-ca-path=/etc/ssl/certs \
  && make -j"$jobs" -C lib ) >>"$log" 2>&1 || fail libcurl
cp "$out/curl-build/lib/.libs/libcurl.a" "$out/lib/"
rm -rf "$out/include/curl"; cp -r "$out/curl-build/include/curl" "$out/include/curl"
rm -f "$out/include/curl/Makefile"*
rm -rf "$out/curl-build"
echo "$curl_stamp_want" > "$out/.stamp-curl"
fi

if [ $all_ok = 0 ]; then
# libsystemd: only the static library target; every optional dependency off so it needs just libc and libcap.
sd=$(fetch systemd)
off=$(python3 - "$sd/meson_options.txt" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
opts = re.findall(r"option\('([^']+)',\s*type\s*:\s*'combo',\s*choices\s*:\s*\['auto',\s*'true',\s*'false'\]", s)
print(' '.join('-D%s=false' % o for o in opts))
PY
)
cross=()
if [ "$arch" = aarch64 ]; then
  cat > "$out/meson-cross.txt" <<CROSS
[binaries]
c = '$cc'
cpp = '$cxx'
ar = '$ar'
strip = 'aarch64-linux-gnu-strip'
pkgconfig = 'pkg-config'
[properties]
pkg_config_libdir = ['/usr/lib/aarch64-linux-gnu/pkgconfig', '/usr/share/pkgconfig']
[host_machine]
system = 'linux'
cpu_family = 'aarch64'
cpu = 'aarch64'
endian = 'little'
CROSS
  cross=(--cross-file "$out/meson-cross.txt")
fi
rm -rf "$out/systemd-build"
( meson setup "$out/systemd-build" "$sd" "${cross[@]}" --buildtype=release -Dstatic-libsystemd=pic --auto-features=disabled -Dtests=false $off \
  && ninja -C "$out/systemd-build" version.h libsystemd.a ) >>"$log" 2>&1 || fail libsystemd
cp "$out/systemd-build/libsystemd.a" "$out/lib/"
rm -rf "$out/include/systemd"; cp -r "$sd/src/systemd" "$out/include/systemd"
fi

rm -rf "$out/alsa-build" "$out/systemd-build" "$out/stage" "$out/obj"
echo "$stamp_want" > "$out/.stamp"
echo "build-sysroot($arch): $(ls "$out/lib" | tr '\n' ' ')in $out"
