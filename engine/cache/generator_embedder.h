// SPDX-License-Identifier: MIT
// GeneratorEmbedder: the local model's pooled hidden-state sentence embedding (llm::Generator::embed) as an Embedder.
#pragma once

#include "engine/cache/embedder.h"
#include "engine/llm/generator.h"

namespace sotto::cache {

// Borrows a Generator that must outlive it. Give the cache a Generator of its own (a second Generator over the
// same Model: it has its own context), because Generator::embed must not run while another thread generates
// with the same Generator, and embed() clobbers that Generator's cached prompt prefix.
// Threads: the cache's owning thread; blocks for one forward pass over the prompt.
class GeneratorEmbedder final : public Embedder {
 public:
  explicit GeneratorEmbedder(llm::Generator& generator) noexcept : generator_(generator) {}
  std::size_t dimension() const noexcept override { return generator_.embeddingSize(); }
  Status embed(std::string_view text, std::span<float> out) override { return generator_.embed(text, out); }

 private:
  llm::Generator& generator_;
};

}  // namespace sotto::cache
