// SPDX-License-Identifier: MIT
// Brain::create: the personal-data classifier, the device key and audit log, intents, the local model, the answer
// cache and its calibration, the cloud client and the router, from BrainOptions; what fails degrades.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "engine/answer/brain_impl.h"
#include "engine/intents/catalogue.h"
#include "engine/llm/prefix_store.h"
#include "engine/privacy/pii_model.h"
#include "engine/router/cost_caps_file.h"
#include "sotto/hal/atomic_file.h"

namespace sotto::answer {

using detail::LocalModel;
using detail::now;

namespace {

// The model on `pool` (borrowed: the one pool the Brain's generators share).
Result<LocalModel> loadLocal(const std::string& path, const BrainOptions& c, hal::ThreadPool& pool) {
  LocalModel m;
  llm::ModelLoadOptions lo;
  lo.gguf.lockInMemory = c.mlockModel;
  auto model = llm::Model::load(path, lo);
  if (!model) return std::move(model).error();
  m.model = std::move(*model);
  auto tok = llm::Tokenizer::fromGguf(m.model->file());
  if (!tok) return std::move(tok).error();
  m.tokenizer = std::move(*tok);
  const auto tmpl = m.model->file().getString("tokenizer.chat_template");
  auto chat = llm::ChatTemplate::detect(tmpl ? *tmpl : std::string_view{});
  if (chat) m.chat = std::move(*chat);  // without a template the prompt is the plain text (base models)
  llm::GeneratorOptions go;
  go.context.pool = &pool;
  go.context.nCtx = c.contextTokens;  // capped by the model's training context
  auto gen = llm::Generator::create(*m.model, *m.tokenizer, go);
  if (!gen) return std::move(gen).error();
  m.generator = std::move(*gen);
  return m;
}

std::string hostOf(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t start = scheme == std::string::npos ? 0 : scheme + 3;
  const size_t end = url.find('/', start);
  std::string host = url.substr(start, end == std::string::npos ? std::string::npos : end - start);
  const size_t at = host.rfind('@');  // never record credentials in the URL
  return at == std::string::npos ? host : host.substr(at + 1);
}

// The KV of the chat template's system turn, restored from the state directory (or computed once and saved), so
// the first local answer after a start does not pay for its prefill. A file for another model, template or context,
// or a damaged one, is rejected with the reason and rebuilt. Brain thread, at create().
// The model file's SHA-256 (the prefix file's identity), remembered in `cachePath` per file (path, inode, size,
// modification time): hashing 145 MB took 0.8-2.7 s at every start on a loaded 2-core machine, longer than the
// prefill it saves. A model is replaced by rename (a new inode), so a changed file is hashed again.
std::array<uint8_t, 32> modelIdentity(const llm::GgufFile& file, const std::string& cachePath) {
  std::string key;
  if (struct stat st {}; ::stat(file.path().c_str(), &st) == 0) {
    key = file.path() + " " + std::to_string(st.st_ino) + " " + std::to_string(st.st_size) + " " +
          std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  if (!key.empty()) {
    if (auto saved = hal::readFile(cachePath, 8192)) {
      const std::string text(saved->begin(), saved->end());
      // "<64 hex digits> <key>\n"
      if (text.size() == 64 + 1 + key.size() + 1 && text.compare(65, key.size(), key) == 0 && text.back() == '\n') {
        std::array<uint8_t, 32> sha{};
        bool ok = true;
        for (size_t i = 0; i < 32 && ok; ++i) {
          const char* hi = std::strchr(kHex, text[2 * i]);
          const char* lo = std::strchr(kHex, text[2 * i + 1]);
          ok = hi != nullptr && lo != nullptr && *hi != '\0' && *lo != '\0';
          if (ok) sha[i] = static_cast<uint8_t>((hi - kHex) * 16 + (lo - kHex));
        }
        if (ok) return sha;
      }
    }
  }
  const std::array<uint8_t, 32> sha = llm::modelSha256(file);
  if (!key.empty()) {
    std::string text;
    for (uint8_t b : sha) {
      text += kHex[b >> 4];
      text += kHex[b & 15];
    }
    text += " " + key + "\n";
    // Not saved (full disk, read-only state): hashed again at the next start, nothing else lost.
    (void)hal::writeFileAtomic(cachePath, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()),
                               0600);
  }
  return sha;
}

void prepareSystemPrompt(Brain::Impl& impl, const std::string& path) {
  const LocalModel& m = *impl.local;
  if (!m.chat || m.chat->defaultSystemPrompt().empty()) return;  // no system turn to keep (base models)
  const llm::ChatMessage sys[] = {{"system", m.chat->defaultSystemPrompt()}};
  std::vector<llm::TokenId> prefix = m.tokenizer->tokenize(m.chat->apply(sys, false), true, true);
  // Only what every request's prompt starts with, token for token (never a whole prompt).
  const std::vector<llm::TokenId> sample = m.tokenizer->tokenize(impl.localPrompt("?"), true, true);
  size_t shared = 0;
  while (shared < prefix.size() && shared + 1 < sample.size() && prefix[shared] == sample[shared]) ++shared;
  prefix.resize(shared);
  if (prefix.empty()) return;
  llm::PrefixIdentity id;
  const auto tSha = std::chrono::steady_clock::now();
  id.modelSha256 = modelIdentity(m.model->file(), path + ".model");
  const double shaMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - tSha).count();
  id.templateName = std::string(m.chat->name());
  id.backend = "cpu";  // GeneratorOptions' default, which loadLocal keeps
  id.contextTokens = static_cast<uint32_t>(m.generator->context().capacity());
  const bool existed = ::access(path.c_str(), F_OK) == 0;
  auto out = llm::restoreOrBuildPrefix(path, id, *m.generator, prefix);
  char line[160];
  if (!out) {
    impl.warnings.push_back("system prompt's KV not prepared (the first local answer computes it): " +
                            out.error().message);
    return;
  }
  std::snprintf(line, sizeof line, "system prompt's KV: %zu tokens %s in %.1f ms (model identity %.1f ms)",
                out->tokens, out->restored ? "restored" : "computed", out->ms, shaMs);
  impl.systemPromptReport = line;
  impl.systemPromptRestored = out->restored;
  if (!out->restored && existed) {
    impl.warnings.push_back("system prompt's KV file " + path + " rejected and rebuilt: " + out->why);
  }
  if (!out->saveError.empty()) {
    impl.warnings.push_back("system prompt's KV not saved (computed again at the next start): " + out->saveError);
  }
}

}  // namespace


