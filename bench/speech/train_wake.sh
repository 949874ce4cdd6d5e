#!/bin/sh
# SPDX-License-Identifier: MIT
# Rebuilds the wake word model config/hey-computer.wake the way it was made: nine generated sets (gen_wake_train.py)
# and seven training stages (wake_train), each going on from the one before, then the operating point chosen on
# speech the training never saw (ordinary sentences and requests to a speaker). About 110 min on 2 cores
# (generation ~20, training ~90). The generator
# gained options between the stages the committed model went through (mid-sentence phrases, pitch shifts, no
# homophones), so the sets made here are the same kind, not the same bytes: expect a model of the same quality.
#
# Usage: bench/speech/train_wake.sh [-b BUILD_DIR] [-w WORK_DIR] [-o OUT] [--phrase "hey computer"]
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
build="$src/build/host-release"
work="${TMPDIR:-/tmp}/sotto-wake-train"
out="$src/config/hey-computer.wake"
phrase="hey computer"
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$2; shift 2 ;;
    -w) work=$2; shift 2 ;;
    -o) out=$2; shift 2 ;;
    --phrase) phrase=$2; shift 2 ;;
    -h|--help) sed -n '3,8p' "$0"; exit 0 ;;
    *) echo "train_wake.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
train="$build/bench/speech/wake_train"
[ -x "$train" ] || { echo "train_wake.sh: $train not built (cmake --build $build --target wake_train)" >&2; exit 1; }
gen="python3 $here/gen_wake_train.py --phrase \"$phrase\" -j 2"
mkdir -p "$work"

# 1: the phrase alone, in pieces and at the start of sentences; 2: more flite, more often inside a sentence;
# 3: non-wake speech only, without homophones of the phrase; 4: pitch-shifted voices; 5: ordinary speech only,
# for the threshold; 6, 7: requests to a speaker without the phrase (hard negatives); 8, 9: the same kind, for the
# threshold.
eval "$gen --out $work/s1 --positives 1800 --neg-minutes 60"
eval "$gen --out $work/s2 --positives 1500 --neg-minutes 45 --seed 7 --flite-share 0.5 --mid-share 0.5 --licence-sentences 1500 --confusable-repeats 8"
eval "$gen --out $work/s3 --positives 0 --neg-minutes 100 --seed 11 --flite-share 0.45 --licence-sentences 3000 --confusable-repeats 12"
eval "$gen --out $work/s4 --positives 1500 --neg-minutes 40 --seed 13 --flite-share 0.5 --mid-share 0.4 --shift-share 0.6 --licence-sentences 1200 --confusable-repeats 6"
eval "$gen --out $work/s5 --positives 0 --neg-minutes 25 --seed 21 --flite-share 0.45 --shift-share 0.4 --licence-sentences 1500 --confusable-repeats 0"
eval "$gen --out $work/s6 --positives 0 --neg-minutes 45 --seed 41 --flite-share 0.5 --shift-share 0.3 --licence-sentences 400 --confusable-repeats 3 --command-sentences 2500"
eval "$gen --out $work/s7 --positives 0 --neg-minutes 40 --seed 51 --flite-share 0.5 --shift-share 0.3 --licence-sentences 300 --confusable-repeats 2 --command-sentences 3000"
eval "$gen --out $work/s8 --positives 0 --neg-minutes 20 --seed 43 --flite-share 0.5 --licence-sentences 300 --confusable-repeats 0 --command-sentences 800"
eval "$gen --out $work/s9 --positives 0 --neg-minutes 20 --seed 53 --flite-share 0.5 --licence-sentences 200 --confusable-repeats 0 --command-sentences 1000"

wake() { grep -hP "\twake\t" "$@"; }
other() { grep -hP "\tother\t" "$@"; }
(echo "#"; wake "$work/s1/train.tsv"; other "$work/s1/train.tsv") > "$work/t1.tsv"
(echo "#"; wake "$work/s1/train.tsv"; other "$work/s1/train.tsv"; wake "$work/s2/train.tsv"; other "$work/s2/train.tsv") > "$work/t2.tsv"
(echo "#"; wake "$work/s1/train.tsv" "$work/s2/train.tsv"; other "$work/s3/train.tsv") > "$work/t3.tsv"
(echo "#"; wake "$work/s1/train.tsv" "$work/s2/train.tsv" "$work/s4/train.tsv"; other "$work/s3/train.tsv" "$work/s4/train.tsv") > "$work/t4.tsv"
(cat "$work/t4.tsv"; other "$work/s6/train.tsv") > "$work/t6.tsv"
(cat "$work/t6.tsv"; other "$work/s7/train.tsv") > "$work/t7.tsv"
(echo "#"; other "$work/s5/train.tsv" "$work/s8/train.tsv") > "$work/h6.tsv"
(cat "$work/h6.tsv"; other "$work/s9/train.tsv") > "$work/h7.tsv"

"$train" --set "$work/t1.tsv" --phrase "$phrase" --out "$work/m1.wake" --epochs 30 --seed 1
"$train" --set "$work/t2.tsv" --phrase "$phrase" --init "$work/m1.wake" --lr 1e-3 --out "$work/m2.wake" --epochs 14 --seed 2
"$train" --set "$work/t3.tsv" --phrase "$phrase" --init "$work/m2.wake" --lr 7e-4 --out "$work/m3.wake" --epochs 12 --seed 3
"$train" --set "$work/t4.tsv" --phrase "$phrase" --init "$work/m3.wake" --lr 5e-4 --out "$work/m4.wake" --epochs 10 --seed 4
"$train" --set "$work/t4.tsv" --phrase "$phrase" --init "$work/m4.wake" --lr 5e-4 --mine \
  --held-out-other "$work/s5/train.tsv" --out "$work/m5.wake" --epochs 10 --seed 5
"$train" --set "$work/t6.tsv" --phrase "$phrase" --init "$work/m5.wake" --lr 4e-4 --mine \
  --held-out-other "$work/h6.tsv" --out "$work/m6.wake" --epochs 8 --seed 6
"$train" --set "$work/t7.tsv" --phrase "$phrase" --init "$work/m6.wake" --lr 3e-4 --mine \
  --held-out-other "$work/h7.tsv" --out "$out" --epochs 8 --seed 7
echo "train_wake.sh: wrote $out"
# The committed model's operating point (0.985 over 2 runs) was then chosen on the benchmark's tune split, the lowest
# threshold with no false accept at four frame alignments (the held-out rule above gave 0.957-0.994 depending on the
# noise drawn, and 0.994 cost 6.4 % false rejects at 20 dB), and set with
#   wake_train --calibrate MODEL --set t7.tsv --held-out-other h7.tsv --operating-point 0.985,2 --out MODEL
# bench_speech wake reports on the test split (--split test) the figures no choice was made on.
