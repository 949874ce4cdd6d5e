// SPDX-License-Identifier: MIT
// `sotto tokenize`: a model's token ids for a text, as llama_tokenize(add_special=true) gives them.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "app/sotto/commands.h"
#include "engine/llm/gguf.h"
#include "engine/llm/tokenizer.h"

namespace sotto::cli {
namespace {

void tokenizeUsage(FILE* out) {
  std::fputs(
      "Usage: sotto tokenize -m FILE [--no-special] TEXT\n"
      "Prints the token ids of TEXT under the model's vocabulary, space-separated on one line. BOS is added when\n"
      "the model asks for it (tokenizer.ggml.add_bos_token), as llama.cpp's llama_tokenize(add_special=true).\n"
      "\n"
      "  -m, --model FILE   GGUF model (only its tokenizer metadata is read)\n"
      "  --no-special       treat special-token text such as <|im_start|> as plain text\n",
      out);
}

}  // namespace

int cmdTokenize(int argc, char** argv) {
  std::string model, text;
  bool haveText = false, parseSpecial = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      tokenizeUsage(stdout);
      return 0;
    }
    if ((a == "-m" || a == "--model") && i + 1 < argc) {
      model = argv[++i];
    } else if (a == "--no-special") {
      parseSpecial = false;
    } else if (a == "--" && i + 1 < argc && !haveText) {
      text = argv[++i];
      haveText = true;
    } else if ((a.empty() || a[0] != '-' || a == "-") && !haveText) {
      text = a;
      haveText = true;
    } else {
      std::fprintf(stderr, "sotto tokenize: unexpected argument '%s' (see sotto tokenize --help)\n", a.c_str());
      return 2;
    }
  }
  if (model.empty() || !haveText) {
    std::fprintf(stderr, "sotto tokenize: need -m FILE and TEXT (see sotto tokenize --help)\n");
    return 2;
  }
  auto file = llm::GgufFile::open(model);
  if (!file) {
    std::fprintf(stderr, "sotto tokenize: %s\n", file.error().message.c_str());
    return 1;
  }
  auto tok = llm::Tokenizer::fromGguf(**file);
  if (!tok) {
    std::fprintf(stderr, "sotto tokenize: %s\n", tok.error().message.c_str());
    return 1;
  }
  const std::vector<llm::TokenId> ids = (*tok)->tokenize(text, true, parseSpecial);
  std::string line;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) line += ' ';
    line += std::to_string(ids[i]);
  }
  line += '\n';
  std::fputs(line.c_str(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace sotto::cli
