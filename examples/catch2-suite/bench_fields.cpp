// The example's Catch2 tests: benchmarks of the splitter (tag [benchmark], timed by perfgate catch2) and one plain run
// of it (tag [cost], whose instructions perfgate cost counts).
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include "fields.h"

#include <catch2/catch.hpp>

#include <sstream>

namespace {

size_t split_all(const std::string& text) {
  std::istringstream lines(text);
  size_t fields = 0;
  for (std::string line; std::getline(lines, line);) fields += split_fields(line).size();
  return fields;
}

}  // namespace

TEST_CASE("splitting CSV lines", "[benchmark]") {
  const auto small = sample_csv(100);
  const auto large = sample_csv(2000);
  REQUIRE(split_all(small) == 800);
  BENCHMARK("split 100 lines") { return split_all(small); };
  BENCHMARK("split 2000 lines") { return split_all(large); };
}

TEST_CASE("splitting once", "[cost]") { REQUIRE(split_all(sample_csv(2000)) == 16000); }
