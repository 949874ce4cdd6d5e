// SPDX-License-Identifier: MIT
// ChatTemplate: the SmolLM2 template from the mkgguf model, published Qwen2.5 / Llama 3 / Llama 2 templates,
// configured names, and the errors for missing, unknown and unsupported templates.
#include <gtest/gtest.h>

#include "engine/llm/chat_template.h"
#include "tests/llm_tokenizer/tokenizer_test_util.h"

namespace sotto::llm::test {
namespace {

using Msgs = std::vector<ChatMessage>;

// Qwen2.5-Instruct's template (tool branch shortened), with the \n escapes the published file has.
constexpr std::string_view kQwen25Template = R"({%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\n\n# Tools\n\n<tools>" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}
    {%- else %}
        {{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}
)";

// Meta-Llama-3-8B-Instruct.
constexpr std::string_view kLlama3Template =
    R"({% set loop_messages = messages %}{% for message in loop_messages %}{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %})";

// Llama-2-chat.
constexpr std::string_view kLlama2Template =
    R"({% if messages[0]['role'] == 'system' %}{% set loop_messages = messages[1:] %}{% set system_message = messages[0]['content'] %}{% else %}{% set loop_messages = messages %}{% set system_message = false %}{% endif %}{% for message in loop_messages %}{% if loop.index0 == 0 and system_message != false %}{% set content = '<<SYS>>\n' + system_message + '\n<</SYS>>\n\n' + message['content'] %}{% else %}{% set content = message['content'] %}{% endif %}{% if message['role'] == 'user' %}{{ bos_token + '[INST] ' + content.strip() + ' [/INST]' }}{% elif message['role'] == 'assistant' %}{{ ' '  + content.strip() + ' ' + eos_token }}{% endif %}{% endfor %})";

TEST(TokenizerChatTemplate, SmolLm2TemplateFromTheModel) {
  const SmolModel& m = smolModel();
  ASSERT_NE(m.file, nullptr) << m.error;
  const auto text = m.file->getString("tokenizer.chat_template");
  ASSERT_TRUE(text.has_value());
  auto t = ChatTemplate::detect(*text);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->kind(), ChatTemplate::Kind::chatml);
  EXPECT_EQ(t->name(), "chatml");
  EXPECT_EQ(t->defaultSystemPrompt(), "You are a helpful AI assistant named SmolLM, trained by Hugging Face");

  // No system message: the template adds its own, as transformers' apply_chat_template does.
  const std::string prompt = t->apply(Msgs{{"user", "What time is it?"}}, true);
  EXPECT_EQ(prompt,
            "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n"
            "<|im_start|>user\nWhat time is it?<|im_end|>\n<|im_start|>assistant\n");
  // A given system message replaces it; the generation prompt is optional.
  EXPECT_EQ(t->apply(Msgs{{"system", "Be brief."}, {"user", "Hi"}, {"assistant", "Hello!"}}, false),
            "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
            "<|im_start|>assistant\nHello!<|im_end|>\n");

  // Tokenized with parse_special, the markers are single tokens and "assistant" after <|im_start|> is the
  // vectors' ass + istant (520, 9531).
  const Tokenizer& tok = *m.tokenizer;
  const std::vector<TokenId> ids = tok.tokenize(prompt, true, true);
  const TokenId nl = tok.find("\xC4\x8A");
  ASSERT_GE(ids.size(), 8u);
  EXPECT_EQ((std::vector<TokenId>(ids.begin(), ids.begin() + 3)), (std::vector<TokenId>{1, 9690, nl}));
  EXPECT_EQ((std::vector<TokenId>(ids.end() - 4, ids.end())), (std::vector<TokenId>{1, 520, 9531, nl}));
  EXPECT_EQ(tok.detokenize(ids, false, true), prompt);
}

TEST(TokenizerChatTemplate, Qwen25DefaultSystemPrompt) {
  auto t = ChatTemplate::detect(kQwen25Template);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->kind(), ChatTemplate::Kind::chatml);
  EXPECT_EQ(t->defaultSystemPrompt(), "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.");
  EXPECT_EQ(t->apply(Msgs{{"user", "Hi"}}, true),
            "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n"
            "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
  // A configured name keeps the template's own default when the text is of that family.
  auto named = ChatTemplate::detect(kQwen25Template, "chatml");
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(named->defaultSystemPrompt(), t->defaultSystemPrompt());
}

