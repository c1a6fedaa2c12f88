// Catch2's main, in a file of its own so that a change to the benchmarks recompiles only them.
#define CATCH_CONFIG_MAIN
#define CATCH_CONFIG_ENABLE_BENCHMARKING
#include <catch2/catch.hpp>
