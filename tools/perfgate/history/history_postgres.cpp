#include "history/history_postgres.h"

#include "base/error.h"
#include "base/one_line.h"
#include "run/process.h"

#ifdef PERFGATE_WITH_POSTGRESQL
#include <libpq-fe.h>

#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>
#endif

namespace perfgate {

#ifndef PERFGATE_WITH_POSTGRESQL

bool postgresql_available() { return false; }

std::unique_ptr<HistoryBackend> open_postgres_history(const std::string&, StoreAccess) {
  throw InputError(
      "history: this perfgate was built without PostgreSQL (libpq was not found when it was configured); use a SQLite "
      "file or git:REMOTE#BRANCH");
}

#else

namespace {

constexpr int kStoreVersion = 1;
constexpr const char* kSchemaLock = "7703011";  // pg_advisory_xact_lock key: one schema creation at a time

// A PGresult that clears itself.
struct Result {
  PGresult* r = nullptr;
  explicit Result(PGresult* result) : r(result) {}
  ~Result() { PQclear(r); }
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
};

class PostgresHistory : public HistoryBackend {
 public:
  PostgresHistory(const std::string& conninfo, StoreAccess access) : shown_(shown_name(conninfo)) {
    char* error = nullptr;
    PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
    if (options == nullptr) {
      PQfreemem(error);  // libpq's message repeats the string's tokens, a password among them: not shown
      throw InputError(
          "history postgresql: not a connection string libpq reads (a URI postgresql://user@host:port/db or key=value "
          "pairs)");
    }
    PQconninfoFree(options);
    connection_ = PQconnectdb(conninfo.c_str());
    if (PQstatus(connection_) != CONNECTION_OK) {
      const std::string why = output_tail(PQerrorMessage(connection_), 300);
      PQfinish(connection_);
      connection_ = nullptr;
      throw StoreUnavailable("history " + shown_ + ": cannot connect: " + why);
    }
    Result quiet(PQexec(connection_, "SET client_min_messages = warning"));
    if (access == StoreAccess::create) {
      exec("BEGIN");
      exec(std::string("SELECT pg_advisory_xact_lock(") + kSchemaLock + ")");
      exec("CREATE TABLE IF NOT EXISTS perfgate_store(version INTEGER NOT NULL)");
      exec(
          "CREATE TABLE IF NOT EXISTS perfgate_runs(id BIGSERIAL PRIMARY KEY, commit_sha TEXT NOT NULL, branch TEXT "
          "NOT NULL,"
          " recorded_at TEXT NOT NULL, machine TEXT NOT NULL)");
      exec(
          "CREATE TABLE IF NOT EXISTS perfgate_measurements(run_id BIGINT NOT NULL REFERENCES perfgate_runs(id), suite "
          "TEXT NOT NULL,"
          " benchmark TEXT NOT NULL, field TEXT NOT NULL, unit TEXT NOT NULL, value DOUBLE PRECISION NOT NULL, samples "
          "BIGINT NOT NULL,"
          " PRIMARY KEY(run_id, benchmark, field))");
      exec("INSERT INTO perfgate_store SELECT " + std::to_string(kStoreVersion) +
           " WHERE NOT EXISTS (SELECT 1 FROM perfgate_store)");
      exec("COMMIT");
    }
    Result exists(PQexec(connection_, "SELECT to_regclass('perfgate_store') IS NOT NULL"));
    check(exists.r, "read the schema");
    if (std::string(PQgetvalue(exists.r, 0, 0)) != "t")
      throw InputError("history " + shown_ + ": no perfgate history in this database, no runs recorded");
    Result version(PQexec(connection_, "SELECT max(version) FROM perfgate_store"));
    check(version.r, "read the store version");
    if (std::atoi(PQgetvalue(version.r, 0, 0)) != kStoreVersion) {
      throw InputError("history " + shown_ + ": store version " + std::string(PQgetvalue(version.r, 0, 0)) +
                       ", this perfgate reads version " + std::to_string(kStoreVersion));
    }
  }
  ~PostgresHistory() override { PQfinish(connection_); }
  PostgresHistory(const PostgresHistory&) = delete;
  PostgresHistory& operator=(const PostgresHistory&) = delete;