TEST(TokenizerChatTemplate, Llama3) {
  auto t = ChatTemplate::detect(kLlama3Template);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->kind(), ChatTemplate::Kind::llama3);
  EXPECT_TRUE(t->defaultSystemPrompt().empty());
  // Contents are trimmed (| trim); BOS is left to the tokenizer.
  EXPECT_EQ(t->apply(Msgs{{"system", "Be brief. "}, {"user", "\n Hi\n"}}, true),
            "<|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|>"
            "<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>"
            "<|start_header_id|>assistant<|end_header_id|>\n\n");
}

TEST(TokenizerChatTemplate, Llama2Family) {
  auto t = ChatTemplate::detect(kLlama2Template);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->kind(), ChatTemplate::Kind::llama2SysStrip);  // content.strip() marks the trimming variant
  EXPECT_EQ(t->apply(Msgs{{"system", "Sys"}, {"user", " Hi "}, {"assistant", "Hello"}, {"user", "Bye"}}, true),
            "[INST] <<SYS>>\nSys\n<</SYS>>\n\nHi [/INST]Hello</s>[INST] Bye [/INST]");
  // Plain "[INST]" templates have no system slot: the system text leads the first message.
  auto plain = ChatTemplate::detect("{{ '[INST] ' + message['content'] + ' [/INST]' }}");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->kind(), ChatTemplate::Kind::llama2);
  EXPECT_EQ(plain->apply(Msgs{{"system", "S"}, {"user", "U"}}, true), "[INST] S\nU [/INST]");
  auto bos = ChatTemplate::detect("{{ bos_token + '[INST] ' }} <<SYS>>");
  ASSERT_TRUE(bos.ok());
  EXPECT_EQ(bos->kind(), ChatTemplate::Kind::llama2SysBos);
  EXPECT_EQ(bos->apply(Msgs{{"user", "a"}, {"assistant", "b"}, {"user", "c"}}, true),
            "[INST] a [/INST]b</s><s>[INST] c [/INST]");
}

TEST(TokenizerChatTemplate, ConfiguredNameOverridesUnknownText) {
  auto unknown = ChatTemplate::detect("{{ messages }}");
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, Errc::unsupported);
  EXPECT_NE(unknown.error().message.find("unrecognized"), std::string::npos) << unknown.error().message;
  EXPECT_NE(unknown.error().message.find("{{ messages }}"), std::string::npos) << unknown.error().message;

  auto named = ChatTemplate::detect("{{ messages }}", "chatml");
  ASSERT_TRUE(named.ok()) << named.error().message;
  EXPECT_TRUE(named->defaultSystemPrompt().empty());
  EXPECT_EQ(named->apply(Msgs{{"user", "x"}}, true), "<|im_start|>user\nx<|im_end|>\n<|im_start|>assistant\n");

  auto forced = ChatTemplate::detect(kLlama3Template, "chatml");  // the name wins over recognition
  ASSERT_TRUE(forced.ok());
  EXPECT_EQ(forced->kind(), ChatTemplate::Kind::chatml);

  auto badName = ChatTemplate::detect(kLlama3Template, "vicuna");
  ASSERT_FALSE(badName.ok());
  EXPECT_NE(badName.error().message.find("'vicuna'"), std::string::npos) << badName.error().message;
}

TEST(TokenizerChatTemplate, MissingAndUnsupportedTemplates) {
  auto missing = ChatTemplate::detect("");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, Errc::not_found);

  auto phi4 = ChatTemplate::detect("{{'<|im_start|>' + message['role'] + '<|im_sep|>'}}");
  ASSERT_FALSE(phi4.ok());
  EXPECT_NE(phi4.error().message.find("Phi-4"), std::string::npos) << phi4.error().message;

  auto mistral = ChatTemplate::detect("{{ '[INST]' }}{{ '[SYSTEM_PROMPT]' }}");
  ASSERT_FALSE(mistral.ok());
  EXPECT_NE(mistral.error().message.find("Mistral"), std::string::npos) << mistral.error().message;
}

TEST(TokenizerChatTemplate, EmptyConversation) {
  auto t = ChatTemplate::detect(kQwen25Template);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->apply(Msgs{}, true), "<|im_start|>assistant\n");
  std::string out = "prefix:";
  t->apply(Msgs{{"user", "u"}}, false, out);  // appends
  EXPECT_EQ(out.rfind("prefix:<|im_start|>system\n", 0), 0u);
}

}  // namespace
}  // namespace sotto::llm::test
