#pragma once
// Planning a baseline update from captured results. Pure: main() does the I/O, the git checks and the write.
#include "baseline.h"
#include "results.h"

#include <optional>
#include <string>
#include <vector>

namespace perfgate {

/// A metric to start tracking: "FIELD:DIRECTION:TOLERANCE[:limit=X][:unit=U][:advisory]" with TOLERANCE one of
/// abs=X, rel=X or exact, e.g. "psnr_db:higher:abs=1:unit=dB". Applies to every benchmark that reports FIELD.
struct TrackSpec {
  std::string field;
  Direction direction = Direction::higher;
  Tolerance tolerance;
  std::optional<double> limit;
  std::string unit;
  bool advisory = false;
};
TrackSpec parse_track_spec(const std::string& spec);  ///< throws InputError on a malformed spec

struct UpdatePlan {
  Baseline next;
  std::vector<std::string> diff;  ///< one line per added, changed or kept entry: "bench field: old -> new"
  std::string text;               ///< `next` as it is written: to_json_text(next), already parsed back once
};

/// New values are the medians of the first capture. A timing-derived entry (a time unit) needs a second capture
/// whose median agrees with the first within the entry's tolerance; otherwise, like a baselined metric absent
/// from the results, the update is refused with InputError. With `ratchet`, an entry only moves the good way.
/// The planned baseline always survives to_json_text and parse_baseline: one that would not (a tolerance band
/// overflowing the largest number) is refused with InputError instead.
UpdatePlan plan_update(const std::vector<Results>& captures, const std::optional<Baseline>& current,
                       const std::vector<TrackSpec>& track, bool ratchet, const Provenance& provenance);

}  // namespace perfgate
