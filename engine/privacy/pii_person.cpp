// SPDX-License-Identifier: MIT
// Names of private people from cue frames (my name is, call X, X's phone number, X works at ...), with a
// public-figure guard for general-knowledge and media frames.
#include "engine/privacy/pii_recognizers.h"

namespace sotto::privacy::detail {
namespace {

enum class Slot { weak, strong };

bool lettersOnly(const Utterance& u, std::size_t i) noexcept {
  for (char ch : u.stem(i)) {
    if (!((ch >= 'a' && ch <= 'z') || ch == '\'' || ch == '-' || static_cast<unsigned char>(ch) >= 0x80)) return false;
  }
  return !u.stem(i).empty();
}

// Could token i be (part of) a name? strong: a cue says a name comes here, so unknown words qualify.
bool nameLike(const Utterance& u, std::size_t i, Slot slot) noexcept {
  if (i >= u.n || u.isNum(i) || u.tok[i].hasDigit || !lettersOnly(u, i)) return false;
  const std::uint32_t f = u.tok[i].lex;
  const bool named = (f & (lex::firstName | lex::surname)) != 0;
  if ((f & (lex::function | lex::relation | lex::month | lex::streetType | lex::unitWord | lex::condition |
            lex::medication)) ||
      ((f & lex::notName) && !named)) {
    return false;
  }
  if (f & lex::common) return named && slot == Slot::strong && (u.caseless || u.tok[i].capital);
  if (named) return true;  // a listed name, typed in any case
  if (slot != Slot::strong) return false;
  if (u.stem(i).size() < 2) return false;
  return u.caseless || u.tok[i].capital;
}

// A name where a frame (not a cue word right before it) says one may stand: "when did i last talk to [X]", "did
// [X] call", "[X] speaking". A listed name, a word no English dictionary has, or a word typed capitalized inside
// a sentence ("Did Summer call?"); never a title, filler or form label.
bool plainName(const Utterance& u, std::size_t t) noexcept {
  if (t >= u.n || u.isNum(t) || u.tok[t].hasDigit || !lettersOnly(u, t) || u.stem(t).size() < 2) return false;
  const std::uint32_t f = u.tok[t].lex;
  const bool listed = (f & (lex::firstName | lex::surname)) != 0;
  const bool typedAsName = !u.caseless && u.tok[t].capital && !u.tok[t].sentenceStart;
  if (f & (lex::function | lex::notName)) return false;
  if (f & (lex::relation | lex::month | lex::streetType | lex::unitWord | lex::condition | lex::medication |
           lex::common | lex::region | lex::famous)) {
    return listed && typedAsName;
  }
  if (!u.caseless && !u.tok[t].capital) return false;
  return listed || !u.tok[t].english || typedAsName;
}

// Extends a name starting at i (already accepted) over a following surname; returns end.
std::size_t nameEnd(const Utterance& u, std::size_t i) noexcept {
  std::size_t e = i + 1;
  while (e < u.n && e - i < 3 && !u.tok[e - 1].possessive && !u.tok[e - 1].commaAfter && !u.tok[e - 1].colonAfter &&
         (!u.tok[e - 1].stopAfter || (e - 1 > i && u.raw(e - 1).size() == 1))) {
    if (u.isNum(e) || u.tok[e].hasDigit) break;  // "dario [eleven] goes to": an age, never a surname
    const std::uint32_t f = u.tok[e].lex;
    bool ok = false;
    // A typed middle initial: "Bao M. García".
    if (!u.caseless && u.raw(e).size() == 1 && u.tok[e].capital && u.tok[e].stopAfter && e + 1 < u.n &&
        u.tok[e + 1].capital) {
      ++e;
      continue;
    }
    if (f & (lex::surname | lex::firstName)) {
      ok = !(f & (lex::common | lex::function | lex::relation)) || u.tok[e].capital;
    } else if (f == 0 && lettersOnly(u, e) && u.stem(e).size() >= 2) {
      // Unknown word after a name: a surname when typed capitalized, or when spoken and followed by a boundary.
      // Spoken, an ordinary English word after a name is what the person does ("is tomasz nowak [coming] to"),
      // not a surname: the surname lists know the rest.
      ok = u.caseless ? (!u.tok[e].english && u.word(e).find('\'') == std::string_view::npos &&
                         (e + 1 == u.n || u.has(e + 1, lex::function | lex::common | lex::notName) ||
                          u.tok[e].possessive || u.isNum(e + 1)))
                      : (u.tok[e].capital && u.tok[i].capital);
    }
    if (!ok) break;
    ++e;
  }
  return e;
}

// Media, fandom and general-knowledge frames: names there are public figures.
bool publicFigureFrame(const Utterance& u) noexcept {
  const std::string_view w0 = u.word(0);
  if (w0 == "who" || w0 == "who's" || w0 == "play" || w0 == "shuffle" || w0 == "put") return true;
  if (u.contains("famous") || u.contains("songs") || u.contains("song") || u.contains("album") ||
      u.contains("movies") || u.contains("movie") || u.contains("films") || u.contains("starring") ||
      u.contains("directed") || u.contains("written") || u.contains("novel") || u.contains("books") ||
      u.contains("biography") || u.contains("grow") || u.contains("die") || u.contains("died") ||
      u.contains("invented") || u.contains("discovered") || u.contains("president") || u.contains("king") ||
      u.contains("queen")) {
    return true;
  }
  // "my favourite singer is adele", "who's your favourite actor": a favourite of a public kind. Not "what is
  // ingrid's favourite colour", a private person's taste.
  for (std::size_t i = 0; i + 1 < u.n; ++i) {
    if ((u.is(i, "favorite") || u.is(i, "favourite")) &&
        u.anyOf(i + 1, i + 2, {"singer", "singers", "band", "bands", "actor", "actors", "actress", "author",
                               "authors", "writer", "writers", "artist", "artists", "musician", "musicians", "rapper",
                               "player", "players", "athlete", "team", "teams", "composer", "poet", "painter",
                               "director", "comedian", "youtuber", "streamer", "character", "celebrity", "footballer",
                               "golfer", "driver", "group", "dj", "president", "scientist", "philosopher", "chef",
                               "host", "presenter", "drummer", "guitarist", "pianist", "novelist", "star", "idol",
                               "influencer", "podcaster", "song", "songs", "album", "movie", "film", "book", "show"})) {
      return true;
    }
  }
  if ((w0 == "when" || w0 == "where" || w0 == "how" || w0 == "what" || w0 == "what's" || w0 == "tell") &&
      (u.contains("was") || u.contains("did") || u.contains("about"))) {
    return true;
  }
  return false;
}

bool famousAt(const Utterance& u, std::size_t i) noexcept {
  const std::uint32_t flags = publicFigureContext(u) ? (lex::famous | lex::publicFigure) : lex::famous;
  for (std::size_t len = 3; len >= 1; --len) {
    if (i + len <= u.n && (u.lexicon->lookup(u.stemPhrase(i, i + len)) & flags)) return true;
  }
  return false;
}

void addName(const Utterance& u, Candidates& c, std::size_t i, std::size_t e) noexcept {
  if (famousAt(u, i)) return;
  c.add(i, e, PiiType::person, prio::person, u.tok[e - 1].possessive);
}

// Verbs after which the object is a contact: "call siobhan", "remind connor to", "email maria at".
bool contactVerb(const Utterance& u, std::size_t i) noexcept {
  return u.anyOf(i, i + 1, {"call", "text", "email", "e-mail", "message", "phone", "ring", "dial", "remind", "tell",
                            "ask", "invite", "send", "pay", "update", "contact", "meet", "visit", "add", "notify",
                            "ping", "facetime", "video", "thank", "congratulate", "wish", "forward", "cc", "dm",
                            "whatsapp", "reply", "answer", "inform", "warn", "greet", "hug", "pick", "collect",
                            "venmo", "zelle", "reimburse", "owe", "owes", "transfer", "reach", "let"});
}

bool attributeNoun(const Utterance& u, std::size_t i) noexcept {
  return u.anyOf(i, i + 1, {"phone", "number", "email", "e-mail", "address", "birthday", "social", "ssn", "cell",
                            "mobile", "account", "card", "iban", "date", "password", "pin", "contact", "home",
                            "house", "place", "car", "flight", "appointment", "party", "wedding", "surgery",
                            "medication", "medicine", "meds", "prescription", "insulin", "school", "office", "work",
                            "doctor", "age", "dob", "details", "info", "name", "wife", "husband", "mom", "dad",
                            "son", "daughter", "kids", "new", "work", "landline", "whatsapp", "username",
                            "locker", "code", "combination", "keys", "key", "bike", "passcode", "passport",
                            "licence", "license", "insurance", "allergy", "allergies", "diagnosis", "therapist",
                            "room", "flat", "apartment", "birthdate", "anniversary", "number's", "mobile's"});
}

bool subjectVerb(const Utterance& u, std::size_t i) noexcept {
  return u.anyOf(i, i + 1, {"works", "lives", "takes", "attends", "goes", "was", "is", "has", "needs", "uses",
                            "teaches", "studies", "just", "turned", "turns", "moved", "started", "will", "can",
                            "said", "wants", "called", "texted", "emailed", "and", "got", "gets", "had", "volunteers"});
}

// A title said before a name: "dr [nnamdi zielinski]", "grandma [mwangi]", "judge [oyelaran]".
bool titleWord(const Utterance& u, std::size_t i) noexcept {
  return u.anyOf(i, i + 1, {"dr", "doctor", "nurse", "judge", "pastor", "professor", "prof", "aunt", "auntie", "uncle",
                            "grandma", "grandpa", "granny", "nana", "coach", "officer", "captain", "sergeant",
                            "detective", "reverend", "rev", "rabbi", "imam", "mr", "mrs", "ms", "miss", "mx", "mister",
                            "dame"});
}

// What a person does after "did/has X ...": "did [umar] call", "has [umar juarez] replied", "where does [X] live".
bool personVerbAfter(const Utterance& u, std::size_t i) noexcept {
  return u.anyOf(i, i + 1, {"call", "called", "text", "texted", "reply", "replied", "respond", "responded", "say",
                            "said", "write", "wrote", "written", "email", "emailed", "message", "messaged", "answer",
                            "answered", "ring", "rang", "send", "sent", "leave", "left", "arrive", "arrived", "get",
                            "got", "pay", "paid", "confirm", "confirmed", "ask", "asked", "live", "know", "think",
                            "like", "want", "remember", "prefer"});
}

}  // namespace

bool publicFigureContext(const Utterance& u) noexcept {
  if (publicFigureFrame(u)) return true;
  // A question about the world, not one about the user's own people: "what's [john smith]'s number" is private
  // whatever WordNet says of the name. Privacy first: a word about contact or the user ends the public reading.
  return generalQuestion(u) &&
         !u.anyOf(0, u.n, {"my", "me", "i", "i'm", "our", "we", "number", "phone", "email", "address", "birthday",
                           "contact", "call", "text", "message", "mobile", "cell", "work", "live", "lives", "home",
                           "coming", "arrive", "pick", "dinner", "party"});
}

void findPeople(const Utterance& u, Candidates& c) noexcept {
  const bool publicFrame = publicFigureFrame(u);
  for (std::size_t i = 0; i < u.n; ++i) {
    std::size_t s = u.n;  // start of a name slot
    Slot slot = Slot::weak;
    // "my name is X", "my name's X", "name: X", "call me X", "this is X".
    if ((u.is(i, "name") && u.is(i + 1, "is")) || u.is(i, "name's") ||
        (u.anyOf(i, i + 1, {"name", "patient", "holder", "contact", "from", "to", "attn", "recipient", "guest",
                            "employee", "student", "child", "beneficiary", "payee", "cardholder"}) &&
         u.tok[i].colonAfter)) {
      s = u.is(i, "name") && u.is(i + 1, "is") ? i + 2 : i + 1;
      slot = Slot::strong;
    } else if ((u.is(i, "call") && u.is(i + 1, "me") && !u.isNum(i + 2) && !u.is(i + 2, "at")) ||
               (u.is(i, "this") && u.is(i + 1, "is") && i == 0)) {
      s = i + 2;
      slot = Slot::strong;
    } else if ((u.is(i, "i'm") || (u.is(i, "i") && u.is(i + 1, "am"))) && !publicFrame) {
      s = u.is(i, "i'm") ? i + 1 : i + 2;
      slot = Slot::strong;  // accepted below only when it reads as a name
    } else if (u.is(i, "register") || u.is(i, "regarding") || u.is(i, "re")) {
      s = i + 1;
      slot = Slot::strong;
    } else if (contactVerb(u, i) && !(u.is(i, "call") && u.is(i + 1, "me")) &&
               // After a determiner it is the noun: "my phone unlocks with ...", "the call dropped".
               !(i > 0 && u.anyOf(i - 1, i, {"my", "the", "our", "your", "his", "her", "their", "a", "an", "this",
                                             "that"})) &&
               !(u.is(i, "ring") && i + 1 < u.n && u.tok[i + 1].english && !u.has(i + 1, lex::firstName | lex::surname))) {
      // ("ring" is a doorbell's brand as often as a call: "my ring [doorbell] code" names nobody.)
      s = i + 1;
      if (u.is(s, "to") && (u.is(i, "send") || u.is(i, "transfer") || u.is(i, "pay"))) ++s;
      // What is added to a list is a thing unless it is a listed name: "add cough drops to the shopping list",
      // "add mike to the guest list".
      const bool toList = u.is(i, "add") && u.anyOf(s, s + 7, {"list", "cart", "basket", "order", "playlist", "queue",
                                                                "calendar", "shopping", "groceries", "lock",
                                                                "keypad", "code", "alarm"});
      slot = publicFrame || toList ? Slot::weak : Slot::strong;
    } else if (u.anyOf(i, i + 1, {"payment", "money", "transfer"}) && u.is(i + 1, "to")) {
      s = i + 2;
      slot = Slot::strong;
    } else if (titleWord(u, i) && !publicFrame) {
      // A title before a name: "book an appointment with dr [nnamdi zielinski]", "under grandma [mwangi]". Only
      // a listed name or a word no English dictionary has ("the nurse [said]", "the doctor [upped] it").
      const std::size_t t = i + 1;
      if (t < u.n && ((u.tok[t].lex & (lex::firstName | lex::surname)) || !u.tok[t].english)) {
        s = t;
        slot = Slot::strong;
      }
    } else if (plainName(u, i + 1) &&
               ((u.is(i, "to") && u.anyOf(i - 1, i, {"talk", "talked", "talking", "speak", "spoke", "spoken",
                                                     "speaking", "chat", "chatted", "chatting", "reply", "write",
                                                     "wrote", "written", "listen", "going", "went", "lent", "gave",
                                                     "owe", "hi", "hello", "goodnight"})) ||
                // "forward this to [euphemia]", "send the photos to [X]"; not "how far is it to [glasgow]".
                (u.is(i, "to") && i >= 2 &&
                 u.anyOf(i - 1, i, {"this", "that", "it", "them", "these", "those", "message", "note", "photo",
                                    "photos", "picture", "pictures", "link", "file", "reminder", "invite",
                                    "invitation", "money", "list", "recipe", "video", "address", "location"}) &&
                 u.anyOf(i >= 3 ? i - 3 : 0, i - 1, {"send", "sent", "forward", "forwarded", "give", "gave", "pass",
                                                     "hand", "show", "read", "mail", "text", "email", "share",
                                                     "shared", "transfer", "pay", "introduce", "return", "lend"})) ||
                (u.is(i, "named") || (u.is(i, "name") && u.is(i - 1, "the")) ||
                 (u.is(i, "of") && u.is(i - 1, "name"))) ||
                (u.is(i, "from") && u.anyOf(i - 1, i, {"voicemail", "voicemails", "message", "messages", "text",
                                                       "texts", "email", "emails", "call", "calls", "letter", "note",
                                                       "hear", "heard", "anything", "news", "back", "card", "gift",
                                                       "present", "package", "invite", "invitation"})) ||
                (u.is(i, "up") && u.anyOf(i - 1, i, {"pick", "picks", "picking", "picked", "pickup"})) ||
                (u.is(i, "under") && i > 0) || u.is(i, "holder") ||
                (u.is(i, "with") && u.anyOf(i - 1, i, {"meeting", "appointment", "lunch", "dinner", "coffee", "call",
                                                       "chat", "session", "date", "playdate", "sleepover", "met",
                                                       "meet", "talk", "speak", "spoke", "catch", "trip"})))) {
      // "when did i last talk to [ottilie]", "play the voicemail from [quentin achterberg]", "who's picking up
      // [isidore]", "put it under [Isidore Oduya]", "account holder [chidinma fitzgerald]", "a meeting with [keziah]"
      // (not "treated with [...]": a drug no list has reads like a name). These frames are about the user's own
      // people even where the sentence opens like a general question ("when did ...", "play ...", "who's ...").
      s = i + 1;
      slot = Slot::strong;
    } else if (u.anyOf(i, i + 1, {"did", "has", "have", "does", "will", "can", "should", "is"}) &&
               (plainName(u, i + 1) ||
                // A given name that is also a word, made a name by the listed surname after it: "did [marguerite
                // fontaine] call".
                (i + 2 < u.n && lettersOnly(u, i + 1) && !u.has(i + 1, lex::function | lex::notName | lex::relation) &&
                 (u.tok[i + 2].lex & lex::surname) && !u.has(i + 2, lex::common | lex::function)))) {
      // "did [umar] call", "has [umar juarez] replied yet", "what did [Uchenna Mbatha] say".
      std::size_t e = nameEnd(u, i + 1);
      if (!personVerbAfter(u, e) && e == i + 2 && plainName(u, e) && personVerbAfter(u, e + 1)) ++e;  // "has [umar juarez] replied"
      if (personVerbAfter(u, e)) {
        addName(u, c, i + 1, e);
        i = e - 1;
        continue;
      }
    } else if (u.anyOf(i, i + 1, {"with", "for", "and"}) && !publicFrame) {
      s = i + 1;
      slot = Slot::weak;
    } else if (u.has(i, lex::relation) && (u.is(i - 1, "my") || u.is(i - 1, "our")) && !u.tok[i].possessive) {
      s = i + 1;  // "my friend dave", "my coworker Lena"
      slot = (u.tok[s].lex == 0 && ((!u.caseless && u.tok[s].capital) ||
                                    (u.caseless && (s + 1 == u.n || subjectVerb(u, s + 1)))))
                 ? Slot::strong
                 : Slot::weak;
    }
    if (s < u.n && nameLike(u, s, slot)) {
      const std::size_t e = nameEnd(u, s);
      // "i'm X": only when X reads as a name and not as a state ("i'm tired", "i'm on").
      const bool introEnd = e == u.n || u.is(e, "and") || u.tok[e - 1].commaAfter || u.tok[e - 1].stopAfter;
      if (!(u.is(i, "i'm") || u.is(i + 1, "am")) || (u.tok[s].lex & (lex::firstName | lex::surname)) ||
          (!u.caseless && u.tok[s].capital) || (e - s == 2 && introEnd && !u.has(s, lex::common))) {
        addName(u, c, s, e);
        i = e - 1;
        // "tell rafferty and [keziah] dinner's ready", "a meeting with keziah and judge [oyelaran]".
        std::size_t a = e;
        while (u.is(a, "and") && !u.tok[a - 1].commaAfter) {
          std::size_t b = a + 1;
          if (titleWord(u, b)) ++b;
          if (!plainName(u, b)) break;
          a = nameEnd(u, b);
          addName(u, c, b, a);
          i = a - 1;
        }
        continue;
      }
    }
    // "X's phone number", "ravi kim's email".
    // After a determiner ("my printer's address") an unknown word is a thing, not a person.
    const bool determined = i > 0 && u.anyOf(i - 1, i, {"my", "your", "our", "his", "her", "their", "the", "a", "an"}) &&
                            !(u.tok[i].lex & lex::firstName);
    // A pet's name is no person's: "password hint: dog's name".
    const bool nameWord = !u.anyOf(i, i + 1, {"dog's", "cat's", "puppy's", "kitten's", "pet's", "horse's", "bird's",
                                              "hamster's", "rabbit's", "bunny's", "parrot's"});
    if (u.tok[i].possessive && attributeNoun(u, i + 1) && nameLike(u, i, Slot::strong) && !u.has(i, lex::common) &&
        !determined && nameWord) {
      std::size_t b = i;
      if (i > 0 && nameLike(u, i - 1, Slot::weak) && !u.tok[i - 1].commaAfter && !contactVerb(u, i - 1)) b = i - 1;
      addName(u, c, b, i + 1);
      continue;
    }
    // A name opening the sentence (after the wake word or a filler): "[Solveig Hargreaves] here.", "[fintan
    // ferreira] speaking", "[Perpetua] is my name", "[desmond] thirty two goes to ...".
    bool opening = !publicFrame && plainName(u, i);
    for (std::size_t k = 0; opening && k < i; ++k) opening = u.has(k, lex::notName) && !u.tok[k].possessive;
    if (opening && !c.covered(i, i + 1)) {
      const std::size_t e = nameEnd(u, i);
      const bool ends = e == u.n || u.tok[e].stopAfter || u.tok[e].commaAfter || e + 1 == u.n;
      std::size_t k = e;
      while (u.isNum(k)) ++k;
      if ((u.anyOf(e, e + 1, {"here", "speaking"}) && ends) ||
          (u.is(e, "is") && u.is(e + 1, "my") && u.anyOf(e + 2, e + 3, {"name", "full"})) ||
          (k > e && u.anyOf(k, k + 1, {"goes", "attends", "lives", "works", "plays", "studies", "is", "turns",
                                       "turned", "will"})) ||
          u.anyOf(e, e + 1, {"moved", "called", "texted", "phoned", "emailed", "said", "says", "wants", "needs"}) ||
          // Said to someone in the room: "[marcus], dinner is ready" (a listed first name, then more words).
          (u.tok[e - 1].commaAfter && e + 1 < u.n && (u.tok[i].lex & lex::firstName) != 0)) {
        addName(u, c, i, e);
        i = e - 1;
        continue;
      }
    }
    // Sentence subject: "dmitri works at", "connor gupta is twenty", "Fatima was born".
    if ((i == 0 || u.tok[i].sentenceStart) && !publicFrame) {
      const bool known = (u.tok[i].lex & (lex::firstName | lex::surname)) && !(u.tok[i].lex & lex::common);
      if (nameLike(u, i, known ? Slot::strong : Slot::weak) || (known && nameLike(u, i, Slot::strong))) {
        const std::size_t e = nameEnd(u, i);
        if (subjectVerb(u, e) || u.tok[e - 1].possessive) {
          addName(u, c, i, e);
          i = e - 1;
          continue;
        }
      } else if (!known && nameLike(u, i, Slot::strong) && !u.has(i, lex::common)) {
        const std::size_t e = nameEnd(u, i);
        if (u.anyOf(e, e + 1, {"works", "lives", "takes", "attends", "goes", "teaches", "volunteers"}) ||
            (u.is(e, "was") && u.is(e + 1, "born")) ||
            (u.is(e, "is") && (u.isNum(e + 1) || u.anyOf(e + 1, e + 2, {"allergic", "diagnosed", "pregnant", "sick",
                                                                        "recovering", "on"})))) {
          addName(u, c, i, e);
          i = e - 1;
          continue;
        }
      }
    }
    // Anywhere: a known given name (not also a common word) outside public-figure frames.
    if (!publicFrame && !c.covered(i, i + 1) && (u.tok[i].lex & lex::firstName) && !(u.tok[i].lex & (lex::common | lex::relation | lex::function)) &&
        nameLike(u, i, Slot::weak) && (u.caseless || u.tok[i].capital)) {
      const std::size_t e = nameEnd(u, i);
      addName(u, c, i, e);
      i = e - 1;
    }
  }
}

}  // namespace sotto::privacy::detail
