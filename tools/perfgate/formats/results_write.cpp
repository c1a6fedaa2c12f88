#include "formats/results_write.h"

#include "base/json_input.h"

#include <map>
#include <utility>

namespace perfgate {

std::string results_json_text(const Results& results) {
  nlohmann::json context = nlohmann::json::object();
  for (const auto& [key, value] : results.context) context[key] = value;
  std::map<std::pair<std::string, int>, nlohmann::json> runs;  // (benchmark, repetition) → run, in a stable order
  std::map<std::string, int> repetitions;
  for (const auto& m : results.measurements) {
    auto& run = runs[{m.benchmark, m.repetition}];
    if (run.is_null()) {
      run = {{"name", m.benchmark},
             {"run_name", m.benchmark},
             {"run_type", "iteration"},
             {"repetition_index", m.repetition},
             {"iterations", 1}};
      repetitions[m.benchmark] = std::max(repetitions[m.benchmark], m.repetition + 1);
    }
    if (!m.unit.empty()) run["time_unit"] = m.unit;
    if (m.integer)
      run[m.field] = *m.integer;
    else
      run[m.field] = m.value;
  }
  nlohmann::json benchmarks = nlohmann::json::array();
  for (auto& [key, run] : runs) {
    run["repetitions"] = repetitions[key.first];
    benchmarks.push_back(std::move(run));
  }
  return json_output_text({{"context", context}, {"benchmarks", benchmarks}});
}

}  // namespace perfgate
