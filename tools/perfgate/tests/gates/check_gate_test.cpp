// What a gate that shares the machine may judge: counts, accuracy and memory, never a timing.
#include "gates/check_gate.h"
#include "base/error.h"

#include <gtest/gtest.h>

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
