#include "history/history_store.h"

#include "base/error.h"
#include "base/time_units.h"

#include <algorithm>
#include <set>

namespace perfgate {

void to_one_unit(std::vector<HistoryPoint>& points, const std::string& what) {
  // One unit for the whole series, the newest run's: suites may change a benchmark's time unit between runs, and a
  // series mixing 10 ms with 10000 us would show a thousandfold change point that is not there.
  const std::string unit = points.empty() ? std::string() : points.back().unit;
  for (auto& p : points) {
    if (is_time_unit(p.unit) != is_time_unit(unit))
      throw InputError("history: " + what + " is recorded in '" + p.unit + "' and in '" + unit + "'");
    if (is_time_unit(unit)) {
      p.value = convert_time(p.value, p.unit, unit);
      p.unit = unit;
    }
  }
}

HistoryStore::HistoryStore(const std::string& spec, Access access) : backend_(open_history_backend(spec, access)) {}

size_t HistoryStore::record(const RunInfo& run, const std::vector<Results>& results) {
  const auto recorded = history_run_of(run, results);
  return append(recorded) ? recorded.metrics.size() : 0;
}

bool HistoryStore::append(const HistoryRun& run) { return import({run}) == 1; }

size_t HistoryStore::import(const std::vector<HistoryRun>& runs) {
  const auto added = runs.empty() ? 0 : backend_->append(runs);
  runs_.reset();
  index_.clear();
  return added;
}

const std::vector<HistoryRun>& HistoryStore::runs() const {
  if (!runs_) runs_ = backend_->runs();
  return *runs_;
}

const HistoryStore::MetricIndex& HistoryStore::index_of(const std::string& branch) const {
  const auto known = index_.find(branch);
  if (known != index_.end()) return known->second;
  MetricIndex index;
  const auto& all = runs();
  for (size_t r = 0; r < all.size(); ++r) {
    if (all[r].info.branch != branch) continue;
    for (size_t m = 0; m < all[r].metrics.size(); ++m)
      index[{all[r].metrics[m].benchmark, all[r].metrics[m].field}].emplace_back(r, m);
  }
  return index_.emplace(branch, std::move(index)).first->second;
}

std::vector<std::pair<std::string, std::string>> HistoryStore::metrics(const std::string& branch) const {
  std::vector<std::pair<std::string, std::string>> found;
  for (const auto& entry : index_of(branch)) found.push_back(entry.first);
  return found;
}

std::vector<HistoryPoint> HistoryStore::series(const std::string& branch, const std::string& benchmark,
                                               const std::string& field, int last,
                                               const std::optional<std::string>& machine) const {
  std::vector<HistoryPoint> out;
  const auto& index = index_of(branch);
  const auto positions = index.find({benchmark, field});
  if (positions == index.end()) return out;
  const auto& all = runs();
  for (const auto& [r, m] : positions->second) {
    const auto& run = all[r];
    if (machine && run.info.machine != *machine) continue;
    out.push_back({run.info.commit, run.info.recorded_at, run.metrics[m].value, run.metrics[m].unit, run.info.machine});
  }
  if (last >= 0 && out.size() > static_cast<size_t>(last)) out.erase(out.begin(), out.end() - last);
  to_one_unit(out, benchmark + " / " + field);
  return out;
}

}  // namespace perfgate
