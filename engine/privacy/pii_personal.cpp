// SPDX-License-Identifier: MIT
// Facts about a specific person: age, health conditions and medication, named places they go to.
#include "engine/privacy/pii_numbers.h"
#include "engine/privacy/pii_recognizers.h"

namespace sotto::privacy::detail {
namespace {

// A word, not a dash or another mark standing alone ("Joanna is 3 — what's a good gift?").
bool isWordToken(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n) return false;
  for (const char ch : u.word(i)) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || static_cast<unsigned char>(ch) >= 0xC0) return true;
  }
  return false;
}

bool personCandidateEndsAt(const Candidates& c, std::size_t e) noexcept {
  for (std::size_t k = 0; k < c.n; ++k) {
    if (c.c[k].type == PiiType::person && c.c[k].t1 == e) return true;
  }
  return false;
}

// The subject before a verb at v is a person: i, he, she, a name, "my son", "our daughter".
bool personSubject(const Utterance& u, const Candidates& c, std::size_t v) noexcept {
  if (v == 0) return false;
  if (u.anyOf(v - 1, v, {"i", "he", "she", "they", "you", "we"})) return true;
  if (personCandidateEndsAt(c, v)) return true;
  if (u.has(v - 1, lex::relation) && v >= 2 && u.anyOf(v - 2, v - 1, {"my", "our", "his", "her", "their", "your"})) {
    return true;
  }
  // "my little brother", "my mother in law", "my husband's dad".
  if (v >= 3 && u.has(v - 1, lex::relation) && u.anyOf(v - 3, v - 2, {"my", "our", "his", "her", "their", "your"})) {
    return true;
  }
  if (v >= 4 && u.is(v - 1, "law") && u.is(v - 2, "in") && u.has(v - 3, lex::relation)) return true;
  return false;
}

// ---- age ----
// "years old" said short: "28 y/o", "28 yo".
bool shortYearsOld(const Utterance& u, std::size_t e) noexcept {
  return u.anyOf(e, e + 1, {"y/o", "yo", "y.o", "year-old", "years-old", "yr-old", "yrs-old"});
}

// Whose "N years old" it is, from the subject before "is/was/are/'s": a person's (a pronoun, a name, "my son")
// is an age; a thing's or an animal's ("my roof is six years old", "our parrot is 14") is not; no subject found
// says nothing (-1 thing, 0 unknown, 1 person).
int yearsOldSubject(const Utterance& u, const Candidates& c, std::size_t i) noexcept {
  std::size_t v = i;
  while (v > 0 && u.anyOf(v - 1, v, {"about", "nearly", "almost", "over", "under", "just", "only", "exactly",
                                     "around", "roughly", "already", "now", "probably", "maybe", "a", "an"})) {
    --v;
  }
  if (v == 0) return 0;
  std::size_t subject = v;  // the subject ends here (exclusive)
  if (u.anyOf(v - 1, v, {"i'm", "he's", "she's", "you're", "we're", "they're"})) return 1;  // "i'm a 48 y/o male"
  if (u.anyOf(v - 1, v, {"is", "was", "are", "were", "am", "be", "being", "turning", "turned", "turns"})) {
    subject = v - 1;
  } else if (u.tok[v - 1].possessive) {
    subject = v;  // "my son's six years old", "the car's ten years old"
  } else {
    return 0;
  }
  if (subject == 0) return 0;
  const std::size_t s = subject - 1;  // the subject's last word
  if (u.anyOf(s, s + 1, {"i", "he", "she", "you", "we", "they", "i'm", "he's", "she's", "you're", "we're", "they're"}) ||
      personCandidateEndsAt(c, s + 1) || (u.tok[s].possessive && u.has(s, lex::relation))) {
    return 1;
  }
  if (u.has(s, lex::relation | lex::firstName | lex::surname)) return 1;
  if (u.anyOf(s, s + 1, {"it", "it's", "this", "that", "these", "those"})) return -1;
  // A noun after a determiner that is no relation: a thing, a pet, a building.
  if (s > 0 && u.anyOf(s - 1, s, {"my", "our", "your", "his", "her", "their", "the", "a", "an", "this", "that"})) {
    return -1;
  }
  return 0;
}

