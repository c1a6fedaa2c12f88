// perfgate ab BASE HEAD | --tasks FILE: builds each revision in its own worktree, runs the suite's benchmarks
// interleaved (each round runs the revisions forward then backward: ABBA for two), and gives the paired verdict of
// head against base per benchmark; with --cost also the exact instruction counts. A FAIL within an accepting rule
// (--accept, --accept-trailers) is ACCEPTED. Exit 0 all PASS or ACCEPTED, 1 any FAIL, 3 any INCONCLUSIVE (none
// failed), 2 bad input.
#include "base/error.h"
#include "base/number_format.h"
#include "base/one_line.h"
#include "base/output_files.h"
#include "base/read_file.h"
#include "base/time_units.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "formats/ab_json.h"
#include "formats/gate_manifest.h"
#include "model/ab_analysis.h"
#include "model/ab_tasks.h"
#include "model/compare.h"
#include "run/ab_rounds.h"
#include "run/accept_trailers.h"
#include "run/benchmark_runner.h"
#include "run/cost_runner.h"
#include "run/git.h"
#include "run/progress.h"
#include "run/worktree_build.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace perfgate {
namespace {

// Revisions resolved once, before anything is built: a commit made while ab runs must not change what "HEAD" is.
using Commits = std::map<std::string, std::string>;

void run_group(const AbGroup& g, const AbArgs& a, const GateManifest& manifest, const std::string& root,
               const Commits& commits, const std::vector<AcceptRule>& rules, AbRecord& record) {
  const auto& gate = manifest.gate(g.suite);
  std::vector<RevisionBuild> builds;
  AbMeasurements m;
  for (const auto& revision : g.revisions) {
    const auto& commit = commits.at(revision);
    std::cout << "building gate " << gate.name << " at " << revision << " (" << commit.substr(0, 12) << ")"
              << std::endl;
    builds.push_back(build_revision(root, a.work, commit, *manifest.build, gate.targets));
  }
  InterleavedRun run;
  run.labels = g.revisions;
  run.builds = builds;
  run.arguments = {"--benchmark_filter=" + g.filter};
  run.arguments.insert(run.arguments.end(), g.options.begin(), g.options.end());
  run.results_dir = (std::filesystem::absolute(a.work) / "results").string();
  run.rounds = a.rounds;
  run.max_rounds = a.max_rounds;
  run.max_slowdown = a.max_slowdown;
  auto verdicts = run_interleaved(run, gate, manifest, &m);
  if (verdicts.empty())
    throw InputError("ab: no benchmark matched '" + g.filter + "' in every run of gate " + g.suite + "'s command");
  std::cout << "gate " << g.suite << ", filter '" << g.filter << "', " << m.rounds.size()
            << " rounds (ABBA), tolerated slowdown " << 100.0 * a.max_slowdown << " %\n";
  apply_acceptance(verdicts, rules);
  for (const auto& c : verdicts) {
    record.timings.push_back(
        {g.suite, g.filter, commits.at(c.base), commits.at(c.head), static_cast<int>(m.rounds.size()), c});
  }
}

void print_timing(const AbComparison& c) {
  std::cout << std::left << std::setw(13) << verdict_text(c) << one_line(c.benchmark) << ": " << c.head << " / "
            << c.base << " = " << std::setprecision(4) << c.median << " [" << c.low << ", " << c.high << "] ("
            << std::setprecision(3) << 100.0 * c.confidence << " % interval; " << std::setprecision(5) << c.base_median
            << " -> " << c.head_median << " " << c.unit << ")\n";
  if (c.acceptance) std::cout << "             " << acceptance_text(*c.acceptance) << "\n";
}

// The exact half of an A/B: instructions per step of the cost gate's regions in base and head, each run once under
// callgrind (deterministic, so no rounds and no interval). FAIL when head exceeds base by more than the tolerance.
std::vector<CostChange> run_cost_ab(const AbArgs& a, const GateManifest& manifest, const std::string& root,
                                    const Commits& commits) {
  const auto& gate = manifest.gate(a.cost);
  std::vector<std::map<std::string, double>> per_revision;
  std::vector<RegionProfiles> profiles;
  for (const auto& revision : a.revisions) {
    const auto& commit = commits.at(revision);
    std::cout << "building gate " << gate.name << " at " << revision << " (" << commit.substr(0, 12) << ")"
              << std::endl;
    const auto build = build_revision(root, a.work, commit, *manifest.build, gate.targets);
    std::cout << "measuring instructions at " << revision << " under callgrind" << std::endl;
    auto argv = resolve_command(gate, build.build_dir);
    argv.insert(argv.end(), a.cost_args.begin(), a.cost_args.end());
    const auto run =
        measure_cost(argv, {gate.cache, manifest.environment, gate.timeout_seconds, gate.suite, gate.whole});
    std::map<std::string, double> medians;
    for (const auto& region : run.regions) {
      if (region.name.find(a.cost_filter) != std::string::npos) medians[region.name] = median(region.instructions);
    }
    per_revision.push_back(medians);
    profiles.push_back(run.profiles);
  }
  if (per_revision[0].empty() || per_revision[1].empty()) {
    throw InputError("ab --cost: no region of gate " + gate.name + " contains '" + a.cost_filter +
                     "' in both revisions");
  }
  auto costs = compare_costs(per_revision[0], per_revision[1], a.max_instruction_increase);
  for (auto& c : costs) {  // which functions moved a count that moved by at least a profile's resolution
    const auto base = profiles[0].find(c.benchmark), head = profiles[1].find(c.benchmark);
    const bool moved = std::fabs(c.head - c.base) >= kProfileResolution * std::fabs(c.base);
    if (moved && base != profiles[0].end() && head != profiles[1].end())
      c.functions = profile_changes(base->second, head->second);
  }
  return costs;
}

void print_costs(const AbArgs& a, const std::vector<CostChange>& costs) {
  std::cout << "instructions per step (callgrind), head " << a.revisions[1] << " against base " << a.revisions[0]
            << ", tolerated increase " << 100.0 * a.max_instruction_increase << " %\n";
  for (const auto& c : costs) {
    // Counts in all their digits (format_number): 10 significant digits would write a count above 10^10 in e-notation.
    std::cout << std::left << std::setw(13) << verdict_text(c) << one_line(c.benchmark) << ": " << format_number(c.base)
              << " -> " << format_number(c.head) << " (" << std::showpos << std::setprecision(3) << 100.0 * c.change
              << std::noshowpos << " %)\n";
    if (c.acceptance) std::cout << "             " << acceptance_text(*c.acceptance) << "\n";
    if (c.functions) std::cout << profile_changes_text(*c.functions, "             ");
  }
}

}  // namespace

