// SPDX-License-Identifier: MIT
// GgufFile on real files: the stories260K models in ../shared/models and the synthetic tiny-llama from mkgguf.py.
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

#include "gguf_test_util.h"

namespace sotto::llm::test {
namespace {

constexpr const char* kTinyLlamaQ8Sha = "fdc14e626c52ec8fe4b966ead97947317ee56da15e99cf307f1f9a6aa42f46f8";
constexpr const char* kTinyLlamaF32Sha = "215699fb28e34dc8cbefa5e9a71aa530219229500921bbeecaa1a8c4548593dc";

std::unique_ptr<GgufFile> openOrFail(const std::string& path, const GgufOpenOptions& options = {}) {
  Result<std::unique_ptr<GgufFile>> r = GgufFile::open(path, options);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : nullptr;
}

bool insideMapping(const GgufFile& f, const GgufTensor& t) {
  const uint8_t* begin = f.bytes().data();
  const uint8_t* end = begin + f.bytes().size();
  return t.data >= begin + f.dataOffset() && t.data + t.nbytes <= end &&
         static_cast<uint64_t>(t.data - begin) == f.dataOffset() + t.offset;
}

void expectStoriesHyperParameters(const GgufFile& f) {
  EXPECT_EQ(f.version(), 3u);
  EXPECT_EQ(f.alignment(), 32u);
  EXPECT_EQ(f.architecture(), "llama");
  EXPECT_EQ(f.getString("general.name"), "stories260K");
  EXPECT_EQ(f.getUint("llama.embedding_length"), 64u);
  EXPECT_EQ(f.getUint("llama.block_count"), 5u);
  EXPECT_EQ(f.getUint("llama.attention.head_count"), 8u);
  EXPECT_EQ(f.getUint("llama.attention.head_count_kv"), 4u);
  EXPECT_EQ(f.getUint("llama.feed_forward_length"), 172u);
  EXPECT_EQ(f.getUint("llama.context_length"), 512u);
  EXPECT_EQ(f.getInt("llama.context_length"), 512);
  EXPECT_EQ(f.typeOf("llama.context_length"), GgufValueType::u32);
  ASSERT_TRUE(f.getFloat("llama.attention.layer_norm_rms_epsilon").has_value());
  EXPECT_NEAR(*f.getFloat("llama.attention.layer_norm_rms_epsilon"), 1e-5, 1e-12);
  EXPECT_EQ(f.getFloat("llama.rope.freq_base"), 10000.0);
  // Type mismatches answer nullopt rather than converting.
  EXPECT_FALSE(f.getString("llama.block_count").has_value());
  EXPECT_FALSE(f.getUint("general.name").has_value());
  EXPECT_FALSE(f.getFloat("llama.block_count").has_value());
  EXPECT_FALSE(f.has("llama.no_such_key"));
  EXPECT_FALSE(f.getUint("llama.no_such_key").has_value());

  EXPECT_EQ(f.getString("tokenizer.ggml.model"), "llama");
  EXPECT_EQ(f.arrayType("tokenizer.ggml.tokens"), GgufValueType::string);
  EXPECT_EQ(f.arrayLength("tokenizer.ggml.tokens"), 512u);
  const auto tokens = f.getStringArray("tokenizer.ggml.tokens");
  ASSERT_TRUE(tokens.has_value());
  ASSERT_EQ(tokens->size(), 512u);
  EXPECT_EQ((*tokens)[0], "<unk>");
  EXPECT_EQ((*tokens)[1], "<s>");
  EXPECT_EQ((*tokens)[2], "</s>");
  EXPECT_EQ((*tokens)[3], "<0x00>");  // byte-fallback pieces follow the specials
  const auto scores = f.getFloatArray("tokenizer.ggml.scores");
  ASSERT_TRUE(scores.has_value());
  EXPECT_EQ(scores->size(), 512u);
  const auto types = f.getIntArray("tokenizer.ggml.token_type");
  ASSERT_TRUE(types.has_value());
  ASSERT_EQ(types->size(), 512u);
  EXPECT_EQ((*types)[0], 2);  // UNKNOWN
  EXPECT_EQ((*types)[1], 3);  // CONTROL
  EXPECT_EQ((*types)[3], 6);  // BYTE
  EXPECT_FALSE(f.getFloatArray("tokenizer.ggml.token_type").has_value());
  EXPECT_FALSE(f.getStringArray("tokenizer.ggml.scores").has_value());
  EXPECT_EQ(f.getUint("tokenizer.ggml.bos_token_id"), 1u);
  EXPECT_EQ(f.getUint("tokenizer.ggml.eos_token_id"), 2u);
  EXPECT_EQ(f.getBool("tokenizer.ggml.add_bos_token"), true);
  EXPECT_EQ(f.getBool("tokenizer.ggml.add_eos_token"), false);
  EXPECT_EQ(f.keys().size(), 25u);
  EXPECT_EQ(f.keys().front(), "general.architecture");
}

// The 2-D weights of one block and the global tensors, with shapes in ggml order.
void expectStoriesTensors(const GgufFile& f, hal::DType matrixType) {
  ASSERT_EQ(f.tensors().size(), 48u);  // 5 blocks x 9 + token_embd, output_norm, output
  EXPECT_EQ(f.tensors().front().name, "token_embd.weight");
  const GgufTensor* embd = f.tensor("token_embd.weight");
  ASSERT_NE(embd, nullptr);
  EXPECT_EQ(embd->type, matrixType);
  EXPECT_EQ(embd->nDims, 2u);
  EXPECT_EQ(embd->ne[0], 64u);
  EXPECT_EQ(embd->ne[1], 512u);
  EXPECT_EQ(embd->elements(), 64u * 512u);
  for (int b = 0; b < 5; ++b) {
    const std::string p = "blk." + std::to_string(b) + ".";
    for (const char* n : {"attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up"}) {
      const GgufTensor* t = f.tensor(p + n + ".weight");
      ASSERT_NE(t, nullptr) << p << n;
      EXPECT_EQ(t->type, matrixType) << t->name;
    }
    // ffn_down's rows are 172 long, not a multiple of the Q8_0 block: it stays F32 in both files.
    const GgufTensor* down = f.tensor(p + "ffn_down.weight");
    ASSERT_NE(down, nullptr);
    EXPECT_EQ(down->type, hal::DType::F32);
    EXPECT_EQ(down->ne[0], 172u);
    EXPECT_EQ(down->ne[1], 64u);
    const GgufTensor* k = f.tensor(p + "attn_k.weight");
    EXPECT_EQ(k->ne[0], 64u);
    EXPECT_EQ(k->ne[1], 32u);  // 4 KV heads x 8
    const GgufTensor* norm = f.tensor(p + "attn_norm.weight");
    ASSERT_NE(norm, nullptr);
    EXPECT_EQ(norm->type, hal::DType::F32);
    EXPECT_EQ(norm->nDims, 1u);
    EXPECT_EQ(norm->ne[0], 64u);
    EXPECT_EQ(norm->ne[1], 1u);
  }
  EXPECT_NE(f.tensor("output.weight"), nullptr);
  EXPECT_EQ(f.tensor("blk.5.attn_q.weight"), nullptr);
  EXPECT_EQ(f.tensor(""), nullptr);
  for (const GgufTensor& t : f.tensors()) {
    EXPECT_TRUE(insideMapping(f, t)) << t.name;
    EXPECT_EQ(t.offset % f.alignment(), 0u) << t.name;
    EXPECT_EQ(f.tensor(t.name), &t);
    EXPECT_EQ(t.nbytes, hal::rowBytes(t.type, t.ne[0]).value() * t.ne[1] * t.ne[2] * t.ne[3]);
  }
}

TEST(GgufModels, Stories260KF32) {
  auto f = openOrFail(sharedPath("models/stories260K-f32.gguf"));
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->fileSize(), 1185664u);
  EXPECT_EQ(f->getUint("general.file_type"), 0u);
  expectStoriesHyperParameters(*f);
  expectStoriesTensors(*f, hal::DType::F32);
  // Real trained norms are near 1, not the zeros or garbage a wrong offset would give.
  const GgufTensor* norm = f->tensor("output_norm.weight");
  ASSERT_NE(norm, nullptr);
  float first = 0;
  std::memcpy(&first, norm->data, sizeof first);
  EXPECT_GT(first, 0.05f);
  EXPECT_LT(first, 20.0f);
}

TEST(GgufModels, Stories260KQ8) {
  auto f = openOrFail(sharedPath("models/stories260K-q8_0.gguf"));
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->fileSize(), 489472u);
  EXPECT_EQ(f->getUint("general.file_type"), 7u);  // LLAMA_FTYPE_MOSTLY_Q8_0
  expectStoriesHyperParameters(*f);
  expectStoriesTensors(*f, hal::DType::Q8_0);
  EXPECT_EQ(f->tensor("token_embd.weight")->nbytes, 512u * 2 * 34);
}

