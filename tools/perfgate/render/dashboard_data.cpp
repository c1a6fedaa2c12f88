#include "render/dashboard_data.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace perfgate {

DashboardData dashboard_data(const HistoryStore& store, const std::string& branch, int last, double min_shift,
                             const std::vector<BaselineKind>& baselines) {
  DashboardData data;
  data.store = store.name();
  data.branch = branch;
  std::map<std::pair<std::string, std::string>, std::string> kinds;
  for (const auto& b : baselines) {
    auto& kind = kinds[{b.benchmark, b.field}];
    if (kind != "gated") kind = b.advisory ? "advisory" : "gated";  // gated by any baseline is gated
  }
  std::map<std::tuple<std::string, std::string, std::string, std::string>, DashboardSeries> series;
  for (const auto& run : store.runs()) {
    if (run.info.branch != branch) continue;
    ++data.runs;
    if (data.first_run.empty()) data.first_run = run.info.recorded_at;
    data.last_run = run.info.recorded_at;
    for (const auto& m : run.metrics) {
      auto& s = series[{run.info.machine, m.suite, m.benchmark, m.field}];
      if (s.points.empty()) {
        s.machine = run.info.machine, s.suite = m.suite, s.benchmark = m.benchmark, s.field = m.field;
        const auto kind = kinds.find({m.benchmark, m.field});
        s.kind = kind != kinds.end() ? kind->second : "recorded";
      }
      s.points.push_back({run.info.commit, run.info.recorded_at, m.value, m.unit, run.info.machine});
    }
  }
  for (auto& [key, s] : series) {
    if (last > 0 && s.points.size() > static_cast<size_t>(last))
      s.points.erase(s.points.begin(), s.points.end() - last);
    to_one_unit(s.points, s.benchmark + " / " + s.field);
    s.unit = s.points.back().unit;
    std::vector<double> values;
    for (const auto& p : s.points) values.push_back(p.value);
    s.changes = detect_change_points(values, min_shift);
    data.series.push_back(std::move(s));
  }
  // Series with change points first, then gated, advisory and recorded ones: what needs a look comes first.
  const auto rank = [](const DashboardSeries& s) {
    return std::make_pair(s.changes.empty() ? 1 : 0, s.kind == "gated" ? 0 : s.kind == "advisory" ? 1 : 2);
  };
  std::stable_sort(data.series.begin(), data.series.end(),
                   [&](const DashboardSeries& a, const DashboardSeries& b) { return rank(a) < rank(b); });
  return data;
}

}  // namespace perfgate
