// perfgate bisect GOOD BAD: the first commit on the first-parent line from GOOD to BAD that moved a gate's figures,
// by binary search. Two modes:
// - exact (--cost GATE): instructions per step under callgrind, one build and one run per probe, no repetitions (the
//   counts are exact for an identical invocation); each probe's worktree is removed as soon as it is measured; the
//   commit named comes with the functions that moved its counts.
// - timing (--gate GATE): each probe's benchmarks against GOOD's, paired and interleaved as perfgate ab runs them; the
//   commit found is measured anew against its parent and named only when that confirms it is slower.
// Worktrees are removed on every way out. Exit 0 when a commit is named or nothing moved, 3 when the move is a creep
// with no single culprit, the culprit hides among commits that do not build or cannot be decided, or the commit found
// is not confirmed; 2 bad input.
#include "base/error.h"
#include "base/json_input.h"
#include "base/number_format.h"
#include "base/one_line.h"
#include "base/output_files.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "formats/gate_manifest.h"
#include "model/ab_analysis.h"
#include "model/bisect_search.h"
#include "model/compare.h"
#include "model/function_changes.h"
#include "run/ab_rounds.h"
#include "run/cost_runner.h"
#include "run/git.h"
#include "run/process.h"
#include "run/worktree_build.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>

namespace perfgate {
namespace {

// Worktrees made for probes, removed when measured and, whatever happens, when the bisection ends.
class ProbeWorktrees {
 public:
  explicit ProbeWorktrees(std::string root) : root_(std::move(root)) {}
  ProbeWorktrees(const ProbeWorktrees&) = delete;
  ProbeWorktrees& operator=(const ProbeWorktrees&) = delete;
  ~ProbeWorktrees() {
    for (const auto& w : made_) remove(w);
  }
  void made(const std::string& worktree) { made_.push_back(worktree); }
  void remove(const std::string& worktree) const {
    std::error_code ignored;
    if (!std::filesystem::exists(worktree, ignored)) return;
    ProcessOptions quiet;
    quiet.standard_error = StandardError::discard;
    quiet.unset = repository_selector_variables();
    quiet.timeout_seconds = 300.0;
    run_process({"git", "-C", root_, "worktree", "remove", "--force", worktree}, quiet);
  }

