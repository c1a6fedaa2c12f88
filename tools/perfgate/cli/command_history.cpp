// perfgate history record | show | export | import: appends runs to a history store (a SQLite file, a git data branch,
// PostgreSQL); shows trends and change points per metric; moves a history between stores.
#include "base/error.h"
#include "base/json_input.h"
#include "base/one_line.h"
#include "base/output_files.h"
#include "base/read_file.h"
#include "base/utc_time.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "formats/results_input.h"
#include "history/history_store.h"
#include "model/change_points.h"
#include "model/commit_mark.h"
#include "model/results.h"
#include "run/git.h"

#include <iomanip>
#include <iostream>
#include <regex>
#include <set>
#include <tuple>

namespace perfgate {

namespace {

// --commit as a commit id: a revision (HEAD, a branch, a tag) is resolved in the repository around the working folder;
// a commit id from elsewhere (a CI artifact's) is kept as written. A name that is neither is refused.
std::string commit_of(const std::string& revision) {
  try {
    return resolve_commit(".", revision);
  } catch (const InputError&) {
    const bool hex = revision.size() >= 7 && revision.size() <= 64 &&
                     revision.find_first_not_of("0123456789abcdef") == std::string::npos;
    if (hex) return revision;
    throw InputError("history record: --commit '" + revision + "' names no commit here and is not a commit id");
  }
}

}  // namespace

Command add_history_command(CLI::App& app, HistoryArgs& a) {
  Command cmd(app, "history",
              "record runs in a history (SQLite, a git data branch, PostgreSQL); trends and change points");
  cmd.footer(command_footer(
      "perfgate history record --store history.db --results build/results/sorting.json --commit HEAD\n"
      "  perfgate history record --store git:origin#perfgate-history --results build/results/sorting.json --commit "
      "HEAD\n"
      "  perfgate history show --store postgresql://ci@db.example/perf --field real_time\n"
      "  perfgate history export --store history.db --out history.json; perfgate history import --store "
      "git:origin#perfgate-history --in history.json",
      {Exit::pass, Exit::store_unavailable}, "5 also when the store stayed locked; nothing was recorded"));
  cmd.option("action", a.action, "record, show, export or import")
      .required()
      .one_of({"record", "show", "export", "import"});
  cmd.option("--store,--db", a.db,
             "the history: a SQLite file (created when absent), git:REMOTE#BRANCH (a data branch), or "
             "postgresql://... (libpq)")
      .required();
  cmd.option("--out", a.out, "export: the JSON file to write");
  cmd.option("--in", a.in, "import: a JSON file that history export wrote");
  cmd.option("--results", a.results, "record: results files of one run (any format perfgate reads)");
  cmd.option("--commit", a.commit,
             "record: the run's commit (default: the results' git_sha context, refused when it ends -dirty)");
  cmd.option("--branch", a.branch, "the line of history").show_default();
  cmd.option("--date", a.date, "record: when (default: now, UTC)");
  cmd.option("--benchmark", a.benchmark, "show: only this benchmark");
  cmd.option("--field", a.field, "show: the field whose trend is shown").show_default();
  cmd.option("--min-shift", a.min_shift, "show: smallest relative shift reported as a change point")
      .show_default()
      .in_range(0.0, 100.0);
  cmd.flag("--runs", a.runs, "show: list the runs (date, commit, machine, metrics), newest last, instead of trends");
  cmd.option("--last", a.last, "show: how many runs back").show_default().in_range(2, 100000);
  return cmd;
}

namespace {
// 2026-11-23, 2026-11-23T04:00 or 2026-11-23T04:00:00Z, naming a day of the Gregorian calendar and a time of day
// (a leap second allowed).
bool is_calendar_date(const std::string& text) {
  std::smatch m;
  if (!std::regex_match(text, m, std::regex(R"((\d{4})-(\d{2})-(\d{2})(T(\d{2}):(\d{2})(:(\d{2}))?Z?)?)")))
    return false;
  const auto field = [&m](size_t i) { return m[i].matched ? std::stoi(m[i].str()) : 0; };
  const int year = field(1), month = field(2), day = field(3);
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int days[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month >= 1 && month <= 12 && day >= 1 && day <= days[month - 1] && field(5) <= 23 && field(6) <= 59 &&
         field(8) <= 60;
}
}  // namespace

int run_history(const HistoryArgs& a) {
  if (a.action == "record") {
    if (a.results.empty()) throw InputError("history record: give --results");
    std::vector<Results> results;
    for (const auto& path : a.results) results.push_back(read_results(path));
    const auto& ctx = results.front().context;
    RunInfo run;
    run.commit = !a.commit.empty() ? commit_of(a.commit) : ctx.count("git_sha") != 0 ? ctx.at("git_sha") : "";
    if (run.commit.empty()) throw InputError("history record: no --commit and no git_sha in " + results.front().source);
    // A history is a line of commits: results measured with uncommitted changes (git_sha ending -dirty) are of no
    // commit, and are recorded only when the caller names the commit they stand for.
    if (a.commit.empty() && marks_uncommitted_changes(run.commit)) {
      throw InputError("history record: " + results.front().source +
                       " was measured with uncommitted changes (git_sha " + run.commit.substr(0, 80) +
                       (run.commit.size() > 80 ? "..." : "") +
                       "); commit them and measure again, or give --commit to record it as a commit");
    }
    run.branch = a.branch;
    if (!a.date.empty() && !is_calendar_date(a.date)) {
      throw InputError("history record: --date '" + a.date + "' is not a date like 2026-11-23 or 2026-11-23T04:00:00Z");
    }
    run.recorded_at = a.date.empty() ? utc_now() : a.date;
    run.machine = recorded_machine(ctx);
    const auto recorded = history_run_of(run, results);  // before the store is opened: a refused record creates nothing
    HistoryStore store(a.db, HistoryStore::Access::create);
    if (!store.append(recorded)) {  // a run is its content: the same run recorded again is there once
      std::cout << "already recorded: this run of commit " << one_line(run.commit) << " on " << one_line(run.branch)
                << " (the same time, machine and values) is in " << one_line(store.name()) << '\n';
      return code_of(Exit::pass);
    }
    std::cout << "recorded " << recorded.metrics.size() << " metrics of commit " << one_line(run.commit) << " on "
              << one_line(run.branch) << " in " << one_line(store.name()) << '\n';
    return code_of(Exit::pass);
  }
  if (a.action == "export") {
    if (a.out.empty()) throw InputError("history export: give --out FILE");
    Outputs outputs("history export");
    outputs.read(history_store_files(a.db));
    outputs.file(a.out, "--out");
    const HistoryStore store(a.db, HistoryStore::Access::read_only);
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& run : store.runs()) runs.push_back(history_run_json(run));
    outputs.write(a.out, json_output_text({{"format", "perfgate-history"}, {"version", 1}, {"runs", runs}}));
    std::cout << "exported " << runs.size() << " runs of " << one_line(store.name()) << " to " << one_line(a.out)
              << '\n';
    return code_of(Exit::pass);
  }
  if (a.action == "import") {
    if (a.in.empty()) throw InputError("history import: give --in FILE");
    const auto doc = parse_json_input(read_whole_file(a.in, "history export"), a.in);
    if (!doc.is_object() || doc.value("format", std::string()) != "perfgate-history" || !doc.contains("runs") ||
        !doc.at("runs").is_array()) {
      throw InputError("history import: " + a.in + " is not what history export writes (format perfgate-history)");
    }
    const auto version = doc.contains("version") ? exact_int64(doc.at("version")) : std::nullopt;
    if (version != 1) throw InputError("history import: " + a.in + " is a perfgate-history of another version than 1");
    std::vector<HistoryRun>
        incoming;  // every run read before the store is touched, and added in one step: a bad file imports nothing
    for (size_t i = 0; i < doc.at("runs").size(); ++i)
      incoming.push_back(parse_history_run(doc.at("runs")[i], a.in + " run " + std::to_string(i)));
    HistoryStore store(a.db, HistoryStore::Access::create);
    // A run is its content (run_identity): one the store holds already is not added twice, checked inside the store's
    // transaction, so importing is repeatable and concurrent imports add each run once; two runs of one commit
    // recorded in the same second (suites recorded separately) are two runs.
    const size_t added = store.import(incoming);
    std::cout << "imported " << added << " runs into " << one_line(store.name()) << " (" << incoming.size() - added
              << " already there)\n";
    return code_of(Exit::pass);
  }
  const HistoryStore store(a.db, HistoryStore::Access::read_only);
  if (a.runs) {  // the runs of the branch, the last --last of them, oldest first
    std::vector<const HistoryRun*> on_branch;
    for (const auto& run : store.runs()) {
      if (run.info.branch == a.branch) on_branch.push_back(&run);
    }
    if (on_branch.empty()) throw InputError("history show: no runs on branch '" + a.branch + "' in " + store.name());
    const size_t first = on_branch.size() > static_cast<size_t>(a.last) ? on_branch.size() - a.last : 0;
    std::cout << on_branch.size() << (on_branch.size() == 1 ? " run on " : " runs on ") << one_line(a.branch)
              << (first > 0 ? ", the last " + std::to_string(on_branch.size() - first) : std::string()) << ":\n";
    for (size_t i = first; i < on_branch.size(); ++i) {
      const auto& info = on_branch[i]->info;
      std::cout << "  " << one_line(info.recorded_at) << "  " << one_line(info.commit.substr(0, 12)) << "  "
                << one_line(info.machine.empty() ? std::string("(machine not recorded)") : info.machine) << "  "
                << on_branch[i]->metrics.size() << " metrics\n";
    }
    return code_of(Exit::pass);
  }
  size_t shown = 0;
  for (const auto& [benchmark, field] : store.metrics(a.branch)) {
    if (field != a.field || (!a.benchmark.empty() && benchmark != a.benchmark)) continue;
    const auto points = store.series(a.branch, benchmark, field, a.last);
    if (points.empty()) continue;  // listed but without runs on this branch: nothing to show, never a read past the end
    std::vector<double> values;
    for (const auto& p : points) values.push_back(p.value);
    ++shown;
    std::cout << one_line(benchmark) << " " << one_line(field) << ": " << points.size() << " runs, latest "
              << std::setprecision(6) << values.back() << ' ' << points.back().unit << '\n';
    for (const auto& c : detect_change_points(values, a.min_shift)) {
      const auto [last_old, first_new] = runs_around(c);
      std::cout << "  change point between " << one_line(points[last_old].commit) << " and "
                << one_line(points[first_new].commit) << ": median " << c.before << " -> " << c.after << " ("
                << std::showpos << std::setprecision(3) << 100.0 * (c.after / c.before - 1.0) << std::noshowpos
                << std::setprecision(6) << " %, adjusted p " << c.p_value << ")\n";
    }
  }
  if (shown == 0)
    throw InputError("history show: no runs of field '" + a.field + "'" +
                     (a.benchmark.empty() ? "" : " of " + a.benchmark) + " on branch '" + a.branch + "' in " +
                     store.name());
  return code_of(Exit::pass);
}

}  // namespace perfgate
