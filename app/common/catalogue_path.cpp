// SPDX-License-Identifier: MIT
// defaultCataloguePath (see catalogue_path.h).
#include "app/common/catalogue_path.h"

#include <unistd.h>

#include "engine/intents/catalogue.h"

#ifndef SOTTO_INTENTS_SOURCE_CATALOGUE
#define SOTTO_INTENTS_SOURCE_CATALOGUE ""
#endif

namespace sotto::app {

std::string defaultCataloguePath() {
  if (::access(intents::kDefaultCataloguePath, R_OK) == 0) return intents::kDefaultCataloguePath;
  if (*SOTTO_INTENTS_SOURCE_CATALOGUE != '\0' && ::access(SOTTO_INTENTS_SOURCE_CATALOGUE, R_OK) == 0)
    return SOTTO_INTENTS_SOURCE_CATALOGUE;
  return intents::kDefaultCataloguePath;
}

}  // namespace sotto::app
