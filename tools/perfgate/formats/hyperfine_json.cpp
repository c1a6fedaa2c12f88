#include "formats/hyperfine_json.h"

#include "base/error.h"
#include "base/json_input.h"
#include "base/time_units.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

namespace perfgate {

Results parse_hyperfine_json(const std::string& text, const std::string& source) {
  return hyperfine_results(parse_json_input(text, source), source);
}

Results hyperfine_results(const nlohmann::json& doc, const std::string& source) {
  if (!doc.is_object() || !doc.contains("results") || !doc["results"].is_array())
    throw InputError(source + ": not a hyperfine export (no \"results\" array)");
  Results results;
  results.source = source;
  std::set<std::string> seen;
  size_t index = 0;
  for (const auto& result : doc["results"]) {
    const std::string where = source + ": results[" + std::to_string(index++) + "]";
    if (!result.is_object() || !result.contains("command") || !result["command"].is_string() ||
        result["command"].get<std::string>().empty())
      throw InputError(where + " has no command");
    const auto command = result["command"].get<std::string>();
    const std::string named = source + ": '" + command + "'";
    if (!seen.insert(command).second)
      throw InputError(named + " appears twice (give each command its own --command-name)");
    if (!result.contains("times") || !result["times"].is_array() || result["times"].empty())
      throw InputError(named + " has no \"times\" (hyperfine writes one per run)");
    const auto& times = result["times"];
    if (times.size() > static_cast<size_t>(kMaxRepetitions))
      throw InputError(named + " has more than " + std::to_string(kMaxRepetitions) + " runs");
    if (result.contains("exit_codes")) {
      const auto& codes = result["exit_codes"];
      if (!codes.is_array() || codes.size() != times.size())
        throw InputError(named + " has \"exit_codes\" that are not one per run");
      for (size_t r = 0; r < codes.size(); ++r) {
        const auto code = exact_int64(codes[r]);
        if (!code || *code != 0) {
          throw InputError(named + " failed in run " + std::to_string(r) + " (exit code " + codes[r].dump() +
                           "): a failed run's time is not the program's");
        }
      }
    }
    for (size_t r = 0; r < times.size(); ++r) {
      const auto& t = times[r];
      if (!t.is_number() || !std::isfinite(t.get<double>()) || t.get<double>() < 0 ||
          !std::isfinite(convert_time(t.get<double>(), "s", "ns")))
        throw InputError(named + " run " + std::to_string(r) + " has time " + t.dump() + " (expected seconds >= 0)");
      results.measurements.push_back({command, "real_time", t.get<double>(), "s", static_cast<int>(r), std::nullopt});
    }
    // hyperfine reports user and system time as means over the runs: of a single run, they are that run's.
    if (times.size() == 1 && result.contains("user") && result["user"].is_number() && result.contains("system") &&
        result["system"].is_number()) {
      const double cpu = result["user"].get<double>() + result["system"].get<double>();
      if (std::isfinite(cpu) && cpu >= 0)
        results.measurements.push_back({command, "cpu_time", cpu, "s", 0, std::nullopt});
    }
    if (result.contains("memory_usage_byte")) {
      const auto& memory = result["memory_usage_byte"];
      if (!memory.is_array() || memory.size() != times.size())
        throw InputError(named + " has \"memory_usage_byte\" that is not one value per run");
      for (size_t r = 0; r < memory.size(); ++r) {
        const auto bytes = exact_int64(memory[r]);
        if (!bytes || *bytes < 0)
          throw InputError(named + " run " + std::to_string(r) + " has memory_usage_byte " + memory[r].dump());
        results.measurements.push_back(
            {command, "memory_usage", static_cast<double>(*bytes), "bytes", static_cast<int>(r), bytes});
      }
    }
  }
  if (seen.empty()) throw InputError(source + ": a hyperfine export of no command");
  return results;
}

}  // namespace perfgate
