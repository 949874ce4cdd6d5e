#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs, idempotently, every Debian package the build and the test suite need (host + arm64 multiarch).
set -euo pipefail

need_root() { if [ "$(id -u)" != 0 ]; then echo "install-deps: run as root (apt-get)" >&2; exit 1; fi; }

HOST_PKGS=(
  build-essential cmake ninja-build pkg-config file git ca-certificates
  ccache                                    # compiler cache across presets and runs (CMakeLists.txt: SOTTO_CCACHE)
  clang libclang-rt-14-dev                 # libFuzzer targets
  googletest libgtest-dev libbenchmark-dev # tests and micro benchmarks
  libsodium-dev libcap-dev                  # static archives come from Debian
  systemd                                   # systemd-analyze verify in tests
  python3-numpy                             # ../shared/tools/mkgguf.py (synthetic test and bench models)
  dpkg-dev meson gperf python3-jinja2 autoconf automake libtool  # source builds of the sysroot
  libmount-dev
  libssl-dev                                # libcurl's TLS (static archives) for the cloud client
  libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us libspeexdsp-dev  # wake word, ASR, speech frontend
  flite sox                                 # generated speech in the speech tests
  flite1-dev                                # TTS: static flite and its voices (cmu_us_slt, kal, awb, rms)
  libespeak-ng-dev libsonic-dev espeak-ng-data  # TTS: espeak-ng (static) and its data
  openssl                                   # certificates and s_server in the cloud TLS tests
  espeak-ng pocketsphinx-testdata           # speech benchmark sets (bench/speech/run.sh)
  sphinxtrain sphinxbase-utils pocketsphinx # sotto enroll: Baum-Welch statistics and MAP adaptation (CMU's own tools)
  wordnet-base                              # words for the understanding models' training lines (bench/nlu/lexres.py)
)
CROSS_PKGS=(
  g++-aarch64-linux-gnu qemu-user-static
  libsodium-dev:arm64 libcap-dev:arm64 libmount-dev:arm64 libgtest-dev:arm64 libbenchmark-dev:arm64
  libpocketsphinx-dev:arm64 libsphinxbase-dev:arm64 libspeexdsp-dev:arm64
  flite1-dev:arm64                          # TTS: static flite and its voices
  libespeak-ng-dev:arm64 libsonic-dev:arm64 espeak-ng-data:arm64
  libssl-dev:arm64
)

missing() {
  local p out=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || out+=("$p")
  done
  echo "${out[@]:-}"
}

with_cross=1
[ "${1:-}" = "--host-only" ] && with_cross=0

need_update=0
# deb-src entries: toolchain/build-sysroot.sh uses `apt-get source`.
if ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
  need_root
  cat > /etc/apt/sources.list.d/sotto-deb-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  need_update=1
fi
if [ "$with_cross" = 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  need_root
  dpkg --add-architecture arm64
  need_update=1
fi

todo=$(missing "${HOST_PKGS[@]}")
[ "$with_cross" = 1 ] && todo="$todo $(missing "${CROSS_PKGS[@]}")"
todo=$(echo $todo)
if [ -n "$todo" ] || [ "$need_update" = 1 ]; then
  need_root
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  if [ -n "$todo" ]; then
    echo "install-deps: installing $todo"
    apt-get install -y -qq --no-install-recommends $todo >/dev/null
  fi
fi
echo "install-deps: all packages present"
