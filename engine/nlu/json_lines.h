// SPDX-License-Identifier: MIT
// Labelled training and calibration files: one JSON object per line, read with the line number kept for errors.
#pragma once

#include <cstddef>
#include <functional>
#include <istream>
#include <string>

#include "engine/cloud/json.h"
#include "sotto/hal/result.h"

namespace sotto::nlu {

// Calls each(object, lineNumber) for every non-empty line; stops at the first error it returns. A line that is
// not a JSON object is an error (corrupt) naming its number. `what` prefixes messages ("line", "calibration
// line"). Any thread; not real-time: allocates.
Status forEachJsonLine(std::istream& in, const std::string& what,
                       const std::function<Status(const json::Value& object, std::size_t line)>& each);

// The error for line `line`: corrupt, "<what> <line>: <problem>".
Error lineError(const std::string& what, std::size_t line, const std::string& problem);

}  // namespace sotto::nlu
