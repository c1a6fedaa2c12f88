#pragma once
// Planning a baseline update from captured results. Pure: command_update.cpp does the I/O, the git checks, runs the
// suite when given its command, and writes.
#include "model/baseline.h"
#include "model/noise_band.h"
#include "model/results.h"

#include <optional>
#include <string>
#include <vector>

namespace perfgate {

/// A metric to track: "FIELD:DIRECTION:TOLERANCE[:limit=X][:unit=U][:advisory]" with TOLERANCE one of abs=X, rel=X,
/// exact or noise, e.g. "psnr_db:higher:abs=1:unit=dB", "real_time:lower:noise". Applies to every benchmark that
/// reports FIELD: new entries start with it, and entries already tracked take its criterion (direction, tolerance,
/// limit, advisory; the unit when given). `noise`: a relative band learned from the update's runs (noise_band.h).
struct TrackSpec {
  std::string field;
  Direction direction = Direction::higher;
  Tolerance tolerance;
  std::optional<double> limit;
  std::string unit;
  bool advisory = false;
};
TrackSpec parse_track_spec(const std::string& spec);  ///< throws InputError on a malformed spec

/// A baselined entry named on the command line: "BENCHMARK:FIELD", split at the last ':' (benchmark names hold ':',
/// field names do not).
struct EntryKey {
  std::string benchmark, field;
};
/// Throws InputError naming `option` when there is no ':' or a side is empty.
EntryKey parse_entry_key(const std::string& text, const std::string& option = "--drop");

struct UpdatePlan {
  Baseline next;
  std::vector<std::string> diff;   ///< one line per added, changed or kept entry: "bench field: old -> new"
  std::string text;                ///< `next` as it is written: to_json_text(next), already parsed back once
  std::vector<std::string> notes;  ///< what the reader should know: a band from noise too wide to catch 1.25x
};

struct UpdateRequest {
  std::vector<TrackSpec> track;  ///< at most one per field
  std::vector<EntryKey> drop;    ///< entries to remove; each must be in the baseline
  std::vector<EntryKey> only;    ///< when given, the only entries that take new values; each must be in the baseline
  bool ratchet = false;          ///< an entry only moves the good way
  NoiseRule noise;               ///< how a band is learned from noise
};

/// How many captures the update needs, given the first: 1; 2 when it will record a timing (an entry in a time unit),
/// whose two captures must agree; `noise_runs` when it will record an entry whose tolerance is learned from noise.
int captures_needed(const Results& first, const std::optional<Baseline>& current, const UpdateRequest& request,
                    int noise_runs);

/// New values are the medians of the first capture; an entry whose tolerance is learned from noise takes the geometric
/// mean of every capture's median and the band noise_band() learns from them (each capture holding it is one run). With
/// `only`, every baselined entry it does not name keeps its value (it need not be in the results); entries new through
/// `track` are still added. A timing-derived entry (a time unit) needs a second capture whose median agrees with the
/// first within the entry's tolerance. Refused with InputError, naming the way out: a baselined metric absent from the
/// results (drop it), a new value beyond the entry's own hard limit (the baseline would fail at once), a field tracked
/// twice, a drop of an entry the baseline does not hold. The planned baseline always survives to_json_text and
/// parse_baseline: one that would not (a tolerance band overflowing the largest number) is refused with InputError
/// instead.
UpdatePlan plan_update(const std::vector<Results>& captures, const std::optional<Baseline>& current,
                       const UpdateRequest& request, const Provenance& provenance);

}  // namespace perfgate
