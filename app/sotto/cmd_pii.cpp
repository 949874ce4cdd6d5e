// SPDX-License-Identifier: MIT
// `sotto pii --json`: classify one utterance per stdin line, print one JSON object per line (external checks).
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "app/common/json_text.h"
#include "app/common/answer_config.h"
#include "app/sotto/commands.h"
#include "engine/privacy/pii.h"
#include "engine/privacy/pii_model.h"

namespace sotto::cli {
namespace {

void piiUsage(FILE* out) {
  std::fputs(
      "Usage: sotto pii --json [--model PATH | --rules-only]\n"
      "Reads one utterance per line on standard input and prints one JSON object per line:\n"
      "  {\"text\":...,\"spans\":[{\"start\":S,\"end\":E,\"type\":\"PHONE\"},...]}\n"
      "start/end are Unicode code point offsets into text, end exclusive. The recognizers read the text\n"
      "normalized (NFKC, format characters removed, digits of every script as ASCII, spaces collapsed); the\n"
      "offsets are still into the text as given. A line that cannot be classified (over 4096 bytes, over 512\n"
      "words, not valid UTF-8, more spans than fit) is private as a whole, fail closed:\n"
      "  {\"text\":...,\"spans\":[...],\"private\":true,\"reason\":\"over 4096 bytes\"}\n"
      "and the exit status is 1. \"suspected\":[\"HEALTH\",...] follows the spans when the model suspects a type\n"
      "in words no span of that type covers (a local-only type suspected keeps the request on the device).\n"
      "  --model PATH   the trained personal-data model (sotto nlu train-pii); default: pii.nlu beside the\n"
      "                 intent catalogue (/etc/sotto, else the source tree's config/). A missing or damaged\n"
      "                 model is reported and the rules alone answer\n"
      "  --rules-only   the rule recognizers alone\n",
      out);
}

}  // namespace

int cmdPii(int argc, char** argv) {
  bool json = false, rulesOnly = false;
  std::string modelPath;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      piiUsage(stdout);
      return 0;
    }
    if (a == "--json") {
      json = true;
    } else if (a == "--rules-only") {
      rulesOnly = true;
    } else if (a == "--model" && i + 1 < argc) {
      modelPath = argv[++i];
    } else {
      std::fprintf(stderr, "sotto pii: unexpected argument '%s' (see sotto pii --help)\n", a.c_str());
      return 2;
    }
  }
  if (!json) {
    std::fprintf(stderr, "sotto pii: only --json output is supported (see sotto pii --help)\n");
    return 2;
  }
  std::unique_ptr<privacy::PiiModel> model;
  if (!rulesOnly) {
    if (modelPath.empty()) modelPath = answer::piiModelPathBeside(app::defaultCataloguePath());
    if (auto m = privacy::PiiModel::loadFile(modelPath)) {
      model = std::move(*m);
    } else {
      std::fprintf(stderr, "sotto pii: %s; the rules alone decide\n", m.error().message.c_str());
    }
  }
  auto classifier = privacy::PiiClassifier::create(std::move(model));
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
    const char* refused = nullptr;
    if (!r) {
      refused = privacy::PiiClassifier::refusal(line);
      if (refused == nullptr) refused = "could not be classified";
    } else if (spans.overflowed()) {
      refused = "more spans than fit";
    }
    for (std::size_t k = 0; k < spans.size(); ++k) {
      if (k > 0) out += ',';
      out += "{\"start\":" + std::to_string(spans[k].start) + ",\"end\":" + std::to_string(spans[k].end) +
             ",\"type\":\"" + privacy::piiTypeName(spans[k].type) + "\"}";
    }
    out += ']';
    // Types the model suspects where no span of theirs was reported: why a request may stay on the device.
    if (const auto suspected = spans.suspected(); suspected != 0 && refused == nullptr) {
      out += ",\"suspected\":[";
      bool first = true;
      for (std::size_t t = 0; t < privacy::kPiiTypeCount; ++t) {
        if ((suspected >> t & 1u) == 0) continue;
        out += first ? "\"" : ",\"";
        out += privacy::piiTypeName(static_cast<privacy::PiiType>(t));
        out += '"';
        first = false;
      }
      out += ']';
    }
    if (refused != nullptr) {
      // Fail closed: the line was not (wholly) checked, so all of it is private; the request path keeps such an
      // utterance on the device in every mode (decideEscalation: unclassified).
      std::fprintf(stderr, "sotto pii: line not classified (%s, %zu bytes): treated as private\n", refused,
                   line.size());
      out += ",\"private\":true,\"reason\":";
      app::appendJsonString(out, refused);
      status = 1;
    }
    out += "}\n";
    std::fputs(out.c_str(), stdout);
    if (ch == EOF) break;
  }
  std::fflush(stdout);
  return status;
}

}  // namespace sotto::cli
