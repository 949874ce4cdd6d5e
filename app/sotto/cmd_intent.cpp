// SPDX-License-Identifier: MIT
// `sotto intent`: the deterministic intent matcher on stdin lines (JSON per line), and the catalogue's grammar.
#include <sys/stat.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "app/sotto/commands.h"
#include "engine/intents/catalogue.h"
#include "engine/intents/matcher.h"

#ifndef SOTTO_INTENTS_SOURCE_CATALOGUE
#define SOTTO_INTENTS_SOURCE_CATALOGUE ""
#endif

namespace sotto::cli {
namespace {

void intentUsage(FILE* out) {
  std::fprintf(out,
               "Usage: sotto intent [--catalogue PATH] [--json | --grammar]\n"
               "Matches one utterance per stdin line against the intent catalogue and prints one line each.\n"
               "\n"
               "  --json            {\"text\":...,\"intent\":...,\"slots\":{...},\"confidence\":...} per line;\n"
               "                    \"intent\":\"none\" with \"slots\":{} when no deterministic handler applies\n"
               "                    (without --json: intent, confidence and slots as plain text)\n"
               "  --grammar         print the catalogue's phrasings as a JSGF grammar and exit\n"
               "  --catalogue PATH  the catalogue to load. Default: %s; when that file does not exist\n"
               "                    (a developer build that was not installed) the source tree's\n"
               "                    %s\n",
               intents::kDefaultCataloguePath,
               *SOTTO_INTENTS_SOURCE_CATALOGUE ? SOTTO_INTENTS_SOURCE_CATALOGUE : "(none compiled in)");
}

bool exists(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

int cmdIntent(int argc, char** argv) {
  std::string path;
  bool json = false, grammar = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      intentUsage(stdout);
      return 0;
    }
    if (a == "--json") {
      json = true;
    } else if (a == "--grammar") {
      grammar = true;
    } else if ((a == "--catalogue" || a == "-c") && i + 1 < argc) {
      path = argv[++i];
    } else if (a.rfind("--catalogue=", 0) == 0) {
      path = a.substr(12);
    } else {
      std::fprintf(stderr, "sotto intent: unexpected argument '%s' (see sotto intent --help)\n", a.c_str());
      return 2;
    }
  }
  if (path.empty()) {
    path = intents::kDefaultCataloguePath;
    // A developer build runs before `cmake --install`: use the catalogue of the source tree it was built from.
    if (!exists(path) && *SOTTO_INTENTS_SOURCE_CATALOGUE && exists(SOTTO_INTENTS_SOURCE_CATALOGUE)) {
      path = SOTTO_INTENTS_SOURCE_CATALOGUE;
    }
  }
  auto cat = intents::Catalogue::loadFile(path);
  if (!cat) {
    std::fprintf(stderr, "sotto intent: %s\n", cat.error().message.c_str());
    return 1;
  }
  if (grammar) {
    const std::string g = cat->grammar();
    std::fputs(g.c_str(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
  }
  const intents::Matcher matcher(std::move(*cat));
  intents::MatchWorkspace ws;
  intents::IntentMatch m;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    matcher.match(line, ws, m);
    if (json) {
      std::string out = intents::toJson(line, m);
      out += '\n';
      std::fputs(out.c_str(), stdout);
    } else {
      std::printf("%s %.3f", std::string(m.name).c_str(), m.confidence);
      for (size_t s = 0; s < m.slotCount; ++s) {
        const auto& v = m.slots[s].value;
        if (v.kind == intents::SlotValue::Kind::text) {
          std::printf(" %s=%s", std::string(m.slots[s].name).c_str(), v.text);
        } else {
          std::printf(" %s=%g", std::string(m.slots[s].name).c_str(), v.number);
        }
      }
      std::printf("\n");
    }
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace sotto::cli
