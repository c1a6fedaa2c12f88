// A Catch2 2 test binary for perfgate catch2's test: two benchmarks whose times differ tenfold, and one named with
// characters XML escapes.
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

TEST_CASE("sums", "[benchmark]") {
  std::vector<long> small(1000), large(10000);
  std::iota(small.begin(), small.end(), 0);
  std::iota(large.begin(), large.end(), 0);
  BENCHMARK("sum <1000> & \"more\"") { return std::accumulate(small.begin(), small.end(), 0L); };
  BENCHMARK("sum 10000") { return std::accumulate(large.begin(), large.end(), 0L); };
}
