// SPDX-License-Identifier: MIT
// toXml: a Config written back as sotto.xml, every setting explicit, in table order.
#include "app/config/config.h"
#include "app/config/schema.h"
#include "app/config/value_codec.h"

namespace sotto::config {
namespace {

void appendEscaped(std::string& out, std::string_view value) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (const char c : value) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          // A parser would turn a raw tab or newline in an attribute into a space; a reference keeps it. (Valid
          // values hold no control characters; this only keeps toXml faithful for any Config.)
          out += "&#x";
          out += kHex[static_cast<unsigned char>(c) >> 4];
          out += kHex[static_cast<unsigned char>(c) & 0xF];
          out += ';';
        } else {
          out += c;
        }
    }
  }
}

void writeElement(std::string& out, const detail::SchemaElement& e, const Config& config, int depth) {
  const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  out += indent + "<" + e.name;
  if (depth == 0) out += " version=\"" + std::to_string(kSchemaVersion) + "\"";
  for (std::size_t i = 0; i < e.attributes.size(); ++i) {
    out += " ";
    out += e.attributeNames[i];
    out += "=\"";
    appendEscaped(out, detail::render(*e.attributes[i], config));
    out += "\"";
  }
  if (e.children.empty()) {
    out += "/>\n";
    return;
  }
  out += ">\n";
  for (const detail::SchemaElement& child : e.children) writeElement(out, child, config, depth + 1);
  out += indent + "</" + e.name + ">\n";
}

}  // namespace

std::string toXml(const Config& config) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  writeElement(out, detail::schema(), config, 0);
  return out;
}

}  // namespace sotto::config
