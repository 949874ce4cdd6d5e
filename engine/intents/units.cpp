// SPDX-License-Identifier: MIT
// Unit lexicon and conversion factors (to the SI base of each dimension; temperatures by formula).
#include "engine/intents/units.h"

#include <array>

namespace sotto::intents {
namespace {

struct UnitInfo {
  Unit unit;
  std::string_view code;
  Dimension dim;
  double toBase;  // multiply to get metres, grams, millilitres, km/h; unused for temperature
};

constexpr UnitInfo kUnits[] = {
    {Unit::km, "km", Dimension::length, 1000.0},
    {Unit::mi, "mi", Dimension::length, 1609.344},
    {Unit::m, "m", Dimension::length, 1.0},
    {Unit::ft, "ft", Dimension::length, 0.3048},
    {Unit::in, "in", Dimension::length, 0.0254},
    {Unit::cm, "cm", Dimension::length, 0.01},
    {Unit::kg, "kg", Dimension::mass, 1000.0},
    {Unit::lb, "lb", Dimension::mass, 453.59237},
    {Unit::g, "g", Dimension::mass, 1.0},
    {Unit::oz, "oz", Dimension::mass, 28.349523125},
    {Unit::l, "l", Dimension::volume, 1000.0},
    {Unit::ml, "ml", Dimension::volume, 1.0},
    {Unit::gal, "gal", Dimension::volume, 3785.411784},
    {Unit::cup, "cup", Dimension::volume, 236.5882365},
    {Unit::tbsp, "tbsp", Dimension::volume, 14.78676478125},
    {Unit::tsp, "tsp", Dimension::volume, 4.92892159375},
    {Unit::c, "c", Dimension::temperature, 1.0},
    {Unit::f, "f", Dimension::temperature, 1.0},
    {Unit::mph, "mph", Dimension::speed, 1.609344},
    {Unit::kmh, "kmh", Dimension::speed, 1.0},
};

struct Spelling {
  std::string_view words;  // space-separated tokens as the normalizer leaves them
  Unit unit;
};

// "m" is metres: as a lone token the minute abbreviation never reaches parseUnit (durations parse it).
constexpr Spelling kSpellings[] = {
    {"km", Unit::km}, {"kilometer", Unit::km}, {"kilometers", Unit::km}, {"kilometre", Unit::km},
    {"kilometres", Unit::km}, {"kms", Unit::km},
    {"mi", Unit::mi}, {"mile", Unit::mi}, {"miles", Unit::mi},
    {"m", Unit::m}, {"meter", Unit::m}, {"meters", Unit::m}, {"metre", Unit::m}, {"metres", Unit::m},
    {"ft", Unit::ft}, {"foot", Unit::ft}, {"feet", Unit::ft},
    {"in", Unit::in}, {"inch", Unit::in}, {"inches", Unit::in},
    {"cm", Unit::cm}, {"centimeter", Unit::cm}, {"centimeters", Unit::cm}, {"centimetre", Unit::cm},
    {"centimetres", Unit::cm},
    {"kg", Unit::kg}, {"kgs", Unit::kg}, {"kilo", Unit::kg}, {"kilos", Unit::kg}, {"kilogram", Unit::kg},
    {"kilograms", Unit::kg}, {"kilogramme", Unit::kg}, {"kilogrammes", Unit::kg},
    {"lb", Unit::lb}, {"lbs", Unit::lb}, {"pound", Unit::lb}, {"pounds", Unit::lb},
    {"g", Unit::g}, {"gram", Unit::g}, {"grams", Unit::g}, {"gramme", Unit::g}, {"grammes", Unit::g},
    {"oz", Unit::oz}, {"ounce", Unit::oz}, {"ounces", Unit::oz},
    {"l", Unit::l}, {"liter", Unit::l}, {"liters", Unit::l}, {"litre", Unit::l}, {"litres", Unit::l},
    {"ml", Unit::ml}, {"milliliter", Unit::ml}, {"milliliters", Unit::ml}, {"millilitre", Unit::ml},
    {"millilitres", Unit::ml}, {"mls", Unit::ml},
    {"gal", Unit::gal}, {"gallon", Unit::gal}, {"gallons", Unit::gal},
    {"cup", Unit::cup}, {"cups", Unit::cup},
    {"tbsp", Unit::tbsp}, {"tablespoon", Unit::tbsp}, {"tablespoons", Unit::tbsp},
    {"tsp", Unit::tsp}, {"teaspoon", Unit::tsp}, {"teaspoons", Unit::tsp},
    {"c", Unit::c}, {"celsius", Unit::c}, {"centigrade", Unit::c}, {"degrees celsius", Unit::c},
    {"degree celsius", Unit::c}, {"celsius degrees", Unit::c}, {"degrees c", Unit::c},
    {"degrees centigrade", Unit::c},
    {"f", Unit::f}, {"fahrenheit", Unit::f}, {"degrees fahrenheit", Unit::f}, {"degree fahrenheit", Unit::f},
    {"fahrenheit degrees", Unit::f}, {"degrees f", Unit::f},
    {"mph", Unit::mph}, {"mile per hour", Unit::mph}, {"miles per hour", Unit::mph},
    {"miles an hour", Unit::mph}, {"miles a hour", Unit::mph},
    {"kmh", Unit::kmh}, {"kph", Unit::kmh}, {"km per hour", Unit::kmh}, {"kilometer per hour", Unit::kmh},
    {"kilometers per hour", Unit::kmh}, {"kilometre per hour", Unit::kmh}, {"kilometres per hour", Unit::kmh},
    {"kilometers an hour", Unit::kmh}, {"kilometres an hour", Unit::kmh}, {"km an hour", Unit::kmh},
};

constexpr std::array<std::string_view, std::size(kSpellings)> makeSpellingList() {
  std::array<std::string_view, std::size(kSpellings)> out{};
  for (size_t i = 0; i < std::size(kSpellings); ++i) out[i] = kSpellings[i].words;
  return out;
}
constexpr auto kSpellingList = makeSpellingList();

const UnitInfo& info(Unit u) noexcept { return kUnits[static_cast<size_t>(u)]; }

// True when tokens, joined by single spaces, equal words ("per" spoken as "our"/"hour" is left to the matcher).
bool sameWords(std::span<const std::string_view> tokens, std::string_view words) noexcept {
  size_t pos = 0;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (i > 0) {
      if (pos >= words.size() || words[pos] != ' ') return false;
      ++pos;
    }
    std::string_view w = tokens[i];
    if (w == "our") w = "hour";  // recognition homophone inside "miles per hour"
    if (words.substr(pos, w.size()) != w) return false;
    pos += w.size();
  }
  return pos == words.size();
}

}  // namespace

