// Results in any format perfgate reads (Google Benchmark, perfgate, hyperfine JSON; Catch2 XML): any input is parsed or refused with InputError; what parses can be judged (compare, speedup).
#include "model/baseline.h"
#include "model/compare.h"
#include "base/error.h"
#include "formats/results_input.h"
#include "model/results.h"
#include "model/speedup.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto results = perfgate::parse_results(text, "fuzz");
    if (results.measurements.empty()) return 0;
    perfgate::Baseline baseline;
    const auto& m = results.measurements.front();
    baseline.entries.push_back({m.benchmark, m.field, 1.0, m.unit, perfgate::Direction::lower, {perfgate::Tolerance::Kind::rel, 0.1}, 2.0, true});
    (void)perfgate::compare(results, baseline);
    (void)perfgate::judge_speedup(results, m.benchmark, results.measurements.back().benchmark, 1.5);
  } catch (const perfgate::InputError&) {
  }
  return 0;
}
