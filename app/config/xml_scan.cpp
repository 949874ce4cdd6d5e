// SPDX-License-Identifier: MIT
// A lexical scan of XML markup that names what tinyxml2 reports vaguely or not at all: duplicate attributes,
// stray closing tags, elements left open at the end of the file.
#include "app/config/xml_scan.h"

#include <algorithm>
#include <cstdint>
#include <unordered_set>
#include <vector>

namespace sotto::config::detail {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool isDigitIn(char c, bool hex) {
  return (c >= '0' && c <= '9') || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
}
unsigned digitValue(char c) {
  return c <= '9' ? static_cast<unsigned>(c - '0') : static_cast<unsigned>((c | 0x20) - 'a' + 10);
}
// XML 1.0's Char production: what a character reference may name.
bool isXmlChar(std::uint32_t v) {
  return v == 0x9 || v == 0xA || v == 0xD || (v >= 0x20 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD) ||
         (v >= 0x10000 && v <= 0x10FFFF);
}
bool endsName(char c) { return isSpace(c) || c == '=' || c == '/' || c == '>' || c == '<' || c == '"' || c == '\''; }

class Scanner {
 public:
  explicit Scanner(std::string_view xml) : xml_(xml) {}

  MarkupScan run() {
    MarkupScan scan;
    bool complete = false;  // reached the end of the text without losing track of the markup
    while (true) {
      if (pos_ >= xml_.size()) {
        complete = true;
        break;
      }
      if (xml_[pos_] != '<') {  // text
        const std::size_t next = xml_.find('<', pos_);
        if (next == std::string_view::npos) {
          checkReferences(xml_.substr(pos_), line_, scan);
          complete = true;
          break;
        }
        checkReferences(xml_.substr(pos_, next - pos_), line_, scan);
        advance(next - pos_);
        continue;
      }
      if (startsWith("<!--")) {
        if (!skipPast("-->", 4)) break;
      } else if (startsWith("<![CDATA[")) {
        if (!skipPast("]]>", 9)) break;
      } else if (startsWith("<?")) {
        if (!skipPast("?>", 2)) break;
      } else if (startsWith("<!")) {
        if (!skipPast(">", 2)) break;
      } else if (startsWith("</")) {
        const int tagLine = line_;
        advance(2);
        skipSpace();  // tinyxml2 allows "< name" and "</ name"
        const std::string_view name = readName();
        if (!skipPast(">", 0)) break;
        if (open_.empty()) {
          if (!scan.strayClosingTag) scan.strayClosingTag = MarkupScan::StrayClosingTag{tagLine, std::string(name)};
        } else {
          open_.pop_back();
          openLines_.pop_back();
        }
      } else if (!startTag(scan)) {
        break;
      }
    }
    if (complete && !open_.empty()) {
      scan.unclosedElement = MarkupScan::UnclosedElement{openLines_.back(), std::string(open_.back())};
    }
    return scan;
  }

 private:
  bool startsWith(std::string_view s) const { return xml_.substr(pos_).starts_with(s); }

  // Moves forward n bytes, counting lines.
  void advance(std::size_t n) {
    const std::size_t end = std::min(xml_.size(), pos_ + n);
    line_ += static_cast<int>(std::count(xml_.begin() + static_cast<std::ptrdiff_t>(pos_),
                                         xml_.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
    pos_ = end;
  }

  // Moves just past the next `what` found at least `from` bytes ahead; false (at the end) when there is none.
  bool skipPast(std::string_view what, std::size_t from) {
    const std::size_t found = xml_.find(what, std::min(xml_.size(), pos_ + from));
    if (found == std::string_view::npos) {
      advance(xml_.size() - pos_);
      return false;
    }
    advance(found + what.size() - pos_);
    return true;
  }

  void skipSpace() {
    while (pos_ < xml_.size() && isSpace(xml_[pos_])) advance(1);
  }

  std::string_view readName() {
    const std::size_t start = pos_;
    while (pos_ < xml_.size() && !endsName(xml_[pos_])) ++pos_;  // names hold no newlines
    return xml_.substr(start, pos_ - start);
  }

  // At '<' of a start tag. False when the tag cannot be followed (the caller stops).
  bool startTag(MarkupScan& scan) {
    const int elementLine = line_;
    advance(1);
    skipSpace();
    const std::string_view element = readName();
    if (element.empty()) return false;
    std::unordered_set<std::string_view> seen;
    while (true) {
      skipSpace();
      if (pos_ >= xml_.size()) return false;
      if (xml_[pos_] == '>') {
        advance(1);
        open_.push_back(element);
        openLines_.push_back(elementLine);
        return true;
      }
      if (startsWith("/>")) {
        advance(2);
        return true;
      }
      const int attributeLine = line_;
      const std::string_view attribute = readName();
      if (attribute.empty()) return false;
      if (seen.size() >= kMaxAttributesPerElement) {
        scan.tooManyAttributes = MarkupScan::TooManyAttributes{elementLine, std::string(element)};
        return false;
      }
      if (!seen.insert(attribute).second && !scan.duplicateAttribute) {
        std::string path;
        for (std::size_t i = 1; i < open_.size(); ++i) path.append(open_[i]).append(".");  // below the root
        if (!open_.empty()) path.append(element);
        scan.duplicateAttribute =
            MarkupScan::DuplicateAttribute{attributeLine, path, std::string(element), std::string(attribute)};
      }
      skipSpace();
      if (pos_ >= xml_.size() || xml_[pos_] != '=') return false;
      advance(1);
      skipSpace();
      if (pos_ >= xml_.size() || (xml_[pos_] != '"' && xml_[pos_] != '\'')) return false;
      const char quote = xml_[pos_];
      const std::size_t valueStart = pos_ + 1;
      const int valueLine = line_;
      if (!skipPast(std::string_view(&quote, 1), 1)) return false;
      checkReferences(xml_.substr(valueStart, pos_ - 1 - valueStart), valueLine, scan);
    }
  }

  // Records the first character reference in `s` (text or a value starting on `line`) that is malformed or names
  // no XML character. Entity references (&amp; ...) are tinyxml2's to check.
  static void checkReferences(std::string_view s, int line, MarkupScan& scan) {
    if (scan.badCharacterReference) return;
    for (std::size_t at = s.find("&#"); at != std::string_view::npos; at = s.find("&#", at + 2)) {
      std::size_t i = at + 2;
      const bool hex = i < s.size() && s[i] == 'x';
      if (hex) ++i;
      const std::size_t digitsStart = i;
      std::uint32_t v = 0;
      bool tooLarge = false;
      for (; i < s.size() && isDigitIn(s[i], hex); ++i) {
        v = v * (hex ? 16u : 10u) + digitValue(s[i]);
        if (v > 0x10FFFF) {
          tooLarge = true;
          v = 0x110000;  // stays out of range, never overflows
        }
      }
      const bool terminated = i < s.size() && s[i] == ';' && i > digitsStart;
      if (terminated && !tooLarge && isXmlChar(v)) continue;
      const std::size_t end = std::min(s.size(), terminated ? i + 1 : i);
      scan.badCharacterReference = MarkupScan::BadCharacterReference{
          line + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(at), '\n')),
          std::string(s.substr(at, std::min<std::size_t>(end - at, 24)))};
      return;
    }
  }

  std::string_view xml_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::vector<std::string_view> open_;  // names of the open elements, outermost first
  std::vector<int> openLines_;          // and the lines they start on
};

}  // namespace

MarkupScan scanMarkup(std::string_view xml) { return Scanner(xml).run(); }

}  // namespace sotto::config::detail
