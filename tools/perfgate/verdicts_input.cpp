#include "verdicts_input.h"

#include "error.h"
#include "json_input.h"
#include "number_format.h"

#include <cmath>
#include <set>

namespace perfgate {
namespace {

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}
  [[noreturn]] void fail(const std::string& what) const { throw InputError(source_ + ": not a perfgate verdicts.json: " + what); }
  const nlohmann::json& member(const nlohmann::json& o, const std::string& key, const std::string& where) const {
    if (!o.is_object()) fail(where + " is not an object");
    const auto found = o.find(key);
    if (found == o.end()) fail(where + " has no '" + key + "'");
    return *found;
  }
  std::string text(const nlohmann::json& o, const std::string& key, const std::string& where) const {
    const auto& v = member(o, key, where);
    if (!v.is_string()) fail(where + "." + key + " is not a string");
    return v.get<std::string>();
  }
  double number(const nlohmann::json& o, const std::string& key, const std::string& where) const {
    const auto& v = member(o, key, where);
    if (!v.is_number() || !std::isfinite(v.get<double>())) fail(where + "." + key + " is not a finite number");
    return v.get<double>();
  }
  // A number as perfgate prints it: a whole number exactly (counts beyond 2^53 included), "" when absent.
  std::string printed(const nlohmann::json& o, const std::string& key, const std::string& where) const {
    if (!o.contains(key)) return "";
    const auto& v = o.at(key);
    if (const auto exact = exact_int64(v)) return std::to_string(*exact);
    if (!v.is_number() || !std::isfinite(v.get<double>())) fail(where + "." + key + " is not a finite number");
    return format_number(v.get<double>());
  }
  std::string verdict(const nlohmann::json& o, const std::string& where, const std::set<std::string>& allowed) const {
    const std::string v = text(o, "verdict", where);
    if (!allowed.count(v)) fail(where + ".verdict '" + v.substr(0, 40) + "' is not a verdict perfgate writes");
    return v;
  }

 private:
  std::string source_;
};

}  // namespace

VerdictsDocument parse_verdicts_json(const std::string& text, const std::string& source) {
  const auto doc = parse_json_input(text, source);
  const Reader r(source);
  VerdictsDocument out;
  out.overall = r.verdict(nlohmann::json{{"verdict", r.text(doc, "overall", "the document")}}, "the document.overall",
                          {"PASS", "FAIL", "INCONCLUSIVE"});
  out.git_sha = r.text(doc, "git_sha", "the document");
  out.machine = r.text(doc, "machine", "the document");
  out.date = r.text(doc, "date", "the document");
  const auto& checks = r.member(doc, "checks", "the document");
  if (!checks.is_array()) r.fail("checks is not an array");
  for (size_t i = 0; i < checks.size(); ++i) {
    const auto& c = checks[i];
    const std::string at = "checks[" + std::to_string(i) + "]";
    VerdictRow row;
    row.suite = r.text(c, "suite", at);
    row.benchmark = r.text(c, "benchmark", at);
    row.field = r.text(c, "field", at);
    row.verdict = r.verdict(c, at, {"PASS", "FAIL", "MISSING", "NO-BASELINE", "WARNING", "SKIPPED"});
    row.reason = r.text(c, "reason", at);
    row.value = r.printed(c, "value", at);
    row.baseline = r.printed(c, "baseline", at);
    if (c.contains("change_text")) row.change_text = r.text(c, "change_text", at);
    if (c.contains("advisory")) {
      if (!c.at("advisory").is_boolean()) r.fail(at + ".advisory is not true or false");
      row.advisory = c.at("advisory").get<bool>();
    }
    out.rows.push_back(row);
  }
  if (doc.contains("speedup")) {
    const auto& s = doc.at("speedup");
    SpeedupVerdictRow sp;
    sp.reference = r.text(s, "reference", "speedup");
    sp.candidate = r.text(s, "candidate", "speedup");
    sp.verdict = r.verdict(s, "speedup", {"PASS", "FAIL", "INCONCLUSIVE"});
    sp.median = r.number(s, "median", "speedup");
    sp.low = r.number(s, "low", "speedup");
    sp.high = r.number(s, "high", "speedup");
    sp.confidence = r.number(s, "confidence", "speedup");
    sp.threshold = r.number(s, "threshold", "speedup");
    const auto pairs = exact_int64(r.member(s, "pairs", "speedup"));
    if (!pairs || *pairs < 0 || *pairs > 1000000000) r.fail("speedup.pairs is not a count");
    sp.pairs = static_cast<int>(*pairs);
    if (s.contains("target")) {
      sp.target = r.number(s, "target", "speedup");
      sp.target_verdict = r.verdict(nlohmann::json{{"verdict", r.text(s, "target_verdict", "speedup")}}, "speedup.target_verdict",
                                    {"PASS", "FAIL", "INCONCLUSIVE"});
    }
    out.speedup = sp;
  }
  return out;
}

}  // namespace perfgate
