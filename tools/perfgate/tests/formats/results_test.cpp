// Google Benchmark's JSON as its library writes it (inputs/google_benchmark: real outputs of Google Benchmark 1.7.1,
// README.md there names the command), and the figures it writes that JSON has no number for.
#include "model/results.h"
#include "base/error.h"
#include "formats/results_input.h"
#include "model/baseline.h"
#include "model/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace {

std::string sample(const std::string& name) { return std::string(PERFGATE_TEST_INPUTS) + "/google_benchmark/" + name; }

bool any_note_has(const perfgate::Results& r, const std::string& text) {
  return std::any_of(r.notes.begin(), r.notes.end(),
                     [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

}  // namespace

TEST(results, a_counter_that_is_zero_in_every_repetition_is_read_and_its_nan_statistics_set_aside) {
  const auto r = perfgate::read_results(sample("repetitions_with_zero_counter.json"));
  EXPECT_EQ(perfgate::values_of(r, "BM_ZeroCounter", "allocations"), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(perfgate::values_of(r, "BM_Vector/1024", "allocations"), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(perfgate::values_of(r, "BM_ZeroCounter", "items").size(), 3u);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_TRUE(any_note_has(r, "aggregate figure")) << r.notes.front();
  EXPECT_TRUE(any_note_has(r, "not read")) << r.notes.front();
}

TEST(results, every_time_unit_google_benchmark_writes_is_kept_with_its_values) {
  const auto r = perfgate::read_results(sample("repetitions_with_zero_counter.json"));
  EXPECT_EQ(perfgate::values_in_unit(r, "BM_Vector/1024", "real_time", "us").size(), 3u);
  const auto ms = perfgate::values_in_unit(r, "BM_Milliseconds", "real_time", "ms");
  const auto ns = perfgate::values_in_unit(r, "BM_Milliseconds", "real_time", "ns");
  ASSERT_EQ(ms.size(), 3u);
  EXPECT_DOUBLE_EQ(ns[0], ms[0] * 1e6);
}

TEST(results, aggregates_alone_are_refused_with_the_option_that_wrote_them) {
  try {
    perfgate::read_results(sample("aggregates_only.json"));
    FAIL() << "aggregates only were read";
  } catch (const perfgate::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--benchmark_report_aggregates_only"), std::string::npos) << e.what();
  }
}

TEST(results, a_benchmark_that_reported_an_error_is_refused_with_its_message) {
  try {
    perfgate::read_results(sample("errored.json"));
    FAIL() << "an errored benchmark was read";
  } catch (const perfgate::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("needs a device this machine does not have"), std::string::npos) << e.what();
  }
}

TEST(results, a_figure_written_as_nan_or_infinity_is_not_measured_and_said) {
  const auto r = perfgate::parse_results(R"({"benchmarks": [
    {"name": "BM_A", "run_type": "iteration", "iterations": 1, "real_time": 1, "time_unit": "ns", "label": "NaN",
     "hits": NaN, "misses": -Infinity, "ratio": inf, "kept": 5},
    {"name": "BM_A_cv", "run_name": "BM_A", "run_type": "aggregate", "aggregate_name": "cv", "iterations": 1,
     "real_time": NaN}]})",
                                         "stand-in");
  EXPECT_TRUE(perfgate::values_of(r, "BM_A", "hits").empty());
  EXPECT_TRUE(perfgate::values_of(r, "BM_A", "misses").empty());
  EXPECT_TRUE(perfgate::values_of(r, "BM_A", "ratio").empty());
  EXPECT_EQ(perfgate::values_of(r, "BM_A", "kept"), (std::vector<double>{5}));
  EXPECT_TRUE(any_note_has(r, "'BM_A' field 'hits' has no finite value"));
  EXPECT_TRUE(any_note_has(r, "1 aggregate figure with no finite value"));
  EXPECT_EQ(r.notes.size(), 4u);
}

TEST(results, only_a_whole_token_where_a_value_starts_is_taken_for_nan) {
  // Inside a string, or as the start of a longer word, NaN is not a figure: the text stays as it was (here invalid).
  for (const std::string word : {"NaNo", "nanx", "Infinity1", "-inf_", "info"}) {
    EXPECT_THROW(
        perfgate::parse_results(R"({"benchmarks": [{"name": "BM_A", "iterations": 1, "x": )" + word + "}]}", "s"),
        perfgate::InputError)
        << word;
  }
  const auto r = perfgate::parse_results(
      R"({"context": {"note": "a NaN, \"Infinity\""}, "benchmarks": [{"name": "BM_A", "iterations": 1, "x": 2}]})",
      "s");
  EXPECT_EQ(r.context.at("note"), "a NaN, \"Infinity\"");
  EXPECT_TRUE(r.notes.empty());
}

TEST(results, a_repetition_without_a_finite_value_leaves_its_metric_not_measured) {
  // Two finite repetitions beside a NaN must not pass on the two: a loss that diverged in one seed is a regression.
  const auto r = perfgate::parse_results(R"({"benchmarks": [
    {"name": "BM_A", "repetition_index": 0, "iterations": 1, "real_time": 1, "loss": 0.5},
    {"name": "BM_A", "repetition_index": 1, "iterations": 1, "real_time": 1, "loss": NaN},
    {"name": "BM_A", "repetition_index": 2, "iterations": 1, "real_time": 1, "loss": 0.5}]})",
                                         "stand-in");
  EXPECT_EQ(r.not_finite.count({"BM_A", "loss"}), 1u);
  EXPECT_EQ(r.notes.size(), 1u);
  const auto b = perfgate::parse_baseline(R"({"schema_version": 1, "provenance": {"reason": "r"}, "entries": [
    {"benchmark": "BM_A", "field": "loss", "value": 0.5, "unit": "", "direction": "lower", "tolerance": {"abs": 0.1}}]})",
                                          "b");
  const auto rows = perfgate::compare(r, b);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows.front().verdict, perfgate::Verdict::missing);
}

TEST(results, a_benchmark_reported_by_its_aggregates_alone_is_said_and_not_read) {
  const auto r = perfgate::parse_results(R"({"benchmarks": [
    {"name": "BM_A", "run_type": "iteration", "iterations": 1, "real_time": 1},
    {"name": "BM_B_median", "run_name": "BM_B", "run_type": "aggregate", "aggregate_name": "median", "iterations": 3,
     "real_time": 2}]})",
                                         "stand-in");
  EXPECT_TRUE(perfgate::values_of(r, "BM_B", "real_time").empty());
  EXPECT_TRUE(any_note_has(r, "'BM_B' is reported by its aggregates alone"));
}
