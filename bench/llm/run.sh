#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end LLM benchmark: generates the benchmark models (mkgguf.py; Q4_K_M with `sotto quantize`), runs
# sotto-bench on each with 2 threads and prints generation / prompt-128 tokens/s against llama.cpp's figures.
#
# Usage: bench/llm/run.sh [-b BUILD_DIR] [-w WORK_DIR] [-r REPS] [-t THREADS] [-L LLAMA_BENCH] [--keep] [ROW...]
#   ROW: smollm2-135m-q8_0 smollm2-135m-q4_0 smollm2-360m-q8_0 smollm2-360m-q4_k_m qwen2.5-0.5b-q4_k_m
#        llama-3.2-1b-q4_k_m (default: all). Models are written to WORK_DIR (default: a fresh directory under
#        ${TMPDIR:-/tmp}) and deleted at the end unless --keep. Needs /usr/bin/python3 with numpy.
#   -L: a llama.cpp llama-bench built for this machine (nothing here builds or fetches one). It then runs on the
#       same model files right after ours, row by row, so the ratios also compare against a baseline measured in
#       the same run: pp128 / tg64, and pp20 at depth 200 (the TTFT case; llama-bench's -d, where it has it).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
mkgguf="$src/../shared/tools/mkgguf.py"
build="$src/build/host-release"
work=""
reps=3
threads=2
keep=0
rows=""
llamabench=""
while [ $# -gt 0 ]; do
  case "$1" in
    -b) build=$2; shift 2 ;;
    -w) work=$2; shift 2 ;;
    -r) reps=$2; shift 2 ;;
    -t) threads=$2; shift 2 ;;
    -L) llamabench=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    -h|--help) sed -n '3,13p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) rows="$rows $1"; shift ;;
  esac
done
[ -n "$rows" ] || rows="smollm2-135m-q8_0 smollm2-135m-q4_0 smollm2-360m-q8_0 smollm2-360m-q4_k_m qwen2.5-0.5b-q4_k_m llama-3.2-1b-q4_k_m"
for tool in "$build/sotto" "$build/sotto-bench"; do
  [ -x "$tool" ] || { echo "run.sh: $tool not built (cmake --build $build --target sotto sotto-bench)" >&2; exit 1; }
done
[ -z "$llamabench" ] || [ -x "$llamabench" ] || { echo "run.sh: -L $llamabench is not an executable" >&2; exit 2; }
if [ -z "$work" ]; then
  work=$(mktemp -d "${TMPDIR:-/tmp}/sotto-bench-llm-XXXXXX")
fi
mkdir -p "$work"
cleanup() { [ "$keep" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT INT TERM

# llama.cpp build 4748 on this machine kind, 2 threads: generation (tg) / prompt-128 (pp128) tokens/s.
baseline() {
  case "$1" in
    smollm2-135m-q8_0) echo "209 1598" ;;
    smollm2-135m-q4_0) echo "358 1559" ;;
    smollm2-360m-q8_0) echo "65 683" ;;
    smollm2-360m-q4_k_m) echo "41 266" ;;
    qwen2.5-0.5b-q4_k_m) echo "34 250" ;;
    llama-3.2-1b-q4_k_m) echo "21 202" ;;
    *) echo "" ;;
  esac
}

make_model() {  # ROW → path of the model file
  row=$1
  shape=${row%-*}
  type=${row##*-}
  case "$row" in *-q4_k_m) shape=${row%-q4_k_m}; type=q4_k_m ;; esac
  out="$work/$row.gguf"
  [ -f "$out" ] && { echo "$out"; return; }
  if [ "$type" = q4_k_m ]; then
    f16="$work/$shape-f16.gguf"
    [ -f "$f16" ] || /usr/bin/python3 "$mkgguf" --shape "$shape" --type f16 --seed 1 -q -o "$f16" >&2
    "$build/sotto" quantize -q -t "$threads" "$f16" "$out" Q4_K_M >&2
    [ "$keep" = 1 ] || rm -f "$f16"
  else
    /usr/bin/python3 "$mkgguf" --shape "$shape" --type "$type" --seed 1 -q -o "$out" >&2
  fi
  echo "$out"
}

results="$work/results.jsonl"
: > "$results"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for row in $rows; do
  base=$(baseline "$row")
  [ -n "$base" ] || { echo "run.sh: unknown row $row" >&2; exit 2; }
  model=$(make_model "$row")
  echo "== $row ($(du -m "$model" | cut -f1) MB), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  "$build/sotto-bench" llm -m "$model" -t "$threads" -p 128 -n 64 -r "$reps" --json |
    sed "s/^{/{\"row\":\"$row\",\"base_tg\":${base% *},\"base_pp\":${base#* },/" | tee -a "$results"
  if [ -n "$llamabench" ]; then
    # llama-bench's JSON is one array per call; each record goes on its own line tagged with the row.
    for args in "-p 128 -n 64" "-p 20 -n 0 -d 200"; do
      # shellcheck disable=SC2086
      if "$llamabench" -m "$model" -t "$threads" $args -r "$reps" -o json > "$work/llama.json" 2> "$work/llama.err"; then
        /usr/bin/python3 -c 'import json, sys
