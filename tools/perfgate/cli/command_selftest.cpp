// perfgate selftest: proves the gates can fail. The tree (the working tree as it is, ignored files aside) is
// checked out into a throwaway worktree and built with the manifest's selftest build; each plant — a patch kept
// outside the sources — applied to it must fail one of its set's checks, by a FAIL row (a row only MISSING is no
// catch: a check may measure part of a baseline) or a measuring run that fails, and the unpatched tree must then pass
// every check that caught one. A plant that no longer applies or builds fails the self-test loudly. Checks run
// through `perfgate gate` (this executable), one process each, reading their verdicts.json. Exit 0 every plant caught
// and the clean tree passing its catching checks, 1 otherwise.
#include "base/atomic_write.h"
#include "base/error.h"
#include "base/json_input.h"
#include "base/number_format.h"
#include "base/one_line.h"
#include "base/read_file.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "formats/gate_manifest.h"
#include "formats/verdicts_input.h"
#include "model/fix_command.h"
#include "run/git.h"
#include "run/process.h"
#include "run/worktree_build.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <set>

namespace perfgate {
namespace {

namespace fs = std::filesystem;

struct Plant {
  std::string name, patch;
  size_t set = 0;  ///< its set in the manifest's selftest.sets
};

struct CheckOutcome {
  bool caught = false;       ///< a FAIL row, a failed speedup or a failed run
  std::string what;          ///< the failing rows, or why the run failed; "" when it passed
  bool unavailable = false;  ///< this host cannot measure the check (exit 6): neither a pass nor a catch
};

ProcessResult git_in(const std::string& folder, const std::vector<std::string>& arguments,
                     const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv = {"git", "-C", folder};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  ProcessOptions options;
  options.standard_error = StandardError::merge;
  options.unset = repository_selector_variables();
  // commit-tree writes a commit object: an identity is needed even where none is configured, and fixed dates make the
  // same tree the same commit, so that a kept worktree is found again.
  options.env = {"GIT_COMMITTER_NAME=perfgate selftest", "GIT_COMMITTER_EMAIL=selftest@perfgate.invalid",
                 "GIT_AUTHOR_NAME=perfgate selftest",    "GIT_AUTHOR_EMAIL=selftest@perfgate.invalid",
                 "GIT_AUTHOR_DATE=2000-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2000-01-01T00:00:00Z"};
  options.env.insert(options.env.end(), env.begin(), env.end());
  options.timeout_seconds = 600.0;
  return run_process(argv, options);
}

std::string first_line_of(const ProcessResult& r, const std::string& what) {
  const auto line = r.output.substr(0, r.output.find('\n'));
  if (r.status != 0 || line.empty()) throw InputError("selftest: " + what + " failed: " + output_tail(r.output));
  return line;
}

// The tree under test as a commit: the working tree as it is, untracked files included and ignored ones not, written
// through a private index (the repository's own index, branches and stashes are untouched). HEAD itself when nothing
// differs from it.
std::string working_tree_commit(const std::string& root, const fs::path& work) {
  fs::create_directories(work);
  const auto index = (work / "selftest.index").string();
  fs::remove(index);
  const std::vector<std::string> private_index = {"GIT_INDEX_FILE=" + index};
  const auto read = git_in(root, {"read-tree", "HEAD"}, private_index);
  if (read.status != 0)
    throw InputError("selftest: git read-tree HEAD (private index) failed: " + output_tail(read.output));
  // The work folder (results, the private index, kept worktrees) is never part of the tree it tests: excluded by
  // name when inside the repository and not ignored already (git refuses to be told about an ignored path).
  std::vector<std::string> add = {"add", "--all", "--", "."};
  const auto work_in_root = fs::relative(fs::weakly_canonical(work), fs::weakly_canonical(root));
  if (!work_in_root.empty() && *work_in_root.begin() != ".." &&
      git_in(root, {"check-ignore", "--quiet", "--no-index", work_in_root.generic_string()}).status != 0) {
    add.push_back(":(exclude)" + work_in_root.generic_string());
  }
  const auto added = git_in(root, add, private_index);
  if (added.status != 0) throw InputError("selftest: git add (private index) failed: " + output_tail(added.output));
  const auto tree = first_line_of(git_in(root, {"write-tree"}, private_index), "git write-tree");
  fs::remove(index);
  const auto head = resolve_commit(root, "HEAD");
  if (tree == first_line_of(git_in(root, {"rev-parse", "HEAD^{tree}"}), "git rev-parse HEAD^{tree}")) return head;
  return first_line_of(git_in(root, {"commit-tree", tree, "-p", head, "-m", "perfgate selftest: the working tree"}),
                       "git commit-tree");
}

std::vector<Plant> find_plants(const GateManifest& m, const std::vector<std::string>& only) {
  std::vector<Plant> plants;
  for (size_t k = 0; k < m.selftest->sets.size(); ++k) {
    const auto folder = fs::path(m.folder) / m.selftest->sets[k].plants;
    std::error_code error;
    if (!fs::is_directory(folder, error))
      throw InputError("selftest: plants folder '" + folder.string() + "' is not a folder");
    std::vector<Plant> found;
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.path().extension() == ".patch")
        found.push_back({entry.path().stem().string(), entry.path().string(), k});
    }
    if (found.empty()) throw InputError("selftest: no plant (*.patch) in " + folder.string());
    std::sort(found.begin(), found.end(), [](const Plant& a, const Plant& b) { return a.name < b.name; });
    plants.insert(plants.end(), found.begin(), found.end());
  }
  std::set<std::string> names;
  for (const auto& p : plants) {
    if (!names.insert(p.name).second) throw InputError("selftest: two plants are named '" + p.name + "'");
  }
  if (only.empty()) return plants;
  std::vector<Plant> chosen;
  for (const auto& name : only) {
    const auto found = std::find_if(plants.begin(), plants.end(), [&](const Plant& p) { return p.name == name; });
    if (found == plants.end())
      throw InputError("selftest: no plant named '" + name + "' in the manifest's plant folders");
    chosen.push_back(*found);
  }
  return chosen;
}