// The f32 and q8_0 files hold the same norms, byte for byte (only 2-D weights were quantized).
TEST(GgufModels, Stories260KNormsAgree) {
  auto a = openOrFail(sharedPath("models/stories260K-f32.gguf"));
  auto b = openOrFail(sharedPath("models/stories260K-q8_0.gguf"));
  ASSERT_TRUE(a && b);
  const GgufTensor* x = a->tensor("blk.2.ffn_down.weight");
  const GgufTensor* y = b->tensor("blk.2.ffn_down.weight");
  ASSERT_TRUE(x && y);
  ASSERT_EQ(x->nbytes, y->nbytes);
  EXPECT_EQ(std::memcmp(x->data, y->data, x->nbytes), 0);
}

TEST(GgufModels, OpenOptionsPopulateAndLock) {
  GgufOpenOptions options;
  options.populate = true;
  options.lockInMemory = true;
  auto f = openOrFail(sharedPath("models/stories260K-q8_0.gguf"), options);
  ASSERT_NE(f, nullptr);
  // Root (CAP_IPC_LOCK) or a RLIMIT_MEMLOCK above 0.5 MB lets it lock; either way the state is reported.
  EXPECT_EQ(f->locked(), f->lockError().empty()) << f->lockError();
  EXPECT_EQ(f->tensors().size(), 48u);
  auto plain = openOrFail(sharedPath("models/stories260K-q8_0.gguf"));
  ASSERT_NE(plain, nullptr);
  EXPECT_FALSE(plain->locked());
  EXPECT_TRUE(plain->lockError().empty());
}

