#pragma once
// perfgate's subcommands, one file each: each states its command line (cli/command_line.h) and runs from it.
// Runners return the process exit code (0 pass, 1 regression, 3 inconclusive) and throw InputError for bad
// input or usage (exit code 2).
#include "cli/command_line.h"
#include "gates/check_gate.h"
#include "gates/cost_gate.h"
#include "gates/harness_results.h"
#include "gates/profile_gate.h"
#include "gates/speedup_gate.h"

#include <optional>
#include <string>
#include <vector>

namespace perfgate {

/// perfgate compare: the check judged once (gates/check_gate.h).
struct CompareArgs : CheckRequest {};
/// The options of thresholds from history (--history-thresholds STORE and its refinements), as compare and gate take
/// them. (report's --history, a store whose trends it plots, judges nothing.)
void add_history_threshold_options(Command& cmd, HistoryThresholds& history);
Command add_compare_command(CLI::App& app, CompareArgs& args);
int run_compare(const CompareArgs& args);

struct UpdateArgs {
  std::vector<std::string> results;
  std::string baseline, reason;
  std::vector<std::string> track, drop, only;
  bool allow_dirty = false, ratchet = false;
  bool move_timings =
      false;  ///< accept captures from another machine than the one the baseline's timings were recorded on
  std::vector<std::string> command;  ///< the suite's benchmark command: perfgate runs it for the captures
  int noise_runs = 5;                ///< runs of the command when a tolerance is learned from noise
};
Command add_update_command(CLI::App& app, UpdateArgs& args);
int run_update(const UpdateArgs& args);

/// perfgate speedup: the speedup judged once (gates/speedup_gate.h).
struct SpeedupArgs : SpeedupRequest {};
Command add_speedup_command(CLI::App& app, SpeedupArgs& args);
int run_speedup(const SpeedupArgs& args);

struct ReportArgs {
  std::string out, title = "perfgate report";
  std::vector<std::string> checks;  ///< RESULTS=BASELINE pairs
  std::string speedup_results, reference, candidate;
  double threshold = 0.0;  ///< the caller's (or the manifest's), no default
  std::optional<double> target;
  std::string ablation, history;
  std::string ab;                     ///< perfgate ab --json output shown beside the checks
  std::string manifest, results_dir;  ///< a gate manifest's gates, from the results a gate run left in results_dir
  std::vector<std::string> images;
  std::vector<std::string> figures;
  bool png = false;
};
Command add_report_command(CLI::App& app, ReportArgs& args);
int run_report(const ReportArgs& args);

struct HistoryArgs {
  std::string db, action;  ///< db: the store's specification; action: record | show | export | import
  std::string out, in;     ///< export's file, import's file
  std::vector<std::string> results;
  std::string commit, branch = "main", date;
  std::string benchmark, field = "real_time";
  double min_shift = 0.05;
  int last = 50;
  bool runs = false;  ///< show: list the runs themselves (commit, date, machine, metrics) instead of trends
};
Command add_history_command(CLI::App& app, HistoryArgs& args);
int run_history(const HistoryArgs& args);

struct CalibrateArgs {
  std::vector<std::string> results, command;
  std::string manifest, build, gate;  ///< a speedup gate of a manifest: its command, pair and floor
  int runs = 10;
  std::string field = "real_time", reference, candidate;
  double false_alarm_rate = 0.01, power = 0.9, threshold = 0.0;
};
Command add_calibrate_command(CLI::App& app, CalibrateArgs& args);
int run_calibrate(const CalibrateArgs& args);

struct AbArgs {
  std::vector<std::string> revisions, options;
  std::string manifest;  ///< the gate manifest: how a revision is built, and each gate's command
  std::string tasks, gate, filter, work = "build/ab";  // gate and filter: the caller's (no default)
  int rounds = 6, max_rounds = 16;
  double max_slowdown = 0.05;
  std::string cost;                         ///< non-empty: also compare this cost gate's instructions per step
  std::string cost_filter;                  ///< with cost: only the regions whose name contains this text
  std::vector<std::string> cost_args;       ///< with cost: arguments appended to the cost gate's command
  double max_instruction_increase = 0.005;  ///< tolerated increase of head's instructions per step over base's
  std::vector<std::string> accept;          ///< accepting rules given on the command line (accept_rules.h)
  std::string accept_trailers;              ///< a revision range whose perfgate-accept trailers are accepting rules
  std::string json;                         ///< non-empty: the verdicts as JSON (ab_json.h) written here
};
Command add_ab_command(CLI::App& app, AbArgs& args);
int run_ab(const AbArgs& args);

struct DashboardArgs {
  std::string store, out, branch = "main", commit_url, title = "perfgate dashboard";
  std::vector<std::string> baselines;
  int last = 100;
  double min_shift = 0.05;
};
Command add_dashboard_command(CLI::App& app, DashboardArgs& args);
int run_dashboard(const DashboardArgs& args);

struct CommentArgs {
  std::string verdicts, ab, ab_job, marker = "perfgate", run_url, report_url, out;
};
Command add_comment_command(CLI::App& app, CommentArgs& args);
int run_comment(const CommentArgs& args);

struct GateArgs {
  std::string manifest, build, results_dir, verdicts;
  HistoryThresholds history;  ///< timings of baseline gates judged against a history store's last runs
  std::vector<std::string> only, labels, context;
  int warning_exit_code = 0;
  int unavailable_exit_code = 6;  ///< exit code when nothing failed but a gate cannot be measured on this host
  bool list = false;
};
Command add_gate_command(CLI::App& app, GateArgs& args);
int run_gate(const GateArgs& args);

struct BisectArgs {
  std::vector<std::string> revisions, cost_args, options;
  std::vector<std::string> skip;  ///< revisions known not to build or measure: stepped over without building
  std::string manifest, cost, cost_filter, json, work = "build/bisect";
  double tolerance = 0.005;
  std::string gate, filter;  ///< timing mode: the gate whose benchmarks are timed, and which of them
  double max_slowdown = 0.1;
  int rounds = 6, max_rounds = 16;
};
Command add_bisect_command(CLI::App& app, BisectArgs& args);
int run_bisect(const BisectArgs& args);

struct SelftestArgs {
  std::string manifest, work = "build/selftest";
  std::vector<std::string> plants;
  bool keep = false;
};
Command add_selftest_command(CLI::App& app, SelftestArgs& args);
int run_selftest(const SelftestArgs& args);

/// perfgate profile (gates/profile_gate.h).
struct ProfileArgs : ProfileRequest {};
Command add_profile_command(CLI::App& app, ProfileArgs& args);
int run_profile(const ProfileArgs& args);

/// perfgate cost (gates/cost_gate.h), its caches as given on the command line.
struct CostArgs : CostRequest {
  std::vector<std::string> cache_text;  ///< LEVEL=BYTES,WAYS,LINE_BYTES: the caches callgrind simulates
  int unavailable_exit_code = 6;        ///< exit code when callgrind cannot run the program on this host
};
Command add_cost_command(CLI::App& app, CostArgs& args);
/// perfgate cost: measure_cost_into, with a host that cannot run callgrind reported as one line and
/// --unavailable-exit-code.
int run_cost(const CostArgs& args);

/// perfgate time: whole commands timed, interleaved (gates/harness_results.h).
struct TimeArgs : TimeRequest {};
Command add_time_command(CLI::App& app, TimeArgs& args);
int run_time(const TimeArgs& args);

/// perfgate catch2: a Catch2 test binary's benchmarks, one repetition per run (gates/harness_results.h).
struct Catch2Args : Catch2Request {};
Command add_catch2_command(CLI::App& app, Catch2Args& args);
int run_catch2_command(const Catch2Args& args);

}  // namespace perfgate
