// SPDX-License-Identifier: MIT
// `sotto intent`: the deterministic intent matcher on stdin lines (JSON per line), and the catalogue's grammar.
#include <sys/stat.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string_view>
#include <vector>
#include <string>

#include "app/common/json_text.h"
#include "app/common/catalogue_path.h"
#include "app/sotto/commands.h"
#include "engine/intents/catalogue.h"
#include "engine/intents/clock.h"
#include "engine/intents/handlers.h"
#include "engine/intents/matcher.h"
#include "engine/nlu/model.h"
#include "engine/nlu/understand.h"

#ifndef SOTTO_INTENTS_SOURCE_CATALOGUE
#define SOTTO_INTENTS_SOURCE_CATALOGUE ""
#endif


namespace sotto::cli {
namespace {

void intentUsage(FILE* out) {
  std::fprintf(out,
               "Usage: sotto intent [--catalogue PATH] [--model PATH | --rules-only] [--json | --grammar]\n"
               "                    [--answer [--state-dir DIR]]\n"
               "Understands one utterance per stdin line: the intent catalogue's phrasings, then the trained\n"
               "model for what they do not cover. Prints one line each.\n"
               "\n"
               "  --json            {\"text\":...,\"intent\":...,\"slots\":{...},\"confidence\":...,\"source\":...} per line;\n"
               "                    \"intent\":\"none\" with \"slots\":{} when no deterministic handler applies\n"
               "                    (without --json: intent, confidence and slots as plain text)\n"
               "  --grammar         print the catalogue's phrasings as a JSGF grammar and exit\n"
               "  --answer          also run the intent's handler and print its spoken answer and effect\n"
               "                    (JSON: \"status\", \"answer\", \"effect\", \"effect_value\", \"reason\"); timers\n"
               "                    and alarms that come due are announced before the next line\n"
               "  --state-dir DIR   with --answer: keep timers and alarms in DIR (as sottod does in\n"
               "                    paths.state-dir); without it they live only while this command runs\n"
               "  --catalogue PATH  the catalogue to load. Default: %s; when that file does not exist\n"
               "                    (a developer build that was not installed) the source tree's\n"
               "                    %s\n"
               "  --model PATH      the understanding model (sotto nlu train). Default: the catalogue's path\n"
               "                    with .nlu for .xml. A missing, damaged or mismatched model is reported\n"
               "                    and the phrasings alone answer\n"
               "  --rules-only      the catalogue's phrasings alone (\"source\":\"rules\" on every line)\n",
               intents::kDefaultCataloguePath,
               *SOTTO_INTENTS_SOURCE_CATALOGUE ? SOTTO_INTENTS_SOURCE_CATALOGUE : "(none compiled in)");
}
void printAnnouncements(const std::vector<intents::Announcement>& list, bool json) {
  for (const intents::Announcement& a : list) {
    if (json) {
      std::printf("{\"announcement\":%s,\"effect\":\"%s\"}\n", app::jsonString(a.speech).c_str(),
                  std::string(intents::effectName(a.effect.kind)).c_str());
    } else {
      std::printf("announcement: %s\n", a.speech.c_str());
    }
  }
}

}  // namespace

int cmdIntent(int argc, char** argv) {
  std::string path, stateDir, modelPath;
  bool json = false, grammar = false, answer = false, rulesOnly = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      intentUsage(stdout);
      return 0;
    }
    if (a == "--json") {
      json = true;
    } else if (a == "--answer") {
      answer = true;
    } else if (a == "--state-dir" && i + 1 < argc) {
      stateDir = argv[++i];
    } else if (a == "--model" && i + 1 < argc) {
      modelPath = argv[++i];
    } else if (a == "--rules-only") {
      rulesOnly = true;
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
    path = app::defaultCataloguePath();
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
  std::unique_ptr<nlu::NluModel> model;
  if (!rulesOnly) {
    if (modelPath.empty()) modelPath = nlu::modelPathFor(path);
    std::vector<std::string> names;
    for (const auto& intent : matcher.catalogue().intents()) names.push_back(intent.name);
    auto loaded = nlu::NluModel::loadFile(modelPath, names);
    if (loaded) {
      model = std::move(*loaded);
    } else {
      std::fprintf(stderr, "sotto intent: %s; answering with the catalogue's phrasings alone\n",
                   loaded.error().message.c_str());
    }
  }
  auto understander = nlu::Understander::create(matcher, model.get());
  if (!understander) {
    std::fprintf(stderr, "sotto intent: %s (%s); answering with the catalogue's phrasings alone\n",
                 understander.error().message.c_str(), modelPath.c_str());
    model.reset();
    understander = nlu::Understander::create(matcher, nullptr);
  }
  auto ws = std::make_unique<nlu::UnderstandWorkspace>();
  intents::IntentMatch m;
  const intents::SystemClock clock;
  const intents::SystemTimeZone zone;
  std::unique_ptr<intents::IntentHandlers> handlers;
  if (answer) {
    handlers = std::make_unique<intents::IntentHandlers>(intents::IntentHandlers::Options{stateDir}, clock, zone);
    const intents::StartReport report = handlers->start();
    for (const std::string& w : report.warnings) std::fprintf(stderr, "sotto intent: %s\n", w.c_str());
    printAnnouncements(report.announcements, json);
  } else if (!stateDir.empty()) {
    std::fprintf(stderr, "sotto intent: --state-dir needs --answer\n");
    return 2;
  }
  const intents::DeviceStatus device;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    understander->understand(line, *ws, m);
    intents::HandlerOutcome outcome;
    if (handlers) {
      printAnnouncements(handlers->fireDue(), json);
      outcome = handlers->handle(m, line, device);
      if (!outcome.warning.empty()) std::fprintf(stderr, "sotto intent: %s\n", outcome.warning.c_str());
    }
    if (json) {
      std::string out = intents::toJson(line, m);
      if (handlers) {
        out.pop_back();  // the closing brace: the handler's fields follow
        out += ",\"status\":\"" + std::string(intents::statusName(outcome.status)) + "\",\"answer\":" +
               app::jsonString(outcome.status == intents::HandlerOutcome::Status::escalate ? outcome.fallback : outcome.speech) +
               ",\"effect\":\"" + std::string(intents::effectName(outcome.effect.kind)) +
               "\",\"effect_value\":" + std::to_string(outcome.effect.value) + ",\"reason\":" + app::jsonString(outcome.reason) + "}";
      }
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
      if (handlers) {
        std::printf("  %s: %s", std::string(intents::statusName(outcome.status)).c_str(),
                    outcome.status == intents::HandlerOutcome::Status::answered ? outcome.speech.c_str() : outcome.reason.c_str());
        if (outcome.effect.kind != intents::EffectKind::none) {
          std::printf(" [%s %d]", std::string(intents::effectName(outcome.effect.kind)).c_str(), outcome.effect.value);
        }
        std::printf("\n");
      }
    }
  }
  return std::fflush(stdout) == 0 ? 0 : 1;
}

}  // namespace sotto::cli
