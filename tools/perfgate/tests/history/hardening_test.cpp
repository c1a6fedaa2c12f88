// The shared disciplines behind perfgate's handling of hostile input: one JSON reader with a depth bound, time
// units reconciled, one tolerance band, one-line text, the process time limit, writes confined to their target, and
// history stores that are never created or altered by mistake.
#include "base/atomic_write.h"
#include "base/error.h"
#include "base/json_input.h"
#include "base/one_line.h"
#include "base/read_file.h"
#include "base/temporary_folder.h"
#include "formats/results_input.h"
#include "history/history_store.h"
#include "model/baseline.h"
#include "model/compare.h"
#include "model/results.h"
#include "model/speedup_series.h"
#include "run/process.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

namespace {

using perfgate::InputError;

std::string nested(int depth) {
  return std::string(static_cast<size_t>(depth), '[') + std::string(static_cast<size_t>(depth), ']');
}

TEST(json_input, accepts_the_bound_and_refuses_one_level_more) {
  EXPECT_NO_THROW(perfgate::parse_json_input(nested(perfgate::kMaxJsonDepth), "t"));
  EXPECT_THROW(perfgate::parse_json_input(nested(perfgate::kMaxJsonDepth + 1), "t"), InputError);
  EXPECT_THROW(perfgate::parse_json_input(nested(1000000), "t"), InputError);  // stops at the first level too deep
  EXPECT_THROW(perfgate::parse_json_input("{\"a\": 1e999}", "t"), InputError);
}

perfgate::Entry entry(double value, perfgate::Direction direction, perfgate::Tolerance::Kind kind, double amount) {
  perfgate::Entry e;
  e.benchmark = "BM";
  e.field = "f";
  e.value = value;
  e.direction = direction;
  e.tolerance = {kind, amount, std::nullopt};
  return e;
}

TEST(acceptable_band, is_the_one_meaning_of_each_tolerance) {
  using D = perfgate::Direction;
  using K = perfgate::Tolerance::Kind;
  const double inf = std::numeric_limits<double>::infinity();
  auto band = perfgate::acceptable_band(entry(10.0, D::higher, K::rel, 0.1));
  EXPECT_DOUBLE_EQ(band.low, 9.0);
  EXPECT_EQ(band.high, inf);
  band = perfgate::acceptable_band(entry(10.0, D::lower, K::abs, 2.0));
  EXPECT_EQ(band.low, -inf);
  EXPECT_DOUBLE_EQ(band.high, 12.0);
  band = perfgate::acceptable_band(entry(-10.0, D::either, K::rel, 0.5));  // relative to |value|
  EXPECT_DOUBLE_EQ(band.low, -15.0);
  EXPECT_DOUBLE_EQ(band.high, -5.0);
  band = perfgate::acceptable_band(entry(3.0, D::lower, K::exact, 0.0));
  EXPECT_TRUE(band.contains(3.0));
  EXPECT_FALSE(band.contains(std::nextafter(3.0, 4.0)));
  EXPECT_FALSE(band.contains(std::nan("")));
}

std::string baseline_text(const std::string& entry_json) {
  return R"({"schema_version": 1, "provenance": {}, "entries": [)" + entry_json + "]}";
}

TEST(acceptable_band, an_entry_whose_band_overflows_is_refused) {
  EXPECT_THROW(perfgate::parse_baseline(baseline_text(R"({"benchmark": "B", "field": "f", "value": 1.7e308, "unit": "",
      "direction": "either", "tolerance": {"rel": 0.5}})"),
                                        "t"),
               InputError);
  // The good side may be unbounded: a higher-is-better entry near the largest double only needs its lower edge.
  EXPECT_NO_THROW(
      perfgate::parse_baseline(baseline_text(R"({"benchmark": "B", "field": "f", "value": 1.7e308, "unit": "",
      "direction": "higher", "tolerance": {"rel": 0.5}})"),
                               "t"));
}

TEST(median, of_two_values_near_the_largest_double_stays_finite) {
  EXPECT_DOUBLE_EQ(perfgate::median({1.7e308, 1.7e308}), 1.7e308);
}

TEST(to_json_text, refuses_to_write_a_value_json_cannot_hold) {
  perfgate::Baseline b;
  b.entries.push_back(
      entry(std::numeric_limits<double>::infinity(), perfgate::Direction::lower, perfgate::Tolerance::Kind::abs, 1.0));
  EXPECT_THROW(perfgate::to_json_text(b), InputError);
}

perfgate::Results timed(double value, const std::string& unit) {
  return perfgate::parse_results(R"({"benchmarks": [{"name": "BM", "iterations": 1, "real_time": )" +
                                     std::to_string(value) + R"(, "time_unit": ")" + unit + R"(", "n": 4}]})",
                                 "t");
}