// The manifest the checks run from: the tree's own, its baselines taken from the tree, each gate check's gate with
// the check's arguments appended to its command (a gate is the check of one set at most), and nothing else.
std::string checks_manifest(const std::string& tree_manifest, const Selftest& selftest) {
  auto doc = parse_json_input(read_whole_file(tree_manifest, "gate manifest"), tree_manifest);
  const auto folder = fs::path(tree_manifest).parent_path();
  doc["baseline_path"] = (folder / doc["baseline_path"].get<std::string>()).lexically_normal().string();
  nlohmann::json gates = nlohmann::json::array();
  for (const auto& set : selftest.sets) {
    for (const auto& check : set.checks) {
      if (check.gate.empty()) continue;
      for (const auto& g : doc["gates"]) {
        if (g["name"] != check.gate) continue;
        auto gate = g;
        for (const auto& argument : check.arguments) gate["command"].push_back(argument);
        gates.push_back(gate);
      }
    }
  }
  doc["gates"] = gates;
  doc.erase("build");
  doc.erase("selftest");
  return json_output_text(doc);
}

std::string check_name(const SelftestCheck& check) {
  if (!check.gate.empty()) return check.gate;
  std::string text;
  for (const auto& word : check.command) text += (text.empty() ? "" : " ") + word;
  return "`" + text + "`";
}

// A command check: run in the build folder with the manifest's environment; any exit status but 0 is a catch.
CheckOutcome run_command_check(const GateManifest& m, const SelftestCheck& check, const std::string& build_dir,
                               const fs::path& out, size_t index) {
  fs::create_directories(out);
  ProcessOptions options;
  options.directory = build_dir;
  options.standard_error = StandardError::merge;
  options.env = m.environment;
  options.timeout_seconds = 3600.0;  // a test suite that hangs must not hang the self-test
  const auto r = run_process(check.command, options);
  if (r.timed_out) return {true, "ran past 3600 s and was stopped"};
  write_file_atomically((out / ("command-" + std::to_string(index) + ".log")).string(), r.output);
  if (r.status == 0) return {};  // the command's own status: 0 is its pass
  return {true, "exit " + std::to_string(r.status) + ": " + output_tail(r.output, 240)};
}

