// SPDX-License-Identifier: MIT
// Loading sotto.xml: file checks, XML parsing (tinyxml2), the walk against the settings table, the rules, overrides.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include <tinyxml2.h>

#include "app/config/config.h"
#include "app/config/schema.h"
#include "app/config/settings.h"
#include "app/config/text_util.h"
#include "app/config/value_codec.h"
#include "app/config/xml_scan.h"

namespace sotto::config {
namespace {

using detail::clip;
using detail::quote;
using detail::schema;
using detail::SchemaElement;

// Appended after the input: tinyxml2 silently stops at a closing tag at document level (<sotto/></x>...), so a
// parse that does not end with this element on the line after the input lost some of it.
constexpr std::string_view kSentinel = "sotto-end-of-input";
// A broken or hostile file could yield thousands; the first hundred say enough, the count says the rest.
constexpr std::size_t kMaxProblems = 100;

std::size_t indexOf(const Setting& s) { return static_cast<std::size_t>(&s - settings().data()); }

// Where an element of this name belongs, when it exists elsewhere in the tree.
void findElementPaths(const SchemaElement& e, std::string_view name, std::vector<const SchemaElement*>& parents) {
  for (const SchemaElement& c : e.children) {
    if (c.name == name) parents.push_back(&e);
    findElementPaths(c, name, parents);
  }
}

std::string joinNames(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

std::string childPath(std::string_view parentPath, std::string_view name) {
  return parentPath.empty() ? clip(name) : std::string(parentPath) + "." + clip(name);
}

class Problems {
 public:
  explicit Problems(std::string file) : file_(std::move(file)) {}

  void add(int line, std::string setting, std::string message) {
    if (list_.size() >= kMaxProblems) {
      ++dropped_;
      return;
    }
    list_.push_back(Problem{file_, line, std::move(setting), std::move(message)});
  }
  bool empty() const { return list_.empty(); }

  // In file order; problems without a line (whole file, rules among overrides) first.
  std::vector<Problem> take() {
    std::stable_sort(list_.begin(), list_.end(), [](const Problem& a, const Problem& b) { return a.line < b.line; });
    if (dropped_ > 0) {
      list_.push_back(Problem{file_, 0, "", std::to_string(dropped_) + " more problems not shown", dropped_});
    }
    return std::move(list_);
  }

 private:
  std::string file_;
  std::vector<Problem> list_;
  std::size_t dropped_ = 0;
};

// What loading has done so far, per setting (indexed like settings()).
struct Assignments {
  static constexpr int kUnset = -1;
  Config config = defaults();
  std::vector<int> line = std::vector<int>(settings().size(), kUnset);  // where it was set; 0 = no line (override)
  std::vector<bool> failed = std::vector<bool>(settings().size(), false);

  void set(const Setting& s, std::string_view text, int at, Problems& problems) {
    const std::size_t i = indexOf(s);
    line[i] = at;
    if (auto error = detail::assign(s, text, config)) {
      failed[i] = true;
      problems.add(at, std::string(s.path), std::move(*error));
    }
  }
};

std::string withUnit(uint32_t value, std::string_view unit) {
  return unit.empty() ? std::to_string(value) : std::to_string(value) + " " + std::string(unit);
}

// The cross-setting rules. A rule that involves a setting which failed on its own is skipped: its value is the
// default, not what the file meant, so the message would mislead. The problem goes to a setting the input set.
void checkRules(Assignments& a, Problems& problems) {
  for (const Rule& rule : rules()) {
    const Setting& sa = *findSetting(rule.a);
    const Setting& sb = *findSetting(rule.b);
    const std::size_t ia = indexOf(sa), ib = indexOf(sb);
    if (a.failed[ia] || a.failed[ib]) continue;
    const bool blameB = a.line[ia] == Assignments::kUnset && a.line[ib] != Assignments::kUnset;
    const Setting& blamed = blameB ? sb : sa;
    const int line = std::max(0, a.line[indexOf(blamed)]);
    const std::string why = std::string(rule.why);
    switch (rule.kind) {
      case RuleKind::notGreater: {
        const uint32_t va = detail::unsignedValue(sa, a.config), vb = detail::unsignedValue(sb, a.config);
        if (va <= vb) break;
        if (blameB) {
          problems.add(line, std::string(sb.path),
                       withUnit(vb, sb.unit) + " is less than " + std::string(sa.path) + " (" + withUnit(va, sa.unit) +
                           "): " + why);
        } else {
          problems.add(
              line, std::string(sa.path),
              withUnit(va, sa.unit) + " exceeds " + std::string(sb.path) + " (" + withUnit(vb, sb.unit) + "): " + why);
        }
        break;
      }
      case RuleKind::requiresValue:
        if (detail::stringValue(sa, a.config).empty() || !detail::stringValue(sb, a.config).empty()) break;
        if (blameB) {
          problems.add(line, std::string(sb.path),
                       "must not be empty when " + std::string(sa.path) + " is set: " + why);
        } else {
          problems.add(line, std::string(sa.path), "is set, but " + std::string(sb.path) + " is empty: " + why);
        }
        break;
    }
  }
}

LoadResult finish(Assignments& a, Problems& problems) {
  checkRules(a, problems);
  if (!problems.empty()) return LoadResult{std::nullopt, problems.take()};
  return LoadResult{std::move(a.config), {}};
}

// ---- XML ----

// tinyxml2's error string ends in "name=<element>" for element errors; the name makes the message concrete.
std::string erroredElement(const tinyxml2::XMLDocument& doc) {
  const std::string_view text = doc.ErrorStr();
  const std::size_t at = text.rfind("name=");
  return at == std::string_view::npos ? std::string() : clip(text.substr(at + 5));
}

std::string describeXmlError(const tinyxml2::XMLDocument& doc) {
  const std::string element = erroredElement(doc);
  const std::string tag = element.empty() ? std::string("a tag") : "<" + element + ">";
  switch (doc.ErrorID()) {
    case tinyxml2::XML_ERROR_PARSING_ELEMENT:
      return "malformed XML: " + tag + " is not terminated properly (expected attributes, '>' or '/>')";
    case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE:
      return "malformed XML: bad attribute in " + tag + " (write name=\"value\")";
    case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT:
      return "malformed XML: " + tag + " is not closed by a matching </" + (element.empty() ? "..." : element) + ">";
    case tinyxml2::XML_ERROR_PARSING_TEXT: return "malformed XML: bad text";
    case tinyxml2::XML_ERROR_PARSING_CDATA: return "malformed XML: unterminated CDATA section";
    case tinyxml2::XML_ERROR_PARSING_COMMENT: return "malformed XML: unterminated comment (missing -->)";
    case tinyxml2::XML_ERROR_PARSING_DECLARATION:
      return "malformed XML: bad <?...?> declaration (allowed only at the start of the file)";
    case tinyxml2::XML_ERROR_PARSING_UNKNOWN: return "malformed XML: unterminated <!...> markup";
    case tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED: return "malformed XML: elements are nested too deeply";
    case tinyxml2::XML_ERROR_PARSING:
      return "malformed XML: '<' is not followed by an element name (write &lt; for a literal '<')";
    default: return "malformed XML";
  }
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool isBlank(std::string_view text) { return std::all_of(text.begin(), text.end(), isSpace); }
std::string_view trim(std::string_view text) {
  while (!text.empty() && isSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back())) text.remove_suffix(1);
  return text;
}

class Walker {
 public:
  Walker(Assignments& a, Problems& p) : a_(a), problems_(p) {}

  void document(const tinyxml2::XMLDocument& doc) {
    const tinyxml2::XMLElement* root = nullptr;
    for (const tinyxml2::XMLNode* n = doc.FirstChild(); n != nullptr; n = n->NextSibling()) {
      if (const auto* e = n->ToElement()) {
        if (root == nullptr) {
          root = e;
        } else {
          problems_.add(e->GetLineNum(), "",
                        "unexpected element <" + clip(e->Name()) + "> after the root element (put it inside <sotto>)");
        }
      } else {
        otherNode(*n, "outside <sotto>");
      }
    }
    if (root == nullptr) {
      problems_.add(0, "",
                    "no root element: the file must contain <sotto version=\"" + std::to_string(kSchemaVersion) +
                        "\">...</sotto>");
      return;
    }
    if (std::string_view(root->Name()) != "sotto") {
      problems_.add(root->GetLineNum(), "",
                    "the root element is <" + clip(root->Name()) + ">; it must be <sotto version=\"" +
                        std::to_string(kSchemaVersion) + "\">");
      return;  // some other kind of file: checking its content against our schema would only add noise
    }
    if (!version(*root)) return;
    element(*root, schema());
  }

 private:
  // False when the rest of the file should not be checked (a version this build does not read).
  bool version(const tinyxml2::XMLElement& root) {
    const tinyxml2::XMLAttribute* v = root.FindAttribute("version");
    const std::string expected = std::to_string(kSchemaVersion);
    if (v == nullptr) {
      problems_.add(root.GetLineNum(), "version", "missing; write <sotto version=\"" + expected + "\">");
      return true;  // probably just forgotten: the settings are still worth checking
    }
    if (std::string_view(v->Value()) != expected) {
      problems_.add(v->GetLineNum(), "version",
                    quote(v->Value()) + " is not a supported version; this build reads version " + expected);
      return false;  // another schema: its settings would all look wrong
    }
    return true;
  }

  void element(const tinyxml2::XMLElement& xml, const SchemaElement& node) {
    const bool isRoot = node.path.empty();
    for (const tinyxml2::XMLAttribute* attr = xml.FirstAttribute(); attr != nullptr; attr = attr->Next()) {
      const std::string_view name = attr->Name();
      if (isRoot && name == "version") continue;
      if (const Setting* s = node.attribute(name)) {
        a_.set(*s, attr->Value(), attr->GetLineNum(), problems_);
      } else {
        unknownAttribute(*attr, node);
      }
    }
    std::vector<std::pair<std::string_view, int>> seen;  // child element name, line
    for (const tinyxml2::XMLNode* n = xml.FirstChild(); n != nullptr; n = n->NextSibling()) {
      const auto* child = n->ToElement();
      if (child == nullptr) {
        // <log>debug</log> is a natural guess; show the attribute form instead.
        const std::string hint = node.attributeNames.empty()
                                     ? std::string()
                                     : " (settings are attributes: <" + node.name + " " +
                                           std::string(node.attributeNames.front()) + "=\"...\"/>)";
        otherNode(*n, "in <" + node.name + ">", hint);
        continue;
      }
      const std::string_view name = child->Name();
      const SchemaElement* childNode = node.child(name);
      if (childNode == nullptr) {
        unknownElement(*child, node);
        continue;
      }
      const auto first = std::find_if(seen.begin(), seen.end(), [&](const auto& p) { return p.first == name; });
      if (first != seen.end()) {
        problems_.add(
            child->GetLineNum(), childNode->path,
            "duplicate element <" + childNode->name + "> (first at line " + std::to_string(first->second) + ")");
        continue;
      }
      seen.emplace_back(name, child->GetLineNum());
      element(*child, *childNode);
    }
  }

  void unknownAttribute(const tinyxml2::XMLAttribute& attr, const SchemaElement& node) {
    static constexpr std::string_view kRootAttributes[] = {"version"};
    const std::string_view name = attr.Name();
    const std::span<const std::string_view> candidates =
        node.path.empty() ? std::span<const std::string_view>(kRootAttributes) : node.attributeNames;
    std::string message = "unknown attribute '" + clip(name) + "'";
    if (const auto guess = detail::closest(name, candidates)) {
      message += "; did you mean '" + std::string(*guess) + "'?";
    } else if (node.path.empty()) {
      message += " (<sotto> takes only version)";
    } else if (node.attributeNames.empty()) {
      message += " (<" + node.name + "> takes no attributes)";
    } else {
      message += " (<" + node.name + "> takes " + joinNames(node.attributeNames) + ")";
    }
    problems_.add(attr.GetLineNum(), childPath(node.path, name), std::move(message));
  }

  void unknownElement(const tinyxml2::XMLElement& xml, const SchemaElement& node) {
    const std::string_view name = xml.Name();
    std::string message = "unknown element <" + clip(name) + ">";
    std::vector<const SchemaElement*> parents;
    findElementPaths(schema(), name, parents);
    if (const auto guess = detail::closest(name, node.childNames)) {
      message += "; did you mean <" + std::string(*guess) + ">?";
    } else if (node.attribute(name) != nullptr) {
      message +=
          "; " + std::string(name) + " is an attribute: write <" + node.name + " " + std::string(name) + "=\"...\"/>";
    } else if (parents.size() == 1) {
      const SchemaElement& parent = *parents.front();
      message +=
          "; it belongs " + (parent.path.empty() ? std::string("directly in <sotto>") : "in <" + parent.name + ">");
    } else if (node.childNames.empty()) {
      message += " (<" + node.name + "> has no child elements)";
    } else {
      message += " (<" + node.name + "> contains " + joinNames(node.childNames) + ")";
    }
    problems_.add(xml.GetLineNum(), childPath(node.path, name), std::move(message));
  }

  // Comments and declarations are fine anywhere tinyxml2 accepts them; text and DTD-like markup are not.
  void otherNode(const tinyxml2::XMLNode& n, const std::string& where, const std::string& hint = "") {
    if (n.ToComment() != nullptr || n.ToDeclaration() != nullptr) return;
    if (const auto* text = n.ToText()) {
      if (!text->CData() && isBlank(text->Value())) return;
      problems_.add(text->GetLineNum(), "", "unexpected text " + quote(trim(text->Value()), 32) + " " + where + hint);
      return;
    }
    problems_.add(n.GetLineNum(), "",
                  "unsupported markup " + quote("<!" + std::string(n.Value()) + ">", 32) + " " + where);
  }

  Assignments& a_;
  Problems& problems_;
};

// Checks that must pass before the text goes to tinyxml2, which assumes a NUL-free UTF-8 document.
bool checkText(std::string_view xml, Problems& problems) {
  if (xml.empty()) {
    problems.add(0, "", "the file is empty");
    return false;
  }
  if (xml.size() > kMaxFileBytes) {
    problems.add(0, "",
                 "the file is too large (" + std::to_string(xml.size()) + " bytes; the limit is " +
                     std::to_string(kMaxFileBytes) + ")");
    return false;
  }
  if (const std::size_t nul = xml.find('\0'); nul != std::string_view::npos) {
    problems.add(detail::lineAt(xml, nul), "", "the file contains a NUL byte: it is not a text file");
    return false;
  }
  if (const auto bad = detail::firstInvalidUtf8(xml)) {
    problems.add(detail::lineAt(xml, *bad), "", "the file is not valid UTF-8 text");
    return false;
  }
  std::string_view body = xml;
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);  // a UTF-8 byte order mark is allowed
  if (isBlank(body)) {
    problems.add(0, "", "the file contains no XML (only white space)");
    return false;
  }
  return true;
}

// Parses into doc; false (with one problem) when the text is not well-formed XML.
bool parseXml(std::string_view xml, tinyxml2::XMLDocument& doc, Problems& problems) {
  // Bounds first, in linear time: tinyxml2 compares every attribute with every other one of its element (100,000
  // attributes took minutes) and silently cuts a value at &#0; or drops a reference beyond U+10FFFF.
  {
    const auto scan = detail::scanMarkup(xml);
    if (const auto& t = scan.tooManyAttributes) {
      problems.add(t->line, "",
                   "<" + clip(t->element) + "> has more than " + std::to_string(detail::kMaxAttributesPerElement) +
                       " attributes (no element takes that many): the file is not read further");
      return false;
    }
    if (const auto& r = scan.badCharacterReference) {
      problems.add(r->line, "",
                   "character reference '" + clip(r->reference) +
                       "' names no XML character (&#0;, other control characters, surrogates D800-DFFF and values "
                       "beyond 10FFFF are not allowed; a reference ends with ';')");
      return false;
    }
  }
  std::string text(xml);
  text.append("\n<").append(kSentinel).append("/>\n");
  doc.Parse(text.data(), text.size());
  const int lastLine = detail::lineAt(xml, xml.size());
  if (doc.Error()) {
    const auto id = doc.ErrorID();
    const int errorLine = std::min(doc.ErrorLineNum(), lastLine);  // never the sentinel's line
    if (id == tinyxml2::XML_ERROR_PARSING_ATTRIBUTE || id == tinyxml2::XML_ERROR_PARSING) {
      // tinyxml2 says "bad attribute" for a duplicate and "parsing error" for an element left open at the end.
      const auto scan = detail::scanMarkup(xml);
      const auto& d = scan.duplicateAttribute;
      if (id == tinyxml2::XML_ERROR_PARSING_ATTRIBUTE && d && d->line == errorLine) {
        problems.add(d->line, childPath(d->elementPath, d->attribute),
                     "duplicate attribute '" + clip(d->attribute) + "' in <" + clip(d->element) + ">");
        return false;
      }
      const auto& u = scan.unclosedElement;
      if (id == tinyxml2::XML_ERROR_PARSING && u && u->line == errorLine) {
        problems.add(u->line, "", "malformed XML: <" + clip(u->name) + "> is not closed before the end of the file");
        return false;
      }
    }
    problems.add(errorLine, "", describeXmlError(doc));
    return false;
  }
  const int sentinelLine = lastLine + 1;
  tinyxml2::XMLNode* last = doc.LastChild();
  const tinyxml2::XMLElement* sentinel = last != nullptr ? last->ToElement() : nullptr;
  if (sentinel == nullptr || std::string_view(sentinel->Name()) != kSentinel ||
      sentinel->GetLineNum() != sentinelLine) {
    const auto scan = detail::scanMarkup(xml);
    if (scan.strayClosingTag) {
      problems.add(scan.strayClosingTag->line, "",
                   "malformed XML: closing tag </" + clip(scan.strayClosingTag->name) + "> has no opening tag");
    } else {
      problems.add(lastLine, "", "malformed XML: unterminated markup at the end of the file");
    }
    return false;
  }
  doc.DeleteNode(last);
  return true;
}

std::string errnoText(int error) { return std::generic_category().message(error); }

}  // namespace

std::size_t problemCount(const std::vector<Problem>& problems) noexcept {
  std::size_t n = 0;
  for (const Problem& p : problems) n += p.notShown > 0 ? p.notShown : 1;
  return n;
}

std::string Problem::format() const {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  out += ": ";
  if (!setting.empty()) out += setting + ": ";
  out += message;
  return out;
}

LoadResult loadString(std::string_view xml, const std::string& nameForMessages) {
  Problems problems(nameForMessages);
  if (!checkText(xml, problems)) return LoadResult{std::nullopt, problems.take()};
  tinyxml2::XMLDocument doc(true, tinyxml2::PRESERVE_WHITESPACE);
  if (!parseXml(xml, doc, problems)) return LoadResult{std::nullopt, problems.take()};
  Assignments assignments;
  Walker(assignments, problems).document(doc);
  return finish(assignments, problems);
}

LoadResult loadOrDefaults(std::string& path) {
  struct stat st {};
  if (path.empty() && ::stat(kDefaultPath, &st) == 0) path = kDefaultPath;
  return path.empty() ? LoadResult{defaults(), {}} : loadFile(path);
}

LoadResult loadFile(const std::string& path) {
  const auto fail = [&](std::string message) {
    return LoadResult{std::nullopt, {Problem{path, 0, "", std::move(message)}}};
  };
  // O_NONBLOCK: opening a FIFO must not hang start-up; it is refused below as not a regular file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return fail("cannot open: " + errnoText(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return fail("cannot stat: " + errnoText(errno));
  if (S_ISDIR(st.st_mode)) return fail("is a directory, not a file");
  if (!S_ISREG(st.st_mode)) return fail("is not a regular file");
  if (static_cast<uint64_t>(st.st_size) > kMaxFileBytes) {
    return fail("the file is too large (" + std::to_string(st.st_size) + " bytes; the limit is " +
                std::to_string(kMaxFileBytes) + ")");
  }
  // Read one byte past the limit: the file may have grown since fstat.
  std::string content(kMaxFileBytes + 1, '\0');
  std::size_t size = 0;
  while (size < content.size()) {
    const ssize_t n = ::read(fd, content.data() + size, content.size() - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail("cannot read: " + errnoText(errno));
    if (n == 0) break;
    size += static_cast<std::size_t>(n);
  }
  content.resize(size);
  return loadString(content, path);
}

LoadResult applyOverrides(const Config& base, std::span<const std::string> assignmentTexts) {
  Problems problems("--set");
  Assignments a;
  a.config = base;
  for (const std::string& text : assignmentTexts) {
    const std::size_t eq = text.find('=');
    const std::string_view path = std::string_view(text).substr(0, eq);
    if (eq == std::string::npos || path.empty()) {
      problems.add(0, "", quote(text) + " is not setting=value (e.g. log.level=debug)");
      continue;
    }
    const Setting* s = findSetting(path);
    if (s == nullptr) {
      std::vector<std::string_view> paths;
      for (const Setting& known : settings()) paths.push_back(known.path);
      std::string message = "unknown setting";
      if (const auto guess = detail::closest(path, paths)) message += "; did you mean " + std::string(*guess) + "?";
      problems.add(0, clip(path), std::move(message));
      continue;
    }
    if (a.line[indexOf(*s)] != Assignments::kUnset) {
      problems.add(0, std::string(s->path), "set twice");
      continue;
    }
    a.set(*s, std::string_view(text).substr(eq + 1), 0, problems);
  }
  return finish(a, problems);
}

}  // namespace sotto::config
