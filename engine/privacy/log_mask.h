// SPDX-License-Identifier: MIT
// Log masking: utterance text for logs with every PII span replaced by its type ("call [PERSON] at [PHONE]").
#pragma once

#include <string>
#include <string_view>

#include "engine/privacy/pii.h"

namespace sotto::privacy {

// text with each span replaced by "[TYPE]". An overflowed span buffer masks the whole text (what was not
// recorded may be personal): "[UNCLASSIFIED n bytes]". Any thread; allocates.
std::string maskPii(std::string_view text, const SpanBuffer& spans);

// text for a log line: classified with `classifier`, then masked; "[UNCLASSIFIED n bytes]" when classification
// fails (too long). Any non-real-time thread; allocates (the classifier's stack use aside).
std::string maskedForLog(const PiiClassifier& classifier, std::string_view text);

// THE way to log an utterance: nothing unless the log level is debug, and then only the masked text.
// stage/code as for sotto::log::write. Any non-real-time thread; blocks on log I/O when it logs.
void logUtteranceDebug(const PiiClassifier& classifier, const char* stage, const char* code, std::string_view text);

}  // namespace sotto::privacy
