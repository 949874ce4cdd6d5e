// SPDX-License-Identifier: MIT
// prepareRecognition (see recognition_setup.h).
#include "app/common/recognition_setup.h"

#include <unistd.h>

#include "engine/intents/catalogue.h"

namespace sotto::app {

namespace {
constexpr const char* kDefaultDomainLm = "/etc/sotto/intents.lm";
}

std::string domainLmPathFor(const std::string& cataloguePath) {
  const std::size_t slash = cataloguePath.rfind('/');
  const std::size_t dot = cataloguePath.rfind('.');
  const bool hasExt = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return (hasExt ? cataloguePath.substr(0, dot) : cataloguePath) + ".lm";
}

void prepareRecognition(const config::Config& c, const std::string& cataloguePath, speech::ListenerConfig& lc,
                        RecognitionSetup& setup) {
  lc.asr.rescore = c.asrRescore;
  lc.asr.minDomainAgreement = c.asrDomainAgreement;
  lc.asr.maxHmmPerFrame = c.asrMaxHmmPerFrame;
  lc.asr.shareScores = c.asrShareScores;
  lc.asr.domainLanguageModel = c.asrDomainLm;
  // Developer builds and other catalogues: the installed default is not there, the catalogue's own model is.
  if (c.asrDomainLm == kDefaultDomainLm && ::access(kDefaultDomainLm, R_OK) != 0 && !cataloguePath.empty()) {
    lc.asr.domainLanguageModel = domainLmPathFor(cataloguePath);
  }
  if (cataloguePath.empty()) {
    setup.warnings.push_back("no intent catalogue: no command grammar and no understanding in the recognizer");
    return;
  }
  auto cat = intents::Catalogue::loadFile(cataloguePath);
  if (!cat.ok()) {
    setup.warnings.push_back("no command grammar and no understanding in the recognizer: " + cat.error().message);
    return;
  }
  if (c.asrGrammar) lc.asr.grammar = cat.value().grammar();
  setup.catalogueName = cataloguePath;
  for (const auto& intent : cat.value().intents()) setup.intentNames.push_back(intent.name);
  setup.matcher = std::make_unique<intents::Matcher>(std::move(cat).value());
  const std::string modelPath = nlu::modelPathFor(cataloguePath);
  if (auto loaded = nlu::NluModel::loadFile(modelPath, setup.intentNames); loaded) {
    setup.model = std::move(loaded).value();
  } else {
    setup.warnings.push_back("recognizer's understanding by the catalogue's phrasings alone: " +
                             loaded.error().message);
  }
  auto understander = nlu::Understander::create(*setup.matcher, setup.model.get());
  if (!understander) {
    setup.warnings.push_back("recognizer's understanding by the catalogue's phrasings alone: " +
                             understander.error().message + " (" + modelPath + ")");
    setup.model.reset();
    understander = nlu::Understander::create(*setup.matcher, nullptr);
  }
  if (understander) setup.understander.emplace(std::move(understander).value());
  lc.asr.understander = setup.understander ? &*setup.understander : nullptr;
}

}  // namespace sotto::app