  size_t append(const std::vector<HistoryRun>& runs) override {
    exec("BEGIN");
    try {
      // Concurrent appends queue here (the mode conflicts with itself) until this commits: the duplicate check and the
      // insert are one step.
      exec("LOCK TABLE perfgate_runs IN SHARE ROW EXCLUSIVE MODE");
      std::set<std::string> present;  // the identities seen: stored runs like the incoming ones, and the incoming ones
      size_t added = 0;
      for (const auto& run : runs) {
        for (auto& identity : identities_like(run.info)) present.insert(std::move(identity));
        if (!present.insert(run_identity(run)).second) continue;
        ++added;
        const std::vector<std::string> run_values = {run.info.commit, run.info.branch, run.info.recorded_at,
                                                     run.info.machine};
        Result inserted(params(
            "INSERT INTO perfgate_runs(commit_sha, branch, recorded_at, machine) VALUES($1, $2, $3, $4) RETURNING id",
            run_values));
        check(inserted.r, "record the run");
        const std::string id = PQgetvalue(inserted.r, 0, 0);
        for (const auto& m : run.metrics) {
          char value[64];
          std::snprintf(value, sizeof value, "%.17g", m.value);
          Result row(
              params("INSERT INTO perfgate_measurements(run_id, suite, benchmark, field, unit, value, samples) "
                     "VALUES($1, $2, $3, $4, $5, $6, $7)",
                     {id, m.suite, m.benchmark, m.field, m.unit, value, std::to_string(m.samples)}));
          check(row.r, "record a measurement");
        }
      }
      exec("COMMIT");
      return added;
    } catch (...) {
      Result rollback(PQexec(connection_, "ROLLBACK"));
      throw;
    }
  }

  // The identities of the stored runs with `info`'s commit, branch, time and machine: the only runs it can equal.
  std::set<std::string> identities_like(const RunInfo& info) const {
    std::set<std::string> out;
    Result like(params(
        "SELECT id FROM perfgate_runs WHERE commit_sha = $1 AND branch = $2 AND recorded_at = $3 AND machine = $4",
        {info.commit, info.branch, info.recorded_at, info.machine}));
    check(like.r, "look for the run");
    for (int i = 0; i < PQntuples(like.r); ++i) {
      HistoryRun run{info, {}};
      Result m(
          params("SELECT suite, benchmark, field, unit, value, samples FROM perfgate_measurements WHERE run_id = $1",
                 {PQgetvalue(like.r, i, 0)}));
      check(m.r, "read the run's measurements");
      for (int j = 0; j < PQntuples(m.r); ++j) {
        run.metrics.push_back({PQgetvalue(m.r, j, 0), PQgetvalue(m.r, j, 1), PQgetvalue(m.r, j, 2),
                               PQgetvalue(m.r, j, 3), std::strtod(PQgetvalue(m.r, j, 4), nullptr),
                               std::strtoll(PQgetvalue(m.r, j, 5), nullptr, 10)});
      }
      out.insert(run_identity(run));
    }
    return out;
  }

