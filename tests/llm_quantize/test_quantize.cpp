// SPDX-License-Identifier: MIT
// The quantizer: byte-exactness against mkgguf / ggml's reference quantizers, the Q4_K_M recipe, model quality
// after quantization, refusals, and the `sotto quantize` CLI.
#include <map>
#include <set>

#include "tests/llm_quantize/quantize_util.h"

namespace sotto::llm::test {
namespace {

const std::string kTinyF32Sha = "215699fb28e34dc8cbefa5e9a71aa530219229500921bbeecaa1a8c4548593dc";
const std::string kTinyQ4Sha = "4cda080e151cdbfdfd7d978bef65f502a4aa2d013555bff318c76623dada17b1";
const std::string kStoriesF32 = sharedPath("models/stories260K-f32.gguf");

// Metadata of `out` equals `in` key by key (same order, type and value) except general.file_type.
void expectMetadataCopied(const GgufFile& in, const GgufFile& out, uint32_t fileType) {
  const auto ka = in.keys(), kb = out.keys();
  ASSERT_EQ(ka.size() + (in.has("general.quantization_version") ? 0 : 1), kb.size());
  for (size_t i = 0; i < ka.size(); ++i) {
    const std::string_view k = ka[i];
    ASSERT_EQ(k, kb[i]) << "metadata order changed";
    ASSERT_EQ(in.typeOf(k), out.typeOf(k)) << k;
    if (k == "general.file_type") {
      EXPECT_EQ(out.getUint(k), fileType);
      continue;
    }
    if (*in.typeOf(k) == GgufValueType::array) {
      EXPECT_EQ(in.arrayType(k), out.arrayType(k)) << k;
      EXPECT_EQ(in.arrayLength(k), out.arrayLength(k)) << k;
      if (*in.arrayType(k) == GgufValueType::string) {
        EXPECT_EQ(*in.getStringArray(k), *out.getStringArray(k)) << k;
      } else {
        const auto a = *in.arrayBytes(k), b = *out.arrayBytes(k);
        EXPECT_TRUE(a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin())) << k;
      }
    } else {
      EXPECT_EQ(in.getString(k), out.getString(k)) << k;
      EXPECT_EQ(in.getUint(k), out.getUint(k)) << k;
      EXPECT_EQ(in.getInt(k), out.getInt(k)) << k;
      EXPECT_EQ(in.getFloat(k), out.getFloat(k)) << k;
      EXPECT_EQ(in.getBool(k), out.getBool(k)) << k;
    }
  }
  EXPECT_EQ(out.getUint("general.quantization_version"), 2u);
}

// Last-position logits of `ids` under the model at `path`.
std::vector<float> lastLogits(const std::string& path, const std::vector<TokenId>& ids) {
  auto model = Model::load(path);
  EXPECT_TRUE(model.ok()) << (model.ok() ? "" : model.error().message);
  if (!model) return {};
  auto ctx = makeContext(**model, "cpu", 2, 128);
  if (!ctx) return {};
  EXPECT_TRUE(ctx->eval(ids).ok());
  return std::vector<float>(ctx->logits().begin(), ctx->logits().end());
}

class TinyLlama : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    std::string why;
    f32_ = makeSyntheticModel(*dir_, "tiny-llama", "f32", kTinyF32Sha, &why);
    if (f32_.empty()) why_ = why;
    q8_ = makeSyntheticModel(*dir_, "tiny-llama", "q8_0", kTinyQ8Sha, &why);
    if (q8_.empty()) why_ = why;
    q4_ = makeSyntheticModel(*dir_, "tiny-llama", "q4_0", kTinyQ4Sha, &why);
    if (q4_.empty()) why_ = why;
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(why_.empty()) << why_; }

  static TempDir* dir_;
  static std::string f32_, q8_, q4_, why_;
};
TempDir* TinyLlama::dir_ = nullptr;
std::string TinyLlama::f32_, TinyLlama::q8_, TinyLlama::q4_, TinyLlama::why_;

