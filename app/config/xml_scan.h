// SPDX-License-Identifier: MIT
// A lexical scan of XML markup that names what tinyxml2 reports vaguely or not at all: duplicate attributes,
// stray closing tags, elements left open at the end of the file; and, before tinyxml2 sees a file, what it must
// not be given: an element with more attributes than any setting needs (tinyxml2 checks duplicates pairwise) and
// character references that are no XML character (&#0;, surrogates, beyond U+10FFFF: tinyxml2 cuts or drops them).
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
  struct TooManyAttributes {
    int line = 0;
    std::string element;
  };
  struct BadCharacterReference {
    int line = 0;
    std::string reference;  // as written, at most 24 bytes
  };
  std::optional<DuplicateAttribute> duplicateAttribute;  // the first in document order
  std::optional<TooManyAttributes> tooManyAttributes;    // the first element over the limit (the scan stops there)
  std::optional<BadCharacterReference> badCharacterReference;  // the first, in text or an attribute value
  std::optional<StrayClosingTag> strayClosingTag;        // the first closing tag with no open element
  std::optional<UnclosedElement> unclosedElement;        // the innermost element still open at the end of the text
};

// An element with more attributes than this is refused before parsing (the widest element takes 14).
inline constexpr std::size_t kMaxAttributesPerElement = 64;

// Tracks tags, comments, CDATA, processing instructions and quoted values, nothing more, and stops at the first
// markup it cannot follow or at an element over kMaxAttributesPerElement. Linear in the size of the text (duplicate
// attributes are found with a hash set), so it runs before tinyxml2 on every file. Any thread.
MarkupScan scanMarkup(std::string_view xml);

}  // namespace sotto::config::detail
