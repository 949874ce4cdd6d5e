// SPDX-License-Identifier: MIT
// The sotto CLI's model subcommands (each in its own cmd_*.cpp); main.cpp dispatches to them.
#pragma once

namespace sotto::cli {

// argv[0] is the subcommand name. Return the process exit status: 0 ok, 1 runtime error, 2 usage error.
// Main thread; they print to stdout/stderr and block until done.
int cmdGenerate(int argc, char** argv);
int cmdTokenize(int argc, char** argv);
int cmdPii(int argc, char** argv);  // privacy: `sotto pii --json`, stdin lines to JSON span lists
int cmdIntent(int argc, char** argv);    // intents: `sotto intent --json`, stdin lines to intent + slots JSON
int cmdNlu(int argc, char** argv);       // nlu: `sotto nlu train|info`, the trained understanding model
int cmdQuantize(int argc, char** argv);  // `sotto quantize IN OUT TYPE`: F32/F16 GGUF to Q8_0 ... Q4_K_M
int cmdListen(int argc, char** argv);  // speech: `sotto listen --wav FILE [--json]`, wake/partial/final events
int cmdAudit(int argc, char** argv);   // privacy: `sotto audit [--json] [--config FILE]`, the decrypted audit log
int cmdAsk(int argc, char** argv);     // brain: `sotto ask [--json] [--privacy M] [--route R] TEXT`, routed answer
int cmdEnroll(int argc, char** argv);  // speech: `sotto enroll`, the acoustic model adapted to one speaker
int cmdSay(int argc, char** argv);     // speech: `sotto say [--voice V] [-o OUT.wav] TEXT`, streaming TTS
int cmdServe(int argc, char** argv);   // cloud: `sotto serve -m FILE`, OpenAI-compatible loopback endpoint
int cmdControl(int argc, char** argv); // daemon: `sotto control status|answer|cancel [ID]`, sottod's control socket

}  // namespace sotto::cli
