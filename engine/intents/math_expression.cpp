// SPDX-License-Identifier: MIT
// Spoken arithmetic to canonical text, and the recursive-descent evaluator of the canonical form.
#include "engine/intents/math_expression.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "engine/intents/spoken_numbers.h"

namespace sotto::intents {
namespace {

using Tokens = std::span<const std::string_view>;

class Writer {
 public:
  explicit Writer(CanonicalExpression& out) : out_(out) { out_.length = 0; }
  void put(std::string_view s) noexcept {
    if (out_.length + s.size() + 1 > CanonicalExpression::kCapacity) {
      overflow_ = true;
      return;
    }
    std::memcpy(out_.text + out_.length, s.data(), s.size());
    out_.length += s.size();
    out_.text[out_.length] = '\0';
  }
  void number(double v) noexcept {
    char buf[32];
    put({buf, formatNumber(v, buf, sizeof buf)});
  }
  bool ok() const noexcept { return !overflow_; }

 private:
  CanonicalExpression& out_;
  bool overflow_ = false;
};

// Operator words at position i; returns tokens used and the canonical operator (or '%' for "percent [of]").
size_t operatorAt(Tokens t, size_t i, char& op) noexcept {
  if (i >= t.size()) return 0;
  const std::string_view w = t[i];
  auto next = [&](size_t k) { return i + k < t.size() ? t[i + k] : std::string_view{}; };
  if (w == "plus" || w == "+" || w == "add") return op = '+', 1;
  if (w == "minus" || w == "-" || w == "less" || w == "subtract") return op = '-', 1;
  if (w == "take" && next(1) == "away") return op = '-', 2;
  if (w == "times" || w == "x" || w == "*" || w == "multiply") return op = '*', (next(1) == "by" ? 2 : 1);
  if (w == "multiplied" && next(1) == "by") return op = '*', 2;
  if (w == "/" || w == "over") return op = '/', 1;
  if ((w == "divided" || w == "divide") && next(1) == "by") return op = '/', 2;
  // "nine hundred and ten shared between eight": a division people say about sharing out.
  if ((w == "shared" || w == "split" || w == "divided") && (next(1) == "between" || next(1) == "among")) {
    return op = '/', 2;
  }
  if (w == "^") return op = '^', 1;
  if (w == "to" && next(1) == "the" && next(2) == "power" && next(3) == "of") return op = '^', 4;
  if (w == "raised" && next(1) == "to" && next(2) == "the" && next(3) == "power" && next(4) == "of") {
    return op = '^', 5;
  }
  if (w == "raised" && next(1) == "to") return op = '^', 2;
  if (w == "percent" || w == "%") return op = '%', (next(1) == "of" ? 2 : 1);
  return 0;
}

// One operand: a number, "the square root of N", optionally followed by "squared"/"cubed".
size_t operand(Tokens t, size_t i, Writer& w) noexcept {
  size_t j = i;
  bool root = false;
  if (j < t.size() && t[j] == "the") ++j;
  if (j + 2 < t.size() && t[j] == "square" && t[j + 1] == "root" && t[j + 2] == "of") {
    root = true;
    j += 3;
  } else if (j + 1 < t.size() && (t[j] == "sqrt" || t[j] == "root")) {
    root = true;  // "root sixty four", as "square root" is shortened
    j += 1;
    if (t[j] == "of") ++j;
  } else if (j + 2 < t.size() && t[j] == "square" && t[j + 1] == "root") {
    root = true;
    j += 2;
  } else if (j != i) {
    return 0;  // "the" only introduces a square root
  }
  NumberOptions opt;
  opt.sign = true;
  const SpokenNumber n = parseNumberPrefix(t.subspan(j), opt);
  if (n.tokens == 0) return 0;
  j += n.tokens;
  if (root) {
    w.put("sqrt(");
    w.number(n.value);
    w.put(")");
  } else {
    w.number(n.value);
  }
  if (j < t.size() && (t[j] == "squared" || t[j] == "cubed")) {
    w.put(t[j] == "squared" ? " ^ 2" : " ^ 3");
    ++j;
  }
  return j - i;
}

// "to the fourth [power]": a power said as an ordinal. Returns tokens used, the exponent in k.
size_t ordinalPowerAt(Tokens t, size_t i, int& k) noexcept {
  static constexpr std::string_view kOrdinals[] = {"second", "third", "fourth", "fifth", "sixth",
                                                   "seventh", "eighth", "ninth", "tenth"};
  if (i + 2 >= t.size() || t[i] != "to" || t[i + 1] != "the") return 0;
  for (size_t o = 0; o < std::size(kOrdinals); ++o) {
    if (t[i + 2] != kOrdinals[o]) continue;
    k = static_cast<int>(o) + 2;
    return (i + 3 < t.size() && t[i + 3] == "power") ? 4 : 3;
  }
  return 0;
}

// The operation named before its operands: "the sum of A and B", "subtract A from B" (B - A), "add A to B",
// "multiply A by B", "the difference between A and B"; and after them: "A and B added together". Only the whole
// token list; infix arithmetic is parsed by the caller.
bool operationFirst(Tokens t, Writer& w) noexcept {
  struct Form {
    std::string_view head[2];  // the words that name the operation ("" = none)
    std::string_view joins[3];  // between the operands
    char op;
    bool swap;  // "subtract A from B" is B - A
  };
  static constexpr Form kForms[] = {
      {{"sum", "of"}, {"and", "plus"}, '+', false},
      {{"total", "of"}, {"and", "plus"}, '+', false},
      {{"product", "of"}, {"and", "times"}, '*', false},
      {{"difference", "between"}, {"and"}, '-', false},
      {{"quotient", "of"}, {"and", "by"}, '/', false},
      {{"add", ""}, {"to", "and", "plus"}, '+', false},
      {{"subtract", ""}, {"from"}, '-', true},
      {{"take", ""}, {"from"}, '-', true},
      {{"take", "away"}, {"from"}, '-', true},
      {{"multiply", ""}, {"by", "and", "with"}, '*', false},
      {{"divide", ""}, {"by"}, '/', false},
  };
  size_t i0 = (!t.empty() && t[0] == "the") ? 1 : 0;
  CanonicalExpression a, b;
  for (const Form& f : kForms) {
    size_t i = i0;
    if (i >= t.size() || t[i] != f.head[0]) continue;
    ++i;
    if (!f.head[1].empty()) {
      if (i >= t.size() || t[i] != f.head[1]) continue;
      ++i;
    }
    // The operands are split at a joining word (tried left to right), each read whole: "add six hundred thirty to
    // two hundred" must not read "thirty to" as "thirty two".
    bool found = false;
    for (size_t j = i + 1; j < t.size() && !found; ++j) {
      bool joins = false;
      for (const std::string_view word : f.joins) joins |= !word.empty() && t[j] == word;
      if (!joins) continue;
      size_t aEnd = j;
      if (f.head[0] == "take" && f.head[1].empty() && aEnd > i + 1 && t[aEnd - 1] == "away") --aEnd;
      Writer wa(a);
      if (operand(t.first(aEnd), i, wa) != aEnd - i || !wa.ok()) continue;
      size_t end = t.size();
      if (end > j + 2 && t[end - 1] == "together") --end;  // "add A and B together"
      Writer wb(b);
      if (operand(t.first(end), j + 1, wb) != end - j - 1 || !wb.ok()) continue;
      found = true;
    }
    if (!found) continue;
    const char text[4] = {' ', f.op, ' ', '\0'};
    w.put(f.swap ? b.view() : a.view());
    w.put(text);
    w.put(f.swap ? a.view() : b.view());
    return w.ok();
  }
  // "A and B added together", "A and B multiplied".
  Writer wa(a);
  size_t i = operand(t, 0, wa);
  if (i == 0 || i >= t.size() || t[i] != "and") return false;
  Writer wb(b);
  const size_t nb = operand(t, i + 1, wb);
  if (nb == 0) return false;
  i += 1 + nb;
  if (i >= t.size()) return false;
  const char op = (t[i] == "added" || t[i] == "summed") ? '+' : t[i] == "multiplied" ? '*' : 0;
  if (op == 0) return false;
  ++i;
  if (i < t.size() && t[i] == "together") ++i;
  if (i != t.size()) return false;
  const char text[4] = {' ', op, ' ', '\0'};
  w.put(a.view());
  w.put(text);
  w.put(b.view());
  return w.ok();
}

}  // namespace

bool parseSpokenExpression(Tokens t, CanonicalExpression& out) noexcept {
  {
    Writer first(out);
    if (operationFirst(t, first)) return true;
  }
  Writer w(out);  // starts the text again
  size_t i = 0;
  size_t n = operand(t, i, w);
  if (n == 0) return false;
  // An operation is a binary operator, a root or a power; a bare number is not arithmetic.
  bool operation = out.view().find_first_of("(^") != std::string_view::npos;
  i += n;
  while (i < t.size()) {
    int power = 0;
    if (const size_t p = ordinalPowerAt(t, i, power); p != 0) {
      w.put(" ^ ");
      w.number(power);
      i += p;
      operation = true;
      continue;
    }
    char op = 0;
    const size_t k = operatorAt(t, i, op);
    if (k == 0) return false;
    i += k;
    if (op == '%') {
      w.put(" / 100 * ");
    } else {
      const char text[4] = {' ', op, ' ', '\0'};
      w.put(text);
    }
    n = operand(t, i, w);
    if (n == 0) return false;
    i += n;
    operation = true;
  }
  return operation && w.ok();
}

namespace {

class Evaluator {
 public:
  explicit Evaluator(std::string_view s) : s_(s) {}

