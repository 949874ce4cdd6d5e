#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's second command: install what is missing, then build and run every test suite:
# host ASan+UBSan (assertions on) and static release run every test; host TSan runs the suites labelled `threads`
# and aarch64 (static release under qemu) those labelled `arch` plus a daemon smoke test (tests/CMakeLists.txt);
# the fuzzers run briefly. SOTTO_PRESETS="host-debug aarch64-release" chooses presets.
# The report at the end gives, per preset, the time to configure, get the sysroot, build and test, the compiler
# cache's hits, the 20 slowest tests, which kernel sets the CPU ran and skipped, and which tests a preset skipped.
# Caches (ordinary build caching: a cold one only makes the run slower): the static sysroots in
# /var/cache/sotto-sysroot (toolchain/sysroot.sh) and ccache's folder (CCACHE_DIR, ccache's default when unset).
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
bash toolchain/install-deps.sh
deps_s=$(( $(date +%s) - t0 ))

presets=${SOTTO_PRESETS:-"host-asan host-tsan host-release aarch64-release host-fuzz"}
jobs=$(nproc)
# What each preset builds: TSan and aarch64 build only the suites their test presets select (CMakePresets.json:
# label filters), aarch64 also the shipped binaries; the fuzz preset builds the fuzzers and, with clang and -Werror,
# the product (a second compiler's warnings), without optimization.
targets_for() {
  case "$1" in
    host-tsan) echo "tests-threads" ;;
    aarch64-release) echo "sottod sotto sotto-bench tests-arch" ;;
    *) echo "" ;;
  esac
}
why_skipped() {
  case "$1" in
    host-tsan) echo "not labelled threads: one thread only" ;;
    aarch64-release) echo "not labelled arch: the same code on every architecture (run on x86-64)" ;;
  esac
}

have_ccache=0
if command -v ccache >/dev/null; then
  have_ccache=1
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
  # Paths under the clone hash as relative ones, so another clone of the same commit hits the same entries.
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
fi
ccache_counts() { # "hits misses" since the last zeroing
  ccache --print-stats 2>/dev/null | awk -F'\t' '
    $1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
    $1 == "cache_miss" { m += $2 }
    END { printf "%d %d\n", h, m }'
}

# The test names a ctest invocation would run (without running them).
test_names() { ctest "$@" -N 2>/dev/null | sed -nE 's/^ *Test +#[0-9]+: ([^ ]+).*$/\1/p' | grep -v '_NOT_BUILT$' || true; }

