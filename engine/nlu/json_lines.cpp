// SPDX-License-Identifier: MIT
// JSON-lines reading for the trainers.
#include "engine/nlu/json_lines.h"

namespace sotto::nlu {

Error lineError(const std::string& what, std::size_t line, const std::string& problem) {
  return makeError(Errc::corrupt, what + " " + std::to_string(line) + ": " + problem);
}

Status forEachJsonLine(std::istream& in, const std::string& what,
                       const std::function<Status(const json::Value& object, std::size_t line)>& each) {
  std::string text;
  std::size_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.empty()) continue;
    auto v = json::parse(text);
    if (!v || !v->isObject()) return lineError(what, line, "not a JSON object");
    if (Status s = each(*v, line); !s) return s;
  }
  return {};
}

}  // namespace sotto::nlu