Result<std::unique_ptr<Brain>> Brain::create(const BrainOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->mode = options.privacy;
  const BrainOptions& config = options;
  const std::string& stateDir = options.stateDir;
  const std::string& catalogue = options.cataloguePath;
  // The personal-data model lives beside the catalogue (/etc/sotto/pii.nlu); without it the rules alone decide.
  std::unique_ptr<privacy::PiiModel> piiModel;
  const std::string piiPath = piiModelPathBeside(catalogue);
  if (auto m = privacy::PiiModel::loadFile(piiPath)) {
    piiModel = std::move(*m);
  } else {
    impl->warnings.push_back("personal-data model unavailable (the rules alone decide what is private): " +
                             m.error().message);
  }
  auto pii = privacy::PiiClassifier::create(std::move(piiModel));
  if (!pii) return std::move(pii).error();  // no way to tell what may leave: refuse to start
  impl->pii = std::move(*pii);

  if (auto table = privacy::PolicyTable::fromNames(config.piiPolicy)) {
    impl->policy = *table;
  } else {
    return std::move(table).error();  // a config that says what may leave must be honoured exactly
  }

  // The daemon's state directory comes from systemd (StateDirectory=); the CLI may name a new one.
  std::error_code ec;
  if (!std::filesystem::exists(stateDir, ec) && std::filesystem::create_directories(stateDir, ec)) {
    std::filesystem::permissions(stateDir, std::filesystem::perms::owner_all, ec);
  }

  // The device key: encryption at rest (cache, audit log). Without it nothing is persisted and nothing escalates.
  hal::KeystoreSpec ks;
  ks.stateDir = stateDir;
  if (auto k = hal::KeystoreRegistry::instance().open(ks)) {
    impl->keystore = std::move(*k);
    privacy::AuditOptions ao;
    ao.dir = stateDir + "/" + privacy::kAuditDirName;
    ao.maxFileBytes = static_cast<uint64_t>(config.auditMaxFileKib) * 1024u;
    ao.maxFiles = config.auditFiles;
    auto auditKey = impl->keystore->deriveKey(privacy::kAuditKeyPurpose);
    if (!auditKey) {
      impl->warnings.push_back("cloud escalation disabled: no audit key: " + auditKey.error().message);
    } else if (auto log = privacy::AuditLog::open(ao, *auditKey)) {
      impl->audit = std::move(*log);
      for (const std::string& w : impl->audit->warnings()) impl->warnings.push_back("audit log: " + w);
    } else {
      impl->warnings.push_back("cloud escalation disabled: audit log: " + log.error().message);
    }
    if (auto ck = impl->keystore->deriveKey("cache")) impl->cacheKey = std::move(*ck);
    if (auto id = privacy::PseudonymousId::create(*impl->keystore, std::chrono::hours(config.deviceIdRotationH))) {
      impl->deviceId = std::move(*id);
    } else {
      impl->warnings.push_back("no pseudonymous device id: " + id.error().message);
    }
  } else {
    impl->warnings.push_back("no device key (answer cache not persisted, cloud escalation disabled): " +
                             k.error().message);
    // A key that exists but is unusable (truncated, wrong mode) is never replaced automatically: that would make
    // the audit log and the cache unreadable. A person decides; say how.
    impl->deviceKeyProblem =
        "device key unusable (" + k.error().message + "): cloud and answer cache are off until it is fixed: " +
        (k.error().code == Errc::not_found
             ? std::string("check that the state directory exists and is writable")
             : "restore " + stateDir + "/device.key from a backup, or delete it to make a new key at the next start "
                                       "(the audit log and cache written under the old key become unreadable)");
  }

  if (config.understander != nullptr) {
    impl->understanding = config.understander;  // the recognizer's, from the same catalogue: loaded once
  } else if (auto cat = intents::Catalogue::loadFile(catalogue)) {
    impl->matcher.emplace(std::move(*cat));
    // The trained model answers what the phrasings do not cover; without it intents still work, narrower.
    const std::string nluPath = nlu::modelPathFor(catalogue);
    std::vector<std::string> names;
    for (const auto& intent : impl->matcher->catalogue().intents()) names.push_back(intent.name);
    if (auto m = nlu::NluModel::loadFile(nluPath, names)) {
      impl->understandingModel = std::move(*m);
    } else {
      impl->warnings.push_back("understanding model unavailable (intents from the catalogue's phrasings only): " +
                               m.error().message);
    }
    auto u = nlu::Understander::create(*impl->matcher, impl->understandingModel.get());
    if (!u) {
      impl->warnings.push_back("understanding model not used (intents from the catalogue's phrasings only): " +
                               u.error().message);
      impl->understandingModel.reset();
      u = nlu::Understander::create(*impl->matcher, nullptr);
    }
    impl->understander.emplace(std::move(*u));
    impl->understanding = &*impl->understander;
  } else {
    impl->warnings.push_back("intents disabled: " + cat.error().message);
  }
  if (impl->understanding != nullptr) {
    impl->understandSpace = std::make_unique<nlu::UnderstandWorkspace>();
    impl->handlers = std::make_unique<intents::IntentHandlers>(intents::IntentHandlers::Options{stateDir},
                                                               impl->clock, impl->zone);
    const intents::StartReport report = impl->handlers->start();
    for (const std::string& w : report.warnings) impl->warnings.push_back("intents: " + w);
    for (const intents::Announcement& a : report.announcements) impl->startAnnouncements.push_back(a.speech);
  }

  const std::string& modelPath = config.modelPath;
  if (!modelPath.empty()) {
    // One pool for every generator of the model (they run on this thread one at a time), its workers pinned to
    // threads.llm-cpus when set.
    hal::ThreadPoolOptions po;
    po.threads = std::max(1u, config.llmThreads);
    po.cpus = config.llmCpus;
    po.name = "sotto-llm";
    if (auto pool = hal::ThreadPool::create(po)) {
      impl->llmPool = std::move(*pool);
    } else {
      impl->warnings.push_back("local model disabled: its threads: " + pool.error().message);
    }
    if (!impl->llmPool) {
      // reported above
    } else if (auto m = loadLocal(modelPath, config, *impl->llmPool)) {
      impl->local = std::move(*m);
      if (config.mlockModel && !impl->local->model->file().locked()) {
        // Still answering, from pages the kernel may evict under memory pressure: say so and how to fix it.
        impl->modelLockProblem = "model not locked in memory (model.mlock): " + impl->local->model->file().lockError() +
                                 "; raise the memory-lock limit (LimitMEMLOCK=) or set model.mlock=false";
        impl->warnings.push_back(impl->modelLockProblem);
      }
      if (config.prefixCache) {
        prepareSystemPrompt(*impl, stateDir + "/" + kSystemPromptKvFile);
      } else {
        impl->systemPromptReport = "system prompt's KV: not kept (model.prefix-cache is off: every prompt is "
                                   "evaluated whole)";
      }
    } else {
      impl->warnings.push_back("local model disabled: " + m.error().message);
    }
  }

  if (config.cacheExactEntries > 0 || config.cacheSemanticEntries > 0) {
    cache::CacheOptions co;
    co.exactEntries = config.cacheExactEntries;
    co.ttlTimeSensitiveS = config.cacheTtlTimeSensitiveS;
    co.ttlStaticS = config.cacheTtlStaticS;
    co.semanticThreshold = static_cast<float>(config.cacheSemanticThresholdPct) / 100.0f;
    co.warmStartEntries = config.cacheWarmStartEntries;
    co.maxAnswerBytes = config.cacheMaxAnswerBytes;
    co.semanticEntries = 0;
    const std::string calibrationPath = stateDir + "/semantic-calibration";
    std::string calibrationKey;
    if (impl->local && config.cacheSemanticEntries > 0) {
      // Embeddings from the local model, on a generator of its own with a short context.
      llm::GeneratorOptions go;
      go.context.pool = impl->llmPool.get();
      go.context.nCtx = 256;
      if (auto g = llm::Generator::create(*impl->local->model, *impl->local->tokenizer, go)) {
        impl->embedGenerator = std::move(*g);
        impl->embedder = std::make_unique<cache::GeneratorEmbedder>(*impl->embedGenerator);
        co.semanticEntries = config.cacheSemanticEntries;
        co.calibrateSemantic = true;  // the model's own similarity of unrelated requests sets the threshold
        // Remembered per model file (path, size, modification time, embedding size): a restart does not embed the
        // calibration prompts again.
        if (struct stat st {}; ::stat(modelPath.c_str(), &st) == 0) {
          calibrationKey = modelPath + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) +
                           "." + std::to_string(st.st_mtim.tv_nsec) + " " +
                           std::to_string(impl->embedder->dimension());
          if (auto saved = hal::readFile(calibrationPath, 4096)) {
            const std::string text(saved->begin(), saved->end());
            co.knownCalibration = cache::parseCalibration(text, calibrationKey, co.semanticThreshold);
          }
        }
      } else {
        impl->warnings.push_back("semantic cache disabled: " + g.error().message);
      }
    }
    if (auto c = cache::AnswerCache::create(co, *impl->pii, impl->embedder.get())) {
      impl->cache = std::move(*c);
      if (const cache::SemanticCalibration& cal = impl->cache->calibration(); cal.ran) {
        if (!cal.remembered && !calibrationKey.empty()) {
          const std::string text = cache::serializeCalibration(cal, calibrationKey);
          // Not saved (disk full, read-only state): measured again at the next start, nothing else lost.
          if (!text.empty())
            (void)hal::writeFileAtomic(calibrationPath,
                                       std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()),
                                       0600);
        }
        impl->semanticCacheOff = !cal.usable;
        impl->semanticCacheReport =
            (cal.usable ? "semantic cache calibrated on the local model: " : "semantic cache off: ") + cal.summary();
      }
      impl->cachePath = stateDir + "/answers.cache";
      if (impl->cacheKey) {
        if (auto rep = impl->cache->load(impl->cachePath, impl->cacheKey->bytes())) {
          if (rep->discarded) impl->warnings.push_back("answer cache discarded: " + rep->reason);
        } else {
          impl->warnings.push_back("answer cache not loaded: " + rep.error().message);
        }
      }
    } else {
      impl->warnings.push_back("answer cache disabled: " + c.error().message);
    }
  }

  const std::string& endpoint = config.cloud.endpoint;
  if (!endpoint.empty()) {
    // Creating the client opens nothing: no socket exists until a request is routed to the cloud.
    if (auto c = cloud::CloudClient::create(config.cloud)) {
      impl->cloud = std::move(*c);
      impl->cloudHost = hostOf(endpoint);
    } else {
      impl->warnings.push_back("cloud escalation disabled: " + c.error().message);
    }
  }

  router::RouterOptions ro = config.router;
  ro.cloudConfigured = impl->cloud != nullptr && impl->audit != nullptr;
  ro.logDecisions = config.logDecisions;
  ro.capsFile = stateDir + "/" + router::kCostCapsFileName;  // a restart must not reset the cost caps
  auto router = router::Router::create(ro);
  if (!router) return std::move(router).error();
  impl->router = std::move(*router);
  if (std::string w = impl->router->restoreCaps(now()); !w.empty()) impl->warnings.push_back(w);
  return std::unique_ptr<Brain>(new Brain(std::move(impl)));
}

}  // namespace sotto::answer
