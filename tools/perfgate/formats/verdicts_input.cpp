#include "formats/verdicts_input.h"

#include "base/error.h"
#include "base/json_input.h"
#include "base/json_reader.h"
#include "base/number_format.h"
#include "formats/function_changes_input.h"

#include <cmath>
#include <set>

namespace perfgate {
namespace {

// A number as perfgate prints it: a whole number exactly (counts beyond 2^53 included), "" when absent.
std::string printed(const JsonReader& r, const nlohmann::json& o, const std::string& key, const std::string& where) {
  if (!o.contains(key)) return "";
  const auto& v = o.at(key);
  if (const auto exact = exact_int64(v)) return std::to_string(*exact);
  if (!v.is_number() || !std::isfinite(v.get<double>())) r.fail(where + "." + key + " is not a finite number");
  return format_number(v.get<double>());
}

const std::set<std::string> kOverall = {"PASS", "FAIL", "INCONCLUSIVE"};

}  // namespace

VerdictsDocument parse_verdicts_json(const std::string& text, const std::string& source) {
  const auto doc = parse_json_input(text, source);
  const JsonReader r(source, "a perfgate verdicts.json");
  VerdictsDocument out;
  out.overall = r.one_of(doc, "overall", "the document", kOverall);
  out.git_sha = r.text(doc, "git_sha", "the document");
  out.machine = r.text(doc, "machine", "the document");
  out.date = r.text(doc, "date", "the document");
  const auto& checks = r.array(doc, "checks", "the document");
  for (size_t i = 0; i < checks.size(); ++i) {
    const auto& c = checks[i];
    const std::string at = "checks[" + std::to_string(i) + "]";
    VerdictRow row;
    row.suite = r.text(c, "suite", at);
    row.benchmark = r.text(c, "benchmark", at);
    row.field = r.text(c, "field", at);
    row.verdict = r.one_of(c, "verdict", at, {"PASS", "FAIL", "MISSING", "NO-BASELINE", "WARNING", "SKIPPED"});
    row.reason = r.text(c, "reason", at);
    row.value = printed(r, c, "value", at);
    row.baseline = printed(r, c, "baseline", at);
    if (c.contains("change_text")) row.change_text = r.text(c, "change_text", at);
    if (c.contains("advisory")) row.advisory = r.flag(c, "advisory", at);
    if (c.contains("functions")) row.functions = parse_profile_changes(r, c.at("functions"), at + ".functions");
    if (c.contains("unit")) row.unit = r.text(c, "unit", at);
    if (c.contains("tolerance_text")) row.tolerance = r.text(c, "tolerance_text", at);
    row.worst_acceptable = printed(r, c, "worst_acceptable", at);
    out.rows.push_back(row);
  }
  if (doc.contains("fixes")) {
    const auto& fixes = r.array(doc, "fixes", "the document");
    for (size_t i = 0; i < fixes.size(); ++i) {
      const std::string at = "fixes[" + std::to_string(i) + "]";
      out.fixes.push_back({r.text(fixes[i], "suite", at), r.text(fixes[i], "command", at)});
    }
  }
  // "speedups" lists every speedup; a file from before it has one "speedup".
  const auto read_speedup = [&](const nlohmann::json& s, const std::string& at) {
    SpeedupVerdictRow sp;
    sp.reference = r.text(s, "reference", at);
    sp.candidate = r.text(s, "candidate", at);
    sp.verdict = r.one_of(s, "verdict", at, kOverall);
    sp.median = r.number(s, "median", at);
    sp.low = r.number(s, "low", at);
    sp.high = r.number(s, "high", at);
    sp.confidence = r.number(s, "confidence", at);
    sp.threshold = r.number(s, "threshold", at);
    sp.pairs = static_cast<int>(r.count(s, "pairs", at, 0, 1000000000));
    if (s.contains("target")) {
      sp.target = r.number(s, "target", at);
      sp.target_verdict = r.one_of(s, "target_verdict", at, kOverall);
    }
    return sp;
  };
  if (doc.contains("speedups")) {
    const auto& list = r.array(doc, "speedups", "the document");
    for (size_t i = 0; i < list.size(); ++i)
      out.speedups.push_back(read_speedup(list[i], "speedups[" + std::to_string(i) + "]"));
  } else if (doc.contains("speedup")) {
    out.speedups.push_back(read_speedup(doc.at("speedup"), "speedup"));
  }
  // Re-judged from the rows, as the report judged them when it wrote the file.
  std::string judged = "PASS";
  for (const auto& row : out.rows) {
    if (row.verdict == "FAIL" || row.verdict == "MISSING") judged = "FAIL";
  }
  for (const auto& s : out.speedups) {
    if (s.verdict == "FAIL") judged = "FAIL";
    if (s.verdict == "INCONCLUSIVE" && judged == "PASS") judged = "INCONCLUSIVE";
  }
  const auto rank = [](const std::string& overall) {
    return overall == "FAIL" ? 2 : overall == "INCONCLUSIVE" ? 1 : 0;
  };
  if (rank(out.overall) < rank(judged))
    r.fail("overall " + out.overall + " disagrees with its rows, which judge " + judged);
  return out;
}

}  // namespace perfgate
