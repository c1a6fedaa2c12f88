#include "history_store.h"

#include "compare.h"
#include "error.h"
#include "time_units.h"

#include <sqlite3.h>

#include <map>

namespace perfgate {
namespace {

constexpr int kStoreVersion = 1;

// A prepared statement that finalizes itself; errors name the store's file.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql, const std::string& path) : path_(path) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement_, nullptr) != SQLITE_OK) {
      throw InputError("history '" + path + "': " + sqlite3_errmsg(db));
    }
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
    throw InputError("history '" + path_ + "': " + sqlite3_errmsg(sqlite3_db_handle(statement_)));
  }
  std::string text(int column) const {  // every byte, a NUL inside a name included (names are bound with their length)
    const auto* t = sqlite3_column_text(statement_, column);
    return t != nullptr ? std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(statement_, column)))
                        : std::string();
  }
  double real(int column) const { return sqlite3_column_double(statement_, column); }
  int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }

 private:
  sqlite3_stmt* statement_ = nullptr;
  std::string path_;
};

}  // namespace

HistoryStore::HistoryStore(const std::string& path, Access access) : path_(path) {
  // SQLite gives some names a meaning of their own: "" and ":memory:" are private databases that vanish on close, and a
  // "file:" name is a URI whose parameters choose the mode. A history is a file, so such names are refused.
  if (path.empty() || path == ":memory:" || path.rfind("file:", 0) == 0) {
    throw InputError("history '" + path + "': not a file name (an empty name, ':memory:' and 'file:' URIs are SQLite's special "
                     "names that keep nothing; give a path such as ./" + (path.empty() ? std::string("history.db") : path) + ")");
  }
  const int flags = (access == Access::read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string why = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError("history '" + path + "': cannot open (" + why + ")");
  }
  sqlite3_busy_timeout(db_, 5000);
  try {
    Statement version(db_, "PRAGMA user_version", path_);  // fails here when the file is not a database
    version.step();
    const auto found = version.integer(0);
    Statement objects(db_, "SELECT count(*) FROM sqlite_master", path_);
    objects.step();
    if (found == 0 && objects.integer(0) != 0) {
      throw InputError("history '" + path + "': a SQLite database of something else (it has tables but no perfgate store version); left as it was");
    }
    if (found == 0 && access == Access::read_only) throw InputError("history '" + path + "': an empty database, no runs recorded");
    if (found == 0) {
      execute(
          "BEGIN;"
          "CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY, commit_sha TEXT NOT NULL, branch TEXT NOT NULL,"
          " recorded_at TEXT NOT NULL, machine TEXT NOT NULL);"
          "CREATE TABLE IF NOT EXISTS measurements(run_id INTEGER NOT NULL REFERENCES runs(id), benchmark TEXT NOT NULL,"
          " field TEXT NOT NULL, unit TEXT NOT NULL, value REAL NOT NULL, samples INTEGER NOT NULL,"
          " PRIMARY KEY(run_id, benchmark, field));"
          "CREATE INDEX IF NOT EXISTS measurements_by_metric ON measurements(benchmark, field);"
          "PRAGMA user_version = " + std::to_string(kStoreVersion) + ";"
          "COMMIT;");
    } else if (found != kStoreVersion) {
      throw InputError("history '" + path + "': store version " + std::to_string(found) + ", this perfgate reads version " +
                       std::to_string(kStoreVersion));
    }
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

HistoryStore::~HistoryStore() { sqlite3_close(db_); }

void HistoryStore::execute(const std::string& sql) const {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string why = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw InputError("history '" + path_ + "': " + why);
  }
}

void HistoryStore::check_recordable(const std::vector<Results>& results) {
  // The history keeps values as SQLite REAL (doubles): a count beyond 2^53 would be stored rounded, so it is refused
  // rather than kept as another number.
  constexpr int64_t kExactInDouble = int64_t{1} << 53;
  for (const auto& r : results) {
    for (const auto& m : r.measurements) {
      if (m.integer && (*m.integer > kExactInDouble || *m.integer < -kExactInDouble)) {
        throw InputError("history: " + m.benchmark + " / " + m.field + " = " + std::to_string(*m.integer) +
                         " is beyond 2^53, which the history cannot keep exactly");
      }
    }
  }
}

size_t HistoryStore::record(const RunInfo& run, const std::vector<Results>& results) {
  check_recordable(results);
  // Medians per (benchmark, field) over all given files, with the unit of the first occurrence.
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<double>, std::string>> medians;
  for (const auto& r : results) {
    for (const auto& m : r.measurements) {
      auto& slot = medians[{m.benchmark, m.field}];
      if (slot.first.empty()) slot.second = m.unit;
      // Times in the unit of the first occurrence, whatever each file wrote (a time and a non-time refused).
      if (is_time_unit(m.unit) != is_time_unit(slot.second)) {
        throw InputError("history: " + m.benchmark + " / " + m.field + " is measured in '" + m.unit + "' and in '" + slot.second + "'");
      }
      slot.first.push_back(is_time_unit(m.unit) ? convert_time(m.value, m.unit, slot.second) : m.value);
    }
  }
  execute("BEGIN IMMEDIATE");
  try {
    Statement insert_run(db_, "INSERT INTO runs(commit_sha, branch, recorded_at, machine) VALUES(?, ?, ?, ?)", path_);
    insert_run.bind(1, run.commit).bind(2, run.branch).bind(3, run.recorded_at).bind(4, run.machine).step();
    const auto run_id = sqlite3_last_insert_rowid(db_);
    for (const auto& [key, data] : medians) {
      Statement row(db_, "INSERT INTO measurements(run_id, benchmark, field, unit, value, samples) VALUES(?, ?, ?, ?, ?, ?)", path_);
      row.bind_int(1, run_id).bind(2, key.first).bind(3, key.second).bind(4, data.second).bind(5, median(data.first));
      row.bind_int(6, static_cast<int64_t>(data.first.size())).step();
    }
    execute("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return medians.size();
}

std::vector<std::pair<std::string, std::string>> HistoryStore::metrics(const std::string& branch) const {
  Statement q(db_,
              "SELECT DISTINCT m.benchmark, m.field FROM measurements m JOIN runs r ON r.id = m.run_id WHERE r.branch = ?"
              " ORDER BY m.benchmark, m.field",
              path_);
  q.bind(1, branch);
  std::vector<std::pair<std::string, std::string>> out;
  while (q.step()) out.emplace_back(q.text(0), q.text(1));
  return out;
}

std::vector<HistoryPoint> HistoryStore::series(const std::string& branch, const std::string& benchmark, const std::string& field,
                                               int last) const {
  Statement q(db_,
              "SELECT commit_sha, recorded_at, value, unit FROM (SELECT r.id, r.commit_sha, r.recorded_at, m.value, m.unit"
              " FROM measurements m JOIN runs r ON r.id = m.run_id WHERE r.branch = ? AND m.benchmark = ? AND m.field = ?"
              " ORDER BY r.id DESC LIMIT ?) ORDER BY id ASC",
              path_);
  q.bind(1, branch).bind(2, benchmark).bind(3, field).bind_int(4, last);
  std::vector<HistoryPoint> out;
  while (q.step()) out.push_back({q.text(0), q.text(1), q.real(2), q.text(3)});
  // One unit for the whole series, the newest run's: suites may change a benchmark's time unit between runs, and a
  // series mixing 10 ms with 10000 us would show a thousandfold change point that is not there.
  const std::string unit = out.empty() ? std::string() : out.back().unit;
  for (auto& p : out) {
    if (is_time_unit(p.unit) != is_time_unit(unit)) {
      throw InputError("history: " + benchmark + " / " + field + " is recorded in '" + p.unit + "' and in '" + unit + "'");
    }
    if (is_time_unit(unit)) {
      p.value = convert_time(p.value, p.unit, unit);
      p.unit = unit;
    }
  }
  return out;
}

}  // namespace perfgate
