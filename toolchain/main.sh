#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The README's first command: install what is missing, build the static release binaries and run the main job
# (sottod on the default configuration until SOTTO_RUN_SECONDS pass, then SIGTERM and a clean stop).
set -euo pipefail
cd "$(dirname "$0")/.."
bash toolchain/install-deps.sh --host-only
cmake --preset host-release >/dev/null
cmake --build --preset host-release --target sottod sotto sotto-bench

run=build/run
mkdir -p "$run"
seconds=${SOTTO_RUN_SECONDS:-5}
echo "== sottod --version"
build/host-release/sottod --version
echo "== sottod on config/sotto.xml for ${seconds}s (state in $run), then SIGTERM"
set +e
timeout --preserve-status --signal=TERM "$seconds" build/host-release/sottod --config config/sotto.xml \
  --set "paths.state-dir=$PWD/$run/state" --set "paths.runtime-dir=$PWD/$run/runtime" \
  --set "paths.log-dir=$PWD/$run/log"
rc=$?
set -e
echo "== sottod exited with status $rc"
exit "$rc"
