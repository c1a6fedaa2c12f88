#pragma once
// The history in one SQLite file: the embedded store for a laptop or a single runner. Each append (one run, or an
// import's many) is one IMMEDIATE transaction; a writer waits up to kSqliteBusySeconds for another to finish, then
// gives up with StoreUnavailable.
#include "history/history_backend.h"

#include <set>
#include <string>

struct sqlite3;

namespace perfgate {

constexpr int kSqliteBusySeconds = 60;

class SqliteHistory : public HistoryBackend {
 public:
  /// read_only: the file must exist and is never written. create: a missing or empty file becomes a store, and a store
  /// of the previous version gains the newer columns. Throws InputError when the file is not a SQLite database, is a
  /// database of something else (left exactly as it was), or was written by a newer perfgate.
  SqliteHistory(const std::string& path, StoreAccess access);
  ~SqliteHistory() override;
  SqliteHistory(const SqliteHistory&) = delete;
  SqliteHistory& operator=(const SqliteHistory&) = delete;

  size_t append(const std::vector<HistoryRun>& runs) override;
  std::vector<HistoryRun> runs() const override;
  std::string name() const override { return path_; }

 private:
  void execute(const std::string& sql) const;
  /// The identities of the stored runs with `info`'s commit, branch, time and machine: the only runs it can equal.
  std::set<std::string> identities_like(const RunInfo& info) const;
  sqlite3* db_ = nullptr;
  std::string path_;
  bool has_suite_ = true;  ///< false: a version-1 store opened read-only (no suite column)
};

}  // namespace perfgate
