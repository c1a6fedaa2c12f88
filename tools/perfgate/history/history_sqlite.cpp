#include "history/history_sqlite.h"

#include "base/error.h"

#include <sqlite3.h>

#include <map>
#include <set>

namespace perfgate {
namespace {

constexpr int kStoreVersion = 2;  // 2: measurements.suite

// An error of SQLite as perfgate reports it: a lock still held after the wait is the store being unavailable, not
// the input being wrong.
[[noreturn]] void fail(sqlite3* db, int rc, const std::string& path) {
  const std::string why = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED || (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) {
    throw StoreUnavailable("history '" + path + "': still locked by another process after " +
                           std::to_string(kSqliteBusySeconds) + " s (" + why + "); nothing was recorded, run it again");
  }
  throw InputError("history '" + path + "': " + why);
}

// A prepared statement that finalizes itself; errors name the store's file.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, const std::string& path) : path_(path) {
    const int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &statement_, nullptr);
    if (rc != SQLITE_OK) fail(db, rc, path);
  }
  ~Statement() { sqlite3_finalize(statement_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& bind(int index, const std::string& text) {
    sqlite3_bind_text(statement_, index, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    return *this;
  }
  Statement& bind(int index, double value) {
    sqlite3_bind_double(statement_, index, value);
    return *this;
  }
  Statement& bind_int(int index, int64_t value) {
    sqlite3_bind_int64(statement_, index, value);
    return *this;
  }
  bool step() {
    const int rc = sqlite3_step(statement_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(sqlite3_db_handle(statement_), rc, path_);
  }
  std::string text(int column) const {  // every byte, a NUL inside a name included (names are bound with their length)
    const auto* t = sqlite3_column_text(statement_, column);
    return t != nullptr ? std::string(reinterpret_cast<const char*>(t),
                                      static_cast<size_t>(sqlite3_column_bytes(statement_, column)))
                        : std::string();
  }
  double real(int column) const { return sqlite3_column_double(statement_, column); }
  int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }

 private:
  sqlite3_stmt* statement_ = nullptr;
  std::string path_;
};

// The store version a file records and how many schema objects it holds, read by one statement, so from one
// snapshot: read by two, another process's creation of the store could commit between them, and a store being created
// would look like a foreign database (version 0 with tables).
struct StoreState {
  int64_t version = 0;
  int64_t schema_objects = 0;
  bool foreign() const { return version == 0 && schema_objects != 0; }
};
StoreState store_state(sqlite3* db, const std::string& path) {
  Statement q(db, "SELECT (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master)", path);
  q.step();
  return {q.integer(0), q.integer(1)};
}

}  // namespace

SqliteHistory::SqliteHistory(const std::string& path, StoreAccess access) : path_(path) {
  // SQLite gives some names a meaning of their own: "" and ":memory:" are private databases that vanish on close, and a
  // "file:" name is a URI whose parameters choose the mode. A history is a file, so such names are refused.
  if (path.empty() || path == ":memory:" || path.rfind("file:", 0) == 0) {
    throw InputError("history '" + path +
                     "': not a file name (an empty name, ':memory:' and 'file:' URIs are SQLite's special "
                     "names that keep nothing; give a path such as ./" +
                     (path.empty() ? std::string("history.db") : path) + ")");
  }
  const int flags =
      (access == StoreAccess::read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    const std::string why = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError("history '" + path + "': cannot open (" + why + ")");
  }
  sqlite3_busy_timeout(db_, kSqliteBusySeconds * 1000);
  try {
    const auto state = store_state(db_, path_);  // fails here when the file is not a database
    auto found = state.version;
    if (state.foreign()) {
      throw InputError(
          "history '" + path +
          "': a SQLite database of something else (it has tables but no perfgate store version); left as it was");
    }
    if (found == 0 && access == StoreAccess::read_only)
      throw InputError("history '" + path + "': an empty database, no runs recorded");
    if (found > kStoreVersion) {
      throw InputError("history '" + path + "': store version " + std::to_string(found) +
                       " was written by a newer perfgate; this one reads versions 1 to " +
                       std::to_string(kStoreVersion));
    }
    if (found < kStoreVersion && access == StoreAccess::create) {
      // IMMEDIATE: the write lock is taken (waiting for it) before the version is read again, so that two processes
      // creating or upgrading one file at once do it once, and neither meets a lock it cannot wait for.
      execute("BEGIN IMMEDIATE");
      const auto locked = store_state(db_, path_);
      found = locked.version;
      if (locked.foreign()) {
        execute("ROLLBACK");
        throw InputError("history '" + path + "': a SQLite database of something else; left as it was");
      }
      if (found == 0) {
        execute(
            "CREATE TABLE runs(id INTEGER PRIMARY KEY, commit_sha TEXT NOT NULL, branch TEXT NOT NULL,"
            " recorded_at TEXT NOT NULL, machine TEXT NOT NULL);"
            "CREATE TABLE measurements(run_id INTEGER NOT NULL REFERENCES runs(id), benchmark TEXT NOT NULL,"
            " field TEXT NOT NULL, unit TEXT NOT NULL, value REAL NOT NULL, samples INTEGER NOT NULL, suite TEXT NOT "
            "NULL DEFAULT '',"
            " PRIMARY KEY(run_id, benchmark, field));"
            "CREATE INDEX measurements_by_metric ON measurements(benchmark, field);");
      } else if (found == 1) {
        execute("ALTER TABLE measurements ADD COLUMN suite TEXT NOT NULL DEFAULT ''");
      }
      execute("PRAGMA user_version = " + std::to_string(kStoreVersion) + "; COMMIT");
      found = kStoreVersion;
    }
    has_suite_ = found >= 2;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

SqliteHistory::~SqliteHistory() { sqlite3_close(db_); }

void SqliteHistory::execute(const std::string& sql) const {
  char* message = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    sqlite3_free(message);
    try {
      fail(db_, rc, path_);
    } catch (...) {
      sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }
}

size_t SqliteHistory::append(const std::vector<HistoryRun>& runs) {
  execute("BEGIN IMMEDIATE");  // the write lock, held from before the duplicate check to the commit
  try {
    std::set<std::string> present;  // the identities seen: stored runs like the incoming ones, and the incoming ones
    size_t added = 0;
    for (const auto& run : runs) {
      for (auto& identity : identities_like(run.info)) present.insert(std::move(identity));
      if (!present.insert(run_identity(run)).second) continue;
      ++added;
      Statement insert_run(db_, "INSERT INTO runs(commit_sha, branch, recorded_at, machine) VALUES(?, ?, ?, ?)", path_);
      insert_run.bind(1, run.info.commit)
          .bind(2, run.info.branch)
          .bind(3, run.info.recorded_at)
          .bind(4, run.info.machine)
          .step();
      const auto run_id = sqlite3_last_insert_rowid(db_);
      for (const auto& m : run.metrics) {
        Statement one(db_,
                      "INSERT INTO measurements(run_id, benchmark, field, unit, value, samples, suite) VALUES(?, ?, ?, "
                      "?, ?, ?, ?)",
                      path_);
        one.bind_int(1, run_id)
            .bind(2, m.benchmark)
            .bind(3, m.field)
            .bind(4, m.unit)
            .bind(5, m.value)
            .bind_int(6, m.samples)
            .bind(7, m.suite)
            .step();
      }
    }
    execute("COMMIT");
    return added;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::set<std::string> SqliteHistory::identities_like(const RunInfo& info) const {
  std::set<std::string> out;
  Statement like(db_, "SELECT id FROM runs WHERE commit_sha = ? AND branch = ? AND recorded_at = ? AND machine = ?",
                 path_);
  like.bind(1, info.commit).bind(2, info.branch).bind(3, info.recorded_at).bind(4, info.machine);
  while (like.step()) {
    HistoryRun run{info, {}};
    Statement m(db_,
                std::string("SELECT benchmark, field, unit, value, samples, ") + (has_suite_ ? "suite" : "''") +
                    " FROM measurements WHERE run_id = ?",
                path_);
    m.bind_int(1, like.integer(0));
    while (m.step()) run.metrics.push_back({m.text(5), m.text(0), m.text(1), m.text(2), m.real(3), m.integer(4)});
    out.insert(run_identity(run));
  }
  return out;
}

std::vector<HistoryRun> SqliteHistory::runs() const {
  std::vector<HistoryRun> out;
  std::map<int64_t, size_t> index;
  Statement runs(db_, "SELECT id, commit_sha, branch, recorded_at, machine FROM runs ORDER BY id", path_);
  while (runs.step()) {
    index[runs.integer(0)] = out.size();
    out.push_back({{runs.text(1), runs.text(2), runs.text(3), runs.text(4)}, {}});
  }
  Statement m(db_,
              std::string("SELECT run_id, benchmark, field, unit, value, samples, ") + (has_suite_ ? "suite" : "''") +
                  " FROM measurements ORDER BY run_id, benchmark, field",
              path_);
  while (m.step()) {
    const auto found = index.find(m.integer(0));
    if (found == index.end()) continue;
    out[found->second].metrics.push_back({m.text(6), m.text(1), m.text(2), m.text(3), m.real(4), m.integer(5)});
  }
  return out;
}

}  // namespace perfgate
