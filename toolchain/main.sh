#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's first command: install what is missing, build the static release binaries (warnings into
# build/run/build.log), then show the assistant: spoken requests generated with flite/espeak-ng are played into
# sottod (wav capture), which answers them into WAV files (wav playback) through the intents, the answer cache,
# the local model and a loopback cloud (`sotto serve`); toolchain/main_report.py prints each request's transcript,
# route, anonymized request, answer and latencies, and a table per route.
#
# SOTTO_MODEL=FILE.gguf   a real model (default: a synthetic SmolLM2-135M-shaped one with random weights, made here)
# SOTTO_RUN_SECONDS=N     the idle run instead (sottod on null audio for N s, then SIGTERM), as before the demo
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
run=build/run
mkdir -p "$run"
bin=build/host-release

bash toolchain/install-deps.sh --host-only

echo "== building sottod, sotto, sotto-bench (static, release); compiler output in $run/build.log"
t0=$SECONDS
if ! { cmake --preset host-release && cmake --build --preset host-release --target sottod sotto sotto-bench; } \
    >"$run/build.log" 2>&1; then
  echo "main: the build failed; its errors (all output: $run/build.log):" >&2
  grep -E ' error: |^FAILED: |CMake Error|Error [0-9]' "$run/build.log" | head -n 30 >&2 || true
  echo "-- last lines of $run/build.log:" >&2
  tail -n 20 "$run/build.log" >&2
  exit 1
fi
echo "   built in $((SECONDS - t0)) s, $(grep -c 'warning:' "$run/build.log" || true) compiler/linker warnings (expected: glibc's static-link notes)"
"$bin/sottod" --version

# The daemon's file locations, all under build/run.
state_args=(--set "paths.runtime-dir=$src/$run/runtime" --set "paths.log-dir=$src/$run/log"
            --set "threads.mlockall=false")

idle_run() {  # today's main job: sottod on null audio, then SIGTERM and a clean stop
  local seconds=$1
  echo "== sottod on config/sotto.xml (null audio, no model) for ${seconds}s, then SIGTERM"
  set +e
  timeout --preserve-status --signal=TERM "$seconds" "$bin/sottod" --config config/sotto.xml "${state_args[@]}" \
    --set "paths.state-dir=$src/$run/state"
  local rc=$?
  set -e
  echo "== sottod exited with status $rc"
  exit "$rc"
}

if [ -n "${SOTTO_RUN_SECONDS:-}" ]; then idle_run "$SOTTO_RUN_SECONDS"; fi
# Speech is made with flite (espeak-ng where flite is missing) and joined with sox.
if ! command -v sox >/dev/null || ! command -v soxi >/dev/null || { ! command -v flite >/dev/null && ! command -v espeak-ng >/dev/null; }; then
  echo "main: sox and flite (or espeak-ng) are needed to make the spoken requests and are not all installed" \
       "(apt-get install sox flite espeak-ng): the idle run instead" >&2
  idle_run 5
fi
py=/usr/bin/python3
[ -x "$py" ] || py=python3

