// perfgate bisect GOOD BAD: the first commit on the first-parent line from GOOD to BAD whose instructions per step
// (a cost gate of the manifest, under callgrind) moved beyond the tolerance, by binary search: one build and one run
// per probe, no repetitions (the counts are exact for an identical invocation). Each probe's worktree is removed as
// soon as it is measured, and on every way out. Exit 0 when a commit is named or nothing moved, 3 when the move is a
// creep with no single culprit or the culprit hides among commits that do not build, 2 bad input.
#include "atomic_write.h"
#include "bisect_search.h"
#include "cli_help.h"
#include "commands.h"
#include "cost_runner.h"
#include "error.h"
#include "function_changes.h"
#include "gate_manifest.h"
#include "git.h"
#include "json_input.h"
#include "one_line.h"
#include "process.h"
#include "compare.h"
#include "worktree_build.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
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

CLI::App* add_bisect_command(CLI::App& app, BisectArgs& a) {
  auto* cmd = app.add_subcommand("bisect", "the first commit from GOOD to BAD that moved a cost gate's instructions beyond a tolerance");
  cmd->footer(command_footer("perfgate bisect --manifest perf/gates.json --cost sort_cost --cost-filter BM_Sort v0.1 HEAD",
                              {Exit::pass, Exit::inconclusive},
                              "pass: a commit is named, or nothing moved; inconclusive: a creep with no single culprit, or "
                              "the culprit among commits that do not build"));
  cmd->add_option("revisions", a.revisions, "GOOD BAD (git revisions; GOOD an ancestor of BAD)");
  cmd->add_option("--manifest", a.manifest, "the gate manifest: its build steps build each probe")->required();
  cmd->add_option("--cost", a.cost, "the cost gate whose instructions per step are compared")->required();
  cmd->add_option("--cost-filter", a.cost_filter, "only the regions whose name contains this text");
  cmd->add_option("--cost-arg", a.cost_args, "an argument appended to the cost gate's command (repeatable)");
  cmd->add_option("--tolerance", a.tolerance, "a move beyond this relative change from GOOD is bad (0.005: 0.5 %)")
      ->capture_default_str()
      ->check(CLI::Range(1e-9, 10.0));
  cmd->add_option("--work", a.work, "folder for the probes' worktrees")->capture_default_str();
  cmd->add_option("--json", a.json, "also write every probe and the outcome as JSON to this file");
  return cmd;
}

int run_bisect(const BisectArgs& a) {
  if (a.revisions.size() != 2) throw InputError("bisect: give GOOD and BAD revisions");
  const auto manifest = read_gate_manifest(a.manifest);
  if (!manifest.build) throw InputError("bisect: " + a.manifest + " has no build member: bisect cannot build a revision without its steps");
  const auto& gate = manifest.gate(a.cost);
  if (gate.kind != GateKind::cost) throw InputError("bisect: --cost " + a.cost + " is not a cost gate");
  if (!a.json.empty()) require_replaceable(a.json);
  const auto root = repository_root(".");
  const auto line = first_parent_line(root, resolve_commit(root, a.revisions[0]), resolve_commit(root, a.revisions[1]));
  std::cout << "bisect: " << line.size() - 1 << " commits from " << a.revisions[0] << " (" << line.front().substr(0, 12) << ") to "
            << a.revisions[1] << " (" << line.back().substr(0, 12) << "), gate " << gate.name << ", tolerance " << 100.0 * a.tolerance
            << " %" << std::endl;
  ProbeWorktrees worktrees(root);
  std::map<size_t, RegionProfiles> profiles;  // each measured probe's functions, for the culprit's differential
  const auto measure = [&](size_t i) -> BisectFigures {
    const auto& commit = line[i];
    RevisionBuild build;
    try {
      build = build_revision(root, a.work, commit, *manifest.build, gate.targets);
    } catch (const InputError& e) {
      worktrees.made((std::filesystem::absolute(a.work) / commit.substr(0, 12)).string());
      std::cout << "  " << commit.substr(0, 12) << " does not build, skipped: " << one_line(e.what()).substr(0, 160) << std::endl;
      return std::nullopt;
    }
    worktrees.made(build.worktree);
    auto argv = resolve_command(gate, build.build_dir);
    argv.insert(argv.end(), a.cost_args.begin(), a.cost_args.end());
    const auto run = measure_cost(argv, {gate.cache, manifest.environment, gate.timeout_seconds});
    worktrees.remove(build.worktree);
    profiles[i] = run.profiles;
    std::map<std::string, double> figures;
    for (const auto& region : run.regions) {
      if (region.name.find(a.cost_filter) != std::string::npos) figures[region.name] = median(region.instructions);
    }
    std::cout << "  " << commit.substr(0, 12) << " " << one_line(commit_subject(root, commit)).substr(0, 60) << ":";
    for (const auto& [name, value] : figures) std::cout << " " << one_line(name) << " " << std::setprecision(12) << value;
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
      const auto& before = *std::find_if(outcome.probes.begin(), outcome.probes.end(), [&](const BisectProbe& p) { return p.index == outcome.last_good; })->figures;
      const auto& after = *std::find_if(outcome.probes.begin(), outcome.probes.end(), [&](const BisectProbe& p) { return p.index == outcome.first_bad; })->figures;
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
        verdict = "a creep, no single culprit: " + describe(outcome.first_bad) + " crossed the tolerance by a change within it" + moves.str();
        status = 3;
      }
      break;
    }
    case BisectOutcome::Kind::skipped:
      verdict = "the first bad commit is after " + describe(outcome.last_good) + " and up to " + describe(outcome.first_bad) +
                "; the commits between do not build";
      status = 3;
      break;
  }
  for (const auto& [name, changes] : function_changes) {
    std::cout << "functions that moved " << one_line(name) << " from " << line[outcome.last_good].substr(0, 12) << " to "
              << line[outcome.first_bad].substr(0, 12) << ":\n" << profile_changes_text(changes, "  ");
  }
  std::cout << "perfgate bisect: " << verdict << " (" << outcome.probes.size() << " probes)" << std::endl;
  if (!a.json.empty()) {
    nlohmann::json probes = nlohmann::json::array();
    for (const auto& p : outcome.probes) {
      nlohmann::json item = {{"commit", line[p.index]}, {"index", p.index}, {"bad", p.bad}, {"built", p.figures.has_value()}};
      if (p.figures) item["instructions"] = *p.figures;
      probes.push_back(item);
    }
    const char* kinds[] = {"no_change", "culprit", "creep", "skipped"};
    nlohmann::json functions_json = nlohmann::json::object();  // by benchmark: the first bad commit against its parent
    for (const auto& [name, changes] : function_changes) functions_json[name] = profile_changes_json(changes);
    write_file_atomically(a.json, json_output_text({{"good", line.front()}, {"bad", line.back()}, {"gate", gate.name},
                                                    {"tolerance", a.tolerance}, {"outcome", kinds[static_cast<int>(outcome.kind)]},
                                                    {"first_bad", outcome.kind == BisectOutcome::Kind::no_change ? nlohmann::json(nullptr)
                                                                                                                 : nlohmann::json(line[outcome.first_bad])},
                                                    {"moved", outcome.moved}, {"probes", probes}, {"verdict", verdict},
                                                    {"functions", functions_json}}));
  }
  return status;
}

}  // namespace perfgate
