// Every results format perfgate reads: told apart by content, repetitions kept as repetitions and units as units,
// and what a format cannot say refused with one line naming the source.
#include "base/error.h"
#include "formats/hyperfine_json.h"
#include "formats/perfgate_results_json.h"
#include "formats/results_input.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using perfgate::InputError;
using perfgate::parse_results;

// The message of the InputError `read` throws, "" when it throws none.
template <typename Read>
std::string refusal(Read read) {
  try {
    read();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const char* const kPerfgate = R"({"perfgate_results": 1,
  "context": {"git_sha": "abc123", "machine": "ci-runner"},
  "measurements": [
    {"benchmark": "parse/large", "field": "real_time", "unit": "ms", "repetitions": [12.5, 12.25, 12.75]},
    {"benchmark": "parse/large", "field": "peak_memory", "unit": "bytes", "repetitions": [1048576, 1048576, 1048577]},
    {"benchmark": "parse/large", "field": "tokens", "unit": "", "repetitions": [9007199254740993]}]})";

}  // namespace

TEST(results_formats, perfgate_results_keep_repetitions_units_and_exact_counts) {
  const auto r = parse_results(kPerfgate, "mine.json");
  EXPECT_EQ(r.context.at("git_sha"), "abc123");
  const perfgate::MeasurementIndex index(r);
  EXPECT_EQ(index.values_in_unit("parse/large", "real_time", "ms"), (std::vector<double>{12.5, 12.25, 12.75}));
  EXPECT_DOUBLE_EQ(index.values_in_unit("parse/large", "real_time", "us")[1], 12250.0);
  EXPECT_EQ(index.values_of("parse/large", "peak_memory"), (std::vector<double>{1048576, 1048576, 1048577}));
  EXPECT_EQ(index.integers_of("parse/large", "tokens", "")->front(), 9007199254740993);  // past 2^53, exact
  EXPECT_NE(refusal([&] { index.values_in_unit("parse/large", "peak_memory", "KiB"); }).find("measured in 'bytes'"),
            std::string::npos);
  // Written back, the same results read again.
  const auto again = parse_results(perfgate::perfgate_results_json_text(r), "again.json");
  EXPECT_EQ(perfgate::perfgate_results_json_text(again), perfgate::perfgate_results_json_text(r));
}

TEST(results_formats, perfgate_results_refuse_what_the_format_does_not_say) {
  const std::string head = R"({"perfgate_results": 1, "measurements": [)";
  const auto refused = [&](const std::string& body) {
    return refusal([&] { parse_results(head + body + "]}", "m.json"); });
  };
  EXPECT_NE(refused(R"({"benchmark": "a", "field": "real_time", "unit": "ms", "repetition": [1]})")
                .find("unknown member 'repetition'"),
            std::string::npos);
  EXPECT_NE(refused(R"({"benchmark": "a", "field": "real_time", "unit": "ms", "repetitions": []})")
                .find("no \"repetitions\""),
            std::string::npos);
  EXPECT_NE(
      refused(R"({"benchmark": "a", "field": "real_time", "unit": "ms", "repetitions": [-1]})").find("not a time"),
      std::string::npos);
  EXPECT_NE(refused(R"({"benchmark": "a", "field": "x", "unit": "", "repetitions": [1]},
                      {"benchmark": "a", "field": "x", "unit": "", "repetitions": [2]})")
                .find("repeats 'a' x"),
            std::string::npos);
  EXPECT_NE(refused(R"({"benchmark": "", "field": "x", "unit": "", "repetitions": [1]})").find("empty benchmark"),
            std::string::npos);
  EXPECT_NE(refused(R"({"benchmark": "a", "field": "x", "unit": "", "repetitions": ["1"]})").find("not a number"),
            std::string::npos);
  EXPECT_NE(refusal([] {
              parse_results(R"({"perfgate_results": 2, "measurements": []})", "m.json");
            }).find("perfgate_results is 2: this perfgate reads version 1"),
            std::string::npos);
  // null is a repetition not measured, as Google Benchmark's NaN is
  const auto r =
      parse_results(head + R"({"benchmark": "a", "field": "x", "unit": "", "repetitions": [1, null]}]})", "m.json");
  EXPECT_EQ(r.not_finite.count({"a", "x"}), 1u);
}