CheckOutcome run_check(const std::string& manifest, const std::string& build_dir, const std::string& gate,
                       const fs::path& out) {
  fs::create_directories(out);
  const auto verdicts = out / (gate + ".verdicts.json");
  const auto log = out / (gate + ".log");
  fs::remove(verdicts);
  ProcessOptions options;
  options.standard_error = StandardError::merge;
  // The gate fills a results folder of its own (marked as the gate's), beside the self-test's logs and verdicts.
  const auto results = (out / "gate-results").string();
  const auto r = run_process({own_path(), "gate", "--manifest", manifest, "--build", build_dir, "--only", gate,
                              "--results-dir", results, "--verdicts", verdicts.string()},
                             options);
  write_file_atomically(log.string(), r.output);
  if (r.status == code_of(Exit::pass)) return {};
  if (r.status == code_of(Exit::unavailable)) return {false, output_tail(r.output, 240), true};
  if (r.status != code_of(Exit::fail) && r.status != code_of(Exit::inconclusive))
    return {true, "the run failed (exit " + std::to_string(r.status) + "): " + output_tail(r.output, 240)};
  // Read as every verdicts.json is read: checked, and judged again from its rows.
  const auto doc = parse_verdicts_json(read_whole_file(verdicts.string(), "verdicts"), verdicts.string());
  std::string rows;
  for (const auto& row : doc.rows) {
    if (row.verdict != "FAIL") continue;
    rows += (rows.empty() ? "" : "; ") + row.benchmark + " " + row.field + " " +
            (row.value.empty() ? "null" : row.value) + " (baseline " + (row.baseline.empty() ? "null" : row.baseline) +
            ", " + row.change_text + ")";
  }
  for (const auto& s : doc.speedups) {
    if (s.verdict == "FAIL")
      rows += std::string(rows.empty() ? "" : "; ") + "speedup " + format_number(s.median) + "x below its floor";
  }
  if (!rows.empty()) return {true, one_line(rows)};
  return {false, r.status == code_of(Exit::inconclusive) ? "inconclusive" : "only rows not measured (MISSING)"};
}

}  // namespace

Command add_selftest_command(CLI::App& app, SelftestArgs& a) {
  Command cmd(app, "selftest", "apply each planted regression (a patch) to a copy of the tree: each must fail a gate");
  cmd.footer(command_footer("perfgate selftest --manifest perf/gates.json --work build/selftest",
                            {Exit::pass, Exit::fail, Exit::unavailable},
                            "fail: a plant passed every check, no longer applies or builds, or the clean tree failed"));
  cmd.option("--manifest", a.manifest, "the gate manifest, with its selftest member").required();
  cmd.option("--plant", a.plants, "run this plant only (its patch's name without .patch; repeatable)");
  cmd.option("--work", a.work,
             "folder for the throwaway worktree and the checks' results (inside the repository keeps the compiler "
             "cache warm; it is never part of the tree tested)")
      .show_default();
  cmd.flag("--keep", a.keep, "keep the worktree and its build afterwards (a later run of the same tree reuses them)");
  return cmd;
}

