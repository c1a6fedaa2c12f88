#include "formats/function_changes_input.h"

#include "base/markdown_text.h"
#include "base/number_format.h"

#include <limits>

namespace perfgate {
namespace {

constexpr int64_t kMost = std::numeric_limits<int64_t>::max();

std::vector<FunctionChange> changes_of(const JsonReader& r, const nlohmann::json& object, const std::string& key,
                                       const std::string& where, bool self) {
  std::vector<FunctionChange> out;
  const auto& list = r.array(object, key, where);
  for (size_t i = 0; i < list.size(); ++i) {
    const auto at = where + "." + key + "[" + std::to_string(i) + "]";
    FunctionChange c;
    c.name = r.text(list[i], "function", at);
    const auto before = r.count(list[i], "before", at, 0, kMost), after = r.count(list[i], "after", at, 0, kMost);
    (self ? c.before.self : c.before.inclusive) = before;
    (self ? c.after.self : c.after.inclusive) = after;
    if (r.count(list[i], "delta", at, -kMost, kMost) != after - before) r.fail(at + ".delta is not after - before");
    out.push_back(c);
  }
  return out;
}

}  // namespace

ProfileChanges parse_profile_changes(const JsonReader& r, const nlohmann::json& value, const std::string& where) {
  ProfileChanges out;
  out.total_before = r.count(value, "instructions_before", where, 0, kMost);
  out.total_after = r.count(value, "instructions_after", where, 0, kMost);
  out.by_self = changes_of(r, value, "by_self", where, true);
  out.by_inclusive = changes_of(r, value, "by_inclusive", where, false);
  return out;
}

std::string profile_changes_markdown_line(const std::string& benchmark, const ProfileChanges& changes, size_t top) {
  if (changes.by_self.empty()) return "";
  std::string line = "**" + markdown_cell(benchmark) + "**: own instructions moved most in ";
  for (size_t i = 0; i < changes.by_self.size() && i < top; ++i) {
    const auto& c = changes.by_self[i];
    const auto delta = c.self_delta();
    line += std::string(i == 0 ? "" : ", ") + markdown_text(c.name, 120) + " " + (delta > 0 ? "+" : "") +
            std::to_string(delta);
    if (changes.total_delta() != 0) line += " (" + format_fixed(100.0 * share_of_change(delta, changes), 1) + " %)";
  }
  return line + "\n";
}

}  // namespace perfgate
