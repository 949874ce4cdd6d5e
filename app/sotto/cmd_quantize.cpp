// SPDX-License-Identifier: MIT
// `sotto quantize`: writes a quantized copy of an F32/F16/BF16 GGUF model (pure types or the Q4_K_M mix).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "app/sotto/commands.h"
#include "engine/llm/quantize.h"
#include "sotto/hal/dtype.h"

namespace sotto::cli {
namespace {

unsigned defaultQuantThreads() { return std::clamp(std::thread::hardware_concurrency(), 1u, 8u); }

void quantizeUsage(FILE* out) {
  std::fprintf(out,
               "Usage: sotto quantize [OPTIONS] IN.gguf OUT.gguf TYPE\n"
               "Writes a quantized copy of an F32/F16/BF16 GGUF model; metadata is copied, general.file_type set.\n"
               "OUT is written atomically (a temporary file renamed into place).\n"
               "\n"
               "TYPE:\n"
               "  Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K\n"
               "                                every weight matrix (token_embd included) in that type; norms, biases\n"
               "                                and rope_freqs stay as they are (llama-quantize --pure)\n"
               "  Q4_K_M                        llama.cpp's Q4_K_M mix: Q6_K for the output / tied token_embd and\n"
               "                                for attn_v and ffn_down of some layers, Q4_K elsewhere\n"
               "K-quant rows must be multiples of 256 elements. Other rows fall back as in llama.cpp: Q4_K to Q5_0,\n"
               "Q5_K to Q5_1, Q6_K to Q8_0 (--fallback changes the first two).\n"
               "\n"
               "  -t, --threads N      quantization threads (default %u)\n"
               "  --fallback TYPE      q5_0 (default: Q5_0 / Q5_1 as llama.cpp), q8_0 or q4_0: the type for rows a\n"
               "                       Q4_K/Q5_K cannot take\n"
               "  -q, --quiet          no per-tensor lines, only the summary\n"
               "\n"
               "Exit status: 0 done, 1 input or write error (one line on stderr), 2 usage error.\n",
               defaultQuantThreads());
}

int usageError(const std::string& message) {
  std::fprintf(stderr, "sotto quantize: %s (see sotto quantize --help)\n", message.c_str());
  return 2;
}

double mib(uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

}  // namespace

int cmdQuantize(int argc, char** argv) {
  llm::QuantizeOptions options;
  options.threads = defaultQuantThreads();
  bool quiet = false;
  std::string positional[3];
  int nPositional = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (a == "-h" || a == "--help") {
      quantizeUsage(stdout);
      return 0;
    } else if (a == "-q" || a == "--quiet") {
      quiet = true;
    } else if (a == "-t" || a == "--threads") {
      char* end = nullptr;
      errno = 0;
      const unsigned long n = v != nullptr ? std::strtoul(v, &end, 10) : 0;
      if (v == nullptr || *v == '\0' || *end != '\0' || errno != 0 || n == 0 || n > 256) {
        return usageError("--threads needs a number from 1 to 256");
      }
      options.threads = static_cast<unsigned>(n);
      ++i;
    } else if (a == "--fallback") {
      const std::string f = v != nullptr ? v : "";
      if (f == "q5_0" || f == "Q5_0") {
        options.kquantFallback = hal::DType::Q5_0;
      } else if (f == "q8_0" || f == "Q8_0") {
        options.kquantFallback = hal::DType::Q8_0;
      } else if (f == "q4_0" || f == "Q4_0") {
        options.kquantFallback = hal::DType::Q4_0;
      } else {
        return usageError("--fallback must be q5_0, q8_0 or q4_0");
      }
      ++i;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return usageError("unknown option '" + a + "'");
    } else if (nPositional < 3) {
      positional[nPositional++] = a;
    } else {
      return usageError("expected IN OUT TYPE, got an extra argument '" + a + "'");
    }
  }
  if (nPositional != 3) return usageError("expected IN.gguf OUT.gguf TYPE");
  const auto scheme = llm::parseQuantScheme(positional[2]);
  if (!scheme) {
    return usageError("unknown TYPE '" + positional[2] + "': expected Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K or Q4_K_M");
  }
  options.scheme = *scheme;

  llm::QuantizeProgress progress;
  if (!quiet) {
    progress = [](size_t index, size_t count, const llm::TensorPlan& p) {
      std::printf("[%4zu/%4zu] %-32s %-6s -> %-6s %9.2f MiB -> %9.2f MiB%s\n", index + 1, count, p.name.c_str(),
                  hal::dtypeName(p.from), hal::dtypeName(p.to), mib(p.inBytes), mib(p.outBytes),
                  p.fallback ? "  (row length: fallback)" : "");
      std::fflush(stdout);
    };
  }
  auto r = llm::quantizeModel(positional[0], positional[1], options, progress);
  if (!r) {
    std::fprintf(stderr, "sotto quantize: %s\n", r.error().message.c_str());
    return 1;
  }
  std::printf("%s: %s, %zu of %zu tensors quantized (%zu fallbacks), %.2f MiB -> %.2f MiB (file %.2f MiB) in %.1f s\n",
              positional[1].c_str(), llm::quantSchemeName(*scheme), r->quantized, r->tensors.size(), r->fallbacks,
              mib(r->inBytes), mib(r->outBytes), mib(r->outFileBytes), r->seconds);
  return 0;
}

}  // namespace sotto::cli