for o in json.load(open(sys.argv[1])):
    print(json.dumps({"row": sys.argv[2], "llama": o}))
    print("llama.cpp %s: pp%d tg%d depth %d: %.1f ± %.1f tok/s" % (o["build_commit"], o["n_prompt"], o["n_gen"],
          o.get("n_depth", 0), o["avg_ts"], o["stddev_ts"]), file=sys.stderr)' "$work/llama.json" "$row" >> "$results"
      else
        echo "run.sh: llama-bench $args failed on $row: $(tail -n 1 "$work/llama.err")" >&2
      fi
    done
  fi
  [ "$keep" = 1 ] || rm -f "$model"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

/usr/bin/python3 - "$results" <<'PY'
import json, sys
rows = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    if "llama" in o:  # llama-bench records: one per test (pp128, tg64, pp20 at depth 200)
        l = o["llama"]
        r = rows.setdefault(o["row"], {})
        test = "tg" if l["n_gen"] > 0 else ("pp%d@%d" % (l["n_prompt"], l.get("n_depth", 0)))
        r.setdefault("llama", {})[test] = l
        continue
    r = rows.setdefault(o["row"], {})
    r.update({"base_tg": o["base_tg"], "base_pp": o["base_pp"], "size": o["model_bytes"]})
    r[o["test"]] = o
print()
print("Against llama.cpp build 4748's figures (the issue's baseline, measured elsewhere):")
print("| model | size MB | tg64 t/s | llama.cpp tg | ratio | pp128 t/s | llama.cpp pp128 | ratio | tg bandwidth | ttft 20+200 cached / cold ms | peak RSS MB |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for name, r in rows.items():
    if "size" not in r:
        continue
    tg, pp = r.get("tg64"), r.get("pp128")
    tgs = "%.1f ± %.1f" % (tg["tokens_per_s"], tg["tokens_per_s_std"]) if tg else "-"
    pps = "%.1f ± %.1f" % (pp["tokens_per_s"], pp["tokens_per_s_std"]) if pp else "-"
    tgr = "%.2f" % (tg["tokens_per_s"] / r["base_tg"]) if tg else "-"
    ppr = "%.2f" % (pp["tokens_per_s"] / r["base_pp"]) if pp else "-"
    bw = "%.0f%% of %.1f GB/s" % (100 * tg["bandwidth_fraction"], tg["baseline_gbps"]) if tg else "-"
    t = r.get("ttft")
    ttft = "%.1f / %.1f" % (t["ttft_ms"], t["ttft_cold_ms"]) if t else "-"
    rss = (tg or pp or t)["peak_rss_bytes"] / 1e6
    print("| %s | %.1f | %s | %d | %s | %s | %d | %s | %s | %s | %.0f |" % (
        name, r["size"] / 1e6, tgs, r["base_tg"], tgr, pps, r["base_pp"], ppr, bw, ttft, rss))
if any("llama" in r for r in rows.values()):
    info = next(r["llama"] for r in rows.values() if "llama" in r)
    info = next(iter(info.values()))
    print()
    print("Against llama.cpp measured in this run (build %s, %s, %d threads):" % (
        info.get("build_commit", "?"), info.get("cpu_info", "?"), info.get("n_threads", 0)))
    print("| model | tg64 t/s | llama.cpp tg64 | ratio | pp128 t/s | llama.cpp pp128 | ratio | ttft cached ms | llama.cpp pp20 at depth 200, ms | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    def cell(ours, l):
        if not ours or not l:
            return "-", "-"
        return "%.1f ± %.1f" % (l["avg_ts"], l["stddev_ts"]), "%.2f" % (ours["tokens_per_s"] / l["avg_ts"])
    for name, r in rows.items():
        l = r.get("llama", {})
        tg, pp, t = r.get("tg64"), r.get("pp128"), r.get("ttft")
        ltg, rtg = cell(tg, l.get("tg"))
        lpp, rpp = cell(pp, l.get("pp128@0"))
        lt = l.get("pp20@200")
        lms = "%.1f" % (20e3 / lt["avg_ts"]) if lt else "-"
        # time ratio, llama.cpp's over ours: above 1 means we answer sooner
        rt = "%.2f" % (20e3 / lt["avg_ts"] / t["ttft_ms"]) if lt and t else "-"
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, "%.1f" % tg["tokens_per_s"] if tg else "-", ltg, rtg, "%.1f" % pp["tokens_per_s"] if pp else "-",
            lpp, rpp, "%.1f" % t["ttft_ms"] if t else "-", lms, rt))
PY
