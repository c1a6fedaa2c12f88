// perfgate: judges Google Benchmark results against committed baselines and maintains those baselines.
// Exit codes: 0 pass, 1 regression, 2 bad input or usage, 3 inconclusive.
#include "atomic_write.h"
#include "baseline.h"
#include "compare.h"
#include "error.h"
#include "folder_lock.h"
#include "git.h"
#include "one_line.h"
#include "results.h"
#include "speedup.h"
#include "table.h"
#include "update.h"
#include "utc_time.h"
#include "commands.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

namespace {

using namespace perfgate;

struct CompareArgs {
  std::string results, baseline;
};

struct UpdateArgs {
  std::vector<std::string> results;
  std::string baseline, reason;
  std::vector<std::string> track;
  bool allow_dirty = false, ratchet = false;
};

// The one way an error leaves perfgate: one line on standard error, whatever the message holds, and exit code 2.
int print_error(const std::string& message) {
  std::cerr << "perfgate: error: " << one_line(message) << '\n';
  return 2;
}

std::string folder_of(const std::string& path) {
  const auto parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

int run_compare(const CompareArgs& a) {
  const auto results = read_results(a.results);
  const auto baseline = read_baseline(a.baseline);
  const auto rows = compare(results, baseline);
  print_table(std::cout, rows);
  print_failures(std::cout, rows,
                 "perfgate update --results " + shell_quote(a.results) + " --baseline " + shell_quote(a.baseline) + " --reason '...'");
  return exit_code_of(rows);
}

int run_update(const UpdateArgs& a) {
  if (a.results.size() > 2) throw InputError("update: give one capture, or two for timings");
  std::vector<Results> captures;
  for (const auto& path : a.results) captures.push_back(read_results(path));
  std::vector<TrackSpec> track;
  for (const auto& spec : a.track) track.push_back(parse_track_spec(spec));
  // Read, plan and write under one lock: a concurrent update waits and then builds on this one's result.
  const auto folder = folder_of(write_target_of(a.baseline));
  const FolderLock lock(folder, 60.0);
  std::optional<Baseline> current;
  if (std::filesystem::exists(a.baseline)) current = read_baseline(a.baseline);
  if (!a.allow_dirty && tree_is_dirty(folder)) {
    throw InputError("update: the working tree has uncommitted changes; commit first or pass --allow-dirty");
  }
  const auto& ctx = captures.front().context;
  auto context = [&](const std::string& key) { return ctx.count(key) != 0 ? ctx.at(key) : std::string(); };
  const auto machine = context("machine").empty() ? context("cpu_model") + " / " + context("host_name") : context("machine");
  Provenance provenance{head_sha(folder).value_or("unknown"), utc_now(), machine,
                        context("build_type"), context("torch_version"), context("threads"), a.reason,
                        context("machine_fingerprint")};
  const auto plan = plan_update(captures, current, track, a.ratchet, provenance);
  write_file_atomically(a.baseline, to_json_text(plan.next));
  std::cout << "updated " << one_line(a.baseline) << " (" << plan.next.entries.size() << " entries): " << one_line(a.reason) << '\n';
  for (const auto& line : plan.diff) std::cout << "  " << one_line(line) << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"perfgate: gate benchmark results against committed baselines"};
  app.require_subcommand(1);
  CompareArgs compare_args;
  auto* compare_cmd = app.add_subcommand("compare", "judge results against a baseline; exit 0 pass, 1 regression, 2 bad input");
  compare_cmd->add_option("--results", compare_args.results, "Google Benchmark JSON")->required();
  compare_cmd->add_option("--baseline", compare_args.baseline, "baseline JSON")->required();
  UpdateArgs update_args;
  auto* update_cmd = app.add_subcommand("update", "rewrite a baseline from results (atomically, with provenance and a diff)");
  update_cmd->add_option("--results", update_args.results, "Google Benchmark JSON; twice for timing-derived entries")->required();
  update_cmd->add_option("--baseline", update_args.baseline, "baseline JSON to create or update")->required();
  update_cmd->add_option("--reason", update_args.reason, "why the baseline changes (recorded)")->required();
  update_cmd->add_option("--track", update_args.track, "start tracking FIELD:higher|lower|either:abs=X|rel=X|exact[:limit=X][:unit=U][:advisory]");
  update_cmd->add_flag("--allow-dirty", update_args.allow_dirty, "accept uncommitted changes in the working tree");
  update_cmd->add_flag("--ratchet", update_args.ratchet, "only move values the good way");
  SpeedupArgs speedup_args;
  auto* speedup_cmd = add_speedup_command(app, speedup_args);
  ReportArgs report_args;
  auto* report_cmd = add_report_command(app, report_args);
  HistoryArgs history_args;
  auto* history_cmd = add_history_command(app, history_args);
  ProfileArgs profile_args;
  auto* profile_cmd = add_profile_command(app, profile_args);
  AbArgs ab_args;
  auto* ab_cmd = add_ab_command(app, ab_args);
  CalibrateArgs calibrate_args;
  auto* calibrate_cmd = add_calibrate_command(app, calibrate_args);
  CostArgs cost_args;
  auto* cost_cmd = add_cost_command(app, cost_args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::ParseError& e) {
    return print_error(std::string(e.what()) + " (see perfgate --help)");
  }
  try {
    if (compare_cmd->parsed()) return run_compare(compare_args);
    if (update_cmd->parsed()) return run_update(update_args);
    if (speedup_cmd->parsed()) return run_speedup(speedup_args);
    if (report_cmd->parsed()) return run_report(report_args);
    if (history_cmd->parsed()) return run_history(history_args);
    if (calibrate_cmd->parsed()) return run_calibrate(calibrate_args);
    if (ab_cmd->parsed()) return run_ab(ab_args);
    if (profile_cmd->parsed()) return run_profile(profile_args);
    if (cost_cmd->parsed()) return run_cost(cost_args);
  } catch (const std::exception& e) {
    return print_error(e.what());
  }
  return 2;
}