summary=(); failures=(); slowest=(); sets=(); skips=(); times=()
total_pass=0; total_fail=0
for p in $presets; do
  dir=build/$p
  echo "==== $p: configure"
  start=$(date +%s)
  mkdir -p "$dir"
  [ "$have_ccache" = 1 ] && ccache -z >/dev/null
  if ! cmake --preset "$p" > "$dir/configure.log" 2>&1; then
    cat "$dir/configure.log"; echo "==== $p: configure failed"; exit 1
  fi
  configured=$(date +%s)
  sysroot_s=0; sysroot_how="none"
  if [ -f "$dir/sysroot-time.txt" ]; then
    read -r sysroot_s sysroot_how < "$dir/sysroot-time.txt"
  fi
  targets=$(targets_for "$p")
  echo "==== $p: build ${targets:-all}"
  target_args=(); for t in $targets; do target_args+=(--target "$t"); done
  cmake --build --preset "$p" -j "$jobs" "${target_args[@]}"
  built=$(date +%s)
  cc_line="ccache off"
  if [ "$have_ccache" = 1 ]; then
    read -r hits misses < <(ccache_counts)
    cc_line="ccache $hits hits, $misses misses"
  fi
  echo "==== $p: test"
  log=$dir/ctest.log
  set +e
  ctest --preset "$p" -j "$jobs" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  set -e
  tested=$(date +%s)
  line=$(grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1 || true)
  n_total=$(echo "$line" | sed -nE 's/.*out of ([0-9]+).*/\1/p'); n_fail=$(echo "$line" | sed -nE 's/.*, ([0-9]+) tests failed.*/\1/p')
  n_total=${n_total:-0}; n_fail=${n_fail:-0}
  [ "$rc" != 0 ] && [ "$n_fail" = 0 ] && n_fail=1
  total_pass=$((total_pass + n_total - n_fail)); total_fail=$((total_fail + n_fail))
  all_s=$((tested - start))
  summary+=("$(printf '%-16s %4d passed %2d failed %5d s: configure %3d s, sysroot %3d s (%s), build %4d s (%s), tests %4d s' \
    "$p" $((n_total - n_fail)) "$n_fail" "$all_s" $((configured - start - sysroot_s)) "$sysroot_s" \
    "${sysroot_how%% (*}" $((built - configured)) "$cc_line" $((tested - built)))")
  times+=("$all_s $p")
  # ctest lines: "  12/859 Test  #34: name ......   Passed    1.23 sec"
  slowest+=("-- $p:")
  while IFS= read -r t; do slowest+=("$t"); done < <(sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .* ([0-9]+\.[0-9]+) sec$/\2 \1/p' "$log" \
    | sort -rn | head -n 20 | awk '{ printf "  %7.2f s  %s\n", $1, $2 }')
  last=$dir/Testing/Temporary/LastTest.log
  if [ -f "$last" ]; then
    k=$(grep -m1 -oE 'kernel sets ran: .*' "$last" || true)
    [ -n "$k" ] && sets+=("$(printf '%-16s %s' "$p" "$k")")
  fi
  # Tests this preset left out: the full list (from a build that runs everything) minus its selection.
  why=$(why_skipped "$p")
  if [ -n "$why" ]; then
    full=""
    for f in build/host-asan build/host-release; do
      if [ -z "$full" ] && [ -f "$f/CTestTestfile.cmake" ]; then full=$f; fi
    done
    if [ -n "$full" ]; then
      counts=$(comm -23 <(test_names --test-dir "$full" | sort) <(test_names --preset "$p" | sort) \
        | sed -E 's/^([^.]+)\..*/\1/' | sort | uniq -c | sort -rn | awk '{ printf "%s%s %d", sep, $2, $1; sep = ", " }')
      n_skipped=$(comm -23 <(test_names --test-dir "$full" | sort) <(test_names --preset "$p" | sort) | wc -l)
      skips+=("$(printf '%-16s ran %d, skipped %d (%s): %s' "$p" "$n_total" "$n_skipped" "$why" "${counts:-none}")")
    else
      skips+=("$(printf '%-16s ran %d; skipped the suites %s' "$p" "$n_total" "$why")")
    fi
  fi
  # CI shows only the tail of this output: name the failed tests and their assertion lines here.
  if [ "$n_fail" != 0 ]; then
    failures+=("-- $p:")
    while IFS= read -r t; do failures+=("$t"); done < <(sed -n '/The following tests FAILED:/,$p' "$log" | grep -E '^[[:space:]]+[0-9]+ - ' || true)
    if [ -f "$last" ]; then
      while IFS= read -r t; do failures+=("   $t"); done < <(grep -E ': Failure$|^Expected( equality|:)|^  Actual:|^Value of:|^  Which is:|WARNING: ThreadSanitizer|ERROR: AddressSanitizer|runtime error:' "$last" | head -n 40 || true)
    fi
  fi
done
printf '%s\n' "${times[@]}" > build/ci-times.txt
echo "==== the 20 slowest tests per preset"
printf '%s\n' "${slowest[@]}"
if [ "${#failures[@]}" != 0 ]; then
  echo "==== failed tests"
  printf '%s\n' "${failures[@]}"
fi
echo "==== kernel sets (CpuKernels.ReportsWhichSetsThisCpuRunsAndWhichItSkips)"
printf '%s\n' "${sets[@]:-none reported}"
if [ "${#skips[@]}" != 0 ]; then
  echo "==== selections"
  printf '%s\n' "${skips[@]}"
fi
echo "==== summary (packages: $deps_s s)"
printf '%s\n' "${summary[@]}"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