 private:
  std::string root_;
  std::vector<std::string> made_;
};

std::string percent(double value, double base) {
  std::ostringstream out;
  out << std::showpos << std::setprecision(3) << (base != 0.0 ? 100.0 * (value / base - 1.0) : 0.0) << " %";
  return out.str();
}

}  // namespace

Command add_bisect_command(CLI::App& app, BisectArgs& a) {
  Command cmd(app, "bisect",
              "the first commit from GOOD to BAD that moved a gate's instructions (exact) or times "
              "(paired) beyond a tolerance");
  cmd.footer(command_footer(
      "perfgate bisect --manifest perf/gates.json --cost sort_cost --cost-filter BM_Sort v0.1 HEAD\n"
      "  perfgate bisect --manifest perf/gates.json --gate sorting --filter '^BM_Sort/' v0.1 HEAD",
      {Exit::pass, Exit::inconclusive, Exit::unavailable},
      "pass: a commit is named, or nothing moved; inconclusive: a creep with no single culprit, the "
      "culprit among commits that do not build or cannot be decided, or a commit found but not confirmed"));
  cmd.option("revisions", a.revisions, "GOOD BAD (git revisions; GOOD an ancestor of BAD)");
  cmd.option("--manifest", a.manifest, "the gate manifest: its build steps build each probe").required();
  auto cost = cmd.option("--cost", a.cost, "exact mode: the cost gate whose instructions per step are compared");
  cmd.option("--cost-filter", a.cost_filter, "exact mode: only the regions whose name contains this text").needs(cost);
  cmd.option("--cost-arg", a.cost_args, "exact mode: an argument appended to the cost gate's command (repeatable)")
      .needs(cost);
  cmd.option("--tolerance", a.tolerance,
             "exact mode: a move beyond this relative change from GOOD is bad (0.005: 0.5 %)")
      .show_default()
      .in_range(1e-9, 10.0);
  auto gate = cmd.option("--gate", a.gate, "timing mode: the gate (baseline or speedup) whose benchmarks are timed")
                  .excludes(cost);
  cmd.option("--filter", a.filter, "timing mode: benchmark filter (a speedup gate's candidate by default)").needs(gate);
  cmd.option("--option", a.options, "timing mode: extra --benchmark_* argument (repeatable)").needs(gate);
  cmd.option(
         "--max-slowdown", a.max_slowdown,
         "timing mode: tolerated slowdown of BAD against GOOD, and of the commit found against its parent (0.1: 10 %); "
         "probes are split at the geometric midpoint between GOOD and BAD")
      .show_default()
      .in_range(0.001, kMaxToleratedChange);
  cmd.option("--rounds", a.rounds, "timing mode: ABBA rounds per comparison to start with")
      .show_default()
      .in_range(1, 1000);
  cmd.option("--max-rounds", a.max_rounds, "timing mode: rounds allowed while a comparison is undecided")
      .show_default()
      .in_range(1, 1000);
  cmd.option("--skip", a.skip,
             "a revision known not to build or not to measure: stepped over without building (repeatable)");
  cmd.option("--work", a.work, "folder for the probes' worktrees").show_default();
  cmd.option("--json", a.json, "also write every probe and the outcome as JSON to this file");
  return cmd;
}

namespace {

// Exact mode: instructions per step of a cost gate, one run per probe.
int bisect_on_counts(const BisectArgs& a, const Outputs& outputs, const GateManifest& manifest, const std::string& root,
                     const std::vector<std::string>& line, const std::set<std::string>& skipped) {
  const auto& gate = manifest.gate(a.cost);
  if (gate.kind != GateKind::cost) throw InputError("bisect: --cost " + a.cost + " is not a cost gate");
  std::cout << "bisect: " << line.size() - 1 << " commits from " << a.revisions[0] << " (" << line.front().substr(0, 12)
            << ") to " << a.revisions[1] << " (" << line.back().substr(0, 12) << "), gate " << gate.name
            << ", tolerance " << 100.0 * a.tolerance << " %" << std::endl;
  ProbeWorktrees worktrees(root);
  std::map<size_t, RegionProfiles> profiles;  // each measured probe's functions, for the culprit's differential
  const auto measure = [&](size_t i) -> BisectFigures {
    const auto& commit = line[i];
    if (skipped.count(commit)) {
      std::cout << "  " << commit.substr(0, 12) << " skipped (--skip)" << std::endl;
      return std::nullopt;
    }
    RevisionBuild build;
    try {
      build = build_revision(root, a.work, commit, *manifest.build, gate.targets);
    } catch (const InputError& e) {
      worktrees.made((std::filesystem::absolute(a.work) / commit.substr(0, 12)).string());
      std::cout << "  " << commit.substr(0, 12) << " does not build, skipped: " << one_line(e.what()).substr(0, 160)
                << std::endl;
      return std::nullopt;
    }
    worktrees.made(build.worktree);
    auto argv = resolve_command(gate, build.build_dir);
    argv.insert(argv.end(), a.cost_args.begin(), a.cost_args.end());
    CostRun run;
    try {
      run = measure_cost(argv, {gate.cache, manifest.environment, gate.timeout_seconds, gate.suite, gate.whole});
    } catch (const InputError& e) {  // built, but its program fails: stepped over like a commit that does not build
      worktrees.remove(build.worktree);
      std::cout << "  " << commit.substr(0, 12) << " cannot be measured, skipped: " << one_line(e.what()).substr(0, 160)
                << std::endl;
      return std::nullopt;
    }
    worktrees.remove(build.worktree);
    profiles[i] = run.profiles;
    std::map<std::string, double> figures;
    for (const auto& region : run.regions) {
      if (region.name.find(a.cost_filter) != std::string::npos) figures[region.name] = median(region.instructions);
    }
    std::cout << "  " << commit.substr(0, 12) << " " << one_line(commit_subject(root, commit)).substr(0, 60) << ":";
    for (const auto& [name, value] : figures) std::cout << " " << one_line(name) << " " << format_number(value);
    std::cout << std::endl;
    return figures;
  };
  const auto outcome = bisect_exact(line.size(), measure, a.tolerance);
  const auto& good = *outcome.probes.front().figures;
  const auto describe = [&](size_t i) { return line[i].substr(0, 12) + " " + one_line(commit_subject(root, line[i])); };
  int status = 0;
  std::string verdict;
  std::map<std::string, ProfileChanges> function_changes;
  switch (outcome.kind) {
    case BisectOutcome::Kind::no_change:
      verdict = "no benchmark moved beyond the tolerance from GOOD to BAD";
      break;
    case BisectOutcome::Kind::culprit:
    case BisectOutcome::Kind::creep: {
      const auto& before = *std::find_if(outcome.probes.begin(), outcome.probes.end(), [&](const BisectProbe& p) {
                              return p.index == outcome.last_good;
                            })->figures;
      const auto& after = *std::find_if(outcome.probes.begin(), outcome.probes.end(), [&](const BisectProbe& p) {
                             return p.index == outcome.first_bad;
                           })->figures;
      std::ostringstream moves;
      for (const auto& name : outcome.moved) {
        if (before.count(name) && after.count(name)) {
          moves << "; " << one_line(name) << " " << percent(after.at(name), before.at(name)) << " from its parent, "
                << percent(after.at(name), good.at(name)) << " from GOOD";
        }
      }
      for (const auto& name : outcome.moved) {  // what the commit changed, function by function, from its parent
        const auto& p = profiles[outcome.last_good];
        const auto& q = profiles[outcome.first_bad];
        if (p.count(name) && q.count(name)) function_changes[name] = profile_changes(p.at(name), q.at(name));
      }
      if (outcome.kind == BisectOutcome::Kind::culprit) {
        verdict = "first bad commit " + describe(outcome.first_bad) + moves.str();
      } else {
        verdict = "a creep, no single culprit: " + describe(outcome.first_bad) +
                  " crossed the tolerance by a change within it" + moves.str();
        status = 3;
      }
      break;
    }
    case BisectOutcome::Kind::skipped:
    case BisectOutcome::Kind::unconfirmed:  // timing mode's kinds: exact counts need no confirmation and are never
                                            // undecided
    case BisectOutcome::Kind::undecided:
      verdict = "the first bad commit is after " + describe(outcome.last_good) + " and up to " +
                describe(outcome.first_bad) + "; the commits between do not build, cannot be measured or were skipped";
      status = 3;
      break;
  }
  for (const auto& [name, changes] : function_changes) {
    std::cout << "functions that moved " << one_line(name) << " from " << line[outcome.last_good].substr(0, 12)
              << " to " << line[outcome.first_bad].substr(0, 12) << ":\n"
              << profile_changes_text(changes, "  ");
  }
  std::cout << "perfgate bisect: " << verdict << " (" << outcome.probes.size() << " probes)" << std::endl;
  if (!a.json.empty()) {
    nlohmann::json probes = nlohmann::json::array();
    for (const auto& p : outcome.probes) {
      nlohmann::json item = {
          {"commit", line[p.index]}, {"index", p.index}, {"bad", p.bad}, {"built", p.figures.has_value()}};
      if (p.figures) item["instructions"] = *p.figures;
      probes.push_back(item);
    }
    nlohmann::json functions_json = nlohmann::json::object();  // by benchmark: the first bad commit against its parent
    for (const auto& [name, changes] : function_changes) functions_json[name] = profile_changes_json(changes);
    outputs.write(a.json, json_output_text({{"good", line.front()},
                                            {"bad", line.back()},
                                            {"gate", gate.name},
                                            {"mode", "exact"},
                                            {"tolerance", a.tolerance},
                                            {"outcome", to_string(outcome.kind)},
                                            {"first_bad", outcome.kind == BisectOutcome::Kind::no_change
                                                              ? nlohmann::json(nullptr)
                                                              : nlohmann::json(line[outcome.first_bad])},
                                            {"moved", outcome.moved},
                                            {"probes", probes},
                                            {"verdict", verdict},
                                            {"functions", functions_json}}));
  }
  return status;
}

// Timing mode: each probe's benchmarks against GOOD's, paired and interleaved; the commit found confirmed against its
// parent. Every build is kept until the end: GOOD is measured against each probe, and the commit found against its
// parent.
int bisect_on_timings(const BisectArgs& a, const Outputs& outputs, const GateManifest& manifest,
                      const std::string& root, const std::vector<std::string>& line,
                      const std::set<std::string>& skipped) {
  const auto& gate = manifest.gate(a.gate);
  if (gate.kind != GateKind::baseline && gate.kind != GateKind::speedup) {
    throw InputError("bisect: --gate " + a.gate + " is a " + to_string(gate.kind) +
                     " gate; timing mode runs a baseline or speedup gate's benchmarks (a cost gate: --cost)");
  }
  const auto filter = !a.filter.empty()                ? a.filter
                      : gate.kind == GateKind::speedup ? "^" + regex_literal(gate.candidate) + "$"
                                                       : "";
  if (filter.empty())
    throw InputError("bisect: --filter names the benchmarks to time (a speedup gate's candidate by default)");
  if (a.max_rounds < a.rounds) throw InputError("bisect: --max-rounds must be at least --rounds");
  std::cout << "bisect: " << line.size() - 1 << " commits from " << a.revisions[0] << " (" << line.front().substr(0, 12)
            << ") to " << a.revisions[1] << " (" << line.back().substr(0, 12) << "), gate " << gate.name << ", filter '"
            << one_line(filter) << "', tolerated slowdown " << 100.0 * a.max_slowdown
            << " %, timed in paired interleaved rounds" << std::endl;
  ProbeWorktrees worktrees(root);
  std::map<size_t, std::optional<RevisionBuild>> builds;
  const auto build_of = [&](size_t i) -> const std::optional<RevisionBuild>& {
    auto found = builds.find(i);
    if (found != builds.end()) return found->second;
    std::optional<RevisionBuild> build;
    if (skipped.count(line[i])) {
      std::cout << "  " << line[i].substr(0, 12) << " skipped (--skip)" << std::endl;
      return builds.emplace(i, build).first->second;
    }
    try {
      build = build_revision(root, a.work, line[i], *manifest.build, gate.targets);
      worktrees.made(build->worktree);
    } catch (const InputError& e) {
      worktrees.made((std::filesystem::absolute(a.work) / line[i].substr(0, 12)).string());
      std::cout << "  " << line[i].substr(0, 12) << " does not build, skipped: " << one_line(e.what()).substr(0, 160)
                << std::endl;
    }
    return builds.emplace(i, build).first->second;
  };
  const auto pair_of = [&](size_t base, size_t head, double max_slowdown) {
    InterleavedRun run;
    run.labels = {line[base].substr(0, 12), line[head].substr(0, 12)};
    run.builds = {*build_of(base), *build_of(head)};
    run.arguments = {"--benchmark_filter=" + filter};
    run.arguments.insert(run.arguments.end(), a.options.begin(), a.options.end());
    run.results_dir = (std::filesystem::absolute(a.work) / "results").string();
    run.rounds = a.rounds;
    run.max_rounds = a.max_rounds;
    run.max_slowdown = max_slowdown;
    run.progress_name = "bisect";
    auto verdicts = run_interleaved(run, gate, manifest);
    if (verdicts.empty())
      throw InputError("bisect: no benchmark matched '" + filter + "' in every run of gate " + gate.name +
                       "'s command");
    return verdicts;
  };
  const auto print = [&](size_t i, const std::vector<AbComparison>& verdicts, const std::string& against) {
    std::cout << "  " << line[i].substr(0, 12) << " " << one_line(commit_subject(root, line[i])).substr(0, 60)
              << ", against " << against << ":";
    for (const auto& c : verdicts) {
      std::cout << " " << one_line(c.benchmark) << " " << std::setprecision(4) << c.median << "x [" << c.low << ", "
                << c.high << "] " << verdict_text(c) << ";";
    }
    std::cout << std::endl;
  };
  if (!build_of(0)) throw InputError("bisect: GOOD could not be measured (does it build?)");
  std::set<std::string> moved;  // the benchmarks BAD is slower in: a probe is bad when slower in any of them
  // BAD is judged against the tolerance. A probe is judged against the geometric midpoint between GOOD and BAD (1.22x
  // when BAD is 1.5x): bad when its interval lies above it, good when below, so that a probe is as far from the split
  // whichever side it is on, and the noise of one comparison must be half the regression to mislead it.
  double split = 1.0 + a.max_slowdown;
  const auto compare_with_good = [&](size_t i) -> TimingProbe {
    TimingProbe probe;
    if (!build_of(i)) return probe;
    const bool is_bad_end = i == line.size() - 1;
    std::vector<AbComparison> verdicts;
    try {
      verdicts = pair_of(0, i, is_bad_end ? a.max_slowdown : split - 1.0);
    } catch (const InputError& e) {  // built, but its benchmarks fail or match nothing: stepped over (BAD: an error)
      if (is_bad_end) throw;
      std::cout << "  " << line[i].substr(0, 12)
                << " cannot be measured, skipped: " << one_line(e.what()).substr(0, 160) << std::endl;
      return probe;
    }
    print(i, verdicts, is_bad_end ? "GOOD" : "GOOD, split at " + format_number(split, 4) + "x");
    std::map<std::string, double> ratios;
    bool any_bad = false, all_good = true;
    for (const auto& c : verdicts) {
      ratios[c.benchmark] = c.median;
      if (is_bad_end && c.verdict == SpeedupVerdict::fail)
        moved.insert(c.benchmark), probe.slower.push_back(c.benchmark);
      if (!is_bad_end && !moved.count(c.benchmark)) continue;
      any_bad = any_bad || c.verdict == SpeedupVerdict::fail;
      all_good = all_good && c.verdict == SpeedupVerdict::pass;
    }
    for (const auto& name : moved) all_good = all_good && ratios.count(name) != 0;  // not measured here: not known good
    probe.figures = ratios;
    probe.verdict = any_bad    ? TimingProbe::Verdict::bad
                    : all_good ? TimingProbe::Verdict::good
                               : TimingProbe::Verdict::undecided;
    if (is_bad_end && any_bad) {
      double smallest = INFINITY;
      for (const auto& name : moved) smallest = std::min(smallest, ratios.at(name));
      split = std::max(std::sqrt(smallest), 1.0 + a.max_slowdown / 2.0);
    }
    return probe;
  };
  const auto confirm = [&](size_t parent, size_t commit) {
    std::cout << "confirming " << line[commit].substr(0, 12) << " against its parent " << line[parent].substr(0, 12)
              << std::endl;
    std::vector<AbComparison> verdicts;
    try {
      verdicts = pair_of(parent, commit, a.max_slowdown);
    } catch (const InputError& e) {
      std::cout << "  the confirmation could not be measured: " << one_line(e.what()).substr(0, 160) << std::endl;
      return false;
    }
    print(commit, verdicts, "its parent");
    bool slower = false;
    for (const auto& c : verdicts) slower = slower || (moved.count(c.benchmark) && c.verdict == SpeedupVerdict::fail);
    return slower;
  };
  const auto outcome = bisect_timing(line.size(), compare_with_good, confirm);
  const auto describe = [&](size_t i) { return line[i].substr(0, 12) + " " + one_line(commit_subject(root, line[i])); };
  int status = 3;
  std::string verdict;
  switch (outcome.kind) {
    case BisectOutcome::Kind::no_change:
      verdict = "BAD is not slower than GOOD beyond the tolerance";
      status = 0;
      break;
    case BisectOutcome::Kind::undecided:
      verdict = "BAD against GOOD is undecided after " + std::to_string(a.max_rounds) +
                " rounds: neither within the tolerance nor beyond it";
      break;
    case BisectOutcome::Kind::culprit:
      verdict = "first bad commit " + describe(outcome.first_bad) + ", confirmed slower than its parent";
      status = 0;
      break;
    case BisectOutcome::Kind::unconfirmed:
      verdict = "the search ended at " + describe(outcome.first_bad) +
                ", but measured anew against its parent it is not slower beyond the "
                "tolerance: no commit named (a creep, or noise)";
      break;
    case BisectOutcome::Kind::skipped:
    case BisectOutcome::Kind::creep:
      verdict = "the first bad commit is after " + describe(outcome.last_good) + " and up to " +
                describe(outcome.first_bad) +
                "; the commits between do not build, cannot be measured, were skipped or cannot be decided";
      break;
  }
  std::cout << "perfgate bisect: " << verdict << " (" << outcome.probes.size() - 1 << " probes against GOOD)"
            << std::endl;
  if (!a.json.empty()) {
    nlohmann::json probes = nlohmann::json::array();
    for (const auto& p : outcome.probes) {
      nlohmann::json item = {{"commit", line[p.index]},
                             {"index", p.index},
                             {"bad", p.bad},
                             {"undecided", p.undecided},
                             {"built", p.figures.has_value()}};
      if (p.figures && p.index != 0) item["time_ratio_to_good"] = *p.figures;
      probes.push_back(item);
    }
    const bool named = outcome.kind == BisectOutcome::Kind::culprit;
    outputs.write(a.json, json_output_text(
                              {{"good", line.front()},
                               {"bad", line.back()},
                               {"gate", gate.name},
                               {"mode", "timing"},
                               {"filter", filter},
                               {"max_slowdown", a.max_slowdown},
                               {"outcome", to_string(outcome.kind)},
                               {"first_bad", named ? nlohmann::json(line[outcome.first_bad]) : nlohmann::json(nullptr)},
                               {"moved", moved},
                               {"probes", probes},
                               {"verdict", verdict}}));
  }
  return status;
}

}  // namespace

int run_bisect(const BisectArgs& a) {
  if (a.revisions.size() != 2) throw InputError("bisect: give GOOD and BAD revisions");
  if (a.cost.empty() == a.gate.empty())
    throw InputError("bisect: give --cost GATE (exact mode) or --gate GATE (timing mode)");
  const auto manifest = read_gate_manifest(a.manifest);
  if (!manifest.build)
    throw InputError("bisect: " + a.manifest +
                     " has no build member: bisect cannot build a revision without its steps");
  Outputs outputs("bisect");
  outputs.read(a.manifest);
  if (!a.json.empty()) outputs.file(a.json, "--json");
  const auto root = repository_root(".");
  const auto line = first_parent_line(root, resolve_commit(root, a.revisions[0]), resolve_commit(root, a.revisions[1]));
  std::set<std::string> skipped;
  for (const auto& revision : a.skip) {
    const auto commit = resolve_commit(root, revision);
    if (commit == line.front() || commit == line.back())
      throw InputError("bisect: --skip " + revision + " is GOOD or BAD, which must be measured");
    skipped.insert(commit);
  }
  return a.cost.empty() ? bisect_on_timings(a, outputs, manifest, root, line, skipped)
                        : bisect_on_counts(a, outputs, manifest, root, line, skipped);
}

}  // namespace perfgate