// mkgguf's q8_0 / q4_0 files equal `llama-quantize --pure` (README-mkgguf): ours must give the same bytes.
TEST_F(TinyLlama, Q8_0AndQ4_0TensorsAreByteIdenticalToMkgguf) {
  for (const auto& [scheme, ref] : {std::pair{QuantScheme::q8_0, q8_}, std::pair{QuantScheme::q4_0, q4_}}) {
    const std::string out = dir_->file(std::string("ours-") + quantSchemeName(scheme) + ".gguf");
    const QuantizeReport r = quantizeOk(f32_, out, scheme);
    EXPECT_EQ(r.quantized, 15u);  // token_embd + 7 matrices × 2 layers; norms stay F32
    EXPECT_EQ(r.fallbacks, 0u);
    const auto ours = openGguf(out), theirs = openGguf(ref), src = openGguf(f32_);
    ASSERT_TRUE(ours && theirs && src);
    ASSERT_EQ(ours->tensors().size(), theirs->tensors().size());
    for (size_t i = 0; i < ours->tensors().size(); ++i) {
      const GgufTensor& a = ours->tensors()[i];
      const GgufTensor& b = theirs->tensors()[i];
      ASSERT_EQ(a.name, b.name);
      EXPECT_EQ(a.type, b.type) << a.name;
      ASSERT_EQ(a.nbytes, b.nbytes) << a.name;
      EXPECT_EQ(0, std::memcmp(a.data, b.data, a.nbytes)) << a.name << " differs from mkgguf's " << quantSchemeName(scheme);
      EXPECT_EQ(a.offset, b.offset) << a.name;
    }
    expectMetadataCopied(*src, *ours, scheme == QuantScheme::q8_0 ? 7u : 2u);
    EXPECT_EQ(ours->getUint("general.file_type"), theirs->getUint("general.file_type"));
  }
}

TEST_F(TinyLlama, QuantizedModelsStayCloseToF32) {
  const std::vector<TokenId> prompt = {1, 504, 2355, 314, 253, 1345, 28, 665, 1141, 30, 216, 17, 18};
  const auto ref = lastLogits(f32_, prompt);
  ASSERT_FALSE(ref.empty());
  struct Case {
    QuantScheme scheme;
    double minCos;
  };
  for (const Case c : {Case{QuantScheme::q8_0, 0.999}, Case{QuantScheme::q4_0, 0.98}, Case{QuantScheme::q4_k_m, 0.999}}) {
    const std::string out = dir_->file(std::string("close-") + quantSchemeName(c.scheme) + ".gguf");
    quantizeOk(f32_, out, c.scheme, 1);
    const auto q = lastLogits(out, prompt);
    ASSERT_EQ(q.size(), ref.size());
    EXPECT_GT(cosine(ref, q), c.minCos) << quantSchemeName(c.scheme);
  }
}

TEST_F(TinyLlama, RefusesQuantizedInputAndBadRequests) {
  QuantizeOptions o;
  o.scheme = QuantScheme::q4_0;
  auto r = quantizeModel(q8_, dir_->file("requant.gguf"), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::unsupported);
  EXPECT_NE(r.error().message.find("already q8_0"), std::string::npos) << r.error().message;
  EXPECT_FALSE(std::filesystem::exists(dir_->file("requant.gguf")));

  // The output may not replace the input.
  r = quantizeModel(f32_, f32_, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::invalid_argument);
  EXPECT_EQ(sha256File(f32_), kTinyF32Sha);

  // An unwritable destination fails cleanly and leaves nothing behind.
  r = quantizeModel(f32_, dir_->file("no-such-dir/out.gguf"), o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("no-such-dir"), std::string::npos) << r.error().message;
  EXPECT_FALSE(std::filesystem::exists(dir_->file("no-such-dir")));

  o.kquantFallback = hal::DType::Q6_K;
  r = quantizeModel(f32_, dir_->file("x.gguf"), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, Errc::invalid_argument);

  EXPECT_FALSE(parseQuantScheme("Q3_K").has_value());
  EXPECT_FALSE(parseQuantScheme("").has_value());
  EXPECT_EQ(parseQuantScheme("q4_k_m"), QuantScheme::q4_k_m);
  EXPECT_EQ(parseQuantScheme("Q6_K"), QuantScheme::q6_k);
}

TEST_F(TinyLlama, CliQuantizesAndReportsErrors) {
  std::string out, err;
  const std::string dst = dir_->file("cli-q8.gguf");
  ASSERT_EQ(runBinary(SOTTO_CLI_PATH, {"quantize", "-q", "-t", "2", f32_, dst, "Q8_0"}, out, err), 0) << err;
  EXPECT_NE(out.find("Q8_0, 15 of 20 tensors quantized"), std::string::npos) << out;
  const auto ours = openGguf(dst), theirs = openGguf(q8_);
  ASSERT_TRUE(ours && theirs);
  EXPECT_EQ(0, std::memcmp(ours->bytes().data() + ours->dataOffset(), theirs->bytes().data() + theirs->dataOffset(),
                           ours->fileSize() - ours->dataOffset()));

  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"quantize", f32_, dir_->file("u.gguf"), "Q3_K_S"}, out, err), 2);
  EXPECT_NE(err.find("unknown TYPE 'Q3_K_S'"), std::string::npos) << err;
  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"quantize", f32_, dir_->file("u.gguf")}, out, err), 2);
  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"quantize", q8_, dir_->file("u.gguf"), "Q4_0"}, out, err), 1);
  EXPECT_NE(err.find("already q8_0"), std::string::npos) << err;
  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"quantize", "/nonexistent.gguf", dir_->file("u.gguf"), "Q4_0"}, out, err), 1);
  EXPECT_FALSE(std::filesystem::exists(dir_->file("u.gguf")));
  EXPECT_EQ(runBinary(SOTTO_CLI_PATH, {"quantize", "--help"}, out, err), 0);
  EXPECT_NE(out.find("Q4_K_M"), std::string::npos);
}