  bool run(double& v) {
    if (!expr(v, 0)) return false;
    skip();
    return pos_ == s_.size() && std::isfinite(v);
  }
  const char* why() const { return why_; }

 private:
  static constexpr int kMaxDepth = 32;

  void skip() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  bool fail(const char* why) {
    if (why_ == nullptr) why_ = why;
    return false;
  }
  bool eat(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool expr(double& v, int depth) {
    if (depth > kMaxDepth) return fail("nested too deeply");
    if (!term(v, depth)) return false;
    for (;;) {
      double r = 0.0;
      if (eat('+')) {
        if (!term(r, depth)) return false;
        v += r;
      } else if (eat('-')) {
        if (!term(r, depth)) return false;
        v -= r;
      } else {
        return true;
      }
    }
  }
  bool term(double& v, int depth) {
    if (!power(v, depth)) return false;
    for (;;) {
      double r = 0.0;
      if (eat('*')) {
        if (!power(r, depth)) return false;
        v *= r;
      } else if (eat('/')) {
        if (!power(r, depth)) return false;
        if (r == 0.0) return fail("division by zero");
        v /= r;
      } else {
        return true;
      }
    }
  }
  bool power(double& v, int depth) {
    if (!unary(v, depth)) return false;
    if (eat('^')) {
      double e = 0.0;
      if (!power(e, depth + 1)) return false;  // right-associative
      v = std::pow(v, e);
      if (!std::isfinite(v)) return fail("result out of range");
    }
    return true;
  }
  bool unary(double& v, int depth) {
    if (depth > kMaxDepth) return fail("nested too deeply");
    if (eat('-')) {
      if (!unary(v, depth + 1)) return false;
      v = -v;
      return true;
    }
    if (!primary(v, depth)) return false;
    if (eat('%')) v /= 100.0;
    return true;
  }
  bool primary(double& v, int depth) {
    skip();
    if (s_.substr(pos_, 4) == "sqrt") {
      pos_ += 4;
      if (!eat('(')) return fail("expected '(' after sqrt");
      if (!expr(v, depth + 1)) return false;
      if (!eat(')')) return fail("expected ')'");
      if (v < 0.0) return fail("square root of a negative number");
      v = std::sqrt(v);
      return true;
    }
    if (eat('(')) {
      if (!expr(v, depth + 1)) return false;
      if (!eat(')')) return fail("expected ')'");
      return true;
    }
    const char* b = s_.data() + pos_;
    const char* e = s_.data() + s_.size();
    if (b == e || !((*b >= '0' && *b <= '9') || *b == '.')) return fail("expected a number");
    auto r = std::from_chars(b, e, v, std::chars_format::fixed);
    if (r.ec != std::errc()) return fail("bad number");
    pos_ += static_cast<size_t>(r.ptr - b);
    return true;
  }

  std::string_view s_;
  size_t pos_ = 0;
  const char* why_ = nullptr;
};

}  // namespace

Result<double> evaluateExpression(std::string_view canonical) {
  Evaluator ev(canonical);
  double v = 0.0;
  if (!ev.run(v)) {
    return makeError(Errc::invalid_argument, std::string("cannot evaluate '") + std::string(canonical) +
                                                 "': " + (ev.why() ? ev.why() : "unexpected text"));
  }
  return v;
}

double roundResult(double value) noexcept {
  const double r = std::round(value);
  if (std::fabs(value - r) < 1e-9) return r == 0.0 ? 0.0 : r;
  const double q = std::round(value * 1e4) / 1e4;
  return q == 0.0 ? 0.0 : q;  // no "-0"
}

std::size_t formatNumber(double value, char* buf, std::size_t capacity) noexcept {
  if (value == 0.0) value = 0.0;  // -0 prints as 0
  auto r = std::to_chars(buf, buf + capacity - 1, value);
  if (r.ec != std::errc()) {
    buf[0] = '\0';
    return 0;
  }
  *r.ptr = '\0';
  return static_cast<size_t>(r.ptr - buf);
}

std::size_t formatResult(double value, char* buf, std::size_t capacity) noexcept {
  return formatNumber(roundResult(value), buf, capacity);
}

}  // namespace sotto::intents
