// SPDX-License-Identifier: MIT
// Log masking: spans become [TYPE]; unclassifiable text is masked whole; debug logging only, masked.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "engine/privacy/log_mask.h"
#include "sotto/hal/log.h"

namespace sotto::privacy {
namespace {

TEST(LogMask, SpansBecomeTheirType) {
  SpanBuffer b;
  b.push(PiiSpan{5, 9, PiiType::person});
  b.push(PiiSpan{13, 21, PiiType::phone});
  EXPECT_EQ(maskPii("call john at 555 0123 now", b), "call [PERSON] at [PHONE] now");
  EXPECT_EQ(maskPii("nothing here", SpanBuffer{}), "nothing here");
  SpanBuffer utf8;
  utf8.push(PiiSpan{4, 7, PiiType::person});  // "Zoë"
  EXPECT_EQ(maskPii("ask Zoë ✓", utf8), "ask [PERSON] ✓");
  SpanBuffer over;
  for (std::size_t i = 0; i <= SpanBuffer::kCapacity; ++i) over.push(PiiSpan{0, 1, PiiType::age});
  EXPECT_EQ(maskPii("abc", over), "[UNCLASSIFIED 3 bytes]");
}

class LogMaskClassifier : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto c = PiiClassifier::create();
    ASSERT_TRUE(c.ok());
    classifier_ = std::move(c).value().release();
  }
  static void TearDownTestSuite() { delete classifier_; }
  static PiiClassifier* classifier_;
};
PiiClassifier* LogMaskClassifier::classifier_ = nullptr;

TEST_F(LogMaskClassifier, RealUtterancesLoseTheirValues) {
  const std::string spoken = "call me at five five five oh one two three";
  const std::string masked = maskedForLog(*classifier_, spoken);
  EXPECT_NE(masked.find("[PHONE]"), std::string::npos) << masked;
  EXPECT_EQ(masked.find("five five"), std::string::npos) << masked;
  const std::string card = "my card number is 4111 1111 1111 1111";
  EXPECT_EQ(maskedForLog(*classifier_, card), "my card number is [CREDIT_CARD]");
  EXPECT_EQ(maskedForLog(*classifier_, std::string(PiiClassifier::kMaxTextBytes + 1, 'a')),
            "[UNCLASSIFIED 4097 bytes]");
}

// Captures what the logger writes to stderr during fn.
template <typename Fn>
std::string captureStderr(Fn fn) {
  std::fflush(stderr);
  char path[] = "/tmp/sotto-logmask-XXXXXX";
  const int fd = ::mkstemp(path);
  const int saved = ::dup(2);
  ::dup2(fd, 2);
  fn();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  ::close(fd);
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  ::unlink(path);
  return ss.str();
}

TEST_F(LogMaskClassifier, UtterancesAreLoggedOnlyAtDebugAndMasked) {
  log::init(log::Level::info, log::Sink::stderr_);
  const std::string text = "my pin is one two three four";
  std::string out = captureStderr([&] { logUtteranceDebug(*classifier_, "brain", "utterance", text); });
  EXPECT_EQ(out, "");
  log::setLevel(log::Level::debug);
  out = captureStderr([&] { logUtteranceDebug(*classifier_, "brain", "utterance", text); });
  log::setLevel(log::Level::info);
  EXPECT_NE(out.find("[PIN_OR_PASSWORD]"), std::string::npos) << out;
  EXPECT_EQ(out.find("one two three four"), std::string::npos) << out;
}

}  // namespace
}  // namespace sotto::privacy
