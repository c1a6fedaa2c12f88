// Catch2's XML reports, of both major versions, as results: each benchmark's mean of one run is one repetition;
// a benchmark that failed, or one in a test case that failed, is never read as a time.
#include "formats/catch2_xml.h"
#include "base/error.h"
#include "formats/results_input.h"

#include <gtest/gtest.h>

#include <string>

namespace {

std::string sample(const std::string& name) { return std::string(PERFGATE_TEST_INPUTS) + "/catch2/" + name; }

std::string refusal(const std::string& path) {
  try {
    perfgate::read_results(path);
  } catch (const perfgate::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(catch2_xml, reads_both_versions_in_nanoseconds_sections_and_escapes_included) {
  for (const char* version : {"2.13.10", "3.7.1"}) {
    SCOPED_TRACE(version);
    const auto r = perfgate::read_results(sample(std::string("catch2-v") + version + "-benchmarks.xml"));
    const perfgate::MeasurementIndex index(r);
    for (const char* name : {"sort 1000 ints", "sum 1000 ints", "sort 1000 ints (advanced, copy excluded)",
                             "parse <a & b> \"quoted\"", "max of 1000 ints"}) {
      const auto values = index.values_in_unit(name, "real_time", "ns");
      ASSERT_EQ(values.size(), 1u) << name;  // one report is one repetition
      EXPECT_GT(values[0], 0.0) << name;
    }
    EXPECT_EQ(r.measurements.size(), 5u);  // the bounds, deviation and outliers are not repetitions
    EXPECT_EQ(r.context.at("harness"), std::string("Catch2 ") + (version[0] == '2' ? "2" : version));
  }
  // A figure as the report writes it: v3's "sum 1000 ints" mean is 301.483 ns.
  const auto v3 = perfgate::read_results(sample("catch2-v3.7.1-benchmarks.xml"));
  EXPECT_EQ(perfgate::MeasurementIndex(v3).values_in_unit("sum 1000 ints", "real_time", "us"),
            (std::vector<double>{0.301483}));
  // Without analysis the mean is the plain average, read the same way.
  EXPECT_EQ(perfgate::read_results(sample("catch2-v3.7.1-benchmarks-no-analysis.xml")).measurements.size(), 5u);
  EXPECT_EQ(perfgate::read_results(sample("catch2-v2.13.10-benchmarks-no-analysis.xml")).measurements.size(), 5u);
}

TEST(catch2_xml, a_failed_benchmark_or_test_case_is_refused) {
  // The first failure in each report: a test case whose REQUIRE failed after its benchmark ran.
  for (const char* version : {"2.13.10", "3.7.1"}) {
    const auto why = refusal(sample(std::string("catch2-v") + version + "-benchmarks-failed-test.xml"));
    EXPECT_NE(why.find("benchmark 'sum before failing require' is in test case 'require fails after benchmark', "
                       "which failed"),
              std::string::npos)
        << why;
  }
  const std::string head = "<Catch2TestRun catch2-version=\"3.7.1\"><TestCase name=\"t\">";
  const auto refused = [&](const std::string& body) {
    try {
      perfgate::parse_results(head + body + "<OverallResult success=\"true\"/></TestCase></Catch2TestRun>", "r.xml");
    } catch (const perfgate::InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // v2's throwing benchmark: its test case reads as passed, its <failed> says otherwise
  EXPECT_NE(refused("<BenchmarkResults name=\"b\"><failed message=\"boom &lt;x&gt;\"/></BenchmarkResults>")
                .find("benchmark 'b' failed: boom <x>"),
            std::string::npos);
  // v2's failed assertion inside a benchmark: no <failed>, an Expression that says so
  EXPECT_NE(refused("<BenchmarkResults name=\"b\"><Expression success=\"false\"/></BenchmarkResults>")
                .find("failed an assertion"),
            std::string::npos);
  EXPECT_NE(refused("<BenchmarkResults name=\"b\"><mean value=\"1\"/></BenchmarkResults>"
                    "<BenchmarkResults name=\"b\"><mean value=\"2\"/></BenchmarkResults>")
                .find("'b' appears twice"),
            std::string::npos);
  EXPECT_NE(refused("<BenchmarkResults name=\"b\"><mean value=\"1e999\"/></BenchmarkResults>").find("not a finite"),
            std::string::npos);
  EXPECT_NE(refused("<BenchmarkResults name=\"b\"><mean value=\"-3\"/></BenchmarkResults>").find("not a time"),
            std::string::npos);
  EXPECT_NE(refused("").find("of no benchmark"), std::string::npos);
  EXPECT_NE(refused("<BenchmarkResults name=\"b\"><mean value=\"5\"/><mean value=\"500\"/></BenchmarkResults>")
                .find("has two means"),
            std::string::npos);
  EXPECT_NE(refused("<BenchmarkResults name=\"b\"><mean value=\"5\"/><BenchmarkResults name=\"c\"><mean "
                    "value=\"6\"/></BenchmarkResults></BenchmarkResults>")
                .find("holds another benchmark's results"),
            std::string::npos);
  for (const char* value : {"0x1p10", " 12", "12 ", "inf", "nan", ""}) {
    EXPECT_NE(refused(std::string("<BenchmarkResults name=\"b\"><mean value=\"") + value + "\"/></BenchmarkResults>")
                  .find("not a finite decimal number"),
              std::string::npos)
        << value;
  }
  // scientific notation, as Catch2 writes six significant digits
  EXPECT_EQ(perfgate::parse_results(head + "<BenchmarkResults name=\"b\"><mean value=\"2.962e+06\"/></BenchmarkResults>"
                                           "<OverallResult success=\"true\"/></TestCase></Catch2TestRun>",
                                    "r.xml")
                .measurements.at(0)
                .value,
            2.962e6);
  EXPECT_NE(refusal(std::string(PERFGATE_TEST_INPUTS) + "/report/broken_report.html").find("not"), std::string::npos);
}
