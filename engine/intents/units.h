// SPDX-License-Identifier: MIT
// Measurement units the convert.units intent knows: spoken/written names, codes and conversion tables.
#pragma once

#include <span>
#include <string_view>

#include "sotto/hal/result.h"

namespace sotto::intents {

enum class Unit { km, mi, m, ft, in, cm, kg, lb, g, oz, l, ml, gal, cup, tbsp, tsp, c, f, mph, kmh };
enum class Dimension { length, mass, volume, temperature, speed };

// The data README's unit code ("km", "gal", "kmh"...). Static storage.
std::string_view unitCode(Unit u) noexcept;
Dimension unitDimension(Unit u) noexcept;

// True when all of tokens (1-4 lowercase words) name one unit: "kilometers", "km", "miles per hour", "mph",
// "degrees celsius", "celsius", "fluid ounces" is not supported (ounces are mass). Any thread.
bool parseUnit(std::span<const std::string_view> tokens, Unit& unit) noexcept;

// value in `from` expressed in `to`. US customary volumes (cup 236.588 ml, gallon 3.785 l). Fails with
// invalid_argument when the dimensions differ. Any thread.
Result<double> convertUnits(double value, Unit from, Unit to);

// The unit words, for the grammar export (one entry per spelling, multiword entries space-separated).
std::span<const std::string_view> unitSpellings() noexcept;

}  // namespace sotto::intents
