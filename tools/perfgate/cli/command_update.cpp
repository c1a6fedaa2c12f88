// perfgate update: rewrites a baseline from results, with provenance and a reviewable diff. The results come from
// files (--results) or from running the suite's command (after --) as many times as the baseline's entries need.
// Reading, planning and writing happen under one lock on the baseline's folder (created when missing), and the file
// is replaced atomically (atomic_write.h).
#include "base/atomic_write.h"
#include "base/error.h"
#include "base/folder_lock.h"
#include "base/one_line.h"
#include "base/output_files.h"
#include "base/read_file.h"
#include "base/temporary_folder.h"
#include "base/time_units.h"
#include "base/utc_time.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "formats/function_profile_file.h"
#include "formats/instruction_changes.h"
#include "formats/results_input.h"
#include "model/baseline.h"
#include "model/results.h"
#include "model/update.h"
#include "run/benchmark_runner.h"
#include "run/git.h"
#include "run/progress.h"

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace perfgate {
namespace {

// The commit a baseline is recorded against, as its provenance says it: a commit id, that id marked "-dirty" when
// uncommitted changes were accepted, or that there is no repository.
std::string recorded_commit(const RepositoryState& state) {
  if (!state.inside) return "none (not in a git repository)";
  return state.commit.empty() ? "none (no commit yet)" : marked_commit(state);
}

std::string dirty_tree_message(const RepositoryState& state) {
  std::string files;
  for (size_t i = 0; i < state.uncommitted.size() && i < 3; ++i) files += (i == 0 ? "" : ", ") + state.uncommitted[i];
  if (state.uncommitted.size() > 3) files += " and " + std::to_string(state.uncommitted.size() - 3) + " more";
  return "update: the working tree has uncommitted changes (" + files +
         "), so no commit describes the code measured; commit first, "
         "or add --allow-dirty and the provenance records the commit marked -dirty";
}

}  // namespace

Command add_update_command(CLI::App& app, UpdateArgs& a) {
  Command cmd(app, "update", "create or rewrite a baseline from results (atomically, with provenance and a diff)");
  cmd.footer(command_footer(
      "perfgate update --baseline baselines/sorting.json --reason 'first baseline' --track comparisons:either:exact "
      "--track real_time:lower:noise -- build/sort_benchmarks --benchmark_repetitions=3\n  perfgate update "
      "--baseline baselines/sorting.json --reason 'BM_Old is gone' --drop 'BM_Old/64:comparisons' --results "
      "build/results/sorting.json\n  perfgate update --baseline baselines/sorting.json --reason 'one allocation fewer "
      "per sort' --only 'BM_Sort/1024:allocations' --results build/results/sorting.json",
      {Exit::pass}, "0 the baseline was created or updated; 2 refused, nothing written"));
  cmd.option(
      "--results", a.results,
      "results, one file per run (any format perfgate reads): twice for timings, at least 3 times for a tolerance from "
      "noise (or "
      "give the suite's command after --); a function profile beside the first (<stem>.functions.tsv, from perfgate "
      "cost) is kept beside the baseline");
  cmd.option("--baseline", a.baseline, "baseline JSON to create or update (its folder is created)").required();
  cmd.option("--reason", a.reason, "why the baseline changes (recorded)").required();
  cmd.option("--track", a.track,
             "track FIELD:higher|lower|either:abs=X|rel=X|exact|noise[:limit=X][:unit=U][:advisory] for every "
             "benchmark reporting it (noise: a band learned from the runs' spread); a field already tracked takes this "
             "criterion");
  cmd.option("--drop", a.drop, "stop tracking BENCHMARK:FIELD (a metric gone on purpose)");
  cmd.option(
      "--only", a.only,
      "re-record only BENCHMARK:FIELD (repeatable; a metric that moved on purpose): every other entry keeps its value, "
      "and the provenance names this update");
  cmd.flag("--allow-dirty", a.allow_dirty,
           "accept uncommitted changes in the working tree (recorded as <commit>-dirty)");
  cmd.flag("--ratchet", a.ratchet, "only move values the good way");
  cmd.flag("--move-timings", a.move_timings,
           "record the timings anew on this machine although the baseline's were recorded on another (they are "
           "then judged here only)");
  cmd.option("--runs", a.noise_runs,
             "with the suite's command: how often it runs when a tolerance is learned from noise")
      .show_default()
      .in_range(3, 100);
  cmd.option(
      "command", a.command,
      "after --: the suite's benchmark command; perfgate runs it once, twice when timings are tracked, and --runs "
      "times for a tolerance from noise");
  return cmd;
}

int run_update(const UpdateArgs& a) {
  if (a.results.empty() == a.command.empty())
    throw InputError("update: give --results FILE (one per run) or the suite's command after --");
  if (a.results.size() > 100) throw InputError("update: give at most 100 runs' --results");
  if (a.reason.find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError("update: --reason must say why the baseline changes");
  Outputs outputs("update");  // the baseline is read and replaced; the results only read
  outputs.read(a.results);
  for (const auto& path : a.results) outputs.read(function_profile_path(path));
  outputs.in_place(a.baseline, "--baseline");
  UpdateRequest request;
  request.ratchet = a.ratchet;
  for (const auto& spec : a.track) request.track.push_back(parse_track_spec(spec));
  for (const auto& key : a.drop) request.drop.push_back(parse_entry_key(key, "--drop"));
  for (const auto& key : a.only) request.only.push_back(parse_entry_key(key, "--only"));
  std::vector<std::string> texts;
  std::vector<Results> captures;
  for (const auto& path : a.results) {
    texts.push_back(read_whole_file(path, "results"));
    captures.push_back(parse_results(texts.back(), path));
  }
  // Two captures are two measurements, or the check that they agree proves nothing: the same file (or a copy of it,
  // byte for byte: no two timing runs write the same text) is one capture given twice.
  for (size_t i = 0; i < texts.size(); ++i) {
    for (size_t j = i + 1; j < texts.size(); ++j) {
      if (texts[i] == texts[j]) {
        throw InputError("update: two --results are one capture given twice ('" + a.results[i] + "' and '" +
                         a.results[j] + "')");
      }
    }
  }
  // Read, plan and write under one lock: a concurrent update waits and then builds on this one's result. A baseline
  // whose folder does not exist yet is planned under its nearest existing ancestor, and the folder made only to write.
  const auto folder = nearest_existing_folder(write_target_of(a.baseline));
  const FolderLock lock(folder, 60.0);
  std::optional<Baseline> current;
  if (std::filesystem::exists(a.baseline)) current = read_baseline(a.baseline);
  const auto repository = repository_state(folder);
  if (!a.allow_dirty && !repository.uncommitted.empty()) throw InputError(dirty_tree_message(repository));
  if (!captures.empty()) {  // every file given is a run the update uses, or it is refused: none is silently set aside
    const int used = captures_needed(captures.front(), current, request, static_cast<int>(captures.size()));
    if (static_cast<int>(captures.size()) > used) {
      throw InputError("update: " + std::to_string(captures.size()) +
                       " --results given, and this update records from " + std::to_string(used) +
                       " (two for timings; three or more only for a tolerance from noise)");
    }
  }
  std::optional<TemporaryFolder> scratch;
  if (!a.command.empty()) {  // the suite, run here: once, and again when the update holds a timing
    scratch.emplace("update");
    // Named for messages by what they are: the files are gone once the update ends.
    captures.push_back(run_benchmark(a.command, (scratch->path() / "capture-1.json").string(), {}, 0.0, folder));
    captures.back().source = "the suite's run 1";
    const int needed = captures_needed(captures.front(), current, request, a.noise_runs);
    Progress progress;
    for (int run = 2; run <= needed; ++run) {
      progress.update("update: run " + std::to_string(run) + " of " + std::to_string(needed) + " of the suite");
      const auto name = "capture-" + std::to_string(run) + ".json";
      captures.push_back(run_benchmark(a.command, (scratch->path() / name).string(), {}, 0.0, folder));
      captures.back().source = "the suite's run " + std::to_string(run);
    }
  }
  for (const auto& capture : captures) {
    for (const auto& note : capture.notes) std::cout << "note: " << capture.source << ": " << one_line(note) << "\n";
  }
  const auto& ctx = captures.front().context;
  // Timings belong to the machine that recorded them: re-recording them elsewhere moves the timing gate to this
  // machine (and leaves the recording machine's runs SKIPPED), which is done only when asked for. Timings that --only
  // leaves as they are would keep their values under this machine's name in the provenance: refused outright.
  if (current && !current->provenance.machine_fingerprint.empty()) {
    const auto here = ctx.count("machine_fingerprint") != 0 ? ctx.at("machine_fingerprint") : std::string();
    const auto there = current->provenance.machine_fingerprint;
    const auto here_text = here.empty() ? std::string("an unknown one") : here;
    auto among = [&](const std::vector<EntryKey>& keys, const Entry& e) {
      return std::any_of(keys.begin(), keys.end(),
                         [&](const EntryKey& k) { return k.benchmark == e.benchmark && k.field == e.field; });
    };
    for (const auto& e : current->entries) {
      if (among(request.drop, e) || !is_time_unit(e.unit) || here == there) continue;
      if (!request.only.empty() && !among(request.only, e)) {
        throw InputError("update: --only leaves " + e.benchmark + " / " + e.field + ", a timing recorded on machine " +
                         there + ", as it is, while these runs are on " + here_text +
                         ", whose name the provenance would then give it; run this update on the recording machine");
      }
      if (a.move_timings) continue;
      throw InputError("update: the baseline's timings were recorded on machine " + there + ", these runs on " +
                       here_text +
                       "; recording them here moves the timing gate to this machine: add --move-timings to do so, or "
                       "run the update on the recording machine");
    }
  }
  auto context = [&](const std::string& key) { return ctx.count(key) != 0 ? ctx.at(key) : std::string(); };
  const auto machine =
      context("machine").empty() ? context("cpu_model") + " / " + context("host_name") : context("machine");
  Provenance provenance{recorded_commit(repository), utc_now(),          machine,  context("build_type"),
                        context("torch_version"),    context("threads"), a.reason, context("machine_fingerprint")};
  const auto plan = plan_update(captures, current, request, provenance);
  // A baseline of no entry would gate nothing while every compare against it passed.
  if (plan.next.entries.empty()) {
    throw InputError(
        "update: the baseline would track nothing; give --track FIELD:DIRECTION:TOLERANCE for each figure "
        "to gate (e.g. --track real_time:lower:noise; perfgate help update)");
  }
  // The function profiles kept beside the results (perfgate cost) are kept beside the baseline: a later run whose
  // counts move then says which functions moved them. For each baselined instruction count, the profile of that count:
  // the measured one when the count was recorded from it, else the one already kept when the count was kept (a
  // ratchet), else none. Planned and checked before anything is written.
  std::optional<std::string> profiles_text;
  size_t profiled = 0;
  if (!a.results.empty()) {
    const auto measured = read_function_profiles_if_any(function_profile_path(a.results.front()));
    if (!measured.empty()) {
      const auto old = read_function_profiles_if_any(function_profile_path(a.baseline));
      RegionProfiles kept;
      for (const auto& e : plan.next.entries) {
        if (e.field != "instructions") continue;
        for (const auto* side : {&measured, &old}) {
          const auto p = side->find(e.benchmark);
          if (p != side->end() && profile_is_of(p->second, e.value) && !kept.count(e.benchmark))
            kept[e.benchmark] = p->second;
        }
      }
      profiled = kept.size();
      if (!kept.empty()) {
        profiles_text = function_profile_text(kept);
        outputs.companion(function_profile_path(a.baseline), "--baseline's function profile");
      }
    }
  }
  // The profile first: it only explains the counts, and one beside an older baseline is not believed (profile_is_of),
  // while the baseline written last is never lost to a profile that could not be written. A link at its path (a name
  // derived from the baseline's, not given) is replaced, never followed.
  if (profiles_text) outputs.write(function_profile_path(a.baseline), *profiles_text);
  outputs.write(a.baseline, plan.text);
  if (profiles_text)
    std::cout << "kept the function profiles of " << profiled << " benchmarks in "
              << one_line(function_profile_path(a.baseline)) << "\n";
  std::cout << (current ? "updated " : "created ") << one_line(a.baseline) << " (" << plan.next.entries.size()
            << " entries"
            << (a.command.empty() ? ""
                                  : ", from " + std::to_string(captures.size()) +
                                        (captures.size() == 1 ? " run" : " runs") + " of the suite")
            << "): " << one_line(a.reason) << '\n';
  for (const auto& line : plan.diff) std::cout << "  " << one_line(line) << '\n';
  for (const auto& note : plan.notes) std::cout << "note: " << one_line(note) << '\n';
  for (const auto& e : plan.next.entries) {
    if (!is_time_unit(e.unit)) continue;
    if (provenance.machine_fingerprint.empty()) {
      std::cout << "note: these results name no machine (machine_fingerprint), so its timings will read SKIPPED "
                   "against every run: record them through perfgate's runners, or give the results a "
                   "machine_fingerprint in their context.\n";
      break;
    }
    std::cout << "note: its timings are judged only against results from the machine that recorded them (fingerprint "
              << one_line(provenance.machine_fingerprint)
              << "); elsewhere they read SKIPPED. Compare two revisions on any machine with perfgate ab.\n";
    break;
  }
  return code_of(Exit::pass);
}

}  // namespace perfgate
