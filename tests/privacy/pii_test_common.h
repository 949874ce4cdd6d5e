// SPDX-License-Identifier: MIT
// Shared fixture: one classifier for the whole test program, and "TYPE=value" renderings of its spans.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/privacy/pii.h"

namespace sotto::privacy::test {

inline const PiiClassifier& classifier() {
  static std::unique_ptr<PiiClassifier> c = [] {
    auto r = PiiClassifier::create();
    EXPECT_TRUE(r.ok());
    return std::move(r).value();
  }();
  return *c;
}

// Byte offset of code point index cp in UTF-8 text.
inline std::size_t byteOf(const std::string& text, std::uint32_t cp) {
  std::size_t b = 0;
  for (std::uint32_t k = 0; k < cp && b < text.size(); ++k) {
    ++b;
    while (b < text.size() && (static_cast<unsigned char>(text[b]) & 0xC0) == 0x80) ++b;
  }
  return b;
}

// "PHONE=five five five ..." for each span, in order.
inline std::vector<std::string> found(const std::string& text) {
  SpanBuffer buf;
  EXPECT_TRUE(classifier().classify(text, buf).ok());
  std::vector<std::string> out;
  for (const auto& s : buf) {
    const std::size_t b0 = byteOf(text, s.start), b1 = byteOf(text, s.end);
    out.push_back(std::string(piiTypeName(s.type)) + "=" + text.substr(b0, b1 - b0));
  }
  return out;
}

using Spans = std::vector<std::string>;

}  // namespace sotto::privacy::test