static_assert(std::size(kUnits) == static_cast<size_t>(Unit::kmh) + 1);

std::string_view unitCode(Unit u) noexcept { return info(u).code; }
Dimension unitDimension(Unit u) noexcept { return info(u).dim; }

bool parseUnit(std::span<const std::string_view> tokens, Unit& unit) noexcept {
  if (tokens.empty() || tokens.size() > 4) return false;
  for (const auto& s : kSpellings) {
    if (sameWords(tokens, s.words)) {
      unit = s.unit;
      return true;
    }
  }
  return false;
}

Result<double> convertUnits(double value, Unit from, Unit to) {
  const UnitInfo& a = info(from);
  const UnitInfo& b = info(to);
  if (a.dim != b.dim) {
    return makeError(Errc::invalid_argument, std::string("cannot convert ") + std::string(a.code) + " to " +
                                                 std::string(b.code) + ": different quantities");
  }
  if (a.dim == Dimension::temperature) {
    if (from == to) return value;
    return from == Unit::c ? value * 9.0 / 5.0 + 32.0 : (value - 32.0) * 5.0 / 9.0;
  }
  return value * a.toBase / b.toBase;
}

std::span<const std::string_view> unitSpellings() noexcept { return kSpellingList; }

}  // namespace sotto::intents