Command add_ab_command(CLI::App& app, AbArgs& a) {
  Command cmd(app, "ab", "build two (or more) revisions in worktrees and compare their benchmarks, interleaved");
  cmd.footer(
      command_footer("perfgate ab --manifest perf/gates.json --gate parse --filter '^BM_Parse/' main HEAD",
                     {Exit::pass, Exit::fail, Exit::inconclusive, Exit::unavailable},
                     "pass includes ACCEPTED; fail: slower beyond --max-slowdown or more instructions than tolerated"));
  cmd.option("revisions", a.revisions, "BASE HEAD (git revisions)");
  cmd.option("--manifest", a.manifest,
             "the gate manifest: its build steps build each revision; its gates' commands run")
      .required();
  cmd.option("--tasks", a.tasks, "task list CSV: revision,gate,filter,options");
  cmd.option("--gate", a.gate,
             "the gate whose benchmarks are timed; with revisions, required unless --cost alone compares instructions");
  cmd.option("--filter", a.filter,
             "benchmark filter; required with revisions, except for a speedup gate (default: its candidate)");
  cmd.option("--option", a.options, "extra --benchmark_* argument (repeatable)");
  cmd.option("--rounds", a.rounds, "ABBA rounds to start with").show_default().in_range(1, 1000);
  cmd.option("--max-rounds", a.max_rounds, "rounds allowed when inconclusive").show_default().in_range(1, 1000);
  cmd.option("--max-slowdown", a.max_slowdown, "tolerated slowdown of head vs base (0.05: 5 %)")
      .show_default()
      .in_range(0.0, kMaxToleratedChange);
  cmd.option("--cost", a.cost,
             "a cost gate of the manifest: also build and run it in both revisions and compare instructions per step "
             "(exact, under callgrind)");
  cmd.option("--cost-filter", a.cost_filter, "with --cost: compare only the regions whose name contains this text");
  cmd.option("--cost-arg", a.cost_args, "with --cost: an argument appended to the cost gate's command (repeatable)");
  cmd.option("--max-instruction-increase", a.max_instruction_increase,
             "with --cost: tolerated increase of head's instructions per step (0.005: 0.5 %)")
      .show_default()
      .in_range(0.0, kMaxToleratedChange);
  cmd.option("--accept", a.accept,
             "accept a regression on purpose: 'GLOB FIELD +N% reason' turns a FAIL of a matching benchmark and field "
             "(real_time, instructions) into ACCEPTED when it is at most N % worse (repeatable)");
  cmd.option("--accept-trailers", a.accept_trailers,
             "read accepting rules from the perfgate-accept: trailers of the commits in this range, e.g. BASE..HEAD");
  cmd.option("--json", a.json,
             "also write the verdicts as JSON to this file (read by perfgate comment and report --ab)");
  cmd.option("--work", a.work, "folder for worktrees and results").show_default();
  return cmd;
}