// Rows of 256: the k-quants apply; every block equals ggml's reference quantizer, with 1 or 3 threads.
TEST(KQuant, BlocksEqualReferenceQuantizerAndLogitsStayClose) {
  TempDir dir;
  const std::string src = dir.file("k-f32.gguf");
  ASSERT_TRUE(writeTinyKModel(src, TinyKShape{}).ok());
  const auto in = openGguf(src);
  ASSERT_TRUE(in);
  const std::vector<TokenId> prompt = {3, 17, 200, 45, 319, 8, 77, 150, 2, 90};
  const auto ref = lastLogits(src, prompt);
  ASSERT_FALSE(ref.empty());
  struct Case {
    QuantScheme scheme;
    const char* embdType;
    double minCos;  // of the last logits to the f32 model's (a random model amplifies weight noise)
  };
  std::map<QuantScheme, double> cos;
  for (const Case c : {Case{QuantScheme::q8_0, "q8_0", 0.999}, Case{QuantScheme::q6_k, "q6_K", 0.99},
                       Case{QuantScheme::q5_k, "q5_K", 0.98}, Case{QuantScheme::q4_k, "q4_K", 0.93},
                       Case{QuantScheme::q4_k_m, "q6_K", 0.93}, Case{QuantScheme::q5_1, "q5_1", 0.97},
                       Case{QuantScheme::q5_0, "q5_0", 0.97}, Case{QuantScheme::q4_1, "q4_1", 0.9},
                       Case{QuantScheme::q4_0, "q4_0", 0.9}}) {
    // The 32-element types share the K-quants' threading path: one thread count is enough for them (CI time).
    const bool legacy = c.scheme == QuantScheme::q5_0 || c.scheme == QuantScheme::q5_1 ||
                        c.scheme == QuantScheme::q4_1 || c.scheme == QuantScheme::q4_0;
    for (const unsigned threads : {1u, 3u}) {
      if (legacy && threads != 1) continue;
      const std::string out = dir.file(std::string(quantSchemeName(c.scheme)) + std::to_string(threads) + ".gguf");
      const QuantizeReport r = quantizeOk(src, out, c.scheme, threads);
      EXPECT_EQ(r.fallbacks, 0u);
      if (threads != 1) {
        // Threads share the rows out: the file must be the one thread's byte for byte, which was checked against
        // the reference row by row just before (checking the rows again would repeat that check).
        EXPECT_EQ(sha256File(out), sha256File(dir.file(std::string(quantSchemeName(c.scheme)) + "1.gguf")))
            << quantSchemeName(c.scheme) << " with " << threads << " threads";
        continue;
      }
      const auto q = openGguf(out);
      ASSERT_TRUE(q);
      size_t quantized = 0;
      expectRowsMatchReference(*in, *q, &quantized);
      EXPECT_EQ(quantized, 15u);
      EXPECT_EQ(typeOf(*q, "token_embd.weight"), c.embdType);
      EXPECT_EQ(typeOf(*q, "blk.0.attn_norm.weight"), "f32");
      EXPECT_EQ(q->getUint("general.file_type"), quantSchemeFileType(c.scheme));
      const auto logits = lastLogits(out, prompt);
      ASSERT_EQ(logits.size(), ref.size());
      cos[c.scheme] = cosine(ref, logits);
      EXPECT_GT(cos[c.scheme], c.minCos) << quantSchemeName(c.scheme);
    }
  }
  // More bits, less error: the types rank as their precision does, and the mix beats plain Q4_K.
  EXPECT_GT(cos[QuantScheme::q8_0], cos[QuantScheme::q6_k]);
  EXPECT_GT(cos[QuantScheme::q6_k], cos[QuantScheme::q5_k]);
  EXPECT_GT(cos[QuantScheme::q5_k], cos[QuantScheme::q4_k]);
  EXPECT_GT(cos[QuantScheme::q4_k_m], cos[QuantScheme::q4_k]);
  EXPECT_GT(cos[QuantScheme::q8_0], cos[QuantScheme::q5_0]);
  EXPECT_GT(cos[QuantScheme::q5_0], cos[QuantScheme::q4_0]);
  EXPECT_GT(cos[QuantScheme::q5_1], cos[QuantScheme::q4_1]);
  for (const auto& [scheme, c] : cos) std::printf("cosine to f32 logits: %-6s %.6f\n", quantSchemeName(scheme), c);
  // Metadata of every type, bool and float arrays included, survives.
  const std::string out = dir.file("meta.gguf");
  quantizeOk(src, out, QuantScheme::q8_0);
  const auto q = openGguf(out);
  ASSERT_TRUE(q);
  expectMetadataCopied(*in, *q, 7);
}