void findAges(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i < u.n; ++i) {
    if (!u.isNum(i) || u.tok[i].num == NumKind::repeat || (i > 0 && u.isNum(i - 1))) continue;
    // "a six year old": the article is no part of the age ("a hundred" is read as a number elsewhere).
    if (u.anyOf(i, i + 1, {"a", "an"}) && u.isNum(i + 1)) continue;
    std::uint32_t v = 0;
    std::size_t e = 0;
    if (!readCardinal(u, i, v, e) || v > 120) continue;
    const bool yearsOld = (u.anyOf(e, e + 1, {"years", "year", "yrs", "yr"}) && u.is(e + 1, "old")) ||
                          shortYearsOld(u, e);
    if (u.isNum(e) || u.has(e, lex::unit) || u.is(e, "dot") || u.is(e, "o'clock") || u.is(e, "of")) {
      // "four year old" / "34 years old" are ages; other units are not.
      if (!yearsOld) continue;
    }
    bool age = false;
    if (yearsOld) {
      const int whose = yearsOldSubject(u, c, i);
      if (whose != 0) {
        age = whose > 0;  // "my son is six years old" yes; "my roof is six years old" no
      } else if (i > 0 && u.anyOf(i - 1, i, {"a", "an", "any", "every", "each", "per"})) {
        // "is it safe to give a nine year old honey": anybody's age, nobody's; "my nine year old" is someone's,
        // and so is "we have a six year old".
        age = i >= 2 && u.is(i - 1, "a") && u.anyOf(i - 2, i - 1, {"have", "has", "got", "had"}) &&
              u.anyOf(0, i, {"we", "i", "i've", "we've", "she", "he", "they", "my", "our"});
      } else {
        // Not buildings and landmarks: "the statue is 138 years old".
        age = !u.anyOf(i > 4 ? i - 4 : 0, i, {"the", "it", "it's", "its", "this", "that"}) || u.contains("my");
      }
    } else if (i > 0 && u.anyOf(i - 1, i, {"turned", "turns", "turning", "aged", "age"})) {
      age = yearsOldSubject(u, c, i) >= 0;  // "our cat is turning sixteen": a pet's
    } else if (i > 0 && u.anyOf(i - 1, i, {"i'm", "he's", "she's"})) {
      age = true;
    } else if (i > 0 && u.anyOf(i - 1, i, {"is", "am", "was", "are", "were"}) && personSubject(u, c, i - 1)) {
      // "my son is three", "connor gupta is twenty and ...": not followed by another noun.
      age = e == u.n || u.anyOf(e, e + 1, {"and", "but", "so", "now", "today", "is", "this", "next", "too", "already",
                                           "soon", "in", "what", "what's", "how", "when", "where", "which", "should",
                                           "can", "could", "would", "will", "does", "do", "is", "any", "please"}) ||
            u.tok[e - 1].commaAfter || u.tok[e - 1].stopAfter || !isWordToken(u, e);
    } else if (i > 0 && u.tok[i - 1].colonAfter && u.is(i - 1, "age")) {
      age = true;
    } else if (u.anyOf(e, e + 1, {"is", "was"}) && u.is(e + 1, "how") && u.is(e + 2, "old")) {
      age = true;  // "thirty one is how old i am"
    } else if (i > 0 && u.tok[i - 1].possessive && (u.has(i - 1, lex::relation) || personCandidateEndsAt(c, i)) &&
               (e == u.n || u.anyOf(e, e + 1, {"this", "now", "today", "already", "next", "and", "in", "on", "how",
                                               "what", "what's", "when", "should", "can", "is", "does"}) ||
                u.tok[e - 1].commaAfter || u.tok[e - 1].stopAfter || !isWordToken(u, e))) {
      age = true;  // "grandma's 33 this year": 's is "is"
    } else if (i > 0 && (personCandidateEndsAt(c, i) || u.has(i - 1, lex::relation)) && u.tok[i].b0 > 0 &&
               u.text[u.tok[i].b0 - 1] == '(') {
      age = v >= 1 && v <= 110;  // "Patient Fatima Bianchi (41)", "my daughter (13)", "Marcus (ten)"
    } else if (i > 0 && u.tok[i - 1].commaAfter && personCandidateEndsAt(c, i) && v >= 1 && v <= 110 &&
               (e == u.n || u.tok[e - 1].commaAfter || u.tok[e - 1].stopAfter)) {
      age = true;  // "Thabo Nakamura, 98, Parkinson's", "Reed Washington, fifty-nine, 1 Acacia Ave"
    } else if (i > 0 && u.tok[i - 1].possessive && (u.tok[i - 1].lex & lex::firstName) &&
               (e == u.n || u.anyOf(e, e + 1, {"now", "today", "this", "next", "and", "already"}))) {
      age = true;  // "clive's eighteen now": 's is "is"
    } else if (i == 1 && u.is(0, "at") && u.contains("too")) {
      age = true;  // "at fifty five is it too late to learn the piano": the speaker's own
    }
    if (age) {
      c.add(i, e, PiiType::age, prio::age);
      // "my kids are three and nine": the next one too.
      std::uint32_t v2 = 0;
      std::size_t e2 = 0;
      std::size_t yearsAfter = e;  // "a six year old and a seven year old": past the first one's "year old"
      if (u.anyOf(e, e + 1, {"years", "year", "yrs", "yr"}) && u.is(e + 1, "old")) yearsAfter = e + 2;
      std::size_t n2 = yearsAfter + 1;
      if (u.is(yearsAfter, "and") && u.anyOf(n2, n2 + 1, {"a", "an"})) ++n2;
      if (u.is(yearsAfter, "and") && u.isNum(n2) && readCardinal(u, n2, v2, e2) && v2 <= 120 &&
          (e2 == u.n || !u.has(e2, lex::unit) || u.anyOf(e2, e2 + 1, {"years", "year"})) && !u.isNum(e2)) {
        c.add(n2, e2, PiiType::age, prio::age);
        e = e2;
      }
    }
    i = e - 1;
  }
}

