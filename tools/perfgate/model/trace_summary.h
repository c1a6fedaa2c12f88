#pragma once
// A Chrome trace (chrome://tracing, Perfetto) summarised: time per operator, self time excluding the operators it
// called. Pure; reads the JSON array or {"traceEvents": [...]} forms.
#include <string>
#include <vector>

namespace perfgate {

struct OperatorTime {
  std::string name;
  int calls = 0;
  double total_us = 0.0;  ///< inclusive
  double self_us = 0.0;   ///< exclusive of nested operators on the same thread
};

struct TraceSummary {
  std::vector<OperatorTime> operators;  ///< sorted by self time, largest first
  double wall_us = 0.0;                 ///< from the first event's start to the last event's end
  size_t events = 0;
};

/// Throws InputError when the text is not a trace of complete ("X") events with name, ts and dur.
TraceSummary summarise_trace(const std::string& text, const std::string& source);

}  // namespace perfgate