TEST(values_in_unit, converts_times_and_refuses_a_time_in_another_kind_of_unit) {
  EXPECT_DOUBLE_EQ(perfgate::values_in_unit(timed(0.015, "s"), "BM", "real_time", "ms").at(0), 15.0);
  EXPECT_DOUBLE_EQ(perfgate::values_in_unit(timed(1500.0, "us"), "BM", "real_time", "ms").at(0), 1.5);
  EXPECT_DOUBLE_EQ(perfgate::values_in_unit(timed(2.0, "ms"), "BM", "real_time", "ns").at(0), 2e6);
  EXPECT_THROW(perfgate::values_in_unit(timed(2.0, "ms"), "BM", "real_time", "dB"), InputError);
  EXPECT_DOUBLE_EQ(perfgate::values_in_unit(timed(2.0, "ms"), "BM", "n", "dB").at(0), 4.0);  // counters carry no unit
}

TEST(parse_results, refuses_runs_that_measured_nothing_or_in_unknown_units) {
  EXPECT_THROW(perfgate::parse_results(
                   R"({"benchmarks": [{"name": "B", "iterations": 0, "real_time": 0, "time_unit": "ms"}]})", "t"),
               InputError);
  EXPECT_THROW(perfgate::parse_results(
                   R"({"benchmarks": [{"name": "B", "iterations": 1, "real_time": 1, "time_unit": "h"}]})", "t"),
               InputError);
}

TEST(speedup_series, fails_only_when_the_whole_interval_lies_below_the_baselined_speedup_minus_its_tolerance) {
  perfgate::Baseline baseline;
  auto e = entry(4.0, perfgate::Direction::higher, perfgate::Tolerance::Kind::rel, 0.1);  // lowest acceptable 3.6
  e.benchmark = perfgate::speedup_series_name("R", "C");
  e.field = "speedup";
  e.unit = "x";
  baseline.entries.push_back(e);
  perfgate::SpeedupReport report;
  report.median = 3.55, report.low = 3.3, report.high = 3.7;  // straddles 3.6: not shown to be slower
  auto v = perfgate::judge_against_baseline(report, baseline, e.benchmark);
  EXPECT_DOUBLE_EQ(v.limit, 3.6);
  EXPECT_FALSE(v.below);
  EXPECT_EQ(v.verdict, perfgate::SpeedupVerdict::pass);
  report.high = 3.59;  // wholly below
  v = perfgate::judge_against_baseline(report, baseline, e.benchmark);
  EXPECT_TRUE(v.below);
  EXPECT_EQ(v.verdict, perfgate::SpeedupVerdict::fail);
  baseline.entries[0].advisory = true;  // reported, never failing
  v = perfgate::judge_against_baseline(report, baseline, e.benchmark);
  EXPECT_TRUE(v.below);
  EXPECT_EQ(v.verdict, perfgate::SpeedupVerdict::pass);
  baseline.entries[0].advisory = false;
  baseline.entries[0].limit = 3.8;  // a limit above the band's edge governs
  report.high = 3.7;
  EXPECT_EQ(perfgate::judge_against_baseline(report, baseline, e.benchmark).verdict, perfgate::SpeedupVerdict::fail);
  EXPECT_THROW(perfgate::judge_against_baseline(report, baseline, "speedup:other/R"), InputError);
}

TEST(one_line, escapes_every_control_character_and_keeps_utf8) {
  EXPECT_EQ(perfgate::one_line("a\nb\r\tc\\d"), "a\\nb\\r\\tc\\\\d");
  EXPECT_EQ(perfgate::one_line(std::string("\x1b[2J\x7f", 5)), "\\x1b[2J\\x7f");
  EXPECT_EQ(perfgate::one_line("µs ±1"), "µs ±1");
}

TEST(shell_quote, gives_one_word_a_shell_reads_back_as_it_was) {
  EXPECT_EQ(perfgate::shell_quote("baselines/accuracy/cpu/a.json"), "baselines/accuracy/cpu/a.json");
  EXPECT_EQ(perfgate::shell_quote("a b"), "'a b'");
  EXPECT_EQ(perfgate::shell_quote("it's $(x)"), "'it'\\''s $(x)'");
  EXPECT_EQ(perfgate::shell_quote(""), "''");
}

TEST(run_process, a_time_limit_stops_the_child_and_its_children) {
  perfgate::ProcessOptions options;
  options.timeout_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  const auto r = perfgate::run_process({"sh", "-c", "sleep 30 & sleep 30"}, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.status, -1);
  EXPECT_LT(seconds, 10.0);  // the background sleep kept the pipe open: only killing the group ends the read
  EXPECT_FALSE(perfgate::run_process({"true"}, options).timed_out);
}

