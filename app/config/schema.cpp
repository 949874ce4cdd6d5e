// SPDX-License-Identifier: MIT
// The element tree implied by the settings table: audio.capture.rate means <audio><capture rate="..."/></audio>.
#include "app/config/schema.h"

#include <algorithm>

namespace sotto::config::detail {
namespace {

void collectNames(SchemaElement& e) {
  for (SchemaElement& c : e.children) {
    e.childNames.push_back(c.name);
    collectNames(c);
  }
  for (const Setting* s : e.attributes) e.attributeNames.push_back(lastComponent(s->path));
}

SchemaElement build() {
  SchemaElement root{"sotto", "", {}, {}, {}, {}};
  for (const Setting& s : settings()) {
    SchemaElement* node = &root;
    std::string_view rest = s.path;
    for (std::size_t dot = rest.find('.'); dot != std::string_view::npos; dot = rest.find('.')) {
      const std::string_view name = rest.substr(0, dot);
      auto it = std::find_if(node->children.begin(), node->children.end(),
                             [&](const SchemaElement& c) { return c.name == name; });
      if (it == node->children.end()) {
        std::string path = node->path.empty() ? std::string(name) : node->path + "." + std::string(name);
        node->children.push_back(SchemaElement{std::string(name), std::move(path), {}, {}, {}, {}});
        it = node->children.end() - 1;
      }
      node = &*it;
      rest.remove_prefix(dot + 1);
    }
    node->attributes.push_back(&s);
  }
  // The name views point into children's strings, so they are taken once the tree no longer changes.
  collectNames(root);
  return root;
}

}  // namespace

const SchemaElement* SchemaElement::child(std::string_view childName) const {
  const auto it = std::find(childNames.begin(), childNames.end(), childName);
  return it == childNames.end() ? nullptr : &children[static_cast<std::size_t>(it - childNames.begin())];
}

const Setting* SchemaElement::attribute(std::string_view attributeName) const {
  const auto it = std::find(attributeNames.begin(), attributeNames.end(), attributeName);
  return it == attributeNames.end() ? nullptr : attributes[static_cast<std::size_t>(it - attributeNames.begin())];
}

const SchemaElement& schema() {
  static const SchemaElement root = build();
  return root;
}

std::string_view lastComponent(std::string_view path) { return path.substr(path.rfind('.') + 1); }

}  // namespace sotto::config::detail