int run_selftest(const SelftestArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  const auto seconds = [&] {
    return static_cast<long>(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  };
  const auto m = read_gate_manifest(a.manifest);
  if (!m.selftest)
    throw InputError("selftest: " + a.manifest + " has no selftest member (docs/reference/gate-manifest.md)");
  const auto& selftest = *m.selftest;
  const auto plants = find_plants(m, a.plants);
  const auto root = repository_root(m.folder);
  const auto manifest_in_tree = fs::relative(fs::absolute(a.manifest), root);
  if (manifest_in_tree.empty() || *manifest_in_tree.begin() == "..")
    throw InputError("selftest: the manifest is not inside the repository " + root);
  const auto work = fs::absolute(a.work);
  const auto commit = working_tree_commit(root, work);
  const bool changed = commit != resolve_commit(root, "HEAD");
  std::set<std::string> target_set;
  std::vector<std::string> targets;
  for (const auto& set : selftest.sets) {
    for (const auto& check : set.checks) {
      for (const auto& t : check.gate.empty() ? check.targets : m.gate(check.gate).targets) {
        if (target_set.insert(t).second) targets.push_back(t);
      }
    }
  }
  std::cout << "selftest: building " << commit.substr(0, 12)
            << (changed ? " (the working tree, which differs from HEAD)" : " (HEAD)") << ", " << plants.size()
            << " plant" << (plants.size() == 1 ? "" : "s") << std::endl;
  // A worktree kept (--keep) or left by a run that was stopped may hold a plant: it is restored before anything else.
  const auto kept = work / commit.substr(0, 12);
  if (fs::exists(kept / ".git")) {
    const auto reset = git_in(kept.string(), {"reset", "--hard", "--quiet"});
    const auto cleaned = git_in(kept.string(), {"clean", "-fdq"});
    if (reset.status != 0 || cleaned.status != 0)
      throw InputError("selftest: could not restore the worktree " + kept.string());
  }
  // Removed however the self-test ends (unless --keep): a worktree left behind is registered in the repository.
  struct WorktreeRemoval {
    std::string root, worktree;
    bool keep;
    ~WorktreeRemoval() {
      std::error_code ignored;
      if (keep || !fs::exists(worktree, ignored)) return;
      const auto removed = git_in(root, {"worktree", "remove", "--force", worktree});
      if (removed.status != 0)
        std::cout << "selftest: the worktree " << worktree << " could not be removed: " << output_tail(removed.output)
                  << std::endl;
    }
  } removal{root, kept.string(), a.keep};
  const auto tree = build_revision(root, work.string(), commit, selftest.build, targets);
  // In the worktree (untracked, so it marks nothing there as changed): the gate records the worktree's commit, the
  // plant's changes marked -dirty. Written again before each check, as restoring the tree after a plant removes it.
  const auto manifest = (fs::path(tree.worktree) / ".perfgate-selftest-checks.json").string();
  const auto manifest_text = checks_manifest((fs::path(tree.worktree) / manifest_in_tree).string(), selftest);
  std::cout << "selftest: built in " << seconds() << " s (" << tree.build_dir << ")" << std::endl;

  // run(check, tag): one check on the tree as it is now, its files under results/<tag>; checks are numbered across
  // the sets (a command check's log is command-<number>.log).
  std::vector<size_t> first_check;  // the number of each set's first check
  size_t check_count = 0;
  for (const auto& set : selftest.sets) {
    first_check.push_back(check_count);
    check_count += set.checks.size();
  }
  const auto run = [&](const SelftestCheck& check, size_t number, const std::string& tag) {
    const auto out = work / "results" / tag;
    if (check.gate.empty()) return run_command_check(m, check, tree.build_dir, out, number);
    write_file_atomically(manifest, manifest_text);
    return run_check(manifest, tree.build_dir, check.gate, out);
  };
  const auto print = [](const SelftestCheck& check, const auto& outcome, long took) {
    std::cout << "    " << check_name(check)
              << (outcome.caught        ? " FAILED: " + outcome.what
                  : outcome.unavailable ? " NOT MEASURED HERE: " + outcome.what
                                        : " passed" + (outcome.what.empty() ? "" : " (" + outcome.what + ")"))
              << " [" << took << " s]" << std::endl;
  };
  int status = 0;
  std::vector<std::string> unmeasured;  // checks and plants this host could not measure: neither passed nor caught
  std::vector<std::string> missed;
  std::set<size_t> catching;  // the numbers of the checks that caught a plant
  for (const auto& plant : plants) {
    std::cout << "plant " << plant.name << " (must fail a check):" << std::endl;
    const auto applied = git_in(tree.worktree, {"apply", "--whitespace=nowarn", plant.patch});
    if (applied.status != 0) {
      std::cout << "    does not apply: " << output_tail(applied.output, 240) << std::endl;
      missed.push_back(plant.name + " (does not apply)");
      continue;
    }
    bool built = true;
    const auto build_began = seconds();
    try {
      build_worktree(root, tree, selftest.build, targets);  // the plant applied: built as it is, never reset
      std::cout << "    built [" << seconds() - build_began << " s]" << std::endl;
    } catch (const InputError& e) {
      std::cout << "    does not build: " << one_line(e.what()) << std::endl;
      missed.push_back(plant.name + " (does not build)");
      built = false;
    }
    if (built) {
      bool caught = false;
      bool unmeasurable = false;  // a check this host could not measure might have caught it
      const auto& checks = selftest.sets[plant.set].checks;
      for (size_t k = 0; k < checks.size() && !caught; ++k) {
        const auto began = seconds();
        const auto outcome = run(checks[k], first_check[plant.set] + k, plant.name);
        print(checks[k], outcome, seconds() - began);
        unmeasurable = unmeasurable || outcome.unavailable;
        caught = outcome.caught;  // one catch is the proof; the checks after it would only cost time
        if (caught) catching.insert(first_check[plant.set] + k);
      }
      if (!caught) (unmeasurable ? unmeasured : missed).push_back(plant.name);
    }
    const auto reset = git_in(tree.worktree, {"reset", "--hard", "--quiet"});
    const auto clean = git_in(tree.worktree, {"clean", "-fdq"});
    if (reset.status != 0 || clean.status != 0)
      throw InputError("selftest: could not restore the worktree " + tree.worktree + " after " + plant.name);
  }
  // A catch proves something only where the unpatched tree passes the same check: each check that caught a plant runs
  // once more on the tree restored and built as it is. A check that caught nothing proves nothing here either way
  // (the project's own test run judges the tree as it is), so it is not run again.
  if (!catching.empty()) {
    const auto build_began = seconds();
    build_worktree(root, tree, selftest.build, targets);
    std::cout << "clean tree (must pass every check that caught a plant): built [" << seconds() - build_began << " s]"
              << std::endl;
  }
  for (size_t set = 0; set < selftest.sets.size(); ++set) {
    const auto& checks = selftest.sets[set].checks;
    for (size_t k = 0; k < checks.size(); ++k) {
      if (catching.count(first_check[set] + k) == 0) continue;
      const auto began = seconds();
      const auto outcome = run(checks[k], first_check[set] + k, "clean");
      print(checks[k], outcome, seconds() - began);
      if (outcome.caught) {
        status = 1;
        std::cout << "selftest: the clean tree fails " << check_name(checks[k]) << ": its catches prove nothing"
                  << std::endl;
      }
      if (outcome.unavailable) unmeasured.push_back(check_name(checks[k]) + " (clean tree)");
    }
  }
  if (!missed.empty()) {
    status = 1;
    std::string list;
    for (const auto& name : missed) list += (list.empty() ? "" : ", ") + name;
    std::cout << "selftest: not caught: " << list << std::endl;
  }
  if (status == 0 && !unmeasured.empty()) {
    status = code_of(Exit::unavailable);
    std::string list;
    for (const auto& name : unmeasured) list += (list.empty() ? "" : ", ") + name;
    std::cout << "selftest: not measured on this host: " << list << std::endl;
  }
  std::cout << "perfgate selftest: "
            << (status == 0   ? "PASS"
                : status == 1 ? "FAIL"
                              : "NOT MEASURED HERE")
            << " (" << plants.size() << " plants, " << check_count << " checks, " << seconds() << " s)" << std::endl;
  return status;
}

}  // namespace perfgate
