// SPDX-License-Identifier: MIT
// JSON string output for the CLI's --json modes, and text for people at a terminal: one escaping rule each for
// every subcommand.
#pragma once

#include <string>
#include <string_view>

namespace sotto::app {

// Appends s as a JSON string literal: quotes, backslash and control characters escaped; malformed UTF-8 becomes
// U+FFFD, so the output is always valid JSON text; control and format characters (bidi overrides such as U+202E,
// zero-width U+200B) are written as \uXXXX escapes: a JSON reader gets them back, a terminal never acts on them.
// Other UTF-8 passes through. Any thread.
void appendJsonString(std::string& out, std::string_view s);
// The same, as a new string.
std::string jsonString(std::string_view s);

// Appends s for a person to read: backslash, control characters and malformed bytes as \\, \n, \xHH; control and
// format code points (bidi overrides, zero-width characters) as \u{XXXX}, shown instead of acted on. Any thread.
void appendTerminalText(std::string& out, std::string_view s);
std::string terminalText(std::string_view s);

}  // namespace sotto::app
