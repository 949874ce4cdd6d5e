// SPDX-License-Identifier: MIT
// Internal: the recognizer families run by PiiClassifier::classify(), in order, over one tokenized utterance.
#pragma once

#include <cstddef>

#include "engine/privacy/pii_text.h"

namespace sotto::privacy::detail {

// Each adds candidates to c; all are allocation-free and read only u (and earlier candidates).
void findStructured(const Utterance& u, Candidates& c) noexcept;  // IBAN, card, SSN, e-mail, IP, phone
void findAddresses(const Utterance& u, Candidates& c) noexcept;   // postal addresses
void findContextual(const Utterance& u, Candidates& c) noexcept;  // birth date, account numbers, secrets
// National identity numbers (UK NINO, Canadian SIN, Australian TFN and Medicare) and UK/Canadian postcodes.
void findIdentityNumbers(const Utterance& u, Candidates& c) noexcept;
// Secrets by shape (API keys, tokens, random strings), BIP-39 seed phrases, words spelt letter by letter.
void findSecretShapes(const Utterance& u, Candidates& c) noexcept;
void findPeople(const Utterance& u, Candidates& c) noexcept;      // private people's names
void findPersonal(const Utterance& u, Candidates& c) noexcept;    // age, health, named places (after people)
// All of them, in that order (what classify() and the model's trainer both run).
void findAll(const Utterance& u, Candidates& c) noexcept;

// Shared helpers.
bool isLetterToken(const Utterance& u, std::size_t i) noexcept;  // a single ASCII letter ("g", "b")
// The NATO spelling alphabet ("kilo alpha tango"): the lowercase letter a word stands for, 0 for any other word.
char natoLetter(std::string_view word) noexcept;
// Any of words occurs in the n tokens before i.
bool cueBefore(const Utterance& u, std::size_t i, std::size_t n, std::initializer_list<std::string_view> words) noexcept;
// A question about the world rather than about the user ("what is ... used for", "who was ...").
bool generalQuestion(const Utterance& u) noexcept;
// A request about public figures: a knowledge question or a media frame (WordNet's famous names count there only).
bool publicFigureContext(const Utterance& u) noexcept;
// The last step of classify() (pii_classifier.cpp): where a name's span ends with its own spelling, and which of
// the model's one-word names to drop.
bool spelledTail(const Utterance& u, std::size_t t0, std::size_t t1, std::size_t& nameEnd,
                 std::size_t& spellingStart) noexcept;
std::size_t dropUnlikelyModelNames(const Utterance& u, Candidate* kept, std::size_t n) noexcept;
// The utterance talks about the user or a specific person (my, i, we, a name ...).
bool personalAnchor(const Utterance& u, const Candidates& c) noexcept;
// The word at i names a secret: a PIN or password cue ("pin", "passcode", "the door code") or a keypad or lock.
bool namesASecret(const Utterance& u, std::size_t i) noexcept;
// The type the nearest cue before the value at words [t0, t1) names, up to six words back and not past another
// number: PHONE ("my account phone number is ..."), ACCOUNT_NUMBER ("the account i use for rent is ..."),
// PIN_OR_PASSWORD ("the keypad one is ..."; with no cue before, a secret named in the six words after, "8 8 2 3 is
// the pin"), or PERSON when no cue names any (PERSON stands for "none" here).
PiiType numberCueType(const Utterance& u, std::size_t t0, std::size_t t1) noexcept;
// The word at i is a code that names no secret: "zip code", "error code", "promo code".
bool codeNamesNoSecret(const Utterance& u, std::size_t i) noexcept;
// Health may be said here: about a person (or in a form, a chart, a dose) and not a question about the world or
// a request for a show ("play episode 51 of bluey").
bool healthContext(const Utterance& u, const Candidates& c) noexcept;

}  // namespace sotto::privacy::detail
