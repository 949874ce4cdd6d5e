// SPDX-License-Identifier: MIT
// sotto: the command-line client. Subcommands grow with the pipeline (listen, say, ask, generate, audit, ...).
#include <cstdio>
#include <string>

#include "app/common/version.h"
#include "app/config/config.h"
#include "app/sotto/commands.h"

namespace {

void usage(FILE* out) {
  std::fputs(
      "Usage: sotto COMMAND [ARGS]\n"
      "Command-line client of the Sotto voice assistant runtime.\n"
      "\n"
      "Commands:\n"
      "  check-config FILE      validate a configuration file: 0 valid, 2 with one line per problem\n"
      "  config-reference       print the settings reference (Markdown)\n"
      "  generate -m FILE -p TEXT [OPTIONS]\n"
      "                         run the local model on a prompt, streaming the text (see generate --help)\n"
      "  tokenize -m FILE [--no-special] TEXT\n"
      "                         print the token ids of TEXT under a model's vocabulary\n"
      "  quantize IN OUT TYPE   quantize an F32/F16 GGUF model: Q8_0, Q4_0, Q5_0, Q4_K, Q6_K, Q4_K_M ...\n"
      "  listen --wav FILE [--json]\n"
      "                         wake word and speech recognition on a WAV file (see listen --help)\n"
      "  enroll --prompts | --wav-dir DIR --out MODEL_DIR\n"
      "                         adapt the recognizer's acoustic model to one speaker (see enroll --help)\n"
      "  say [--voice V] [-o OUT.wav] TEXT\n"
      "                         speak TEXT through the streaming TTS, to the speaker or a WAV file (see say --help)\n"
      "  pii --json             classify stdin lines for personal data, one JSON span list per line\n"
      "  intent --json          match stdin lines against the intent catalogue, one JSON line each\n"
      "  nlu train|info         train the understanding model for the catalogue; describe a model file\n"
      "  ask [OPTIONS] TEXT     route one request (intents, cache, local model, cloud) and stream the answer\n"
      "  audit [--json] [--config FILE]\n"
      "                         show the requests that left the device (decrypted audit log)\n"
      "  serve -m FILE [--port N] [--fault SPEC]\n"
      "                         OpenAI-compatible streaming endpoint on loopback (see serve --help)\n"
      "  control status|answer|cancel [ID]\n"
      "                         talk to the running sottod: its status, the answer in progress, stop an answer\n"
      "  version                same as --version\n"
      "\n"
      "Options: --help, --version (version, build, target architecture, CPU features detected at run time)\n",
      out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    usage(stdout);
    return 0;
  }
  if (cmd == "--version" || cmd == "version") {
    std::fputs(sotto::app::versionText("sotto").c_str(), stdout);
    return 0;
  }
  if (cmd == "config-reference") {
    std::fputs(sotto::config::referenceMarkdown().c_str(), stdout);
    return 0;
  }
  if (cmd == "generate") return sotto::cli::cmdGenerate(argc - 1, argv + 1);
  if (cmd == "tokenize") return sotto::cli::cmdTokenize(argc - 1, argv + 1);
  if (cmd == "pii") return sotto::cli::cmdPii(argc - 1, argv + 1);
  if (cmd == "intent") return sotto::cli::cmdIntent(argc - 1, argv + 1);
  if (cmd == "nlu") return sotto::cli::cmdNlu(argc - 1, argv + 1);
  if (cmd == "ask") return sotto::cli::cmdAsk(argc - 1, argv + 1);
  if (cmd == "quantize") return sotto::cli::cmdQuantize(argc - 1, argv + 1);
  if (cmd == "listen") return sotto::cli::cmdListen(argc - 1, argv + 1);
  if (cmd == "enroll") return sotto::cli::cmdEnroll(argc - 1, argv + 1);
  if (cmd == "audit") return sotto::cli::cmdAudit(argc - 1, argv + 1);
  if (cmd == "say") return sotto::cli::cmdSay(argc - 1, argv + 1);
  if (cmd == "control") return sotto::cli::cmdControl(argc - 1, argv + 1);
  if (cmd == "serve") return sotto::cli::cmdServe(argc - 1, argv + 1);
  if (cmd == "check-config") {
    if (argc != 3) {
      std::fprintf(stderr, "sotto check-config: expected one FILE\n");
      return 2;
    }
    auto r = sotto::config::loadFile(argv[2]);
    if (!r.config) {
      for (const auto& p : r.problems) std::fprintf(stderr, "%s\n", p.format().c_str());
      const std::size_t n = sotto::config::problemCount(r.problems);  // the ones not shown too
      std::fprintf(stderr, "%s: %zu problem%s, configuration not valid\n", argv[2], n, n == 1 ? "" : "s");
      return 2;
    }
    std::printf("%s: valid\n", argv[2]);
    return 0;
  }
  std::fprintf(stderr, "sotto: unknown command '%s' (see sotto --help)\n", cmd.c_str());
  return 2;
}