TEST(results_formats, hyperfine_runs_are_repetitions_in_seconds) {
  const auto r = parse_results(R"({"results": [
    {"command": "sleepy", "mean": 0.0115, "stddev": 0.0001, "median": 0.0115, "user": 0.00125, "system": 0.0,
     "min": 0.0114, "max": 0.0116, "times": [0.0115, 0.0116, 0.0114], "exit_codes": [0, 0, 0]},
    {"command": "quick", "mean": 0.001, "stddev": 0.0, "median": 0.001, "user": 0.0, "system": 0.0, "min": 0.001,
     "max": 0.001, "times": [0.001, 0.001], "exit_codes": [0, 0], "memory_usage_byte": [2048, 4096]}]})",
                               "hf.json");
  const perfgate::MeasurementIndex index(r);
  EXPECT_EQ(index.values_in_unit("sleepy", "real_time", "ms"), (std::vector<double>{11.5, 11.6, 11.4}));
  EXPECT_TRUE(index.values_of("sleepy", "user").empty());      // a mean of the runs, not a repetition
  EXPECT_TRUE(index.values_of("sleepy", "cpu_time").empty());  // nor their sum: of three runs, not one's
  EXPECT_EQ(index.integers_of("quick", "memory_usage", "bytes"), (std::vector<int64_t>{2048, 4096}));
}

TEST(results_formats, hyperfine_refuses_failed_runs_and_twin_commands) {
  EXPECT_NE(refusal([] {
              parse_results(R"({"results": [{"command": "c", "times": [1, 2], "exit_codes": [0, 1]}]})", "hf.json");
            }).find("'c' failed in run 1 (exit code 1)"),
            std::string::npos);
  EXPECT_NE(refusal([] {
              parse_results(R"({"results": [{"command": "c", "times": [1], "exit_codes": [null]}]})", "hf.json");
            }).find("failed in run 0 (exit code null)"),
            std::string::npos);
  EXPECT_NE(refusal([] {
              parse_results(R"({"results": [{"command": "c", "times": [1]}, {"command": "c", "times": [2]}]})",
                            "hf.json");
            }).find("appears twice"),
            std::string::npos);
  EXPECT_NE(refusal([] {
              parse_results(R"({"results": [{"command": "c", "times": [-0.5]}]})", "hf.json");
            }).find("expected seconds >= 0"),
            std::string::npos);
  EXPECT_NE(refusal([] {
              parse_results(R"({"results": [{"command": "c", "times": [1e308]}]})", "hf.json");
            }).find("expected seconds >= 0"),
            std::string::npos);  // beyond any time once in nanoseconds
  // One run's user and system time are that run's cpu_time.
  const auto one =
      parse_results(R"({"results": [{"command": "c", "times": [0.5], "user": 0.25, "system": 0.125}]})", "hf.json");
  EXPECT_EQ(perfgate::MeasurementIndex(one).values_of("c", "cpu_time"), (std::vector<double>{0.375}));
}

TEST(results_formats, the_format_is_told_by_content_and_anything_else_is_named) {
  EXPECT_EQ(parse_results("\xEF\xBB\xBF  {\"benchmarks\": [{\"name\": \"BM\", \"iterations\": 1, \"real_time\": 1}]}",
                          "gb.json")
                .measurements.size(),
            1u);
  for (const char* text : {"", "[1, 2]", "{\"other\": 1}", "name,value\nBM,1\n"}) {
    const auto why = refusal([&] { parse_results(text, "x.txt"); });
    EXPECT_NE(why.find("x.txt: not results perfgate reads; it reads Google Benchmark JSON"), std::string::npos)
        << text << ": " << why;
  }
}
