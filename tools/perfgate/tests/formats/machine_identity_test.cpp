// Contract: results from a suite that does not name its machine get a fingerprint derived from Google Benchmark's
// context: equal for two runs on one machine type (host names and clock jitter aside), different when the CPUs
// or caches differ, or the processor's model or the owner's name for the host that perfgate records, absent when the
// context says nothing about the machine, never replacing a suite's own.
#include "model/machine_identity.h"
#include "formats/results_input.h"
#include "model/results.h"

#include <gtest/gtest.h>

#include <string>

namespace {

std::string results_with_context(const std::string& context) {
  return R"({"context": )" + context + R"(, "benchmarks": [{"name": "BM_X", "run_type": "iteration", "iterations": 1,
             "real_time": 1.0, "cpu_time": 1.0, "time_unit": "ms"}]})";
}

const std::string kRunner =
    R"({"host_name": "runner-a", "num_cpus": 4, "mhz_per_cpu": 2445, "library_build_type": "release",
  "caches": [{"type": "Data", "level": 1, "size": 32768}, {"type": "Unified", "level": 2, "size": 1048576}]})";

TEST(MachineIdentity, SameMachineTypeSameFingerprintWhateverTheHostAndClockJitter) {
  auto other = kRunner;
  other.replace(other.find("runner-a"), 8, "runner-b");
  other.replace(other.find("2445"), 4, "2461");
  const auto a = perfgate::parse_results(results_with_context(kRunner), "a.json");
  const auto b = perfgate::parse_results(results_with_context(other), "b.json");
  ASSERT_EQ(a.context.count("machine_fingerprint"), 1u);
  EXPECT_EQ(a.context.at("machine_fingerprint"), b.context.at("machine_fingerprint"));
  EXPECT_EQ(a.context.at("machine_fingerprint").rfind("gb-", 0), 0u);
  EXPECT_EQ(a.context.at("machine"), "4 cpu|L1d 32K L2 1024K|library release");
}

TEST(MachineIdentity, OtherCpusOrCachesGiveAnotherFingerprint) {
  auto more_cpus = kRunner;
  more_cpus.replace(more_cpus.find("\"num_cpus\": 4"), 13, "\"num_cpus\": 8");
  auto bigger_cache = kRunner;
  bigger_cache.replace(bigger_cache.find("1048576"), 7, "2097152");
  const auto base = perfgate::parse_results(results_with_context(kRunner), "a.json").context.at("machine_fingerprint");
  EXPECT_NE(perfgate::parse_results(results_with_context(more_cpus), "b.json").context.at("machine_fingerprint"), base);
  EXPECT_NE(perfgate::parse_results(results_with_context(bigger_cache), "c.json").context.at("machine_fingerprint"),
            base);
}

// Two hosts of one shape (CPUs, caches, library) are told apart by what perfgate adds where it runs the suite: the
// processor's model, and the name the host's owner gives it.
TEST(MachineIdentity, TheProcessorAndTheOwnersNameTellHostsOfOneShapeApart) {
  const auto with = [](const std::string& extra) {
    auto context = kRunner;
    context.insert(1, extra);
    return perfgate::parse_results(results_with_context(context), "a.json").context;
  };
  const auto intel = with(R"("cpu_name": "Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz", )");
  const auto amd = with(R"("cpu_name": "AMD EPYC 7763 64-Core Processor", )");
  EXPECT_NE(intel.at("machine_fingerprint"), amd.at("machine_fingerprint"));
  EXPECT_EQ(amd.at("machine"), "4 cpu|L1d 32K L2 1024K|library release|AMD EPYC 7763 64-Core Processor");
  const auto named = with(R"("cpu_name": "AMD EPYC 7763 64-Core Processor", "machine_name": "bench-2", )");
  EXPECT_NE(named.at("machine_fingerprint"), amd.at("machine_fingerprint"));
  EXPECT_EQ(named.at("machine"), "4 cpu|L1d 32K L2 1024K|library release|AMD EPYC 7763 64-Core Processor|name bench-2");
}

TEST(MachineIdentity, NothingKnownAboutTheMachineGivesNoFingerprint) {
  const auto r = perfgate::parse_results(results_with_context(R"({"host_name": "x", "date": "today"})"), "a.json");
  EXPECT_EQ(r.context.count("machine_fingerprint"), 0u);
}

TEST(MachineIdentity, OddlyTypedCacheFieldsAreReadAsAbsentNotAsAnError) {
  const auto r = perfgate::parse_results(
      results_with_context(R"({"num_cpus": 2, "caches": [{"type": 5, "level": "1", "size": 32768}, 7]})"), "a.json");
  EXPECT_EQ(r.context.at("machine"), "2 cpu|L0 32K");
}

TEST(MachineIdentity, ASuitesOwnFingerprintIsKept) {
  auto own = kRunner;
  own.insert(1, R"("machine_fingerprint": "8fcc1af9b0a1e78d", "machine": "AMD EPYC|2 cpu", )");
  const auto r = perfgate::parse_results(results_with_context(own), "a.json");
  EXPECT_EQ(r.context.at("machine_fingerprint"), "8fcc1af9b0a1e78d");
  EXPECT_EQ(r.context.at("machine"), "AMD EPYC|2 cpu");
}

}  // namespace