demo=$run/demo
rm -rf "$demo" "$run/answers"
mkdir -p "$demo" "$run/answers" "$run/models"
pids=()
cleanup() { local p; for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# --- the local model ---------------------------------------------------------------------------------------
if [ -n "${SOTTO_MODEL:-}" ]; then
  [ -r "$SOTTO_MODEL" ] || { echo "main: SOTTO_MODEL=$SOTTO_MODEL cannot be read" >&2; exit 1; }
  model=$(readlink -f "$SOTTO_MODEL")
  echo "== local model: $model (SOTTO_MODEL)"
else
  model=$src/$run/models/smollm2-135m-q8_0.synthetic.gguf
  if [ ! -s "$model" ]; then
    echo "== making the local model: SmolLM2-135M's shape, q8_0, RANDOM weights (../shared/tools/mkgguf.py, ~1 min)"
    if ! "$py" ../shared/tools/mkgguf.py --shape smollm2-135m --type q8_0 --seed 1 -q -o "$model.tmp" >"$demo/mkgguf.log" 2>&1; then
      echo "main: the synthetic model could not be made (see $demo/mkgguf.log): running without a local model" >&2
      rm -f "$model.tmp"; model=""
    else
      mv "$model.tmp" "$model"
      rm -f "$model.semantic-calibration"  # belonged to an earlier file
    fi
  fi
  [ -z "$model" ] || echo "== local model: $model -- a SPEED STAND-IN: the real SmolLM2-135M's shape and tokenizer with random weights, so its answers are gibberish by design (SOTTO_MODEL=FILE.gguf for a real one)"
fi

# --- the loopback cloud ------------------------------------------------------------------------------------
cloud_args=()
if [ -n "$model" ]; then
  "$bin/sotto" serve -m "$model" --port 0 --bind 127.0.0.1 --model-name loopback-cloud -t 1 \
    --record "$src/$demo/cloud-requests.jsonl" >"$demo/serve.out" 2>"$demo/serve.log" &
  pids+=($!)
  url=""
  for _ in $(seq 1 300); do
    url=$(sed -n 's/^sotto serve: listening on \(http:[^ ]*\).*/\1/p' "$demo/serve.out")
    [ -n "$url" ] && break
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 0.1
  done
  if [ -n "$url" ]; then
    echo "== loopback cloud: sotto serve at $url (the same model; nothing leaves this machine)"
    cloud_args=(--set "cloud.endpoint=$url/v1" --set "cloud.model=loopback-cloud")
  else
    echo "main: the loopback cloud did not start (see $demo/serve.log): no escalations" >&2
  fi
fi

# --- the spoken requests -----------------------------------------------------------------------------------
speak() {  # voice text out.wav: 16 kHz mono; espeak-ng for an "espeak:VOICE" voice, or when flite is missing
  local voice=$1 text=$2 out=$3
  if [[ $voice == espeak:* ]] || ! command -v flite >/dev/null; then
    [[ $voice == espeak:* ]] || voice=espeak:en-us
    espeak-ng -v "${voice#espeak:}" -w "$out.raw.wav" "$text"
  else
    flite -voice "$voice" -t "$text" -o "$out.raw.wav"
  fi
  sox -q "$out.raw.wav" -r 16000 -c 1 -b 16 "$out" && rm -f "$out.raw.wav"
}

# demo_run NAME PRIVACY_MODE REQUEST...: each request "voice|text|seconds of silence after it" (room for the
# answer; a wake word during an answer stops it, as on the device) is said as "hey computer. <text>" into one WAV,
# which sottod hears in real time (wav capture) and answers into $demo/NAME/answers.wav (wav playback).
demo_run() {
  local name=$1 mode=$2; shift 2
  local dir=$demo/$name i=0 r voice text gap
  mkdir -p "$dir/state"
  # The semantic cache's check of this model (below), as a device keeps it in its state across restarts.
  [ ! -s "$calibration" ] || cp "$calibration" "$dir/state/semantic-calibration"
  sox -q -n -r 16000 -c 1 -b 16 "$dir/sil.wav" trim 0 0.4
  # 2 s of silence first: the brain loads the model, so the first request measures answering, not start-up.
  sox -q -n -r 16000 -c 1 -b 16 "$dir/lead.wav" trim 0 2
  local parts=("$dir/lead.wav")
  : >"$dir/requests.txt"
  # Each request's span of the stream (wake word to the end of its pause, ms): the report joins what sottod heard
  # to what was said by audio time.
  local at_ms=2000 len_ms
  for r in "$@"; do
    IFS='|' read -r voice text gap <<<"$r"
    i=$((i + 1))
    speak "$voice" "hey computer" "$dir/wake-$i.wav"
    speak "$voice" "$text" "$dir/req-$i.wav"
    sox -q -n -r 16000 -c 1 -b 16 "$dir/gap-$i.wav" trim 0 "$gap"
    parts+=("$dir/wake-$i.wav" "$dir/sil.wav" "$dir/req-$i.wav" "$dir/gap-$i.wav")
    len_ms=$(soxi -s "$dir/wake-$i.wav" "$dir/sil.wav" "$dir/req-$i.wav" "$dir/gap-$i.wav" |
             awk '{ n += $1 } END { printf "%d", n / 16 }')
    printf '%s|%s|%d|%d\n' "$voice" "$text" "$at_ms" "$((at_ms + len_ms))" >>"$dir/requests.txt"
    at_ms=$((at_ms + len_ms))
  done
  sox -q "${parts[@]}" "$dir/mic.wav"
  local mic_s; mic_s=$(soxi -D "$dir/mic.wav")
  echo "== $name: $# requests, $(printf '%.0f' "$mic_s") s of speech and silence played in real time to sottod (privacy mode $mode)"
  "$bin/sottod" --config config/sotto.xml "${state_args[@]}" --set "paths.state-dir=$src/$dir/state" \
    --set "audio.capture.backend=wav" --set "audio.capture.device=$src/$dir/mic.wav" \
    --set "audio.playback.backend=wav" --set "audio.playback.device=$src/$dir/answers.wav" \
    --set "audio.playback.rate=16000" --set "model.path=${model:-/nonexistent/model.gguf}" \
    --set "privacy.mode=$mode" --set "log.level=debug" "${cloud_args[@]}" 2>"$dir/sottod.log" &
  local dpid=$!
  pids+=("$dpid")
  # Done when every request heard after the end of the input was answered aloud (or stopped), or 30 s later.
  local end_at=$((SECONDS + ${mic_s%.*} + 1)) deadline=$((SECONDS + ${mic_s%.*} + 30)) said heard
  while kill -0 "$dpid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
    said=$(grep -cE 'tts\[(spoken|cancelled)\]' "$dir/sottod.log" || true)
    heard=$(grep -c 'speech\[final\]' "$dir/sottod.log" || true)
    [ "$SECONDS" -ge "$end_at" ] && [ "$said" -ge "$heard" ] && break
    sleep 0.5
  done
  sleep 0.5  # the last phrase's tail leaves the playback ring
  local rc=0
  if ! kill -0 "$dpid" 2>/dev/null; then
    wait "$dpid" || rc=$?
    echo "main: sottod stopped on its own (status $rc) before the requests were answered; the end of $dir/sottod.log:" >&2
    tail -n 20 "$dir/sottod.log" >&2
    exit 1
  fi
  kill -TERM "$dpid"
  wait "$dpid" || rc=$?
  if [ "$rc" != 0 ]; then
    echo "main: sottod exited with status $rc on SIGTERM; the end of $dir/sottod.log:" >&2
    tail -n 20 "$dir/sottod.log" >&2
    exit 1
  fi
  # `sotto audit` reads the state directory from a configuration: this run's.
  sed "s|state-dir=\"/var/lib/sotto\"|state-dir=\"$src/$dir/state\"|" config/sotto.xml >"$dir/audit-config.xml"
  "$bin/sotto" audit --json --config "$dir/audit-config.xml" >"$dir/audit.jsonl" 2>"$dir/audit.err" ||
    echo "main: sotto audit failed: $(head -n 3 "$dir/audit.err")" >&2
  echo "$mode" >"$dir/mode"
}

# The brain checks, once per model file, whether the model's embeddings tell paraphrases from unrelated requests
# (the semantic cache's tier is off when not); 4-10 s on a loaded 2-core machine. Done once here, kept beside the
# model, so that the demo's requests are not answered during it.
calibration=""
if [ -n "$model" ]; then
  calibration=$src/$run/models/$(basename "$model").semantic-calibration
  if [ ! -s "$calibration" ]; then
    echo "== checking the local model for the semantic cache (once per model file)"
    rm -rf "$demo/calibrate"
    "$bin/sotto" ask --config config/sotto.xml --state-dir "$src/$demo/calibrate" --model "$model" --privacy offline \
      "what time is it" >"$demo/calibrate.log" 2>&1 || true
    cp "$demo/calibrate/semantic-calibration" "$calibration" 2>/dev/null ||
      echo "main: the model's semantic-cache check left no result (see $demo/calibrate.log); sottod repeats it" >&2
  fi
fi

# The default configuration's privacy mode (private): intents; an escalation, anonymized; personal data that stays
# on the device; offline mode by voice; then the local model, and its answer again from the cache. The voices are
# those today's recognizer hears best (espeak-ng's and flite's kal are mostly misheard).
demo_run private private \
  "slt|what time is it|3" \
  "awb|set a ten minute timer|3.5" \
  "awb|set the volume to five|3" \
  "rms|convert ten miles to kilometers|4" \
  "slt|what is twelve times seven|3.5" \
  "slt|what is the meaning of life|7" \
  "rms|my password is blue fish|7" \
  "awb|switch to offline mode|3.5" \
  "slt|what is the weather in paris|4" \
  "awb|tell me something about the moon|7" \
  "rms|tell me something about the moon|6" \
  "slt|what time is it|3"
# Standard mode: the same personal request leaves, its personal data replaced by a placeholder.
demo_run standard standard \
  "rms|my password is blue fish|7" \
  "slt|what time is it|3"
cleanup; pids=()

"$py" toolchain/main_report.py --out "$run" --model "${model:-}" \
  --synthetic "$([ -n "${SOTTO_MODEL:-}" ] && echo 0 || echo 1)" "$demo/private" "$demo/standard"
