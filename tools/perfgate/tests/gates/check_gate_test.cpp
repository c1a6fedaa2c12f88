// What a gate that shares the machine may judge: counts, accuracy and memory, never a timing.
#include "gates/check_gate.h"
#include "base/error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

std::string input(const std::string& name) { return std::string(PERFGATE_TEST_INPUTS) + "/" + name; }

}  // namespace

TEST(check_gate, a_gate_sharing_the_machine_judges_no_timing) {
  EXPECT_NO_THROW(perfgate::require_no_timing(input("baseline_ok.json"), "accuracy"));       // dB only
  EXPECT_NO_THROW(perfgate::require_no_timing(input("no_such_baseline.json"), "accuracy"));  // not made yet
  try {
    perfgate::require_no_timing(input("baseline_advisory.json"), "accuracy");  // BM_Other real_time in ms
    FAIL() << "a baseline with a timing passed";
  } catch (const perfgate::InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("gate accuracy shares the machine"), std::string::npos) << what;
    EXPECT_NE(what.find("BM_Other real_time"), std::string::npos) << what;
  }
}

TEST(check_gate, a_timing_and_an_advisory_figure_are_each_refused_for_their_own_reason) {
  const auto folder = std::filesystem::temp_directory_path() / "perfgate_check_gate_test";
  std::filesystem::create_directories(folder);
  const auto write = [&](const std::string& name, const std::string& entry) {
    const auto path = (folder / name).string();
    std::ofstream(path) << R"({"schema_version": 1, "provenance": {"reason": "r"}, "entries": [)" << entry << "]}";
    return path;
  };
  const auto refusal = [](const std::string& path) {
    try {
      perfgate::require_no_timing(path, "g");
    } catch (const perfgate::InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const auto timing = write("timing.json", R"({"benchmark": "BM_T", "field": "cpu_time", "value": 5, "unit": "ns",
    "direction": "lower", "tolerance": {"rel": 0.1}})");
  const auto advisory = write("advisory.json", R"({"benchmark": "BM_M", "field": "peak_mib", "value": 5, "unit": "MiB",
    "direction": "lower", "tolerance": {"rel": 0.1}, "advisory": true})");
  const auto counts = write("counts.json", R"({"benchmark": "BM_M", "field": "peak_mib", "value": 5, "unit": "MiB",
    "direction": "lower", "tolerance": {"rel": 0.1}})");
  EXPECT_NE(refusal(timing).find("BM_T cpu_time (ns), a timing"), std::string::npos) << refusal(timing);
  EXPECT_NE(refusal(advisory).find("BM_M peak_mib (advisory)"), std::string::npos) << refusal(advisory);
  EXPECT_EQ(refusal(counts), "accepted");
  std::filesystem::remove_all(folder);
}