// ---- health ----
bool drugOrDiseaseSuffix(std::string_view w) noexcept {
  constexpr std::string_view kSuffixes[] = {"itis", "osis", "emia", "aemia", "pril", "sartan", "statin", "olol",
                                            "prazole", "triptan", "oxetine", "cillin", "mycin", "azepam", "afil",
                                            "gliptin", "lukast", "dipine", "tidine", "floxacin", "parin", "mab",
                                            "cycline", "dronate", "semide", "thiazide", "zolam", "xaban", "glutide",
                                            "gliflozin", "pathy", "algia", "oma"};
  if (w.size() < 6) return false;
  for (auto s : kSuffixes) {
    if (w.size() > s.size() + 2 && w.substr(w.size() - s.size()) == s) return true;
  }
  return false;
}

// Whose health it is can be left unsaid: "the cardiologist said atrial fibrillation", "take 200 mg of ibuprofen".
bool healthAnchor(const Utterance& u) noexcept {
  for (std::size_t i = 0; i + 1 < u.n; ++i) {
    // A form's health fields: "Conditions: asthma", "Rx: metformin 500 mg", "diagnosis - Crohn's disease".
    if (u.anyOf(i, i + 1, {"conditions", "condition", "medications", "medication", "meds", "allergies", "allergy",
                           "dx", "rx", "diagnosis", "diagnoses", "prescription", "prescriptions", "history"}) &&
        (u.tok[i].colonAfter || u.anyOf(i + 1, i + 2, {"-", "=", "–"}))) {
      return true;
    }
    if (u.anyOf(i, i + 1, {"doctor", "doc", "gp", "physician", "cardiologist", "oncologist", "neurologist",
                           "dermatologist", "psychiatrist", "therapist", "specialist", "surgeon", "consultant",
                           "pediatrician", "paediatrician", "endocrinologist", "rheumatologist", "urologist"}) &&
        u.anyOf(i + 1, i + 2, {"said", "says", "thinks", "thought", "found", "diagnosed", "confirmed", "suspects",
                               "suspected", "told", "prescribed", "mentioned", "ruled"})) {
      return true;
    }
  }
  // Said of somebody unnamed or named in a way no rule reads: "living with shingles is exhausting", "yara oduya
  // was just diagnosed with hemophilia", "note that lorcan is allergic to fluoxetine".
  if (u.anyOf(0, u.n, {"diagnosed", "allergic", "battling"})) return true;
  // What goes in one's own calendar, reminders or notes: "add to calendar: chemo round 3 on friday", "hx of".
  if (u.anyOf(0, u.n, {"calendar", "schedule", "diary", "journal", "reminder", "remind", "appointment", "appt",
                       "hx", "caregiver", "carer"})) {
    return true;
  }
  for (std::size_t i = 0; i + 1 < u.n; ++i) {
    if ((u.is(i, "living") && u.is(i + 1, "with")) || (u.anyOf(i, i + 1, {"suffering", "suffers"}) && u.is(i + 1, "from"))) {
      return true;
    }
  }
  return u.anyOf(0, u.n, {"take", "took", "taking", "takes"}) &&
         u.anyOf(0, u.n, {"mg", "milligrams", "milligram", "mcg", "micrograms", "ml", "milliliters", "tablets",
                          "pills", "capsules", "puffs", "doses"});
}

