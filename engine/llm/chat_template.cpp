// SPDX-License-Identifier: MIT
// ChatTemplate: marker-based recognition (after llama.cpp's llm_chat_detect_template) and formatting.
#include "engine/llm/chat_template.h"

#include <array>
#include <optional>
#include <utility>
#include <vector>

namespace sotto::llm {
namespace {

struct NamedKind {
  std::string_view name;
  ChatTemplate::Kind kind;
};

constexpr std::array<NamedKind, 6> kNames = {{
    {"chatml", ChatTemplate::Kind::chatml},
    {"llama3", ChatTemplate::Kind::llama3},
    {"llama2", ChatTemplate::Kind::llama2},
    {"llama2-sys", ChatTemplate::Kind::llama2Sys},
    {"llama2-sys-bos", ChatTemplate::Kind::llama2SysBos},
    {"llama2-sys-strip", ChatTemplate::Kind::llama2SysStrip},
}};

std::string quoteStart(std::string_view text) {
  std::string s(text.substr(0, 60));
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return "'" + s + (text.size() > 60 ? "...'" : "'");
}

// Recognition by markers. Returns the kind, or an error naming the family when we recognize one we do not
// implement, or nullopt when nothing is recognized.
Result<std::optional<ChatTemplate::Kind>> recognize(std::string_view t) {
  using Kind = ChatTemplate::Kind;
  auto has = [t](std::string_view marker) { return t.find(marker) != std::string_view::npos; };
  auto unsupported = [](std::string_view family) {
    return makeError(Errc::unsupported,
                     "chat template looks like " + std::string(family) + ", which is not supported (chatml, llama3, "
                     "llama2 are); set the template name in the config to override");
  };
  if (has("<|im_start|>")) {
    if (has("<|im_sep|>")) return unsupported("Phi-4");
    if (has("<end_of_utterance>")) return unsupported("SmolVLM");
    return std::optional<Kind>(Kind::chatml);
  }
  if (t.substr(0, 7) == "mistral" || has("[INST]")) {
    if (has("[SYSTEM_PROMPT]") || has("' [INST] ' + system_message") || has("[AVAILABLE_TOOLS]")) {
      return unsupported("Mistral");
    }
    if (has("content.strip()")) return std::optional<Kind>(Kind::llama2SysStrip);
    if (has("bos_token + '[INST]")) return std::optional<Kind>(Kind::llama2SysBos);
    if (has("<<SYS>>")) return std::optional<Kind>(Kind::llama2Sys);
    return std::optional<Kind>(Kind::llama2);
  }
  if (has("<|start_header_id|>") && has("<|end_header_id|>")) return std::optional<Kind>(Kind::llama3);
  return std::optional<Kind>();
}

// The string literals inside the template's {{ }} and {% %} blocks, with Jinja escapes resolved.
std::vector<std::string> jinjaStringLiterals(std::string_view t) {
  std::vector<std::string> out;
  size_t i = 0;
  while ((i = t.find('{', i)) != std::string_view::npos) {
    if (i + 1 >= t.size() || (t[i + 1] != '{' && t[i + 1] != '%')) {
      ++i;
      continue;
    }
    const char closer = t[i + 1] == '{' ? '}' : '%';
    i += 2;
    while (i < t.size()) {
      const char c = t[i];
      if (c == closer && i + 1 < t.size() && t[i + 1] == '}') {
        i += 2;
        break;
      }
      if (c != '\'' && c != '"') {
        ++i;
        continue;
      }
      std::string lit;
      for (++i; i < t.size() && t[i] != c; ++i) {
        if (t[i] == '\\' && i + 1 < t.size()) {
          const char e = t[++i];
          lit.push_back(e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e);
        } else {
          lit.push_back(t[i]);
        }
      }
      ++i;  // closing quote
      out.push_back(std::move(lit));
    }
  }
  return out;
}

// A ChatML template's built-in system turn: a literal holding a whole "<|im_start|>system\n...<|im_end|>".
std::string chatmlDefaultSystem(std::string_view t) {
  static constexpr std::string_view kOpen = "<|im_start|>system\n";
  static constexpr std::string_view kClose = "<|im_end|>";
  for (const std::string& lit : jinjaStringLiterals(t)) {
    const size_t open = lit.find(kOpen);
    if (open == std::string::npos) continue;
    const size_t body = open + kOpen.size();
    const size_t close = lit.find(kClose, body);
    if (close != std::string::npos) return lit.substr(body, close - body);
  }
  return {};
}

// llama.cpp's trim(): C-locale isspace at both ends.
std::string_view trim(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

Result<ChatTemplate> ChatTemplate::detect(std::string_view templateText, std::string_view configuredName) {
  auto recognized = recognize(templateText);
  std::optional<Kind> kind;
  if (!configuredName.empty()) {
    for (const NamedKind& n : kNames) {
      if (n.name == configuredName) kind = n.kind;
    }
    if (!kind) {
      return makeError(Errc::invalid_argument,
                       "chat template name '" + std::string(configuredName) +
                           "' is not supported (chatml, llama3, llama2, llama2-sys, llama2-sys-bos, llama2-sys-strip)");
    }
  } else {
    if (!recognized) return std::move(recognized).error();
    if (templateText.empty()) {
      return makeError(Errc::not_found, "the model has no chat template (tokenizer.chat_template); set the template "
                                        "name in the config");
    }
    kind = *recognized;
    if (!kind) {
      return makeError(Errc::unsupported, "unrecognized chat template " + quoteStart(templateText) +
                                              "; set the template name in the config");
    }
  }
  std::string defaultSystem;
  // The template's own default system turn counts only when the text really is the configured family.
  if (*kind == Kind::chatml && recognized && *recognized == Kind::chatml) {
    defaultSystem = chatmlDefaultSystem(templateText);
  }
  return ChatTemplate(*kind, std::move(defaultSystem));
}

std::string_view ChatTemplate::name() const {
  for (const NamedKind& n : kNames) {
    if (n.kind == kind_) return n.name;
  }
  return "?";
}

void ChatTemplate::apply(std::span<const ChatMessage> messages, bool addGenerationPrompt, std::string& out) const {
  switch (kind_) {
    case Kind::chatml:
      if (!defaultSystem_.empty() && !messages.empty() && messages.front().role != "system") {
        out += "<|im_start|>system\n";
        out += defaultSystem_;
        out += "<|im_end|>\n";
      }
      for (const ChatMessage& m : messages) {
        out += "<|im_start|>";
        out += m.role;
        out += '\n';
        out += m.content;
        out += "<|im_end|>\n";
      }
      if (addGenerationPrompt) out += "<|im_start|>assistant\n";
      return;
    case Kind::llama3:
      for (const ChatMessage& m : messages) {
        out += "<|start_header_id|>";
        out += m.role;
        out += "<|end_header_id|>\n\n";
        out += trim(m.content);
        out += "<|eot_id|>";
      }
      if (addGenerationPrompt) out += "<|start_header_id|>assistant<|end_header_id|>\n\n";
      return;
    case Kind::llama2:
    case Kind::llama2Sys:
    case Kind::llama2SysBos:
    case Kind::llama2SysStrip: {
      const bool systemTags = kind_ != Kind::llama2;
      const bool bosInHistory = kind_ == Kind::llama2SysBos;
      const bool strip = kind_ == Kind::llama2SysStrip;
      bool insideTurn = true;  // the first [INST] is written up front (its BOS comes from the tokenizer)
      out += "[INST] ";
      for (const ChatMessage& m : messages) {
        const std::string_view content = strip ? trim(m.content) : m.content;
        if (!insideTurn) {
          insideTurn = true;
          out += bosInHistory ? "<s>[INST] " : "[INST] ";
        }
        if (m.role == "system") {
          if (systemTags) {
            out += "<<SYS>>\n";
            out += content;
            out += "\n<</SYS>>\n\n";
          } else {
            out += content;  // no system slot: it leads the first user message
            out += '\n';
          }
        } else if (m.role == "user") {
          out += content;
          out += " [/INST]";
        } else {
          out += content;
          out += "</s>";
          insideTurn = false;
        }
      }
      return;
    }
  }
}

std::string ChatTemplate::apply(std::span<const ChatMessage> messages, bool addGenerationPrompt) const {
  std::string out;
  apply(messages, addGenerationPrompt, out);
  return out;
}

}  // namespace sotto::llm
