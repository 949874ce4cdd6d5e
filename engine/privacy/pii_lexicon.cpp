// SPDX-License-Identifier: MIT
// The lexicon: cue and function words, street/place/region vocabularies, and the sorted lookup over all tables.
#include "engine/privacy/pii_lexicon.h"

#include <sodium.h>

#include <algorithm>

namespace sotto::privacy {
namespace {

using detail::kConditionPhrases;
using detail::kConditionWords;
using detail::kFamousPeople;
using detail::kFirstNames;
using detail::kMedications;
using detail::kWordNetConditions;
using detail::kWordNetMedications;
using detail::kSurnames;

// Words that are never a name on their own in an utterance (verbs, nouns and adjectives a speaker is likely to
// use after "call", "text", "remind" ... or at the start of a sentence).
constexpr std::string_view kCommon =
    "a an the and or but if so then than that this these those there here it its it's is are was were be been "
    "am i i'm i'd i'll i've me my mine we us our you your he him his she her they them their who whom whose "
    "what what's which where when why how all any some no not none one ones every each both either neither "
    "to at in on of for from with by about into onto over under up down out off back away around near "
    "again also just only still even too very much many more most less few lot lots "
    "call calls calling called text texts texting message email emails mail phone ring dial send sends sent "
    "tell tells told ask asks remind reminds invite pay pays paid update add set make get got give go goes "
    "going gone went come comes came take takes took taking put let let's see look find show play stop start "
    "turn open close check cancel book order buy share forward reply answer read write note save delete "
    "remove change move meet meeting visit pick drop bring leave wake help thank thanks please okay ok yes "
    "hey hi hello good morning night today tomorrow tonight yesterday now later soon week weekend month "
    "year years day days time times minute minutes hour hours second seconds am pm noon midnight "
    "monday tuesday wednesday thursday friday saturday sunday "
    "number numbers phone address name name's email password pin code account card birthday "
    "home work office school store shop house place room car garage door kitchen bedroom "
    "dinner lunch breakfast milk food water coffee tea pizza groceries list shopping receipt bill rent "
    "package news weather music song songs album movie show video podcast radio tv lights light "
    "timer alarm reminder calendar appointment schedule event party "
    "new old big small first last next other same own sure fine great nice happy ready late early "
    "everyone everybody someone somebody anyone anybody nobody people person guy guys team family "
    "friends friend kids kid children child baby babies doctor dentist nurse teacher "
    "back forth yet already maybe probably really right left straight "
    "don't doesn't didn't can can't could couldn't will won't would wouldn't should shouldn't "
    "do does did have has had having may might must shall need needs want wants like likes love loves "
    "know knows think say says said "
    "directions weather restaurant nearest closest best "
    "street road avenue lane drive way court place "
    "dot underscore dash plus minus times divided equals percent "
    "mister mr mrs ms miss dr sir madam "
    "yes no hmm uh um "
    "lives works takes attends goes has teaches studies volunteers needs uses wants gets moved started "
    "date social iban security birth appointment ip wifi router card visa amex mastercard";

// Words that sit beside names but are never one (lex::notName): wake words and greetings, fillers, sign-offs,
// titles and form labels. Written from how people address and introduce others, not from any test set.
constexpr std::string_view kNotNames =
    "sotto computer alexa siri google assistant speaker hey hi hiya yo oi hello erm er um uh ah oh ok okay "
    "alright right so well sorry listen quick question cheers thanks ta please speaking here there "
    "born age aged patient holder register name named called social condition account acct number num id address "
    "dob "
    "whether bro bruv dude guys lol pls plz thx ya yeah yep nope innit year-old years-old yr-old yrs-old "
    "month-old we've i've you've they've we'd i'd you'd he'd she'd they'd we'll i'll you'll he'll she'll they'll "
    "that's there's here's what's who's where's how's let's can't don't won't didn't isn't aren't wasn't weren't "
    "hasn't haven't couldn't shouldn't wouldn't mon tue tues wed thu thur thurs fri sat sun monday tuesday "
    "wednesday thursday friday saturday sunday tmrw tmr tonite asap "
    "try upped port passcode passphrase password pin "
    "judge pastor nurse professor prof doctor doc dr aunt auntie uncle grandma grandpa granny gran nana "
    "coach officer captain sergeant detective reverend rev father rabbi imam lord lady sir dame mr mrs ms miss "
    "mx mister madam my your his her their our the a an and or with from to for at of about "
    "barclays westpac monzo santander hsbc natwest citibank "
    "ssn pw pwd icloud wifi login username admin job "
    // Apps, services and banks said beside people and their data ("message summer on whatsapp").
    "whatsapp facetime skype zoom spotify netflix hulu disney instagram facebook tiktok snapchat youtube telegram "
    "messenger venmo paypal zelle cashapp amazon uber lyft doordash ubereats grubhub instacart gmail outlook hotmail "
    "yahoo dropbox slack teams discord reddit twitter linkedin pinterest airbnb ebay etsy lloyds chase wellsfargo "
    "fargo amex bitcoin coinbase keysafe keybox";

constexpr std::string_view kRelations =
    "mom mum mommy mummy mother dad daddy father parents parent son daughter kids kid child children "
    "baby brother sister sibling siblings wife husband spouse partner boyfriend girlfriend fiance fiancee "
    "grandma grandpa granny grandmother grandfather grandparents grandson granddaughter aunt uncle cousin "
    "grandad granddad gran nan nana grampa gramps "
    "niece nephew boss manager coworker co-worker colleague neighbor neighbour landlord landlady roommate "
    "flatmate babysitter nanny teacher doctor dentist therapist plumber electrician mechanic friend friends "
    "bestie buddy mate stepmom stepdad stepson stepdaughter in-laws father-in-law mother-in-law team";

// Street-type words (full and abbreviated), the end of a street name.
constexpr std::string_view kStreetTypes =
    "street st avenue ave av road rd lane ln drive dr court ct boulevard blvd way place pl terrace ter "
    "crescent cres close circle cir parkway pkwy highway hwy square sq row grove gardens trail trl path "
    "alley walk mews hill rise view broadway plaza loop run pike turnpike expressway esplanade parade "
    "wynd quay strasse rue calle via";

// Street types of Irish, British and Australian addresses that are also names or plain words ("78 Ashgrove Park",
// "fairview lawn", "glenview heights"): the address rule reads them as street types, no name check does.
constexpr std::string_view kStreetTypesAlt =
    "heights lawn lawns park green vale dale grange meadows meadow glade glen brae chase crest ridge point cove "
    "gate downs fields estate";

// Heads of named places (the last word of "greenfield middle school", "mercy general hospital").
constexpr std::string_view kPlaceHeads =
    "hospital clinic infirmary hospice school academy college university campus kindergarten preschool "
    "nursery daycare montessori gym fitness gymnasium church cathedral chapel mosque synagogue temple "
    "mall office offices headquarters hq factory plant warehouse library center centre institute "
    "laboratory lab studio studios pharmacy surgery practice home homes living residence manor lodge "
    "apartments tower towers plaza park club stadium arena theatre theater museum hotel inn resort "
    "bank branch depot station base prison jail court courthouse hall elementary primary house mosque "
    "intermediate parish insurance solicitors accountants associates motors works printworks garage dental "
    "surgery veterinary vets salon barbers lodge kindergarten creche secondary grammar masjid gurdwara mandir "
    "shul kirk abbey priory";

constexpr std::string_view kPlaceQualifiers =
    "medical general memorial community regional children's childrens university county city saint st "
    "st. high middle elementary primary secondary junior senior care nursing retirement assisted "
    "rehabilitation rehab health dental veterans technical state public private catholic baptist "
    "methodist lutheran presbyterian grace hope mercy sacred heart trinity christian islamic jewish "
    "business tech science research family sports fitness yoga martial arts shopping outlet";

constexpr std::string_view kRegions =
    "alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho "
    "illinois indiana iowa kansas kentucky louisiana maine maryland massachusetts michigan minnesota "
    "mississippi missouri montana nebraska nevada ohio oklahoma oregon pennsylvania tennessee texas utah "
    "vermont virginia washington wisconsin wyoming "
    "al ak az ar ca co ct de fl ga hi id il in ia ks ky la me md ma mi mn ms mo mt ne nv nh nj nm ny nc nd "
    "oh ok or pa ri sc sd tn tx ut vt va wa wv wi wy dc "
    "england scotland wales ontario quebec alberta";

// Australian states and Irish counties after a city ("brunswick victoria", "douglas, cork"): for the address rule
// only ("victoria", "kerry" and "clare" are people's names too).
constexpr std::string_view kRegionsAlt =
    "nsw vic qld tas nt act sa tasmania queensland victoria "
    "dublin cork galway kerry limerick waterford wexford wicklow kildare meath louth mayo sligo donegal clare "
    "tipperary kilkenny carlow laois offaly westmeath longford leitrim roscommon cavan monaghan";

constexpr std::string_view kRegionPhrases =
    "new hampshire,new jersey,new mexico,new york,north carolina,north dakota,rhode island,south carolina,"
    "south dakota,west virginia,british columbia,northern ireland,district of columbia,nova scotia,new brunswick";
constexpr std::string_view kRegionPhrasesAlt =
    "new south wales,western australia,south australia,northern territory,australian capital territory";

constexpr std::string_view kMonths =
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec";

constexpr std::string_view kTlds =
    "com org net io co uk de fr es it nl edu gov us ca au in jp me info biz app dev ai tech ie ch se no dk "
    "fi pl pt br mx nz za ru cn kr fm tv ly gg xyz online site cloud page email live";

constexpr std::string_view kUnits =
    "minute minutes min mins hour hours hr hrs second seconds sec secs day days week weeks month months "
    "dollars dollar bucks euros euro pounds pound cents percent degrees degree miles mile kilometers km "
    "meters feet foot inches inch kilos kilograms grams pounds lbs ounces times o'clock am pm a.m. p.m. "
    "points point people things items pages steps calories year-old years-old yr-old yrs-old month-old";

constexpr std::string_view kUnitWords = "apartment apt unit flat suite ste room floor fl building bldg";

constexpr std::string_view kFunction =
    "a an the and or but to at in on of for from with by is are was were be am i i'm me my we our you your "
    "he him his she her they them their it it's its this that these those there here not no so as if";

constexpr std::size_t kMaxNearWord = 32;
constexpr std::size_t kMinNearWord = 7;  // shorter names and words lie one slip from too many terms

// FNV-1a of a word without its letter at skip (skip == size: the whole word), seeded by a tag that keeps the kinds
// apart: kWholeTag a whole term, 0 a term less one letter anywhere, k + 1 less its letter at k (so that only a
// change at the same place matches, never two slips).
constexpr std::size_t kWholeTag = 1u << 20;
std::uint64_t hashSkipping(std::string_view w, std::size_t skip, std::size_t tag) noexcept {
  std::uint64_t h = (1469598103934665603ull ^ (tag * 0x9e3779b97f4a7c15ull)) * 1099511628211ull;
  for (std::size_t k = 0; k < w.size(); ++k) {
    if (k == skip) continue;
    h ^= static_cast<unsigned char>(w[k]);
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace

void PiiLexicon::addList(std::string_view s, std::uint32_t flags) {
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    std::size_t j = i;
    while (j < s.size() && s[j] != ' ') ++j;
    if (j > i) entries_.push_back(Entry{s.substr(i, j - i), flags});
    i = j;
  }
}

void PiiLexicon::addPhrases(std::string_view s, std::uint32_t flags) {
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t j = s.find(',', i);
    if (j == std::string_view::npos) j = s.size();
    if (j > i) entries_.push_back(Entry{s.substr(i, j - i), flags});
    i = j + 1;
  }
}

PiiLexicon::PiiLexicon() {
  entries_.reserve(4096 + 26000);
  addList(kFirstNames, lex::firstName);
  addList(kSurnames, lex::surname);
  addList(kCommon, lex::common);
  addList(kRelations, lex::relation);
  addList(kConditionWords, lex::condition);
  addPhrases(kConditionPhrases, lex::condition);
  addList(kMedications, lex::medication);
  addPhrases(kWordNetConditions, lex::condition);
  addPhrases(kWordNetMedications, lex::medication);
  addList(kStreetTypes, lex::streetType);
  addList(kStreetTypesAlt, lex::streetTypeAlt);
  addList(kRegionsAlt, lex::regionAlt);
  addPhrases(kRegionPhrasesAlt, lex::regionAlt);
  addList(kPlaceHeads, lex::placeHead);
  addList(kPlaceQualifiers, lex::placeQualifier);
  addList(kRegions, lex::region);
  addPhrases(kRegionPhrases, lex::region);
  addList(kMonths, lex::month);
  addList(kTlds, lex::tld);
  addPhrases(kFamousPeople, lex::famous);
  for (std::size_t p = 0; p < detail::kWordNetFamousPeopleParts; ++p) {
    addPhrases(detail::kWordNetFamousPeople[p], lex::publicFigure);
  }
  addList(kUnits, lex::unit);
  addList(kUnitWords, lex::unitWord);
  addList(kFunction, lex::function);
  addList(kNotNames, lex::notName);
  addPhrases(detail::kCarePhrases, lex::care);
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
  // Merge duplicates: one entry per key carrying every class it was listed under.
  std::size_t w = 0;
  for (std::size_t r = 0; r < entries_.size(); ++r) {
    if (w > 0 && entries_[w - 1].key == entries_[r].key) {
      entries_[w - 1].flags |= entries_[r].flags;
    } else {
      entries_[w++] = entries_[r];
    }
  }
  entries_.resize(w);
  // The locales' names, for words the lists above do not know: a hand-listed word keeps its own classes ("the",
  // "miles" and "angeles" are in some locale's surname list too).
  const std::size_t known = entries_.size();
  const auto addUnknown = [&](std::string_view list, std::uint32_t flags) {
    std::size_t i = 0;
    while (i < list.size()) {
      while (i < list.size() && list[i] == ' ') ++i;
      std::size_t j = i;
      while (j < list.size() && list[j] != ' ') ++j;
      const std::string_view key = list.substr(i, j - i);
      if (!key.empty()) {
        const auto it = std::lower_bound(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(known), key,
                                         [](const Entry& e, std::string_view k) { return e.key < k; });
        if (it == entries_.begin() + static_cast<std::ptrdiff_t>(known) || it->key != key) {
          entries_.push_back(Entry{key, flags});
        }
      }
      i = j;
    }
  };
  for (std::size_t p = 0; p < detail::kLocaleFirstNamesParts; ++p) addUnknown(detail::kLocaleFirstNames[p], lex::firstName);
  for (std::size_t p = 0; p < detail::kLocaleSurnamesParts; ++p) addUnknown(detail::kLocaleSurnames[p], lex::surname);
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
  // Countries are public places, no one's name: famous, unless a list has the word as a name ("jordan", "chad").
  {
    const std::size_t before = entries_.size();
    std::string_view list = detail::kWordNetCountries;
    while (!list.empty()) {
      const std::size_t comma = list.find(',');
      const std::string_view key = list.substr(0, comma);
      list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
      if (key.empty()) continue;
      const auto end = entries_.begin() + static_cast<std::ptrdiff_t>(before);
      auto it = std::lower_bound(entries_.begin(), end, key, [](const Entry& e, std::string_view k) { return e.key < k; });
      if (it != end && it->key == key) {
        if (!(it->flags & (lex::firstName | lex::surname))) it->flags |= lex::famous;
      } else {
        entries_.push_back(Entry{key, lex::famous});
      }
    }
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
  }
  entries_.shrink_to_fit();
  for (const Entry& e : entries_) {
    if (!(e.flags & (lex::condition | lex::medication)) || e.key.size() < kMinNearWord - 1 || e.key.size() > kMaxNearWord ||
        e.key.find_first_of(" '-") != std::string_view::npos) {
      continue;
    }
    medicalNear_.push_back(hashSkipping(e.key, e.key.size(), kWholeTag));
    for (std::size_t k = 0; k < e.key.size(); ++k) {
      medicalNear_.push_back(hashSkipping(e.key, k, 0));      // the term less a letter: one was dropped
      medicalNear_.push_back(hashSkipping(e.key, k, k + 1));  // the same at k: a letter changed there
    }
  }
  std::sort(medicalNear_.begin(), medicalNear_.end());
  medicalNear_.erase(std::unique(medicalNear_.begin(), medicalNear_.end()), medicalNear_.end());
  english_.resize(detail::kEnglishFilterBits / 8);
  // A filter that does not decode to its size answers false everywhere: a build fault the lexicon test catches.
  std::size_t at = 0;
  for (const std::string_view part : detail::kEnglishFilterBase64) {
    std::size_t bytes = 0;
    if (sodium_base642bin(english_.data() + at, english_.size() - at, part.data(), part.size(), nullptr, &bytes,
                          nullptr, sodium_base64_VARIANT_ORIGINAL) != 0) {
      at = 0;
      break;
    }
    at += bytes;
  }
  if (at != english_.size()) english_.clear();
}

bool PiiLexicon::inEnglishFilter(std::string_view w) const noexcept {
  if (english_.empty() || w.empty()) return false;
  // 64-bit FNV-1a, probes by double hashing: the same as gen_pii_english.py.
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char ch : w) {
    h ^= static_cast<unsigned char>(ch);
    h *= 0x100000001b3ull;
  }
  const std::uint64_t a = h & 0xFFFFFFFFull, b = (h >> 32) | 1u;
  for (unsigned i = 0; i < detail::kEnglishFilterProbes; ++i) {
    const std::uint64_t bit = (a + i * b) % detail::kEnglishFilterBits;
    if ((english_[bit >> 3] >> (bit & 7) & 1u) == 0) return false;
  }
  return true;
}

bool PiiLexicon::nearMedical(std::string_view w) const noexcept {
  if (w.size() < kMinNearWord || w.size() > kMaxNearWord || medicalNear_.empty()) return false;
  for (char ch : w) {
    if (ch < 'a' || ch > 'z') return false;
  }
  const auto has = [this](std::uint64_t h) {
    return std::binary_search(medicalNear_.begin(), medicalNear_.end(), h);
  };
  if (has(hashSkipping(w, w.size(), 0))) return true;  // a letter dropped
  char swapped[kMaxNearWord];
  for (std::size_t k = 0; k < w.size(); ++k) {
    // A letter added, or changed.
    if (has(hashSkipping(w, k, kWholeTag)) || has(hashSkipping(w, k, k + 1))) return true;
    if (k + 1 < w.size()) {  // two letters swapped
      std::copy(w.begin(), w.end(), swapped);
      std::swap(swapped[k], swapped[k + 1]);
      if (has(hashSkipping(std::string_view(swapped, w.size()), w.size(), kWholeTag))) return true;
    }
  }
  return false;
}

bool PiiLexicon::englishWord(std::string_view w) const noexcept {
  for (const char ch : w) {
    if (ch < 'a' || ch > 'z') return false;
  }
  if (inEnglishFilter(w)) return true;
  // Regular inflections, as WordNet's own lemmatizer strips them: the suffix, then the suffix with an e restored
  // ("baked" -> "bake"), then a doubled final consonant ("upped" -> "up").
  static constexpr std::string_view kSuffixes[] = {"ies", "es", "s", "ed", "ing", "er", "est"};
  char buf[40];
  for (const std::string_view suf : kSuffixes) {
    if (w.size() <= suf.size() + 1 || w.size() > sizeof buf - 1 || w.substr(w.size() - suf.size()) != suf) continue;
    std::size_t n = w.size() - suf.size();
    std::copy_n(w.data(), n, buf);
    if (suf == "ies") {
      buf[n++] = 'y';
      if (inEnglishFilter({buf, n})) return true;
      continue;
    }
    if (inEnglishFilter({buf, n})) return true;
    buf[n] = 'e';
    if (inEnglishFilter({buf, n + 1})) return true;
    if (n >= 3 && buf[n - 1] == buf[n - 2] && inEnglishFilter({buf, n - 1})) return true;
  }
  return false;
}

std::uint32_t PiiLexicon::lookup(std::string_view key) const noexcept {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                             [](const Entry& e, std::string_view k) { return e.key < k; });
  return (it != entries_.end() && it->key == key) ? it->flags : 0;
}

}  // namespace sotto::privacy