// llama.cpp's Q4_K_M choices (llama_tensor_get_type) on a 16-layer layout, planned without quantizing.
std::unique_ptr<GgufFile> recipeFile(std::vector<uint8_t>& storage, uint64_t cols, bool tied, uint32_t layers = 16) {
  GgufWriter w;
  EXPECT_TRUE(w.addString("general.architecture", "llama").ok());
  std::vector<uint8_t> zeros(cols * 4 * 4);
  auto add = [&](const std::string& name, std::vector<uint64_t> dims) {
    uint64_t n = 1;
    for (uint64_t d : dims) n *= d;
    EXPECT_TRUE(w.addTensor(name, hal::DType::F16, dims, std::span<const uint8_t>(zeros.data(), n * 2)).ok());
  };
  add("token_embd.weight", {cols, 4});
  for (uint32_t l = 0; l < layers; ++l) {
    const std::string b = "blk." + std::to_string(l) + ".";
    add(b + "attn_norm.weight", {cols});
    add(b + "attn_q.weight", {cols, 4});
    add(b + "attn_v.weight", {cols, 4});
    add(b + "ffn_down.weight", {cols, 4});
  }
  if (!tied) add("output.weight", {cols, 4});
  storage = w.toBytes();
  auto f = GgufFile::fromBytes(storage, "recipe");
  EXPECT_TRUE(f.ok());
  return f.ok() ? std::move(*f) : nullptr;
}

const TensorPlan* planOf(const std::vector<TensorPlan>& plan, const std::string& name) {
  for (const TensorPlan& p : plan) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

TEST(Q4KMRecipe, MoreBitsForOutputAndChosenLayers) {
  std::vector<uint8_t> bytes;
  QuantizeOptions o;
  o.scheme = QuantScheme::q4_k_m;
  for (const bool tied : {true, false}) {
    const auto f = recipeFile(bytes, 256, tied);
    ASSERT_TRUE(f);
    auto plan = planQuantization(*f, o);
    ASSERT_TRUE(plan.ok()) << plan.error().message;
    // use_more_bits(i, 16): i < 2, i >= 14, (i - 2) % 3 == 2.
    const std::set<int> more = {0, 1, 4, 7, 10, 13, 14, 15};
    for (int l = 0; l < 16; ++l) {
      const std::string b = "blk." + std::to_string(l) + ".";
      const hal::DType want = more.count(l) ? hal::DType::Q6_K : hal::DType::Q4_K;
      EXPECT_EQ(planOf(*plan, b + "attn_v.weight")->to, want) << l;
      EXPECT_EQ(planOf(*plan, b + "ffn_down.weight")->to, want) << l;
      EXPECT_EQ(planOf(*plan, b + "attn_q.weight")->to, hal::DType::Q4_K) << l;
      EXPECT_EQ(planOf(*plan, b + "attn_norm.weight")->to, hal::DType::F16) << "1-D tensors are copied";
    }
    EXPECT_EQ(planOf(*plan, "token_embd.weight")->to, tied ? hal::DType::Q6_K : hal::DType::Q4_K);
    if (!tied) {
      EXPECT_EQ(planOf(*plan, "output.weight")->to, hal::DType::Q6_K);
    }
  }
}

TEST(Q4KMRecipe, RowLengthFallbacks) {
  std::vector<uint8_t> bytes;
  QuantizeOptions o;
  o.scheme = QuantScheme::q4_k_m;
  // 576 (SmolLM2-135M's n_embd) is a multiple of 32 but not of 256.
  auto f = recipeFile(bytes, 576, true);
  ASSERT_TRUE(f);
  auto plan = planQuantization(*f, o);
  ASSERT_TRUE(plan.ok());
  const TensorPlan* embd = planOf(*plan, "token_embd.weight");
  EXPECT_EQ(embd->to, hal::DType::Q8_0);  // the output rule picks Q8_0 itself: not a fallback
  EXPECT_FALSE(embd->fallback);
  EXPECT_EQ(planOf(*plan, "blk.0.attn_v.weight")->to, hal::DType::Q8_0);  // Q6_K → Q8_0 as in llama.cpp
  EXPECT_TRUE(planOf(*plan, "blk.0.attn_v.weight")->fallback);
  EXPECT_EQ(planOf(*plan, "blk.2.attn_q.weight")->to, hal::DType::Q5_0);  // Q4_K → Q5_0 as in llama.cpp
  EXPECT_TRUE(planOf(*plan, "blk.2.attn_q.weight")->fallback);
  EXPECT_EQ(planOf(*plan, "blk.2.attn_q.weight")->outBytes, 4u * 576 / 32 * 22);
  o.kquantFallback = hal::DType::Q8_0;
  plan = planQuantization(*f, o);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(planOf(*plan, "blk.2.attn_q.weight")->to, hal::DType::Q8_0);
  EXPECT_EQ(planOf(*plan, "blk.2.attn_q.weight")->outBytes, 4u * 576 / 32 * 34);
  o.kquantFallback = hal::DType::Q4_0;
  plan = planQuantization(*f, o);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(planOf(*plan, "blk.2.attn_q.weight")->to, hal::DType::Q4_0);
  EXPECT_EQ(planOf(*plan, "blk.0.attn_v.weight")->to, hal::DType::Q8_0);
  // Rows of 48 fit no block type: F16, as llama.cpp does; pure Q8_0 cannot take them at all.
  f = recipeFile(bytes, 48, true, 2);
  ASSERT_TRUE(f);
  plan = planQuantization(*f, o);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(planOf(*plan, "blk.1.attn_q.weight")->to, hal::DType::F16);
  EXPECT_EQ(planOf(*plan, "token_embd.weight")->to, hal::DType::F16);
  o.scheme = QuantScheme::q8_0;
  plan = planQuantization(*f, o);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().message.find("not a multiple of 32"), std::string::npos) << plan.error().message;
}

