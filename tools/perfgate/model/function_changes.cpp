#include "model/function_changes.h"

#include "base/one_line.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iomanip>
#include <set>
#include <sstream>

namespace perfgate {
namespace {

std::vector<FunctionChange> largest(std::vector<FunctionChange> all, int64_t (FunctionChange::*delta)() const,
                                    size_t top) {
  all.erase(std::remove_if(all.begin(), all.end(), [&](const FunctionChange& c) { return (c.*delta)() == 0; }),
            all.end());
  std::sort(all.begin(), all.end(), [&](const FunctionChange& x, const FunctionChange& y) {
    const auto dx = std::llabs((x.*delta)()), dy = std::llabs((y.*delta)());
    return dx != dy ? dx > dy : x.name < y.name;
  });
  if (all.size() > top) all.resize(top);
  return all;
}

std::string signed_count(int64_t v) { return (v > 0 ? "+" : v < 0 ? "-" : "") + std::to_string(std::llabs(v)); }

std::string cut(const std::string& text, size_t width) {
  const auto line = one_line(text);
  if (line.size() <= width) return line;
  size_t end = width;
  while (end > 0 && (static_cast<unsigned char>(line[end]) & 0xC0) == 0x80) --end;  // not inside a UTF-8 sequence
  return line.substr(0, end) + "...";
}

}  // namespace

ProfileChanges profile_changes(const FunctionProfile& before, const FunctionProfile& after, size_t top) {
  std::set<std::string> names;
  for (const auto& [name, cost] : before.functions) names.insert(name);
  for (const auto& [name, cost] : after.functions) names.insert(name);
  std::vector<FunctionChange> all;
  for (const auto& name : names) {
    FunctionChange c{name, {}, {}};
    if (const auto b = before.functions.find(name); b != before.functions.end()) c.before = b->second;
    if (const auto a = after.functions.find(name); a != after.functions.end()) c.after = a->second;
    all.push_back(c);
  }
  ProfileChanges out;
  out.total_before = before.total;
  out.total_after = after.total;
  out.by_self = largest(all, &FunctionChange::self_delta, top);
  out.by_inclusive = largest(all, &FunctionChange::inclusive_delta, top);
  return out;
}

double share_of_change(int64_t delta, const ProfileChanges& changes) {
  return changes.total_delta() != 0 ? static_cast<double>(delta) / static_cast<double>(changes.total_delta()) : 0.0;
}

nlohmann::json profile_changes_json(const ProfileChanges& changes) {
  const auto list = [&](const std::vector<FunctionChange>& rows, bool self) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& c : rows) {
      const auto delta = self ? c.self_delta() : c.inclusive_delta();
      const auto before = self ? c.before.self : c.before.inclusive;
      out.push_back(
          {{"function", c.name},
           {"before", before},
           {"after", self ? c.after.self : c.after.inclusive},
           {"delta", delta},
           {"share_of_change", share_of_change(delta, changes)},
           {"relative_change", before > 0 ? nlohmann::json(static_cast<double>(delta) / static_cast<double>(before))
                                          : nlohmann::json(nullptr)}});
    }
    return out;
  };
  return {{"instructions_before", changes.total_before},
          {"instructions_after", changes.total_after},
          {"by_self", list(changes.by_self, true)},
          {"by_inclusive", list(changes.by_inclusive, false)}};
}

std::string profile_changes_text(const ProfileChanges& changes, const std::string& indent, size_t name_width) {
  std::ostringstream out;
  const auto list = [&](const std::string& heading, const std::vector<FunctionChange>& rows, bool self) {
    if (rows.empty()) return;
    out << indent << heading << "\n";
    for (const auto& c : rows) {
      const auto delta = self ? c.self_delta() : c.inclusive_delta();
      const auto& b = self ? c.before.self : c.before.inclusive;
      const auto& a = self ? c.after.self : c.after.inclusive;
      std::ostringstream share;  // own: its share of the step's change; inclusive: its own relative change
      if (self && changes.total_delta() != 0)
        share << std::fixed << std::setprecision(1) << 100.0 * share_of_change(delta, changes) << " %";
      else if (!self && b > 0)
        share << std::showpos << std::fixed << std::setprecision(1)
              << 100.0 * static_cast<double>(delta) / static_cast<double>(b) << " %";
      else if (!self)
        share << "new";
      else
        share << "-";
      out << indent << "  " << std::right << std::setw(16) << signed_count(delta) << " " << std::setw(9) << share.str()
          << "  " << std::to_string(b) << " -> " << std::to_string(a) << "  " << cut(c.name, name_width) << "\n";
    }
  };
  out << indent << "instructions per step " << std::to_string(changes.total_before) << " -> "
      << std::to_string(changes.total_after) << " (" << signed_count(changes.total_delta()) << ")\n";
  list("own (exclusive) instructions: change, share of the step's change, before -> after", changes.by_self, true);
  list("inclusive instructions (with callees): change, the function's own change, before -> after",
       changes.by_inclusive, false);
  if (changes.by_self.empty() && changes.by_inclusive.empty()) out << indent << "no function's instructions changed\n";
  return out.str();
}

}  // namespace perfgate
