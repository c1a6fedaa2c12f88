#pragma once
// The history of gate runs in one SQLite file: each run's commit, branch and time, and the median of every
// measurement it produced. Appending is one transaction: a failed record leaves the file as it was.
#include "results.h"

#include <string>
#include <utility>
#include <vector>

struct sqlite3;

namespace perfgate {

struct RunInfo {
  std::string commit, branch, recorded_at, machine;
};

struct HistoryPoint {
  std::string commit, recorded_at;
  double value = 0.0;
  std::string unit;
};

class HistoryStore {
 public:
  /// read_only: the file must exist and is never written. create: a missing or empty file becomes a store.
  enum class Access { read_only, create };

  /// Opens the store. Throws InputError when the file is not a SQLite database, is a database of something
  /// else (tables but no perfgate store version: it is left exactly as it was), was written by an incompatible
  /// version of perfgate, or (read_only) does not exist.
  HistoryStore(const std::string& path, Access access);
  ~HistoryStore();
  HistoryStore(const HistoryStore&) = delete;
  HistoryStore& operator=(const HistoryStore&) = delete;

  /// Throws InputError when `results` hold a value the store cannot keep exactly (a count beyond 2^53): callers check
  /// before they open (and so create) a store.
  static void check_recordable(const std::vector<Results>& results);

  /// Appends one run with every (benchmark, field) median of `results`; returns the number of metrics stored.
  size_t record(const RunInfo& run, const std::vector<Results>& results);

  /// The metrics recorded on `branch`, as (benchmark, field) pairs, sorted.
  std::vector<std::pair<std::string, std::string>> metrics(const std::string& branch) const;

  /// The last `last` runs of one metric on `branch`, oldest first, times in the newest run's unit (InputError when
  /// the metric was recorded both as a time and as a non-time).
  std::vector<HistoryPoint> series(const std::string& branch, const std::string& benchmark, const std::string& field, int last) const;

 private:
  void execute(const std::string& sql) const;
  sqlite3* db_ = nullptr;
  std::string path_;
};

}  // namespace perfgate