void expectTinyLlamaShapes(const GgufFile& f, hal::DType matrixType) {
  EXPECT_EQ(f.architecture(), "llama");
  EXPECT_EQ(f.getUint("llama.embedding_length"), 64u);
  EXPECT_EQ(f.getUint("llama.block_count"), 2u);
  EXPECT_EQ(f.getUint("llama.attention.head_count"), 4u);
  EXPECT_EQ(f.getUint("llama.attention.head_count_kv"), 2u);
  EXPECT_EQ(f.getUint("llama.feed_forward_length"), 128u);
  EXPECT_EQ(f.getUint("llama.context_length"), 2048u);
  EXPECT_EQ(f.getUint("llama.vocab_size"), 49152u);
  ASSERT_EQ(f.tensors().size(), 20u);  // 2 blocks x 9 + token_embd + output_norm; output is tied
  EXPECT_EQ(f.tensor("output.weight"), nullptr);
  const GgufTensor* embd = f.tensor("token_embd.weight");
  ASSERT_NE(embd, nullptr);
  EXPECT_EQ(embd->type, matrixType);
  EXPECT_EQ(embd->ne[0], 64u);
  EXPECT_EQ(embd->ne[1], 49152u);
  const GgufTensor* down = f.tensor("blk.1.ffn_down.weight");
  ASSERT_NE(down, nullptr);
  EXPECT_EQ(down->type, matrixType);  // a "pure" file: every 2-D tensor has the chosen type
  EXPECT_EQ(down->ne[0], 128u);
  EXPECT_EQ(down->ne[1], 64u);
  EXPECT_EQ(f.tensor("output_norm.weight")->type, hal::DType::F32);
  uint64_t end = 0;
  for (const GgufTensor& t : f.tensors()) {
    EXPECT_TRUE(insideMapping(f, t)) << t.name;
    end = std::max(end, f.dataOffset() + t.offset + t.nbytes);
  }
  EXPECT_LE(end, f.fileSize());
  EXPECT_GT(end + f.alignment(), f.fileSize());  // nothing unaccounted for after the last tensor
}