  std::vector<HistoryRun> runs() const override {
    Result runs(
        PQexec(connection_, "SELECT id, commit_sha, branch, recorded_at, machine FROM perfgate_runs ORDER BY id"));
    check(runs.r, "read the runs");
    std::vector<HistoryRun> out;
    std::map<std::string, size_t> index;
    for (int i = 0; i < PQntuples(runs.r); ++i) {
      index[PQgetvalue(runs.r, i, 0)] = out.size();
      out.push_back(
          {{PQgetvalue(runs.r, i, 1), PQgetvalue(runs.r, i, 2), PQgetvalue(runs.r, i, 3), PQgetvalue(runs.r, i, 4)},
           {}});
    }
    Result m(PQexec(connection_,
                    "SELECT run_id, suite, benchmark, field, unit, value, samples FROM perfgate_measurements ORDER BY "
                    "run_id, benchmark, field"));
    check(m.r, "read the measurements");
    for (int i = 0; i < PQntuples(m.r); ++i) {
      const auto found = index.find(PQgetvalue(m.r, i, 0));
      if (found == index.end()) continue;
      out[found->second].metrics.push_back({PQgetvalue(m.r, i, 1), PQgetvalue(m.r, i, 2), PQgetvalue(m.r, i, 3),
                                            PQgetvalue(m.r, i, 4), std::strtod(PQgetvalue(m.r, i, 5), nullptr),
                                            std::strtoll(PQgetvalue(m.r, i, 6), nullptr, 10)});
    }
    return out;
  }

  std::string name() const override { return shown_; }

 private:
  // The connection as shown in messages: who, where and which database, from libpq's own reading of the string, so
  // that no spelling of a password (or of anything else) is ever printed.
  static std::string shown_name(const std::string& conninfo) {
    PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), nullptr);
    if (options == nullptr) return "postgresql:(a connection string libpq cannot read)";
    std::string user, host, port, dbname;
    for (auto* o = options; o->keyword != nullptr; ++o) {
      const std::string key = o->keyword;
      const std::string value = o->val != nullptr ? o->val : "";
      if (key == "user")
        user = value;
      else if (key == "host" || (key == "hostaddr" && host.empty()))
        host = value;
      else if (key == "port")
        port = value;
      else if (key == "dbname")
        dbname = value;
    }
    PQconninfoFree(options);
    return one_line("postgresql://" + (user.empty() ? "" : user + "@") + host + (port.empty() ? "" : ":" + port) + "/" +
                    dbname);
  }

  PGresult* params(const std::string& sql, const std::vector<std::string>& values) const {
    std::vector<const char*> raw;
    std::vector<int> lengths, formats;
    for (const auto& v : values)
      raw.push_back(v.c_str()), lengths.push_back(static_cast<int>(v.size())), formats.push_back(0);
    return PQexecParams(connection_, sql.c_str(), static_cast<int>(values.size()), nullptr, raw.data(), lengths.data(),
                        formats.data(), 0);
  }

  void exec(const std::string& sql) const {
    Result r(PQexec(connection_, sql.c_str()));
    check(r.r, "run " + sql.substr(0, sql.find(' ')));
  }

  // A failed statement: the server gone or overloaded is StoreUnavailable; a value it refuses (a NUL byte, invalid
  // UTF-8 in a name) is bad input.
  void check(PGresult* r, const std::string& what) const {
    const auto status = PQresultStatus(r);
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return;
    const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    const std::string sqlstate = state != nullptr ? state : "";
    const std::string why = output_tail(r != nullptr ? PQresultErrorMessage(r) : PQerrorMessage(connection_), 300);
    if (PQstatus(connection_) != CONNECTION_OK || sqlstate.empty() || sqlstate.rfind("08", 0) == 0 ||
        sqlstate.rfind("53", 0) == 0 || sqlstate.rfind("57", 0) == 0 || sqlstate.rfind("40", 0) == 0 ||
        sqlstate == "55P03") {
      throw StoreUnavailable("history " + shown_ + ": cannot " + what + ": " + why);
    }
    throw InputError("history " + shown_ + ": cannot " + what + ": " + why);
  }

  PGconn* connection_ = nullptr;
  std::string shown_;
};

}  // namespace

bool postgresql_available() { return true; }

std::unique_ptr<HistoryBackend> open_postgres_history(const std::string& conninfo, StoreAccess access) {
  return std::make_unique<PostgresHistory>(conninfo, access);
}

#endif

}  // namespace perfgate