TEST(run_process, a_child_that_never_stops_printing_is_stopped_too_and_its_output_bounded) {
  perfgate::ProcessOptions options;
  options.timeout_seconds = 1.0;
  const auto start = std::chrono::steady_clock::now();
  const auto r = perfgate::run_process({"yes", "0123456789abcdef"}, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(seconds, 10.0);
  EXPECT_LE(r.output.size(), size_t{24} << 20);
}

TEST(temporary_folder, is_removed_when_an_error_leaves_its_scope) {
  std::filesystem::path kept;
  try {
    const perfgate::TemporaryFolder folder("test");
    kept = folder.path();
    ASSERT_TRUE(std::filesystem::is_directory(kept));
    std::ofstream(kept / "file") << "x";
    throw InputError("bad input");
  } catch (const InputError&) {
  }
  EXPECT_FALSE(std::filesystem::exists(kept));
}

// A link inside a folder perfgate writes is replaced by the file itself (AtLink::replace): what it points to outside
// is never touched, and a dangling one is no error. A link the user named (AtLink::follow) is written through.
TEST(write_file_atomically, a_link_in_a_written_folder_is_replaced_and_its_target_left_alone) {
  namespace fs = std::filesystem;
  const perfgate::TemporaryFolder scratch("atomic-write-test");
  const fs::path& root = scratch.path();
  const auto read = [](const fs::path& p) { return perfgate::read_whole_file(p.string(), "test file"); };
  fs::create_directories(root / "out");
  std::ofstream(root / "outside.txt") << "keep";
  fs::create_symlink(root / "outside.txt", root / "out" / "summary.md");
  perfgate::write_file_atomically((root / "out" / "summary.md").string(), "new", perfgate::AtLink::replace);
  EXPECT_EQ(read(root / "outside.txt"), "keep");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(root / "out" / "summary.md")));
  EXPECT_EQ(read(root / "out" / "summary.md"), "new");
  fs::create_symlink(root / "nowhere.txt", root / "out" / "report.html");
  EXPECT_NO_THROW(
      perfgate::write_file_atomically((root / "out" / "report.html").string(), "page", perfgate::AtLink::replace));
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(root / "out" / "report.html")));
  EXPECT_FALSE(fs::exists(root / "nowhere.txt"));
  fs::create_symlink(root / "outside.txt", root / "named.json");
  perfgate::write_file_atomically((root / "named.json").string(), "through", perfgate::AtLink::follow);
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(root / "named.json")));
  EXPECT_EQ(read(root / "outside.txt"), "through");
}

TEST(history_store, read_only_never_creates_and_a_foreign_database_is_left_as_it_was) {
  const perfgate::TemporaryFolder folder("history");
  const auto missing = (folder.path() / "typo.db").string();
  EXPECT_THROW(perfgate::HistoryStore(missing, perfgate::HistoryStore::Access::read_only), InputError);
  EXPECT_FALSE(std::filesystem::exists(missing));

  const auto foreign = (folder.path() / "foreign.db").string();
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(foreign.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(db, "CREATE TABLE runs(x TEXT); INSERT INTO runs VALUES('theirs');", nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(db);
  const auto before = std::filesystem::file_size(foreign);
  EXPECT_THROW(perfgate::HistoryStore(foreign, perfgate::HistoryStore::Access::create), InputError);
  ASSERT_EQ(sqlite3_open(foreign.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &statement, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(statement, 0), 1);  // still only their table: nothing created
  sqlite3_finalize(statement);
  sqlite3_close(db);
  EXPECT_EQ(std::filesystem::file_size(foreign), before);
}

}  // namespace

// A quoted word means exactly its text to a shell, whatever the text holds, and prints as one line of printable
// ASCII: the commands perfgate prints as fixes run as printed.
TEST(perfgate_hardening, shell_quote_round_trips_through_bash) {
  const std::vector<std::string> words = {"plain/path.json",
                                          "it's",
                                          "a b",
                                          "back\\slash",
                                          "$(touch PWNED)",
                                          "`x`",
                                          "new\nline",
                                          "tab\there",
                                          std::string("nul\x01"
                                                      "ctl\x1b[31m"),
                                          "caf\xc3\xa9",
                                          "\xff\xfe",
                                          "'",
                                          "",
                                          "--",
                                          "a:b"};
  for (const auto& word : words) {
    const auto quoted = perfgate::shell_quote(word);
    for (const char c : quoted)
      ASSERT_TRUE(static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7f) << quoted;
    const auto r = perfgate::run_process({"bash", "-c", "printf %s " + quoted});
    EXPECT_EQ(r.status, 0) << quoted;
    EXPECT_EQ(r.output, word) << quoted;
  }
}