TEST(GgufModels, SyntheticTinyLlamaQ8) {
  TempDir dir;
  const std::string path = generateTinyLlama(dir, "q8_0");
  ASSERT_FALSE(path.empty());
  const std::string sha = sha256Hex(readBytes(path));
  ASSERT_EQ(sha, kTinyLlamaQ8Sha) << "mkgguf.py output changed (sha256 differs from tools/README-mkgguf.md): the "
                                     "reference vectors in ../shared/vectors are stale for this file";
  auto f = openOrFail(path);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->fileSize(), 5192608u);
  expectTinyLlamaShapes(*f, hal::DType::Q8_0);

  EXPECT_EQ(f->getString("tokenizer.ggml.model"), "gpt2");
  EXPECT_EQ(f->getString("tokenizer.ggml.pre"), "smollm");
  const auto tokens = f->getStringArray("tokenizer.ggml.tokens");
  ASSERT_TRUE(tokens.has_value());
  ASSERT_EQ(tokens->size(), 49152u);
  EXPECT_EQ((*tokens)[1], "<|im_start|>");
  EXPECT_EQ((*tokens)[2], "<|im_end|>");
  EXPECT_EQ((*tokens)[216], "\xc4\xa0");  // "Ġ": the byte-level space (see vectors/README.md)
  const auto merges = f->getStringArray("tokenizer.ggml.merges");
  ASSERT_TRUE(merges.has_value());
  EXPECT_EQ(merges->size(), 48900u);
  EXPECT_NE(merges->front().find(' '), std::string_view::npos);  // "left right"
  const auto types = f->getIntArray("tokenizer.ggml.token_type");
  ASSERT_TRUE(types.has_value());
  ASSERT_EQ(types->size(), 49152u);
  for (int i = 0; i <= 16; ++i) EXPECT_EQ((*types)[i], 3) << "token " << i << " should be CONTROL";
  EXPECT_EQ((*types)[17], 1);
  EXPECT_EQ(f->getUint("tokenizer.ggml.bos_token_id"), 1u);
  EXPECT_EQ(f->getUint("tokenizer.ggml.eos_token_id"), 2u);
  EXPECT_EQ(f->getUint("tokenizer.ggml.padding_token_id"), 2u);
  EXPECT_EQ(f->getBool("tokenizer.ggml.add_bos_token"), false);
  const auto tmpl = f->getString("tokenizer.chat_template");
  ASSERT_TRUE(tmpl.has_value());
  EXPECT_NE(tmpl->find("<|im_start|>"), std::string_view::npos);
  EXPECT_NE(tmpl->find("add_generation_prompt"), std::string_view::npos);
}

TEST(GgufModels, SyntheticTinyLlamaF32) {
  TempDir dir;
  const std::string path = generateTinyLlama(dir, "f32");
  ASSERT_FALSE(path.empty());
  ASSERT_EQ(sha256Hex(readBytes(path)), kTinyLlamaF32Sha)
      << "mkgguf.py output changed (sha256 differs from tools/README-mkgguf.md)";
  auto f = openOrFail(path);
  ASSERT_NE(f, nullptr);
  expectTinyLlamaShapes(*f, hal::DType::F32);
  EXPECT_EQ(f->tensor("token_embd.weight")->nbytes, 64u * 49152u * 4u);
}

// Validation reads the header, metadata and tensor table, never the weights: with every page of the data section
// made inaccessible, a touch would crash this test. This is what keeps open() of a 500 MB model cheap.
TEST(GgufModels, ValidationDoesNotTouchTensorData) {
  TempDir dir;
  const std::string path = generateTinyLlama(dir, "q8_0");
  ASSERT_FALSE(path.empty());
  const std::vector<uint8_t> file = readBytes(path);
  uint64_t dataOffset = 0;
  {
    auto f = GgufFile::fromBytes(file, "tiny");
    ASSERT_TRUE(f.ok()) << f.error().message;
    dataOffset = (*f)->dataOffset();
  }
  const auto page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  void* map = ::mmap(nullptr, file.size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(map, MAP_FAILED);
  std::memcpy(map, file.data(), file.size());
  const uint64_t firstHidden = (dataOffset + page - 1) / page * page;
  const uint64_t lastHidden = file.size() / page * page;
  ASSERT_LT(firstHidden, lastHidden);
  ASSERT_EQ(::mprotect(static_cast<uint8_t*>(map) + firstHidden, lastHidden - firstHidden, PROT_NONE), 0);
  auto f = GgufFile::fromBytes({static_cast<const uint8_t*>(map), file.size()}, "tiny");
  EXPECT_TRUE(f.ok());
  if (f.ok()) {
    EXPECT_EQ((*f)->tensors().size(), 20u);
    EXPECT_EQ((*f)->getStringArray("tokenizer.ggml.tokens")->size(), 49152u);
  }
  ::munmap(map, file.size());
}

}  // namespace
}  // namespace sotto::llm::test
