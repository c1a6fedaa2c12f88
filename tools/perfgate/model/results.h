#pragma once
// Results: the measurements perfgate judges, whichever harness wrote them (formats/results_input.h reads them).
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace perfgate {

/// One value of one benchmark run: `field` is "real_time", "cpu_time" or a counter name.
struct Measurement {
  std::string benchmark;  ///< run name, e.g. "BM_Step/n:512"
  std::string field;
  double value = 0.0;
  std::string
      unit;  ///< time unit for times ("ms", "us", ...); a count's unit as its format names it ("bytes"), "" if none
  int repetition = 0;  ///< repetition index of an iteration run
  /// The value as written when the JSON wrote a whole number within int64 (counts, instruction counts): kept exact,
  /// since a double holds every integer only up to 2^53.
  std::optional<int64_t> integer;
};

/// Most repetitions (runs) of one measurement a reader accepts.
constexpr int kMaxRepetitions = 1000000;

struct Results {
  std::map<std::string, std::string> context;  ///< string-valued context entries (git_sha, cpu_model, ...)
  std::vector<Measurement> measurements;       ///< iteration runs only; aggregates are recomputed by perfgate
  std::string source;                          ///< the file it came from, for messages
  /// (benchmark, field) pairs with a repetition that has no finite value (NaN, Infinity or null as written): not
  /// measured, so a baseline entry of one reads MISSING, whatever the other repetitions hold.
  std::set<std::pair<std::string, std::string>> not_finite;
  /// What reading set aside, one line each: those figures, aggregate statistics with no finite value (never read), a
  /// benchmark reported by its aggregates alone (never read).
  std::vector<std::string> notes;
};

/// All values of (benchmark, field) in `unit`, in repetition order; empty when absent. Times are converted
/// between ns, us, ms and s; a time judged in a non-time unit (or the reverse), and a count in one named unit judged in
/// another, throw InputError (a count without a unit is judged in any). One lookup scans
/// every measurement: a caller looking up many metrics builds a MeasurementIndex once instead.
std::vector<double> values_in_unit(const Results& results, const std::string& benchmark, const std::string& field,
                                   const std::string& unit);

/// The measurements of `results` grouped by (benchmark, field), built once in O(M log M); each lookup is then
/// logarithmic, so judging E entries against M measurements costs O((E + M) log M), never E·M. `results` must outlive
/// the index and stay unchanged while it is used.
class MeasurementIndex {
 public:
  explicit MeasurementIndex(const Results& results);
  MeasurementIndex(Results&&) = delete;  // it keeps a reference: a temporary would dangle
  /// As the free values_in_unit and values_of, without the scan.
  std::vector<double> values_in_unit(const std::string& benchmark, const std::string& field,
                                     const std::string& unit) const;
  std::vector<double> values_of(const std::string& benchmark, const std::string& field) const;
  /// The exact values of (benchmark, field) in repetition order, or nullopt when absent, when any of them was not
  /// written as a whole number within int64, or when any was written in another unit than `unit` (a time in ns is not
  /// the same whole number in ms).
  std::optional<std::vector<int64_t>> integers_of(const std::string& benchmark, const std::string& field,
                                                  const std::string& unit) const;

 private:
  const std::vector<size_t>* positions(const std::string& benchmark, const std::string& field) const;
  const Results& results_;
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> positions_;
};

/// Appends `more`'s measurements to `pooled` as further repetitions: their indices are shifted past every index
/// `pooled` holds, so no repetition of either replaces or pairs with one of the other's.
void append_repetitions(Results& pooled, const Results& more);

/// All values of (benchmark, field) as written, in repetition order; empty when absent.
std::vector<double> values_of(const Results& results, const std::string& benchmark, const std::string& field);

}  // namespace perfgate
