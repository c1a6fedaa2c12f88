#pragma once
// The history of gate runs, whatever store keeps it (history_backend.h): record a run, list a branch's metrics, and a
// metric's series, the same queries on every store.
#include "history/history_backend.h"
#include "model/results.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace perfgate {

struct HistoryPoint {
  std::string commit, recorded_at;
  double value = 0.0;
  std::string unit;
  std::string machine;
};

/// Times converted to the newest point's unit (InputError, naming `what`, when a time and a non-time are mixed).
void to_one_unit(std::vector<HistoryPoint>& points, const std::string& what);

class HistoryStore {
 public:
  using Access = StoreAccess;

  /// Opens the store a specification names (open_history_backend). Throws InputError for a specification, a file or a
  /// database that is not a perfgate history (read_only: also one that does not exist), StoreUnavailable when it
  /// cannot be reached.
  HistoryStore(const std::string& spec, Access access);

  static void check_recordable(const std::vector<Results>& results) { perfgate::check_recordable(results); }

  /// Appends one run with every (benchmark, field) median of `results`; returns the number of metrics stored (0 when
  /// the store holds this very run already: recording is idempotent).
  size_t record(const RunInfo& run, const std::vector<Results>& results);
  /// Appends a run as it is, unless the store holds it already (the same run_identity); returns whether it was added.
  bool append(const HistoryRun& run);
  /// Appends, in one step, those of `runs` the store does not hold yet (by run_identity, each once even when
  /// imports run at once); returns how many (history import).
  size_t import(const std::vector<HistoryRun>& runs);

  /// Every run, in the order the store recorded them (read once, then kept until the next append).
  const std::vector<HistoryRun>& runs() const;

  /// The metrics recorded on `branch`, as (benchmark, field) pairs, sorted. This and series() together are linear in
  /// the store's runs × metrics however many metrics are asked for.
  std::vector<std::pair<std::string, std::string>> metrics(const std::string& branch) const;

  /// The last `last` runs of one metric on `branch` (on one machine when `machine` is given), oldest first, times in
  /// the newest run's unit (InputError when the metric was recorded both as a time and as a non-time).
  std::vector<HistoryPoint> series(const std::string& branch, const std::string& benchmark, const std::string& field,
                                   int last, const std::optional<std::string>& machine = std::nullopt) const;

  std::string name() const { return backend_->name(); }

 private:
  std::unique_ptr<HistoryBackend> backend_;
  mutable std::optional<std::vector<HistoryRun>> runs_;
  /// Per branch, each metric's (run, metric) positions in store order: built in one pass over the runs at the first
  /// query of the branch, so that a query per metric is linear in that metric's points, not in the whole store.
  using MetricIndex = std::map<std::pair<std::string, std::string>, std::vector<std::pair<size_t, size_t>>>;
  mutable std::map<std::string, MetricIndex> index_;
  const MetricIndex& index_of(const std::string& branch) const;
};

}  // namespace perfgate
