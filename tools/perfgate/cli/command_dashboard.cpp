// perfgate dashboard: a static site (index.html, self-contained) of a history's trends and change points, from any
// store. Exit 0 written, 2 bad input, 5 the store could not be reached.
#include "base/error.h"
#include "base/one_line.h"
#include "base/output_files.h"
#include "base/utc_time.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "history/history_store.h"
#include "model/baseline.h"
#include "render/dashboard_data.h"
#include "render/dashboard_html.h"

#include <filesystem>
#include <iostream>

namespace perfgate {

Command add_dashboard_command(CLI::App& app, DashboardArgs& a) {
  Command cmd(app, "dashboard", "a static site of the history's trends and change points, from any store");
  cmd.footer(command_footer(
      "perfgate dashboard --store git:origin#perfgate-history --out site --baseline baselines/sorting.json "
      "--commit-url 'https://github.com/OWNER/REPO/commit/{commit}'",
      {Exit::pass, Exit::store_unavailable}));
  cmd.option("--store", a.store, "the history (as for perfgate history)").required();
  cmd.option("--out", a.out, "folder to write index.html into: new, empty or an earlier dashboard's (created)")
      .required();
  cmd.option("--branch", a.branch, "the line of history shown").show_default();
  cmd.option("--last", a.last, "runs per series shown").show_default().in_range(2, 100000);
  cmd.option("--min-shift", a.min_shift, "smallest relative shift shown as a change point")
      .show_default()
      .in_range(0.0, 100.0);
  cmd.option("--baseline", a.baselines, "a baseline whose entries mark series as gated or advisory (repeatable)");
  cmd.option("--commit-url", a.commit_url,
             "link for each commit, with {commit}, e.g. https://github.com/OWNER/REPO/commit/{commit}");
  cmd.option("--title", a.title, "the page's title").show_default();
  return cmd;
}

int run_dashboard(const DashboardArgs& a) {
  if (!a.commit_url.empty()) validate_commit_url(a.commit_url);
  Outputs outputs("dashboard");
  outputs.read(history_store_files(a.store));
  outputs.read(a.baselines);
  outputs.folder(a.out, "--out");
  const auto page = (std::filesystem::path(a.out) / "index.html").string();
  std::vector<BaselineKind> kinds;
  for (const auto& path : a.baselines) {
    for (const auto& entry : read_baseline(path).entries)
      kinds.push_back({entry.benchmark, entry.field, entry.advisory});
  }
  const HistoryStore store(a.store, HistoryStore::Access::read_only);
  auto data = dashboard_data(store, a.branch, a.last, a.min_shift, kinds);
  if (data.series.empty()) throw InputError("dashboard: no runs on branch '" + a.branch + "' in " + store.name());
  data.title = a.title;
  data.commit_url = a.commit_url;
  data.generated_at = utc_now();
  outputs.write(page, render_dashboard(data));
  size_t changes = 0;
  for (const auto& s : data.series) changes += s.changes.size();
  std::cout << "dashboard: " << data.series.size() << " series, " << changes << " change points, " << data.runs
            << " runs: " << one_line(page) << '\n';
  return code_of(Exit::pass);
}

}  // namespace perfgate