// stories260K (a trained model, n_embd 64): every k-quant takes the fallback path; the model still loads and
// predicts like the f32 one.
TEST(Stories260K, Q4KMFallbackPathKeepsPredictions) {
  TempDir dir;
  const std::string out = dir.file("stories-q4_k_m.gguf");
  const QuantizeReport r = quantizeOk(kStoriesF32, out, QuantScheme::q4_k_m);
  EXPECT_GT(r.quantized, 0u);
  EXPECT_EQ(r.fallbacks + 1, r.quantized);  // all but token_embd (the output rule's own Q8_0)
  const auto q = openGguf(out);
  ASSERT_TRUE(q);
  for (const GgufTensor& t : q->tensors()) {
    // Q4_K → Q5_0 and Q6_K → Q8_0 (the "more bits" attn_v, the output rule's token_embd); rows of 172
    // (ffn_down) are not whole 32-blocks either: F16, as llama.cpp does.
    if (t.nDims == 2 && t.ne[0] % 32 != 0) {
      EXPECT_EQ(t.type, hal::DType::F16) << t.name;
    } else if (t.nDims == 2) {
      EXPECT_TRUE(t.type == hal::DType::Q8_0 || t.type == hal::DType::Q5_0) << t.name << " " << hal::dtypeName(t.type);
    }
  }
  const LoadedModel f32 = loadModel(kStoriesF32), q4 = loadModel(out);
  ASSERT_TRUE(f32.tokenizer && q4.tokenizer);
  const auto ids = f32.tokenizer->tokenize("Once upon a time, there was a little", true, true);
  auto c1 = makeContext(*f32.model, "cpu", 1, 128);
  auto c2 = makeContext(*q4.model, "cpu", 1, 128);
  ASSERT_TRUE(c1 && c2);
  const auto a = allLogits(*c1, ids), b = allLogits(*c2, ids);
  const size_t V = f32.model->params().nVocab;
  for (size_t p = 0; p < ids.size(); ++p) {
    const std::span<const float> la(a.data() + p * V, V), lb(b.data() + p * V, V);
    EXPECT_GT(cosine(la, lb), 0.999) << "position " << p;
  }
  EXPECT_EQ(argmax(std::span<const float>(a.data() + (ids.size() - 1) * V, V)),
            argmax(std::span<const float>(b.data() + (ids.size() - 1) * V, V)));
}

}  // namespace
}  // namespace sotto::llm::test
