// SPDX-License-Identifier: MIT
// referenceMarkdown: the settings reference (config/settings-reference.md), generated from the settings table.
#include <string>

#include "app/config/config.h"
#include "app/config/schema.h"
#include "app/config/settings.h"

namespace sotto::config {
namespace {

const char* typeName(ValueType type) {
  switch (type) {
    case ValueType::text: return "text";
    case ValueType::name: return "name";
    case ValueType::path: return "path";
    case ValueType::url: return "url";
    case ValueType::boolean: return "boolean";
    case ValueType::unsignedInt: return "unsigned";
    case ValueType::signedInt: return "integer";
    case ValueType::fraction: return "fraction";
    case ValueType::choice: return "choice";
    case ValueType::cpuList: return "cpu-list";
  }
  return "?";
}

std::string code(std::string_view text) { return "`" + std::string(text) + "`"; }

std::string allowedValues(const Setting& s) {
  const std::string orEmpty = s.mayBeEmpty ? ", or empty" : "";
  switch (s.type) {
    case ValueType::text: return "at most " + std::to_string(s.maxLength) + " bytes" + orEmpty;
    case ValueType::name: return code("a-z0-9_-") + ", 1 to 32";
    case ValueType::path: return "absolute path" + orEmpty;
    case ValueType::url: return code("https://") + " URL, " + code("http://") + " to loopback" + orEmpty;
    case ValueType::boolean: return code("true") + ", " + code("false");
    case ValueType::unsignedInt:
    case ValueType::signedInt: return std::to_string(s.min) + " to " + std::to_string(s.max);
    case ValueType::fraction: return "0 to 1, at most 4 decimals";
    case ValueType::choice: {
      std::string out;
      for (std::string_view c : s.choices) out += (out.empty() ? "" : ", ") + code(c);
      return out;
    }
    case ValueType::cpuList: return "CPU list" + orEmpty;
  }
  return {};
}

// Table cells: a '|' would end the cell.
std::string cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

void settingRows(std::string& out, const detail::SchemaElement& e) {
  for (const Setting* s : e.attributes) {
    out += "| " + code(s->path) + " | " + typeName(s->type) + " | " +
           (s->defaultText.empty() ? std::string("(empty)") : code(s->defaultText)) + " | " + cell(allowedValues(*s)) +
           " | " + std::string(s->unit) + " | " + cell(s->description) + " |\n";
  }
  for (const detail::SchemaElement& child : e.children) settingRows(out, child);
}

constexpr std::string_view kIntro = R"(# Sotto settings reference

<!-- Generated from app/config/settings_table.cpp by sotto-config-reference: do not edit.
     Regenerate: cmake --build build/host-debug --target config-reference -->

`sottod` reads its settings from `/etc/sotto/sotto.xml`, or from the file given with `--config PATH`;
`sottod --print-config-reference` prints this page.

## The file

- UTF-8 XML, at most 1 MiB, with the root element `<sotto version="1">`. A missing or other version is an error.
- Every setting is an attribute. Its name is the path of elements below `<sotto>` and the attribute, joined
  with dots: `audio.capture.rate` is `<sotto version="1"><audio><capture rate="16000"/></audio></sotto>`.
- A setting that is not in the file takes its default. An element or attribute may appear only once.
- Comments are allowed anywhere; text content, CDATA and `<!DOCTYPE>` are not.
- Malformed XML, unknown or duplicated elements and attributes, values of the wrong type, out of range or not
  among the choices, and broken rules between settings are errors. Each is reported on its own line as
  `file:line: setting: message`, all of them at once (the first 100, then a count; unknown names come with a
  "did you mean" suggestion).
  The daemon applies a file only when it has no errors: never part of it.
- `sottod --set setting=value` (repeatable) overrides single settings on top of the file, checked the same way.

## Value types

| Type | Written as |
|---|---|
| text | Any UTF-8 text without control characters, up to a length limit. |
| name | 1 to 32 characters of `a-z`, `0-9`, `_`, `-`, starting with a letter or digit (e.g. `alsa`). |
| path | An absolute path: starts with `/`. |
| url | `https://host[:port][/path]`; `http://` only to a loopback host (`localhost`, `127.0.0.0/8`, `[::1]`). No spaces, no `user@` credentials. |
| boolean | `true` or `false`; `1` and `0` are accepted too. |
| unsigned | Decimal digits, no sign, within the range. |
| integer | Decimal digits with an optional `-`, within the range. |
| choice | Exactly one of the listed words (lowercase). |
| cpu-list | CPU numbers (0 to 1023) and ranges `a-b` (a <= b) separated by commas, no spaces, no CPU twice: `0,2-3`. Empty means no pinning. |

## Settings
)";

}  // namespace

std::string referenceMarkdown() {
  std::string out(kIntro);
  for (const detail::SchemaElement& section : detail::schema().children) {
    out += "\n### `<" + section.name + ">`\n\n";
    out += "| Setting | Type | Default | Allowed values | Unit | Description |\n";
    out += "|---|---|---|---|---|---|\n";
    settingRows(out, section);
  }
  out += "\n## Rules between settings\n\nChecked after each setting is valid on its own.\n\n";
  out += "| Rule | Why |\n|---|---|\n";
  for (const Rule& r : rules()) {
    switch (r.kind) {
      case RuleKind::notGreater: out += "| " + code(r.a) + " <= " + code(r.b) + " | " + cell(r.why) + " |\n"; break;
      case RuleKind::requiresValue:
        out += "| " + code(r.b) + " must be set when " + code(r.a) + " is | " + cell(r.why) + " |\n";
        break;
    }
  }
  return out;
}

}  // namespace sotto::config
