// The machine-readable verdicts: verdicts.json (every row and the speedup) and JUnit XML (one test case each).
#include "base/number_format.h"
#include "base/xml_escape.h"
#include "model/fix_command.h"
#include "render/report_render.h"
#include "render/row_text.h"

#include "base/json_input.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

namespace perfgate {
namespace {

// An edge of the acceptable band; the open side (an infinity, which JSON cannot hold) is null.
nlohmann::json edge(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr); }

}  // namespace

std::string render_verdicts_json(const ReportData& data) {
  nlohmann::json doc;
  doc["overall"] = to_string(overall(data));
  doc["git_sha"] = data.git_sha;
  doc["machine"] = data.machine;
  doc["date"] = data.date;
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : data.checks) {
    for (const auto& row : c.rows) {
      nlohmann::json item = {{"suite", c.name},
                             {"results", c.results_path},
                             {"baseline_file", c.baseline_path},
                             {"benchmark", row.benchmark},
                             {"field", row.field},
                             {"unit", row.unit},
                             {"verdict", to_string(row.verdict)},
                             {"samples", row.samples},
                             {"reason", reason_text(row)}};
      nlohmann::json findings = nlohmann::json::array();
      for (const auto finding : row.findings) findings.push_back(to_string(finding));
      item["findings"] = findings;
      // A count kept exact is written as the integer it is (a double would round it beyond 2^53).
      if (row.samples > 0 && row.value_integer)
        item["value"] = *row.value_integer;
      else if (row.samples > 0)
        item["value"] = row.value;
      if (row.verdict != Verdict::unbaselined) {
        if (row.baseline_integer)
          item["baseline"] = *row.baseline_integer;
        else
          item["baseline"] = row.baseline;
        item["worst_acceptable"] = row.threshold;
        if (row.samples > 0 && row.verdict != Verdict::missing && row.verdict != Verdict::other_machine &&
            row.baseline != 0.0 && std::isfinite(row.value / row.baseline)) {
          item["ratio"] = row.value / row.baseline;  // value / baseline; the change in percent is (ratio - 1) * 100
        }
        item["change_text"] = change_of(row);
        item["direction"] = to_string(row.direction);
        item["tolerance"] = {{"kind", to_string(row.tolerance.kind)}};
        if (row.tolerance.kind != Tolerance::Kind::exact) item["tolerance"]["amount"] = row.tolerance.amount;
        item["tolerance_text"] = tolerance_text(row);
        item["acceptable"] = {{"low", edge(row.band.low)}, {"high", edge(row.band.high)}};
        if (row.limit) item["limit"] = *row.limit;
        item["advisory"] = row.advisory;
      }
      if (row.field == "instructions") {  // which functions moved the count (function profiles kept on both sides)
        for (const auto& b : c.functions.benchmarks) {
          if (b.benchmark == row.benchmark) item["functions"] = profile_changes_json(b.changes);
        }
        for (const auto& note : c.functions.notes) {
          if (note.benchmark == row.benchmark) item["functions_note"] = note.text;
        }
      }
      checks.push_back(item);
    }
  }
  doc["checks"] = checks;
  // The update that accepts each failing results file's change, as the report prints it: the comment shows it (with
  // perfgate by name, as a reader on another machine starts it).
  nlohmann::json fixes = nlohmann::json::array();
  for (const auto& c : data.checks) {
    if (exit_code_of(c.rows) == 0) continue;
    const auto accept = accept_fix(c.rows, {"perfgate", c.results_path, c.baseline_path, {}, false, false});
    if (!accept.command.empty()) fixes.push_back({{"suite", c.name}, {"command", accept.command}});
  }
  if (!fixes.empty()) doc["fixes"] = fixes;
  // Every speedup in "speedups", in order; the first also as "speedup", as verdicts.json has always had it.
  nlohmann::json speedups = nlohmann::json::array();
  for (const auto& s : data.speedups) {
    nlohmann::json item = {
        {"reference", s.reference},          {"candidate", s.candidate}, {"verdict", to_string(s.report.verdict)},
        {"median", s.report.median},         {"low", s.report.low},      {"high", s.report.high},
        {"confidence", s.report.confidence}, {"pairs", s.report.pairs},  {"threshold", s.report.threshold}};
    if (!s.gate.empty()) item["gate"] = s.gate;
    if (s.target && s.target_verdict) {
      item["target"] = *s.target;
      item["target_verdict"] = to_string(*s.target_verdict);
    }
    speedups.push_back(item);
  }
  if (!speedups.empty()) {
    doc["speedup"] = speedups.front();
    doc["speedups"] = speedups;
  }
  return json_output_text(doc);
}

std::string render_junit(const ReportData& data) {
  std::ostringstream cases;
  int tests = 0, failures = 0, skipped = 0;
  for (const auto& c : data.checks) {
    for (const auto& row : c.rows) {
      ++tests;
      cases << "  <testcase classname=\"perfgate." << escape_xml(c.name) << "\" name=\""
            << escape_xml(row.benchmark + " " + row.field) << "\">";
      if (row.verdict == Verdict::fail || row.verdict == Verdict::missing) {
        ++failures;
        cases << "<failure message=\"" << escape_xml(to_string(row.verdict) + ": " + reason_text(row)) << "\">"
              << escape_xml("value " + value_text(row) + ", baseline " + baseline_text(row) + ", change " +
                            change_of(row) + ", worst acceptable " + threshold_text(row) + ", tolerance " +
                            tolerance_text(row))
              << "</failure>";
      } else if (row.verdict != Verdict::pass) {
        ++skipped;
        cases << "<skipped message=\"" << escape_xml(to_string(row.verdict) + ": " + reason_text(row)) << "\"/>";
      }
      cases << "</testcase>\n";
    }
  }
  for (const auto& s : data.speedups) {
    const auto& r = s.report;
    ++tests;
    cases << "  <testcase classname=\"perfgate.speedup\" name=\"" << escape_xml(s.reference + " / " + s.candidate)
          << "\">";
    if (r.verdict != SpeedupVerdict::pass) {
      ++failures;
      cases << "<failure message=\""
            << escape_xml(to_string(r.verdict) + ": " + format_number(r.median) + "x, interval [" +
                          format_number(r.low) + ", " + format_number(r.high) + "], threshold " +
                          format_number(r.threshold) + "x")
            << "\"/>";
    }
    cases << "</testcase>\n";
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites><testsuite name=\"perfgate\" tests=\"" << tests
      << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"" << skipped << "\">\n"
      << cases.str() << "</testsuite></testsuites>\n";
  return out.str();
}

}  // namespace perfgate
