#include "model/fix_command.h"

#include "base/one_line.h"
#include "base/time_units.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

namespace perfgate {
namespace {

std::string join_quoted(const std::vector<std::string>& words) {
  std::string text;
  for (const auto& w : words) text += " " + shell_quote(w);
  return text;
}

// Every baselined row is one entry of the baseline: a timing among those kept needs more than one capture.
bool holds_timings(const std::vector<Row>& rows) {
  for (const auto& r : rows) {
    if (r.timing && r.verdict != Verdict::missing && r.verdict != Verdict::unbaselined) return true;
  }
  return false;
}

}  // namespace

std::string own_path() {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error || self.empty() ? std::string("perfgate") : self.string();
}

AcceptFix accept_fix(const std::vector<Row>& rows, const FixContext& c) {
  AcceptFix fix;
  for (const auto& r : rows) {
    if (std::find(r.findings.begin(), r.findings.end(), Finding::beyond_limit) == r.findings.end()) continue;
    fix.notes.push_back("A hard limit is crossed (" + r.benchmark + " " + r.field +
                        "), and update never writes a value beyond its entry's own "
                        "limit: fix the cause, or give the entry its limit anew with update --track " +
                        r.field + ":DIRECTION:TOLERANCE:limit=X.");
    return fix;
  }
  for (const auto& r : rows) {
    if (r.verdict != Verdict::fail || !r.tolerance.noise || r.tolerance.noise->history.empty()) continue;
    fix.notes.push_back(
        "Timings judged by history count only the runs recorded after the baseline: the update starts them anew, and "
        "the baseline judges until enough runs are recorded after it.");
    break;
  }
  bool other_machine = false;
  for (const auto& r : rows) other_machine = other_machine || (r.verdict == Verdict::other_machine && r.timing);
  std::string command = shell_quote(c.perfgate) + " update --baseline " + shell_quote(c.baseline) +
                        " --reason 'accept the measured change'";
  bool drops = false;
  for (const auto& r : rows) {
    if (r.verdict != Verdict::missing) continue;
    drops = true;
    command += " --drop " + shell_quote(r.benchmark + ":" + r.field);
  }
  if (c.tree_dirty) command += " --allow-dirty";
  if (other_machine) command += " --move-timings";
  if (!c.suite_command.empty()) {
    fix.command = command + " --" + join_quoted(c.suite_command);
  } else if (!holds_timings(rows)) {
    fix.command = command + " --results " + shell_quote(c.results);
  } else {
    fix.notes.push_back(
        "The baseline holds timings, which an update takes from several runs of the suite (two that agree, or at "
        "least three for a tolerance from noise): run the suite again into more files and add --results FILE for "
        "each to " +
        command + " --results " + shell_quote(c.results) +
        ", or pass the suite's command to compare after -- and it prints the command that runs it.");
    return fix;
  }
  if (drops)
    fix.notes.push_back(
        "--drop stops tracking the metrics no longer measured; leave them out if they should come back.");
  if (c.tree_dirty)
    fix.notes.push_back(
        "--allow-dirty: the working tree has uncommitted changes; the baseline records the commit marked -dirty.");
  if (other_machine) {
    fix.notes.push_back(
        "--move-timings: the baseline's timings were recorded on another machine; this records them anew here, and "
        "from then on "
        "they are judged against this machine only.");
  }
  return fix;
}

std::string fix_text(const AcceptFix& fix) {
  std::string text =
      fix.command.empty() ? std::string() : "If the change is intended, accept it with:\n  " + fix.command + "\n";
  for (const auto& note : fix.notes)
    text += (fix.command.empty() ? "" : "  (") + note + (fix.command.empty() ? "\n" : ")\n");
  return text;
}

FirstBaselineFix first_baseline_fix(const Results& results, const FixContext& c) {
  // A field qualifies for an exact gate when every measurement of it is a whole number without a unit (a count).
  std::map<std::string, bool> whole;
  bool has_real_time = false;
  for (const auto& m : results.measurements) {
    if (m.field == "real_time") has_real_time = true;
    if (!m.unit.empty()) continue;
    auto [it, inserted] = whole.emplace(m.field, true);
    // Google Benchmark writes counters as doubles: a whole value within 2^53 is a count as well.
    const bool whole_number =
        m.integer.has_value() || (std::fabs(m.value) < 9007199254740992.0 && m.value == std::trunc(m.value));
    it->second = it->second && whole_number;
  }
  std::string tracks;
  for (const auto& [field, exact] : whole) {
    if (exact) tracks += " --track " + shell_quote(field + ":either:exact");
  }
  if (has_real_time && !c.no_timings) tracks += " --track real_time:lower:noise";
  if (tracks.empty())
    return {"", "its results hold no field to track; give --track FIELD:DIRECTION:TOLERANCE to perfgate update"};
  if (c.suite_command.empty() && has_real_time && !c.no_timings) {
    return {"",
            "its results hold timings, which a baseline takes from several runs of the suite: give perfgate update "
            "the suite's command after -- (or pass it to compare after -- and it prints the command)"};
  }
  const std::string source =
      c.suite_command.empty() ? " --results " + shell_quote(c.results) : " --" + join_quoted(c.suite_command);
  return {shell_quote(c.perfgate) + " update --baseline " + shell_quote(c.baseline) + " --reason 'first baseline'" +
              tracks + (c.tree_dirty ? " --allow-dirty" : "") + source,
          c.no_timings ? "counts tracked exactly; no timing, as the gate shares the machine: a starting point to review"
                       : "counts tracked exactly, real_time gated by a band learned from its noise over 5 runs on "
                         "the machine that records it: a starting point to review"};
}

}  // namespace perfgate
