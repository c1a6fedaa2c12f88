#include "model/trace_summary.h"

#include "base/error.h"
#include "base/json_input.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace perfgate {
namespace {

struct Event {
  std::string name, thread;
  double start = 0.0, end = 0.0;
};

}  // namespace

TraceSummary summarise_trace(const std::string& text, const std::string& source) {
  const nlohmann::json doc = parse_json_input(text, source);
  const nlohmann::json* list = &doc;
  if (doc.is_object() && doc.contains("traceEvents")) list = &doc["traceEvents"];
  if (!list->is_array()) throw InputError(source + ": a trace is an array of events or an object with traceEvents");
  std::vector<Event> events;
  for (const auto& e : *list) {
    if (!e.is_object() || !e.contains("ph") || !e["ph"].is_string() || e["ph"].get<std::string>() != "X") continue;
    if (!e.contains("name") || !e["name"].is_string() || !e.contains("ts") || !e["ts"].is_number() ||
        !e.contains("dur") || !e["dur"].is_number()) {
      throw InputError(source + ": an X event without name, ts and dur");
    }
    const double ts = e["ts"].get<double>(), dur = e["dur"].get<double>();
    if (!std::isfinite(ts) || !std::isfinite(dur) || dur < 0 || !std::isfinite(ts + dur)) {
      throw InputError(source + ": an event with a negative or non-finite time");
    }
    const auto id = [&](const char* key) {
      return e.contains(key) ? e[key].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) : "";
    };
    const std::string thread = id("pid") + "/" + id("tid");
    events.push_back({e["name"].get<std::string>(), thread, ts, ts + dur});
  }
  if (events.empty()) throw InputError(source + ": no complete (X) events");
  // Per thread, by start (longer first on ties): a stack of open events gives each its parent.
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.thread != b.thread ? a.thread < b.thread : a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  std::map<std::string, OperatorTime> by_name;
  std::vector<double> child_time(events.size(), 0.0);
  std::vector<size_t> stack;
  TraceSummary summary;
  double first = events.front().start, last = events.front().end;
  for (size_t i = 0; i < events.size(); ++i) {
    if (i > 0 && events[i].thread != events[i - 1].thread) stack.clear();
    while (!stack.empty() && events[stack.back()].end <= events[i].start) stack.pop_back();
    if (!stack.empty()) child_time[stack.back()] += events[i].end - events[i].start;
    stack.push_back(i);
    first = std::min(first, events[i].start);
    last = std::max(last, events[i].end);
  }
  for (size_t i = 0; i < events.size(); ++i) {
    auto& op = by_name[events[i].name];
    op.name = events[i].name;
    ++op.calls;
    const double total = events[i].end - events[i].start;
    op.total_us += total;
    op.self_us += std::max(0.0, total - child_time[i]);
  }
  for (auto& [name, op] : by_name) {
    // Each event's times are finite; their sums need not be (1e308 µs twice).
    if (!std::isfinite(op.total_us) || !std::isfinite(op.self_us)) {
      throw InputError("trace: the times of '" + op.name + "' add up beyond any duration");
    }
    summary.operators.push_back(op);
  }
  std::sort(summary.operators.begin(), summary.operators.end(),
            [](const OperatorTime& a, const OperatorTime& b) { return a.self_us > b.self_us; });
  summary.wall_us = last - first;
  if (!std::isfinite(summary.wall_us)) throw InputError("trace: its events span beyond any duration");
  summary.events = events.size();
  return summary;
}

}  // namespace perfgate
