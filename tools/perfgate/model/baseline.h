#pragma once
// Committed baselines: what a metric was, which way is better, and how far it may move.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

enum class Direction { higher, lower, either };  ///< which way is better; `either`: any move beyond the tolerance fails

/// Where a relative band learned from noise came from (noise_band.h): how many runs, and the spread of their logs.
struct NoiseOrigin {
  int runs = 0;
  double sigma = 0.0;
  /// In memory only: "" for the runs of the update that recorded the entry; otherwise the history the band was learned
  /// from for this judgement, e.g. "main in history.db" (judge_by_history), never written to a baseline.
  std::string history;
};

/// How far a value may move the bad way before it fails: absolute, relative to the baseline, or not at all.
struct Tolerance {
  enum class Kind { abs, rel, exact } kind = Kind::abs;
  double amount = 0.0;  ///< ≥ 0; unused for exact
  /// rel only: the amount was learned from the noise of repeated runs, and every update that records the value
  /// learns it anew from its own runs ("--track FIELD:lower:noise").
  std::optional<NoiseOrigin> noise;
};

struct Entry {
  std::string benchmark;
  std::string field;
  double value = 0.0;
  std::string unit;
  Direction direction = Direction::higher;
  Tolerance tolerance;
  std::optional<double> limit;  ///< a hard bound on the value itself (min for higher, max for lower; unused for either)
  /// An absolute timing (or any figure that depends on the machine's speed): its value is compared only when the
  /// results come from the machine the baseline was recorded on (same machine_fingerprint), and never fails the gate;
  /// its presence is required everywhere (not measured: MISSING, a failure).
  bool advisory = false;
  /// `value` exactly, when the baseline wrote a whole number within int64: an exact entry compares it with the
  /// results' integers (a double holds every integer only up to 2^53), and a rewrite writes it back digit for digit.
  std::optional<int64_t> integer;
  /// In memory only: the value and band come from this machine's own history (judge_by_history), so a timing is
  /// judged on the machine the results come from, whichever machine recorded the baseline. Never written.
  bool judged_here = false;
};

struct Provenance {
  std::string git_sha, date, machine, build_type, torch_version, threads, reason;
  std::string machine_fingerprint;  ///< the results' machine_fingerprint context when recorded; "" if none
};

struct Baseline {
  int schema_version = 1;
  Provenance provenance;
  std::vector<Entry> entries;
};

constexpr int kSchemaVersion = 1;

/// Parses and validates a baseline (baselines/schema.json states the same rules). Throws InputError naming
/// the file, the entry and the rule: wrong schema_version, missing or unknown fields, non-finite or negative
/// numbers where they are not allowed, duplicate (benchmark, field) pairs.
Baseline parse_baseline(const std::string& text, const std::string& source);
Baseline read_baseline(const std::string& path);

/// Serialises with a stable key order and 2-space indentation (reviewable diffs). Throws InputError rather than
/// write a non-finite value or limit (JSON has no infinity; parse_baseline would refuse the file).
std::string to_json_text(const Baseline& baseline);

std::string to_string(Direction d);
std::string to_string(Tolerance::Kind kind);  ///< "abs", "rel" or "exact": the key of a baseline's tolerance object
std::string describe(const Tolerance& t);     ///< e.g. "±1 abs", "5% rel", "exact", "8.2% rel (noise of 5 runs)"

/// The values an entry accepts under its tolerance, ignoring its limit: [value − slack, +∞) for higher,
/// (−∞, value + slack] for lower, [value − slack, value + slack] for either, [value, value] for exact. The one
/// meaning of a tolerance: compare, update and the report all judge with it. parse_baseline refuses an entry
/// whose finite edges would overflow, so the edges of a parsed entry are finite or the infinity on the good side.
struct Band {
  double low = 0.0, high = 0.0;
  bool contains(double v) const { return v >= low && v <= high; }
};
Band acceptable_band(const Entry& entry);

/// The worst acceptable value under the tolerance (the band's edge on the bad side; the upper edge for either).
double threshold_of(const Entry& entry);

}  // namespace perfgate
