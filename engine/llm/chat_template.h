// SPDX-License-Identifier: MIT
// Chat templates: recognizes a model's tokenizer.chat_template and formats conversations the same way.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "sotto/hal/result.h"

namespace sotto::llm {

struct ChatMessage {
  std::string_view role;  // "system", "user", "assistant"
  std::string_view content;
};

// Not a Jinja engine: like llama.cpp's built-in templates, it recognizes a template by its distinctive markers
// and reproduces its output in code. The prompt never contains BOS; tokenize it with addSpecial=true (the
// vocabulary decides about BOS) and parseSpecial=true (so "<|im_start|>" becomes one token).
//
// Immutable after detect(): any thread may call apply() concurrently; apply() only appends to `out`.
class ChatTemplate {
 public:
  enum class Kind : uint8_t {
    chatml,          // <|im_start|>role\ncontent<|im_end|>\n (SmolLM2, Qwen2/2.5)
    llama3,          // <|start_header_id|>role<|end_header_id|>\n\ncontent<|eot_id|>
    llama2,          // [INST] user [/INST]assistant</s> ; a system message is prepended to the first turn
    llama2Sys,       // ... with <<SYS>>\nsystem\n<</SYS>>\n\n
    llama2SysBos,    // ... and <s> before every later [INST]
    llama2SysStrip,  // ... and message contents trimmed
  };

  // Recognizes `templateText` (the GGUF tokenizer.chat_template). A non-empty `configuredName` ("chatml",
  // "llama3", "llama2", "llama2-sys", "llama2-sys-bos", "llama2-sys-strip") overrides recognition; it is how a
  // model with a missing or unknown template is still used. Errors: unknown template text and no name, an
  // unknown name, or a template of a family we do not implement (named in the message). Control thread.
  static Result<ChatTemplate> detect(std::string_view templateText, std::string_view configuredName = {});

  Kind kind() const { return kind_; }
  std::string_view name() const;
  // ChatML templates that add their own system turn when the conversation does not start with one (SmolLM2's
  // "You are a helpful AI assistant named SmolLM, trained by Hugging Face", Qwen's "You are Qwen, created by
  // Alibaba Cloud. ..."); empty otherwise.
  const std::string& defaultSystemPrompt() const { return defaultSystem_; }

  // Appends the formatted conversation; addGenerationPrompt opens the assistant's turn (ignored by the llama2
  // family, whose prompt already ends where the answer starts).
  void apply(std::span<const ChatMessage> messages, bool addGenerationPrompt, std::string& out) const;
  std::string apply(std::span<const ChatMessage> messages, bool addGenerationPrompt) const;

 private:
  ChatTemplate(Kind kind, std::string defaultSystem) : kind_(kind), defaultSystem_(std::move(defaultSystem)) {}
  Kind kind_;
  std::string defaultSystem_;
};

}  // namespace sotto::llm