int run_ab(const AbArgs& given) {
  AbArgs a = given;
  // The manifest is read before anything is built: every gate named here must exist, and the build must be there.
  const auto manifest = read_gate_manifest(a.manifest);
  if (!manifest.build)
    throw InputError("ab: " + a.manifest + " has no build member: ab cannot build a revision without its steps");
  if (a.filter.empty() && !a.gate.empty() && manifest.gate(a.gate).kind == GateKind::speedup) {
    a.filter = "^" + regex_literal(manifest.gate(a.gate).candidate) + "$";  // a speedup gate's candidate, by default
  }
  std::vector<AbTask> tasks;
  if (!a.tasks.empty()) {
    if (!a.revisions.empty()) throw InputError("ab: give revisions or --tasks, not both");
    tasks = parse_ab_tasks(read_whole_file(a.tasks, "task list"), a.tasks);
  } else {
    if (a.revisions.size() != 2) throw InputError("ab: give BASE and HEAD revisions (or --tasks FILE)");
    if (a.gate.empty() && !a.cost.empty()) {
      if (!a.filter.empty() || !a.options.empty())
        throw InputError("ab: --filter and --option go with --gate (timings); --cost alone compares instructions");
    } else {
      if (a.gate.empty() || a.filter.empty())
        throw InputError(
            "ab: --gate and --filter name what to compare (a speedup gate's filter is its candidate by default), "
            "--cost GATE the instructions, or give --tasks FILE");
      for (const auto& r : a.revisions) {
        AbTask t{r, a.gate, a.filter, a.options};
        validate_ab_task(t, "ab");
        tasks.push_back(t);
      }
    }
  }
  if (a.max_rounds < a.rounds) throw InputError("ab: --max-rounds must be at least --rounds");
  if (!a.cost.empty() && a.revisions.size() != 2)
    throw InputError("ab: --cost compares BASE and HEAD revisions, not a task list");
  if (a.cost.empty() && (!a.cost_filter.empty() || !a.cost_args.empty()))
    throw InputError("ab: --cost-filter and --cost-arg go with --cost");
  for (const auto& t : tasks) {
    if (manifest.gate(t.suite).kind == GateKind::cost)
      throw InputError("ab: gate " + t.suite + " is a cost gate; give it with --cost");
  }
  if (!a.cost.empty() && manifest.gate(a.cost).kind != GateKind::cost)
    throw InputError("ab: --cost " + a.cost + " is not a cost gate");
  const auto root = repository_root(".");
  Commits commits;
  for (const auto& t : tasks)
    commits[t.revision] = resolve_commit(root, t.revision);  // all valid before anything is built
  if (tasks.empty()) {
    for (const auto& r : a.revisions) commits[r] = resolve_commit(root, r);  // --cost alone: instructions only
  }
  // Every rule is read before anything is built: a malformed trailer is bad input, found in seconds.
  std::vector<AcceptRule> rules;
  for (const auto& text : a.accept) rules.push_back(parse_accept_rule(text, "--accept"));
  if (!a.accept_trailers.empty()) {
    for (auto& rule : accept_rules_from_trailers(root, a.accept_trailers)) rules.push_back(std::move(rule));
  }
  Outputs outputs("ab");
  outputs.read({a.manifest, a.tasks});
  if (!a.json.empty()) outputs.file(a.json, "--json");
  AbRecord record;
  record.max_slowdown = a.max_slowdown;
  record.max_instruction_increase = a.max_instruction_increase;
  for (const auto& [label, commit] : commits) record.revisions.push_back({label, commit});
  for (const auto& g : group_ab_tasks(tasks)) run_group(g, a, manifest, root, commits, rules, record);
  for (const auto& t : record.timings) print_timing(t.comparison);
  if (!a.cost.empty()) {
    record.costs = run_cost_ab(a, manifest, root, commits);
    record.has_costs = true;
    apply_acceptance(record.costs, rules);
    print_costs(a, record.costs);
  }
  const int status = exit_status_of(record);
  if (!a.json.empty()) outputs.write(a.json, ab_json_text(record));
  std::cout << "perfgate ab: " << overall_text(record) << std::endl;
  return status;
}

}  // namespace perfgate
