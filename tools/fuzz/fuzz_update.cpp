// perfgate update's plan from fuzzed results: refused with InputError, or a baseline that survives serialising and
// parsing (what update writes, compare must accept), with every new entry's value finite.
#include "model/baseline.h"
#include "base/error.h"
#include "formats/results_input.h"
#include "model/results.h"
#include "model/update.h"

#include <cmath>
#include <set>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  // The first byte picks how every field is tracked; the rest is the results file.
  const char* directions[] = {"higher", "lower", "either"};
  const char* tolerances[] = {"rel=0.05", "abs=1", "exact", "rel=1e300", "abs=1e308", "rel=0"};
  const std::string track_tail = std::string(directions[data[0] % 3]) + ":" + tolerances[(data[0] / 3) % 6];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const auto results = perfgate::parse_results(text, "fuzz");
    perfgate::UpdateRequest request;
    std::set<std::string> fields;  // one criterion per field: a field given twice is refused by design
    for (const auto& m : results.measurements) {
      if (fields.size() < 4 && fields.insert(m.field).second) request.track.push_back(perfgate::parse_track_spec(m.field + ":" + track_tail));
    }
    const auto plan = perfgate::plan_update({results, results}, std::nullopt, request, {});
    for (const auto& e : plan.next.entries) {
      if (!std::isfinite(e.value)) std::abort();
    }
    perfgate::parse_baseline(perfgate::to_json_text(plan.next), "round trip");  // must not throw
  } catch (const perfgate::InputError&) {
  }
  return 0;
}