// A word no list or dictionary has: a drug, a disease or a name.
bool unknownWord(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n || u.tok[i].lex != 0 || u.tok[i].english || u.tok[i].hasDigit || u.isNum(i)) return false;
  for (char ch : u.stem(i)) {
    if (!((ch >= 'a' && ch <= 'z') || ch == '-' || static_cast<unsigned char>(ch) >= 0x80)) return false;
  }
  return true;
}

// Words that name a kind of the condition and belong to its name: "early onset dementia", "pernicious anemia".
// Not how bad it is ("severe asthma", "chronic pain" where the list has no phrase): that is said about it.
bool conditionModifier(const Utterance& u, std::size_t i) noexcept {
  return u.anyOf(i, i + 1, {"early", "onset", "early-onset", "late-onset", "juvenile", "pernicious", "postpartum",
                            "gestational", "metastatic", "herniated", "torn", "sprained", "fractured",
                            "dislocated"});
}

void findHealth(const Utterance& u, Candidates& c) noexcept {
  if (!personalAnchor(u, c) && !healthAnchor(u)) return;
  const bool general = generalQuestion(u) && !u.contains("my") && !u.contains("i") && !u.contains("i'm");
  if (general) return;
  for (std::size_t i = 0; i < u.n; ++i) {
    std::size_t best = 0;
    for (std::size_t len = 4; len >= 1; --len) {
      if (i + len > u.n) continue;
      const std::uint32_t f = len == 1 ? (u.tok[i].lex | u.tok[i].lexFull) : u.lexicon->lookup(u.phrase(i, i + len));
      if (f & (lex::condition | lex::medication)) {
        best = i + len;
        break;
      }
      // Care, not the place that gives it: "on dialysis", "my physio", not "Tallow Lane Dialysis Centre" or
      // "brookhaven hospice" (a name before it, or a place's word after it).
      if ((f & lex::care) && !u.has(i + len, lex::placeHead) && !(!u.caseless && u.tok[i].capital && i > 0) &&
          (i == 0 || u.has(i - 1, lex::function) ||
           u.anyOf(i - 1, i, {"start", "started", "starting", "doing", "finished", "after", "before", "needs",
                              "need", "missed"}))) {
        best = i + len;
        break;
      }
    }
    // "my ms is acting up": the letters are the illness after whose it is (elsewhere a title, "ms jones").
    if (best == 0 && u.is(i, "ms") && i > 0 && u.anyOf(i - 1, i, {"my", "his", "her", "their", "your"})) {
      best = i + 1;
    }
    // The specialty of one's own care: "my oncology appointment", "her cardiology follow-up" (not a place's name:
    // "the oncology centre" is where, not what).
    if (best == 0 && i > 0 && u.anyOf(i - 1, i, {"my", "his", "her", "their", "your", "our"}) &&
        u.anyOf(i, i + 1, {"oncology", "cardiology", "fertility", "dermatology", "neurology", "psychiatry",
                           "psychiatric", "rheumatology", "urology", "gynecology", "gynaecology", "obgyn", "ob-gyn",
                           "endocrinology", "nephrology", "hematology", "haematology", "gastro", "chemo", "radiation",
                           "physio", "rehab", "dialysis", "infusion", "allergy", "prenatal", "antenatal", "ivf",
                           "counseling", "counselling", "psych", "mental"}) &&
        u.anyOf(i + 1, i + 3, {"appointment", "appointments", "appt", "consult", "consultation", "visit", "visits",
                               "follow-up", "followup", "checkup", "check-up", "referral", "session", "sessions",
                               "treatment", "treatments", "results", "scan", "nurse", "team"})) {
      best = i + 1;
      if (u.is(i, "mental") && u.is(i + 1, "health")) best = i + 2;
    }
    // A name no list has before what kind of illness it is: "ehlers danlos syndrome", "meniere's disease".
    if (best == 0 && (unknownWord(u, i) || (u.tok[i].possessive && !(u.tok[i].lex & (lex::relation | lex::function))))) {
      std::size_t j = i;
      while (j < u.n && j - i < 3 && unknownWord(u, j) && !u.tok[j].possessive) ++j;
      if (j < u.n && u.tok[j].possessive && !(u.tok[j].lex & (lex::relation | lex::function))) ++j;
      if (j > i && u.anyOf(j, j + 1, {"syndrome", "disease", "disorder", "palsy", "deficiency", "dystrophy"})) {
        best = j + 1;
      }
    }
    // An injury said by what happened to which part: "i sprained my wrist", "she broke her left arm".
    if (best == 0 && i + 1 < u.n &&
        u.anyOf(i, i + 1, {"sprained", "sprain", "broke", "broken", "fractured", "fracture", "tore", "torn",
                           "dislocated", "twisted", "strained", "injured", "hurt", "bruised", "busted", "cracked",
                           "pulled", "jammed"})) {
      std::size_t b = i + 1;
      if (u.anyOf(b, b + 1, {"my", "his", "her", "their", "your", "a"})) ++b;
      if (u.anyOf(b, b + 1, {"left", "right"})) ++b;
      // "a torn acl", "a sprained ankle": the state and the part are the injury's name together.
      const bool adjective = b == i + 1 && !u.anyOf(i, i + 1, {"broke", "tore", "hurt", "pulled", "sprain",
                                                              "fracture", "busted"});
      if (b < u.n && (u.tok[b].lex & (lex::condition | lex::medication)) == 0 &&
          u.anyOf(b, b + 1, {"wrist", "ankle", "arm", "leg", "knee", "hip", "shoulder", "back", "neck", "elbow",
                             "finger", "toe", "foot", "hand", "rib", "ribs", "collarbone", "nose", "jaw", "acl",
                             "hamstring", "muscle", "thumb", "pelvis", "tailbone", "spine", "achilles", "calf",
                             "groin", "meniscus", "ligament", "tendon", "skull", "cheekbone"})) {
        c.add(adjective ? i : b, b + 1, PiiType::health, prio::health);
        i = b;
        continue;
      }
    }
    // A listed condition or medicine with one letter slipped, as typed or heard: "my dad's arthritus".
    // (Not before a listed name: "lorcan fitzgerald" is a person.)
    if (best == 0 && u.tok[i].lex == 0 && !u.tok[i].english && !u.tok[i].hasDigit &&
        !u.has(i + 1, lex::firstName | lex::surname) && u.lexicon->nearMedical(u.stem(i))) {
      best = i + 1;
    }
    // An unknown word that is refilled or prescribed is a medicine: "grandpa's pyridostigmine needs refilling".
    if (best == 0 && u.tok[i].lex == 0 && !u.tok[i].english && !u.tok[i].hasDigit && u.stem(i).size() >= 6 &&
        (u.anyOf(i + 1, i + 3, {"refill", "refilled", "refilling", "prescription", "prescriptions", "dose",
                                "dosage", "tablets", "pills", "injection", "injections", "infusion", "infusions"}) ||
         // "grandad's quelsopam ran out", "my dravoxil is running low".
         (u.anyOf(i + 1, i + 3, {"ran", "run", "running", "runs"}) && u.anyOf(i + 2, i + 4, {"out", "low"}) &&
          (u.tok[i - (i > 0 ? 1 : 0)].possessive || u.anyOf(i > 1 ? i - 1 : 0, i, {"my", "his", "her", "their"}))) ||
         // "my achalasia is flaring up": only an illness flares.
         (u.anyOf(i + 1, i + 3, {"flaring", "flared", "flare", "flares"}) &&
          u.anyOf(i > 2 ? i - 2 : 0, i, {"my", "his", "her", "their", "your"})) ||
         u.anyOf(i > 2 ? i - 2 : 0, i, {"refill", "renew", "dose", "prescribed"}))) {
      best = i + 1;
    }
    // Unknown drug or disease names by their suffix, right after a strong cue ("my" only before a word no
    // dictionary has: "my polymyalgia", not "my diploma").
    if (best == 0 && u.tok[i].lex == 0 && drugOrDiseaseSuffix(u.stem(i)) &&
        (cueBefore(u, i, 3, {"with", "takes", "take", "taking", "on", "prescribed", "has", "have", "had", "got",
                             "gets", "for", "meds", "medication", "treating", "treated", "suffer", "suffers",
                             "suffering", "diagnosed", "developed", "caught"}) ||
         (unknownWord(u, i) && cueBefore(u, i, 2, {"my", "his", "her", "their", "your", "of", "from"})))) {
      best = i + 1;
    }
    if (best > i) {
      std::size_t start = i;
      // The condition's own modifiers before it, when nothing else took them.
      while (start > 0 && i - start < 2 && conditionModifier(u, start - 1) && !c.covered(start - 1, start)) --start;
      // One name across adjacent terms: "carbidopa levodopa", "insulin glargine", "polymyalgia rheumatica".
      while (best < u.n && best - start < 6 &&
             ((u.tok[best].lex & (lex::condition | lex::medication)) != 0 || unknownWord(u, best)) &&
             !u.tok[best - 1].commaAfter && !u.tok[best - 1].stopAfter && !u.has(best, lex::firstName | lex::surname)) {
        ++best;
      }
      c.add(start, best, PiiType::health, prio::health);
      i = best - 1;
    }
  }
}

