// SPDX-License-Identifier: MIT
// The modes of bench_speech (each a main() taking argv[0] = the mode's name); main thread, blocking.
#pragma once

namespace sotto::bench {

int benchWake(int argc, char** argv);
int benchAsr(int argc, char** argv);
int benchCpu(int argc, char** argv);

}  // namespace sotto::bench
