// SPDX-License-Identifier: MIT
// Second pass of the wake word: re-scores a candidate detection's audio, the phrase against a free phone loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "engine/speech/sphinx.h"
#include "sotto/hal/result.h"

namespace sotto::speech {

// The keyphrase search alone cannot both hear unfamiliar voices and ignore "my computer ..." (its competing phone
// loop decides both at once). The verifier decodes the candidate's last second or two again with a second,
// preallocated decoder: a grammar "[phones] PHRASE [phones]", and per word of the phrase the same grammar with that
// word replaced by free phones. The phrase's worst score difference per frame against those (a log-likelihood
// ratio, pocketsphinx score units per second of audio) is near 0 when every word is really there and negative when a
// word is not ("MY computer"); a phrase grammar that cannot reach its end (pruned away) is a reject.
class WakeVerifier {
 public:
  // Control thread (loads the model, blocks). `pronunciation` as in WakeConfig; phrase lowercased, words known.
  static Result<std::unique_ptr<WakeVerifier>> create(const std::string& acousticModel, const std::string& dictionary,
                                                      const std::string& phrase, const std::string& pronunciation);

  // Owner thread (the speech thread); ~0.2 s of CPU per second of audio, pocketsphinx allocates inside.
  // Returns the score per second, or nothing when the phrase could not be aligned at all.
  std::optional<int32_t> score(std::span<const int16_t> samples) noexcept;

 private:
  WakeVerifier() = default;
  std::optional<int32_t> decode(const char* search, std::span<const int16_t> samples, int* frames) noexcept;
  static constexpr size_t kMaxWords = 8;  // words of the phrase verified one by one (the rest are not)
  detail::DecoderPtr ps_;
  size_t words_ = 0;
};

}  // namespace sotto::speech