// ---- named places ----
bool placeNameWord(const Utterance& u, std::size_t i) noexcept {
  if (i >= u.n || u.isNum(i) || u.tok[i].hasDigit) return false;
  const std::uint32_t f = u.tok[i].lex;
  if (f & lex::placeQualifier) return true;
  if (f & (lex::function | lex::relation | lex::unitWord)) return false;
  if (u.anyOf(i, i + 1, {"outside", "inside", "near", "behind", "opposite", "by", "beside", "past", "across"})) {
    return false;  // "meet me outside [riverside swim club]"
  }
  if (!u.caseless && !u.tok[i].capital) return false;
  if ((f & lex::common) && !(!u.caseless && u.tok[i].capital)) return false;
  for (char ch : u.word(i)) {
    if (!((ch >= 'a' && ch <= 'z') || ch == '\'' || ch == '-' || ch == '.' || static_cast<unsigned char>(ch) >= 0x80)) {
      return false;
    }
  }
  return true;
}

bool placeCue(const Utterance& u, std::size_t s) noexcept {
  return cueBefore(u, s, 4, {"work", "works", "working", "worked", "goes", "go", "attends", "attend", "study",
                             "studies", "teach", "teaches", "volunteer", "volunteers", "commute", "pick", "drop",
                             "lives", "live", "staying", "stays", "admitted", "patient", "enrolled", "member",
                             "appointment", "shift", "job", "employed", "intern", "started", "transferred",
                             "moved", "visiting", "visit", "class", "classes", "practice", "training", "stationed",
                             "nurse", "teacher", "doctor", "manager", "worship", "pray", "member", "joined",
                             "physio", "therapy", "session", "lesson", "lessons", "rehearsal", "meeting",
                             "volunteering", "meet", "outside", "picked", "dropped",
                             "collect", "collected", "appointments", "scan", "checkup", "check-up", "leaving",
                             "left", "calling", "commute", "choir", "prayers", "prayer", "mass", "service",
                             "employer", "employed", "caretaker", "cleaner", "receptionist", "ward", "resident",
                             "school", "student", "pupil", "born", "delivered", "stay", "stayed"});
}

