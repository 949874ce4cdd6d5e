// SPDX-License-Identifier: MIT
// A lexical scan of XML markup that names what tinyxml2 reports vaguely or not at all: duplicate attributes,
// stray closing tags, elements left open at the end of the file.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sotto::config::detail {

struct MarkupScan {
  struct DuplicateAttribute {
    int line = 0;
    std::string elementPath;  // dotted element names below the root, e.g. "audio.capture"; empty for the root
    std::string element;      // the element's own name
    std::string attribute;
  };
  struct StrayClosingTag {
    int line = 0;
    std::string name;
  };
  struct UnclosedElement {
    int line = 0;
    std::string name;
  };
  std::optional<DuplicateAttribute> duplicateAttribute;  // the first in document order
  std::optional<StrayClosingTag> strayClosingTag;        // the first closing tag with no open element
  std::optional<UnclosedElement> unclosedElement;        // the innermost element still open at the end of the text
};

// Only for diagnosing a document tinyxml2 rejected or cut short: it tracks tags, comments, CDATA, processing
// instructions and quoted values, nothing more, and stops at the first markup it cannot follow.
MarkupScan scanMarkup(std::string_view xml);

}  // namespace sotto::config::detail
