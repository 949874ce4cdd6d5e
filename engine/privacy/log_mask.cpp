// SPDX-License-Identifier: MIT
// Log masking of PII spans (see log_mask.h).
#include "engine/privacy/log_mask.h"

#include "engine/privacy/anonymizer.h"
#include "sotto/hal/log.h"

namespace sotto::privacy {
namespace {

std::string unclassified(std::string_view text) {
  return "[UNCLASSIFIED " + std::to_string(text.size()) + " bytes]";
}

}  // namespace

std::string maskPii(std::string_view text, const SpanBuffer& spans) {
  if (spans.overflowed()) return unclassified(text);
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  for (const PiiSpan& s : spans) {
    const ByteRange r = byteRangeOf(text, s);
    if (r.begin < at) return unclassified(text);  // malformed span list: mask everything rather than guess
    out.append(text.substr(at, r.begin - at));
    out += '[';
    out += piiTypeName(s.type);
    out += ']';
    at = r.end;
  }
  if (at < text.size()) out.append(text.substr(at));
  return out;
}

std::string maskedForLog(const PiiClassifier& classifier, std::string_view text) {
  SpanBuffer spans;
  if (!classifier.classify(text, spans)) return unclassified(text);
  return maskPii(text, spans);
}

void logUtteranceDebug(const PiiClassifier& classifier, const char* stage, const char* code, std::string_view text) {
  if (log::level() < log::Level::debug) return;  // not even classified: no raw or masked text at info and above
  const std::string masked = maskedForLog(classifier, text);
  log::write(log::Level::debug, stage, code, "utterance: %s", masked.c_str());
}

}  // namespace sotto::privacy
