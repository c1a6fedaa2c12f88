// Contract: change points are persistent level shifts (not single outliers, not noise), and the history store
// returns each metric's runs in recording order.
#include "history/history_store.h"
#include "model/change_points.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

std::vector<double> noisy_level(std::vector<double> levels, size_t per_level, double noise, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(-noise, noise);
  std::vector<double> out;
  for (const double level : levels)
    for (size_t i = 0; i < per_level; ++i) out.push_back(level * (1.0 + jitter(rng)));
  return out;
}

TEST(change_points, finds_a_persistent_shift_at_its_place) {
  const auto values = noisy_level({10.0, 12.0}, 12, 0.03, 1);  // +20 % after point 12, ±3 % noise
  const auto found = perfgate::detect_change_points(values);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].index, 12u);
  EXPECT_NEAR(found[0].after / found[0].before, 1.2, 0.05);
  // The commits to bisect between: the last run at the old level and the first at the new one.
  const auto [last_old, first_new] = perfgate::runs_around(found[0]);
  EXPECT_EQ(last_old, 11u);
  EXPECT_EQ(first_new, 12u);
  EXPECT_LT(values[last_old], 11.0);
  EXPECT_GT(values[first_new], 11.0);
}

TEST(change_points, finds_two_shifts) {
  const auto found = perfgate::detect_change_points(noisy_level({10.0, 13.0, 10.0}, 10, 0.02, 2));
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].index, 10u);
  EXPECT_EQ(found[1].index, 20u);
}

TEST(change_points, ignores_one_outlier_noise_and_small_shifts) {
  auto spike = noisy_level({10.0}, 24, 0.03, 3);
  spike[11] = 30.0;  // one bad run
  EXPECT_TRUE(perfgate::detect_change_points(spike).empty());
  EXPECT_TRUE(perfgate::detect_change_points(noisy_level({10.0}, 40, 0.10, 4)).empty());
  EXPECT_TRUE(
      perfgate::detect_change_points(noisy_level({10.0, 10.2}, 15, 0.001, 5), 0.05).empty());  // 2 % < min_shift
  EXPECT_TRUE(perfgate::detect_change_points({}).empty());
}

TEST(history_store, keeps_runs_in_order_and_reopens) {
  const auto path =
      (std::filesystem::temp_directory_path() / ("perfgate_history_test-" + std::to_string(::getpid()) + ".db"))
          .string();
  std::filesystem::remove(path);
  perfgate::Results r;
  r.source = "test";
  for (int run = 0; run < 3; ++run) {
    r.measurements = {{"BM_A", "real_time", 10.0 + run, "ms", 0, std::nullopt},
                      {"BM_A", "real_time", 12.0 + run, "ms", 1, std::nullopt}};
    perfgate::HistoryStore store(path, perfgate::HistoryStore::Access::create);
    // Recorded on machines whose clocks disagree: each run's time is earlier than the one before. The order is the
    // order of recording, never of the recorded times.
    EXPECT_EQ(
        store.record({"sha" + std::to_string(run), "main", "2026-11-22T00:00:0" + std::to_string(2 - run) + "Z", "m"},
                     {r}),
        1u);
  }
  const perfgate::HistoryStore store(path, perfgate::HistoryStore::Access::read_only);
  ASSERT_EQ(store.runs().size(), 3u);
  for (int run = 0; run < 3; ++run)
    EXPECT_EQ(store.runs()[static_cast<size_t>(run)].info.commit, "sha" + std::to_string(run));
  const auto series = store.series("main", "BM_A", "real_time", 2);
  ASSERT_EQ(series.size(), 2u);  // the last two, oldest first
  EXPECT_EQ(series[0].commit, "sha1");
  EXPECT_DOUBLE_EQ(series[1].value, 13.0);  // median of 12 and 14
  EXPECT_EQ(series[1].unit, "ms");
  EXPECT_TRUE(store.series("other-branch", "BM_A", "real_time", 10).empty());
  std::filesystem::remove(path);
}

