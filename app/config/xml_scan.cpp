// SPDX-License-Identifier: MIT
// A lexical scan of XML markup that names what tinyxml2 reports vaguely or not at all: duplicate attributes,
// stray closing tags, elements left open at the end of the file.
#include "app/config/xml_scan.h"

#include <algorithm>
#include <vector>

namespace sotto::config::detail {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
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
          complete = true;
          break;
        }
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
    std::vector<std::string_view> seen;
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
      if (std::find(seen.begin(), seen.end(), attribute) != seen.end() && !scan.duplicateAttribute) {
        std::string path;
        for (std::size_t i = 1; i < open_.size(); ++i) path.append(open_[i]).append(".");  // below the root
        if (!open_.empty()) path.append(element);
        scan.duplicateAttribute =
            MarkupScan::DuplicateAttribute{attributeLine, path, std::string(element), std::string(attribute)};
      }
      seen.push_back(attribute);
      skipSpace();
      if (pos_ >= xml_.size() || xml_[pos_] != '=') return false;
      advance(1);
      skipSpace();
      if (pos_ >= xml_.size() || (xml_[pos_] != '"' && xml_[pos_] != '\'')) return false;
      const char quote = xml_[pos_];
      if (!skipPast(std::string_view(&quote, 1), 1)) return false;
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