// Where being is itself personal: a person in a hospital, a care home, a hospice ("Thao is in [Royal County
// Infirmary]").
bool carePlaceHead(const Utterance& u, std::size_t h) noexcept {
  return u.anyOf(h, h + 1, {"hospital", "infirmary", "hospice", "clinic", "home", "homes", "lodge", "surgery"});
}

// A firm named after people, where someone works: "i work at [henderson and cole]", "[Okoro & Partners]".
void findFirms(const Utterance& u, Candidates& c) noexcept {
  for (std::size_t i = 0; i + 2 < u.n; ++i) {
    if (!(u.anyOf(i, i + 1, {"at", "for"}) && i > 0 && u.anyOf(i - 1, i, {"work", "works", "working", "worked",
                                                                           "job", "intern", "employed"}))) {
      continue;
    }
    const std::size_t s = i + 1;
    const auto nameWord = [&](std::size_t k) {
      return k < u.n && !u.isNum(k) && !u.tok[k].hasDigit &&
             ((u.tok[k].lex & (lex::surname | lex::firstName)) != 0 || (!u.caseless && u.tok[k].capital) ||
              (u.tok[k].lex == 0 && !u.tok[k].english));
    };
    if (!nameWord(s) || !u.anyOf(s + 1, s + 2, {"&", "and"})) continue;
    const std::size_t t = s + 2;
    const bool partners = u.anyOf(t, t + 1, {"partners", "associates", "sons", "co", "company", "daughters",
                                             "partner"});
    if (!partners && !nameWord(t)) continue;
    c.add(s, t + 1, PiiType::location, prio::location + 1);
    i = t;
  }
}

