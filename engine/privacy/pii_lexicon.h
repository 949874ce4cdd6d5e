// SPDX-License-Identifier: MIT
// Internal: word and phrase tables (names, medical terms, street and place words, cue words) behind one lookup.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace sotto::privacy {

// Lexicon classes; a word may carry several.
namespace lex {
inline constexpr std::uint32_t firstName = 1u << 0;
inline constexpr std::uint32_t surname = 1u << 1;
inline constexpr std::uint32_t common = 1u << 2;      // ordinary English word: never a name on its own
inline constexpr std::uint32_t relation = 1u << 3;    // mom, sister, boss: people without a name
inline constexpr std::uint32_t condition = 1u << 4;   // medical condition (word or phrase)
inline constexpr std::uint32_t medication = 1u << 5;  // drug name (word or phrase)
inline constexpr std::uint32_t streetType = 1u << 6;  // street, avenue, rd, ...
inline constexpr std::uint32_t placeHead = 1u << 7;   // hospital, school, gym, ... (last word of a named place)
inline constexpr std::uint32_t region = 1u << 8;      // US state / UK nation names and codes
inline constexpr std::uint32_t month = 1u << 9;
inline constexpr std::uint32_t tld = 1u << 10;        // com, org, io, ...
inline constexpr std::uint32_t famous = 1u << 11;     // very famous people's names (public-figure guard)
inline constexpr std::uint32_t unit = 1u << 12;       // minutes, dollars, percent: a number before it is not an age
inline constexpr std::uint32_t unitWord = 1u << 13;   // apartment, apt, unit, flat, suite
inline constexpr std::uint32_t function = 1u << 14;   // pronouns, articles, prepositions, auxiliaries
inline constexpr std::uint32_t placeQualifier = 1u << 15;  // "medical", "elementary": inside a place name
// Never a name's first or last word: titles, wake words, fillers and form labels around names ("nurse [teodor
// juarez]", "[joy ortega] cheers", "patient [x] age"). Past bit 15, so no feature of the trained model.
inline constexpr std::uint32_t notName = 1u << 16;
// Care that is also the name of where it is given ("on dialysis" and "Tallow Lane Dialysis Centre"): health for
// the rules, outside a place's name; no feature of the model, whose place names broke on them as one.
inline constexpr std::uint32_t care = 1u << 17;
// A public figure WordNet names ("john smith", the explorer, among them): a public one only where the request is
// about public figures (a knowledge question, media); "call john smith" is a contact. No feature of the model.
inline constexpr std::uint32_t publicFigure = 1u << 18;
// Street types and regions that are also people's names ("chase", "glen", "park"; "victoria", "kerry", "clare"):
// for the address rule only, so that no name check reads "did kerry call" as a place. No feature of the model.
inline constexpr std::uint32_t streetTypeAlt = 1u << 19;
inline constexpr std::uint32_t regionAlt = 1u << 20;
}  // namespace lex

// Threads: built once by create() (control thread); then read-only, any thread, no allocation.
class PiiLexicon {
 public:
  PiiLexicon();  // builds and sorts every table (allocates)
  // Flags of a normalized word or space-joined phrase; 0 when unknown.
  std::uint32_t lookup(std::string_view key) const noexcept;
  std::size_t size() const noexcept { return entries_.size(); }
  // True when a lowercase word, or the word without a regular inflection ("barking", "upped", "babies"), is an
  // ordinary English word (WordNet; a Bloom filter, so about 0.3 % of other words answer true as well).
  bool englishWord(std::string_view word) const noexcept;
  // True when a word of 7 to 32 letters is one typing or hearing slip (a letter dropped, added, changed or two
  // swapped) from a one-word condition or medication the lexicon lists: "arthritus", "migranes", "metforman".
  bool nearMedical(std::string_view word) const noexcept;

 private:
  struct Entry {
    std::string_view key;  // points into static string tables
    std::uint32_t flags;
  };
  void addList(std::string_view spaceSeparated, std::uint32_t flags);
  void addPhrases(std::string_view commaSeparated, std::uint32_t flags);
  std::vector<Entry> entries_;
  std::vector<std::uint8_t> english_;  // kEnglishFilterBits bits
  // Sorted hashes of each one-word medical term and of the term with one letter deleted (a deletion neighbourhood:
  // two words one edit apart share a member).
  std::vector<std::uint64_t> medicalNear_;
  bool inEnglishFilter(std::string_view w) const noexcept;
};

}  // namespace sotto::privacy

namespace sotto::privacy::detail {
// Word tables (space-separated words, or comma-separated phrases), defined in pii_lexicon_*.cpp.
extern const std::string_view kFirstNames;
extern const std::string_view kSurnames;
extern const std::string_view kFamousPeople;     // comma-separated full names
extern const std::string_view kConditionWords;   // single-word conditions
extern const std::string_view kConditionPhrases; // comma-separated multi-word conditions
extern const std::string_view kMedications;      // single-word drug names (generic and brand)
extern const std::string_view kWordNetConditions;   // comma-separated, generated from WordNet (gen_pii_medical.py)
extern const std::string_view kWordNetMedications;  // comma-separated, generated from WordNet (gen_pii_medical.py)
extern const std::string_view kCarePhrases;         // comma-separated, lex::care
// Given names and surnames of some sixty locales (pii_names_data.cpp, by gen_pii_names.py), space-separated, in
// parts: added only where the hand-written lists do not know the word (those decide for words that are also
// something else).
extern const std::string_view kLocaleFirstNames[];
extern const std::size_t kLocaleFirstNamesParts;
extern const std::string_view kLocaleSurnames[];
extern const std::size_t kLocaleSurnamesParts;
extern const std::string_view kWordNetFamousPeople[];  // comma-separated full names, in parts (pii_names_data.cpp)
extern const std::size_t kWordNetFamousPeopleParts;
extern const std::string_view kWordNetCountries;     // comma-separated (pii_names_data.cpp): lex::famous
// The English-word Bloom filter (pii_english_data.cpp, by gen_pii_english.py): kEnglishFilterBits bits, base64 in
// kEnglishFilterParts consecutive parts (each decodes on its own).
inline constexpr std::size_t kEnglishFilterParts = 4;
extern const std::string_view kEnglishFilterBase64[kEnglishFilterParts];
inline constexpr std::size_t kEnglishFilterBits = std::size_t{1} << 20;
inline constexpr unsigned kEnglishFilterProbes = 4;
}  // namespace sotto::privacy::detail
