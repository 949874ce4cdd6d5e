// SPDX-License-Identifier: MIT
// The element tree implied by the settings table: audio.capture.rate means <audio><capture rate="..."/></audio>.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/config/settings.h"

namespace sotto::config::detail {

struct SchemaElement {
  std::string name;                     // "capture"; "sotto" for the root
  std::string path;                     // "audio.capture"; "" for the root
  std::vector<SchemaElement> children;  // in table order
  std::vector<std::string_view> childNames;
  std::vector<const Setting*> attributes;  // in table order
  std::vector<std::string_view> attributeNames;

  const SchemaElement* child(std::string_view childName) const;
  const Setting* attribute(std::string_view attributeName) const;
};

// Built from settings() on first use (thread-safe), read-only afterwards.
const SchemaElement& schema();

// The last component of a dotted path: the attribute name of a setting.
std::string_view lastComponent(std::string_view path);

}  // namespace sotto::config::detail
