#pragma once
// What the dashboard shows, from a history: one series per (machine, suite, benchmark, field) of a branch, its last
// runs, its change points, and whether a baseline gates it. Separated from the page (dashboard_html.h).
#include "history/history_store.h"
#include "model/change_points.h"

#include <string>
#include <vector>

namespace perfgate {

struct DashboardSeries {
  std::string machine, suite, benchmark, field, unit;
  std::string kind;  ///< "gated", "advisory" (a baseline entry that never fails) or "recorded" (no baseline entry)
  std::vector<HistoryPoint> points;  ///< oldest first
  std::vector<ChangePoint> changes;
};

struct DashboardData {
  std::string title, store, branch, generated_at;
  std::string commit_url;  ///< a template with {commit}, or "" (commits shown as text)
  size_t runs = 0;         ///< runs on the branch
  std::string first_run, last_run;
  std::vector<DashboardSeries> series;
};

/// A baseline entry's key and kind, for telling gated series from advisory ones.
struct BaselineKind {
  std::string benchmark, field;
  bool advisory = false;
};

/// The branch's series, each its last `last` runs, change points at `min_shift`; those with change points first, then
/// gated, advisory and recorded ones.
DashboardData dashboard_data(const HistoryStore& store, const std::string& branch, int last, double min_shift,
                             const std::vector<BaselineKind>& baselines);

}  // namespace perfgate
