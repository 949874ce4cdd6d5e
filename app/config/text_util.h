// SPDX-License-Identifier: MIT
// Small text helpers for the config loader: quoting values in messages, UTF-8 checks, "did you mean" suggestions.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sotto::config::detail {

// A value as shown in a message: in double quotes, control characters and invalid UTF-8 escaped (\n, \xNN),
// cut after maxBytes so that one message stays one readable line whatever the file holds.
std::string quote(std::string_view value, std::size_t maxBytes = 64);

// A name (element, attribute, setting path) as shown in a message: cut after maxBytes, escaped like quote().
std::string clip(std::string_view name, std::size_t maxBytes = 64);

// Offset of the first byte that is not part of well-formed UTF-8 (overlong forms, surrogates and code points
// above U+10FFFF are malformed), or nullopt when all of text is well formed.
std::optional<std::size_t> firstInvalidUtf8(std::string_view text);

// 1-based line number of the byte at offset.
int lineAt(std::string_view text, std::size_t offset);

// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), the typo model for suggestions.
std::size_t editDistance(std::string_view a, std::string_view b);

// The candidate closest to word when it is close enough to be a plausible typo (at most 2 edits and at most a
// third of the candidate's length) or abbreviation (a prefix of 3 or more characters); the first one in candidates
// order wins ties.
std::optional<std::string_view> closest(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace sotto::config::detail
