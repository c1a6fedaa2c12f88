#include "json_input.h"

#include "error.h"

namespace perfgate {
namespace {

// Thrown from the parser callback to stop at the first level that is too deep (an exception, because the
// callback's return value can only drop values, not end the parse).
struct TooDeep {};

}  // namespace

nlohmann::json parse_json_input(const std::string& text, const std::string& source) {
  const auto bound_depth = [](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    if ((event == nlohmann::json::parse_event_t::object_start || event == nlohmann::json::parse_event_t::array_start) &&
        depth >= kMaxJsonDepth) {
      throw TooDeep{};
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text, bound_depth);
  } catch (const TooDeep&) {
    throw InputError(source + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
  } catch (const nlohmann::json::exception& e) {  // parse errors and out-of-range numbers alike
    throw InputError(source + ": not valid JSON (" + std::string(e.what()).substr(0, 120) + ")");
  }
}

}  // namespace perfgate
