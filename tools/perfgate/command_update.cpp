// perfgate update: rewrites a baseline from results, with provenance and a reviewable diff. Reading, planning and
// writing happen under one lock on the baseline's folder, and the file is replaced atomically (atomic_write.h).
#include "atomic_write.h"
#include "baseline.h"
#include "commands.h"
#include "error.h"
#include "folder_lock.h"
#include "git.h"
#include "one_line.h"
#include "read_file.h"
#include "results.h"
#include "update.h"
#include "utc_time.h"

#include <filesystem>
#include <iostream>

namespace perfgate {
namespace {

std::string folder_of(const std::string& path) {
  const auto parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

}  // namespace

CLI::App* add_update_command(CLI::App& app, UpdateArgs& a) {
  auto* cmd = app.add_subcommand("update", "rewrite a baseline from results (atomically, with provenance and a diff)");
  cmd->add_option("--results", a.results, "Google Benchmark JSON; twice for timing-derived entries")->required();
  cmd->add_option("--baseline", a.baseline, "baseline JSON to create or update")->required();
  cmd->add_option("--reason", a.reason, "why the baseline changes (recorded)")->required();
  cmd->add_option("--track", a.track, "start tracking FIELD:higher|lower|either:abs=X|rel=X|exact[:limit=X][:unit=U][:advisory]");
  cmd->add_flag("--allow-dirty", a.allow_dirty, "accept uncommitted changes in the working tree");
  cmd->add_flag("--ratchet", a.ratchet, "only move values the good way");
  return cmd;
}

int run_update(const UpdateArgs& a) {
  if (a.results.size() > 2) throw InputError("update: give one capture, or two for timings");
  if (a.reason.find_first_not_of(" \t\r\n") == std::string::npos) throw InputError("update: --reason must say why the baseline changes");
  require_not_an_input(a.baseline, "--baseline", a.results);  // the baseline is read and written; results only read
  std::vector<std::string> texts;
  std::vector<Results> captures;
  for (const auto& path : a.results) {
    texts.push_back(read_whole_file(path, "results"));
    captures.push_back(parse_results(texts.back(), path));
  }
  // Two captures are two measurements, or the check that they agree proves nothing: the same file (or a copy of it,
  // byte for byte: no two timing runs write the same text) is one capture given twice.
  if (texts.size() == 2 && texts[0] == texts[1]) {
    throw InputError("update: the two --results are one capture given twice ('" + a.results[0] + "' and '" + a.results[1] + "')");
  }
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
  write_file_atomically(a.baseline, plan.text);
  std::cout << "updated " << one_line(a.baseline) << " (" << plan.next.entries.size() << " entries): " << one_line(a.reason) << '\n';
  for (const auto& line : plan.diff) std::cout << "  " << one_line(line) << '\n';
  return 0;
}

}  // namespace perfgate
