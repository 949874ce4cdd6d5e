#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's second command: install what is missing, then build and run every test suite:
# host (ASan+UBSan with assertions, TSan, static release), aarch64 static release under qemu, and the fuzzers
# briefly. host-debug (-O0) adds nothing the ASan build with assertions does not check, at 11 minutes of CI:
# SOTTO_PRESETS="host-debug aarch64-release" chooses presets.
set -euo pipefail
cd "$(dirname "$0")/.."
bash toolchain/install-deps.sh

presets=${SOTTO_PRESETS:-"host-asan host-tsan host-release aarch64-release host-fuzz"}
jobs=$(nproc)
summary=()
failures=()
total_pass=0; total_fail=0
for p in $presets; do
  echo "==== $p: configure and build"
  start=$(date +%s)
  cmake --preset "$p" >/dev/null
  cmake --build --preset "$p" -j "$jobs"
  built=$(date +%s)
  echo "==== $p: test"
  log=build/$p/ctest.log
  set +e
  # Fuzzers each want a whole core for their timed run: one at a time.
  if [ "$p" = host-fuzz ]; then j=1; else j=$jobs; fi
  ctest --preset "$p" -j "$j" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  set -e
  line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1 || true)
  n_total=$(echo "$line" | sed -nE 's/.*out of ([0-9]+).*/\1/p'); n_fail=$(echo "$line" | sed -nE 's/.*, ([0-9]+) tests failed.*/\1/p')
  n_total=${n_total:-0}; n_fail=${n_fail:-0}
  [ "$rc" != 0 ] && [ "$n_fail" = 0 ] && n_fail=1
  total_pass=$((total_pass + n_total - n_fail)); total_fail=$((total_fail + n_fail))
  summary+=("$p: $((n_total - n_fail)) passed, $n_fail failed ($(( $(date +%s) - start )) s: build $((built - start)) s, tests $(( $(date +%s) - built )) s)")
  # CI shows only the tail of this output: name the failed tests and their assertion lines here.
  if [ "$n_fail" != 0 ]; then
    failures+=("-- $p:")
    while IFS= read -r t; do failures+=("$t"); done < <(sed -n '/The following tests FAILED:/,$p' "$log" | grep -E '^[[:space:]]+[0-9]+ - ' || true)
    last=build/$p/Testing/Temporary/LastTest.log
    if [ -f "$last" ]; then
      while IFS= read -r t; do failures+=("   $t"); done < <(grep -E ': Failure$|^Expected( equality|:)|^  Actual:|^Value of:|^  Which is:|WARNING: ThreadSanitizer|ERROR: AddressSanitizer|runtime error:' "$last" | head -n 40 || true)
    fi
  fi
done
if [ "${#failures[@]}" != 0 ]; then
  echo "==== failed tests"
  printf '%s\n' "${failures[@]}"
fi
echo "==== summary"
printf '%s\n' "${summary[@]}"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