// A suite that changes a benchmark's time unit between runs: the series is in one unit (the newest run's), so the
// same 10 ms recorded as 10000 us is no change point.
TEST(history_store, a_series_is_in_one_unit_when_runs_recorded_different_ones) {
  const auto path =
      (std::filesystem::temp_directory_path() / ("perfgate_history_units_test-" + std::to_string(::getpid()) + ".db"))
          .string();
  std::filesystem::remove(path);
  perfgate::Results r;
  r.source = "test";
  for (const auto& [value, unit] : std::vector<std::pair<double, std::string>>{{10.0, "ms"}, {10000.0, "us"}}) {
    r.measurements = {{"BM_A", "real_time", value, unit, 0, std::nullopt}};
    perfgate::HistoryStore store(path, perfgate::HistoryStore::Access::create);
    store.record({"sha-" + unit, "main", "2026-11-22T00:00:00Z", "m"}, {r});
  }
  const perfgate::HistoryStore store(path, perfgate::HistoryStore::Access::read_only);
  const auto series = store.series("main", "BM_A", "real_time", 10);
  ASSERT_EQ(series.size(), 2u);
  for (const auto& p : series) {
    EXPECT_EQ(p.unit, "us") << p.commit;
    EXPECT_DOUBLE_EQ(p.value, 10000.0) << p.commit;
  }
  std::filesystem::remove(path);
}

// A store written by the previous version (no suite column) is read as it is, and gains the column when it is next
// written to; its runs keep their order and values.
TEST(history_store, reads_and_upgrades_a_version_one_store) {
  const auto path =
      (std::filesystem::temp_directory_path() / ("perfgate_history_v1_test-" + std::to_string(::getpid()) + ".db"))
          .string();
  std::filesystem::remove(path);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(
          db,
          "CREATE TABLE runs(id INTEGER PRIMARY KEY, commit_sha TEXT NOT NULL, branch TEXT NOT NULL, recorded_at TEXT "
          "NOT NULL,"
          " machine TEXT NOT NULL);"
          "CREATE TABLE measurements(run_id INTEGER NOT NULL REFERENCES runs(id), benchmark TEXT NOT NULL, field TEXT "
          "NOT NULL,"
          " unit TEXT NOT NULL, value REAL NOT NULL, samples INTEGER NOT NULL, PRIMARY KEY(run_id, benchmark, field));"
          "INSERT INTO runs VALUES(1, 'old1', 'main', '2026-11-01T00:00:00Z', 'm');"
          "INSERT INTO measurements VALUES(1, 'BM_A', 'real_time', 'ms', 10.0, 3);"
          "PRAGMA user_version = 1;",
          nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(db);
  {
    const perfgate::HistoryStore store(path, perfgate::HistoryStore::Access::read_only);
    ASSERT_EQ(store.runs().size(), 1u);
    EXPECT_EQ(store.runs()[0].metrics[0].suite, "");
  }
  perfgate::Results r;
  r.source = "dir/sorting.json";
  r.measurements = {{"BM_A", "real_time", 11.0, "ms", 0, std::nullopt}};
  {
    perfgate::HistoryStore store(path, perfgate::HistoryStore::Access::create);
    store.record({"new1", "main", "2026-11-02T00:00:00Z", "m"}, {r});
  }
  const perfgate::HistoryStore store(path, perfgate::HistoryStore::Access::read_only);
  const auto series = store.series("main", "BM_A", "real_time", 10);
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].commit, "old1");
  EXPECT_DOUBLE_EQ(series[1].value, 11.0);
  EXPECT_EQ(store.runs()[1].metrics[0].suite, "sorting");
  std::filesystem::remove(path);
}

// A store read, then appended to, answers with the new run: what it read before is not kept.
TEST(history_store, answers_with_a_run_appended_after_reading) {
  const auto path = (std::filesystem::temp_directory_path() /
                     ("perfgate_history_append_read_test-" + std::to_string(::getpid()) + ".db"))
                        .string();
  std::filesystem::remove(path);
  perfgate::Results r;
  r.source = "test";
  r.measurements = {{"BM_A", "real_time", 10.0, "ms", 0, std::nullopt}};
  perfgate::HistoryStore store(path, perfgate::HistoryStore::Access::create);
  store.record({"sha1", "main", "2026-11-22T00:00:01Z", "m"}, {r});
  EXPECT_EQ(store.series("main", "BM_A", "real_time", 10).size(), 1u);
  store.record({"sha2", "main", "2026-11-22T00:00:02Z", "m"}, {r});
  EXPECT_EQ(store.series("main", "BM_A", "real_time", 10).size(), 2u);
  std::filesystem::remove(path);
}

}  // namespace
