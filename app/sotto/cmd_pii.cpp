// SPDX-License-Identifier: MIT
// `sotto pii --json`: classify one utterance per stdin line, print one JSON object per line (external checks).
#include <cstdio>
#include <string>
#include <string_view>

#include "app/common/json_text.h"
#include "app/sotto/commands.h"
#include "engine/privacy/pii.h"

namespace sotto::cli {
namespace {

void piiUsage(FILE* out) {
  std::fputs(
      "Usage: sotto pii --json\n"
      "Reads one utterance per line on standard input and prints one JSON object per line:\n"
      "  {\"text\":...,\"spans\":[{\"start\":S,\"end\":E,\"type\":\"PHONE\"},...]}\n"
      "start/end are Unicode code point offsets into text, end exclusive.\n",
      out);
}

}  // namespace

int cmdPii(int argc, char** argv) {
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      piiUsage(stdout);
      return 0;
    }
    if (a == "--json") {
      json = true;
    } else {
      std::fprintf(stderr, "sotto pii: unexpected argument '%s' (see sotto pii --help)\n", a.c_str());
      return 2;
    }
  }
  if (!json) {
    std::fprintf(stderr, "sotto pii: only --json output is supported (see sotto pii --help)\n");
    return 2;
  }
  auto classifier = privacy::PiiClassifier::create();
  if (!classifier) {
    std::fprintf(stderr, "sotto pii: %s\n", classifier.error().message.c_str());
    return 1;
  }
  privacy::SpanBuffer spans;
  std::string line, out;
  int status = 0;
  for (;;) {
    line.clear();
    int ch;
    bool any = false;
    while ((ch = std::fgetc(stdin)) != EOF && ch != '\n') {
      line += static_cast<char>(ch);
      any = true;
    }
    if (ch == EOF && !any) break;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.clear();
    out += "{\"text\":";
    app::appendJsonString(out, line);
    out += ",\"spans\":[";
    auto r = (*classifier)->classify(line, spans);
    if (!r) {
      std::fprintf(stderr, "sotto pii: line too long to classify (%zu bytes)\n", line.size());
      status = 1;
    }
    for (std::size_t k = 0; k < spans.size(); ++k) {
      if (k > 0) out += ',';
      out += "{\"start\":" + std::to_string(spans[k].start) + ",\"end\":" + std::to_string(spans[k].end) +
             ",\"type\":\"" + privacy::piiTypeName(spans[k].type) + "\"}";
    }
    out += "]}\n";
    std::fputs(out.c_str(), stdout);
    if (ch == EOF) break;
  }
  std::fflush(stdout);
  return status;
}

}  // namespace sotto::cli
