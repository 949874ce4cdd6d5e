#!/bin/sh
# SPDX-License-Identifier: MIT
# Speech benchmarks: generates the wake word and ASR sets at run time (flite, espeak-ng, sox; gen_sets.py) into a
# scratch directory, then runs bench_speech: wake FRR / FA per hour per noise condition (+ threshold sweep tuned on
# one split, reported on the other), ASR WER per category with endpoint/partial/final latency (LM-only baseline),
# and CPU per stage. Nothing generated is committed; the scratch directory is deleted unless --keep.
#
# Usage: bench/speech/run.sh [--quick] [-b BUILD_DIR] [-w WORK_DIR] [-j JOBS] [--keep] [--reuse] [--config FILE]
#   --quick  a few minutes of CPU: 5 voices, 2 min of non-wake speech per condition, 24 ASR utterances, 30 s CPU stages
#   --reuse  with -w: keep the sets already generated in WORK_DIR (implies --keep)
#   (full)   13 voices x 3 rate/pitch variants x 4 sentences per condition, 31 min of non-wake speech per condition
#            (x4 conditions), 80 ASR utterances, 120 s per CPU stage, thresholds -20..-50 swept: about 25 min of
#            CPU (on a shared, loaded machine far longer in wall time)
# Needs flite, espeak-ng, sox, python3 (toolchain/install-deps.sh or apt-get install flite espeak-ng sox); the
# pocketsphinx-testdata recordings are added to the non-wake speech when installed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build="$src/build/host-release"
work=""
jobs=2
keep=0
quick=0
reuse=0
config="$src/config/sotto.xml"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    -b) build=$2; shift 2 ;;
    -w) work=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --reuse) reuse=1; keep=1; shift ;;
    --config) config=$2; shift 2 ;;
    -h|--help) sed -n '3,17p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
bench="$build/bench/speech/bench_speech"
[ -x "$bench" ] || { echo "run.sh: $bench not built (cmake --build $build --target bench_speech)" >&2; exit 1; }
for tool in flite espeak-ng sox python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "run.sh: $tool is missing (apt-get install flite espeak-ng sox python3)" >&2; exit 1; }
done
# The wake phrase of the configuration under test.
phrase=$(sed -n 's/.*<wake[^>]*phrase="\([^"]*\)".*/\1/p' "$config" | head -n 1)
[ -n "$phrase" ] || phrase="hey computer"
data="$src/../shared/data"
[ -f "$data/intents-dev.jsonl" ] || { echo "run.sh: $data/intents-dev.jsonl not found" >&2; exit 1; }
if [ -z "$work" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/sotto-bench-speech-XXXXXX")
fi
mkdir -p "$work"
cleanup() { [ "$keep" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT

if [ "$quick" = 1 ]; then
  genopt="--quick"; sweep="-40,-30,-20"; raw="-20"; cpusecs=30; netsweep="0.5,0.9,0.99"
else
  genopt=""; sweep="-50,-40,-30,-20"; raw="-20,-40"; cpusecs=120; netsweep="0.3,0.5,0.7,0.8,0.9,0.95,0.98,0.99,0.995"
fi
echo "== speech benchmark sets: $work (phrase \"$phrase\", config $config) =="
start=$(date +%s)
if [ "$reuse" = 1 ] && [ -f "$work/wake.tsv" ] && [ -f "$work/asr.tsv" ]; then
  echo "(reusing the sets in $work)"
else
  python3 "$here/gen_sets.py" --out "$work" --phrase "$phrase" --data "$data" -j "$jobs" $genopt
  echo "(generated in $(( $(date +%s) - start )) s)"
fi
echo

# The Listener run and the threshold sweep are independent: on a 2-core machine they run side by side.
"$bench" wake --manifest "$work/wake.tsv" --config "$config" >"$work/wake-listener.txt" 2>&1 &
listener=$!
status=0
"$bench" wake --manifest "$work/wake.tsv" --config "$config" --sweep-only --sweep "$sweep" --sweep-raw "$raw" \
  --net-sweep "$netsweep" >"$work/wake-sweep.txt" 2>&1 || status=1
wait "$listener" || status=1
cat "$work/wake-listener.txt"
sed -n '/^Without the frontend/,$p' "$work/wake-sweep.txt"
echo
"$bench" asr --manifest "$work/asr.tsv" --config "$config" || status=1
echo
"$bench" cpu --wake-manifest "$work/wake.tsv" --asr-manifest "$work/asr.tsv" --seconds "$cpusecs" --config "$config" || status=1
echo
echo "run.sh: done in $(( $(date +%s) - start )) s; load average now $(cut -d' ' -f1-3 /proc/loadavg)"
exit $status
