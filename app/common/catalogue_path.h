// SPDX-License-Identifier: MIT
// Where the intent catalogue is: the one rule for sottod and every command that reads it.
#pragma once

#include <string>

namespace sotto::app {

// The installed catalogue (/etc/sotto/intents.xml) when readable, else the source tree's (developer builds before
// `cmake --install`), else the installed path (whose loading then fails and is reported). The personal-data,
// understanding and domain language models live beside it. Any thread; reads only whether the files exist.
std::string defaultCataloguePath();

}  // namespace sotto::app