void findPlaces(const Utterance& u, Candidates& c) noexcept {
  if (!personalAnchor(u, c)) return;
  for (std::size_t h = 0; h < u.n; ++h) {
    if (!u.has(h, lex::placeHead) || u.has(h + 1, lex::placeHead)) continue;
    std::size_t s = h, names = 0, qualifiers = 0;
    while (s > 0 && h - s < 4 && placeNameWord(u, s - 1) && !u.tok[s - 1].commaAfter) {
      if (u.has(s - 1, lex::placeQualifier) || u.has(s - 1, lex::placeHead)) {
        ++qualifiers;
      } else {
        ++names;
      }
      --s;
    }
    while (s < h && u.has(s, lex::placeHead) && !u.has(s, lex::placeQualifier)) ++s;  // "the gym" has no name
    if (s == h || (names == 0 && qualifiers < 2)) continue;
    if (s > 0 && u.anyOf(s - 1, s, {"the", "a", "an", "nearest", "any", "some"})) continue;
    if (!placeCue(u, s) && !(carePlaceHead(u, h) && cueBefore(u, s, 3, {"in", "at", "into", "from"}))) continue;
    c.add(s, h + 1, PiiType::location, prio::location);
  }
}

}  // namespace

bool generalQuestion(const Utterance& u) noexcept {
  const std::string_view w0 = u.word(0);
  constexpr std::string_view kStarts[] = {"what", "what's", "whats", "how", "is", "are", "does", "do", "can",
                                          "why", "which", "when", "who", "define", "explain", "should"};
  for (auto s : kStarts) {
    if (w0 == s) return true;
  }
  return u.is(0, "tell") && u.is(1, "me") && u.is(2, "about");
}

bool healthContext(const Utterance& u, const Candidates& c) noexcept {
  if (!personalAnchor(u, c) && !healthAnchor(u)) return false;
  if (generalQuestion(u) && !u.contains("my") && !u.contains("i") && !u.contains("i'm")) return false;
  return !u.anyOf(0, 1, {"play", "watch", "stream", "listen", "put", "queue", "shuffle", "resume"});
}

bool personalAnchor(const Utterance& u, const Candidates& c) noexcept {
  if (u.anyOf(0, u.n, {"i", "i'm", "i've", "i'd", "me", "my", "mine", "we", "our", "us", "he", "she", "his", "her",
                       "their", "they", "him", "them", "he's", "she's", "patient", "meds", "we're"})) {
    return true;
  }
  for (std::size_t k = 0; k < c.n; ++k) {
    if (c.c[k].type == PiiType::person) return true;
  }
  // A relative named by the relation alone is one person: "grandpa's dementia", "dad has gout", "order more
  // valproate for mum" (a parent said without an article is a name). Not "a mother with diabetes" or "the kids'
  // flu season": those are no one in particular.
  for (std::size_t i = 0; i < u.n; ++i) {
    if (!u.has(i, lex::relation) || u.is(i, "team")) continue;
    if (i > 0 && u.anyOf(i - 1, i, {"a", "an", "the", "any", "every", "each", "some", "no", "most", "many"})) {
      continue;
    }
    if (u.tok[i].possessive ||
        u.anyOf(i, i + 1, {"mum", "mom", "mommy", "mummy", "dad", "daddy", "grandma", "grandpa", "granny", "nana",
                           "grandad", "granddad"}) ||
        u.anyOf(i + 1, i + 2, {"has", "had", "have", "is", "was", "takes", "took", "needs", "got", "gets", "suffers",
                               "uses", "started", "stopped", "broke", "tore", "caught"})) {
      return true;
    }
  }
  return false;
}

void findPersonal(const Utterance& u, Candidates& c) noexcept {
  findAges(u, c);
  findFirms(u, c);
  findHealth(u, c);
  findPlaces(u, c);
}

}  // namespace sotto::privacy::detail
