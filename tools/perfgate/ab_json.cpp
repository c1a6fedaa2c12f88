#include "ab_json.h"

#include "error.h"
#include "json_input.h"

#include <cmath>

namespace perfgate {
namespace {

constexpr int kFormatVersion = 1;

nlohmann::json acceptance_json(const std::optional<Acceptance>& a) {
  if (!a) return nullptr;
  return {{"rule", a->rule.text}, {"pattern", a->rule.pattern}, {"field", a->rule.field}, {"percent", a->rule.percent},
          {"reason", a->rule.reason}, {"source", a->rule.source}, {"within", a->within}};
}

// Typed access to an untrusted document: every miss is one InputError naming the file and the place.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  const nlohmann::json& member(const nlohmann::json& object, const std::string& key, const std::string& where) const {
    if (!object.is_object()) fail(where + " is not an object");
    const auto found = object.find(key);
    if (found == object.end()) fail(where + " has no '" + key + "'");
    return *found;
  }
  std::string text(const nlohmann::json& object, const std::string& key, const std::string& where) const {
    const auto& v = member(object, key, where);
    if (!v.is_string()) fail(where + "." + key + " is not a string");
    return v.get<std::string>();
  }
  double number(const nlohmann::json& object, const std::string& key, const std::string& where) const {
    const auto& v = member(object, key, where);
    if (!v.is_number() || !std::isfinite(v.get<double>())) fail(where + "." + key + " is not a finite number");
    return v.get<double>();
  }
  bool flag(const nlohmann::json& object, const std::string& key, const std::string& where) const {
    const auto& v = member(object, key, where);
    if (!v.is_boolean()) fail(where + "." + key + " is not true or false");
    return v.get<bool>();
  }
  const nlohmann::json& array(const nlohmann::json& object, const std::string& key, const std::string& where) const {
    const auto& v = member(object, key, where);
    if (!v.is_array()) fail(where + "." + key + " is not an array");
    return v;
  }
  std::optional<Acceptance> acceptance(const nlohmann::json& object, const std::string& where) const {
    const auto& v = member(object, "acceptance", where);
    if (v.is_null()) return std::nullopt;
    const std::string at = where + ".acceptance";
    Acceptance a;
    a.rule.text = text(v, "rule", at);
    a.rule.pattern = text(v, "pattern", at);
    a.rule.field = text(v, "field", at);
    a.rule.percent = number(v, "percent", at);
    a.rule.reason = text(v, "reason", at);
    a.rule.source = text(v, "source", at);
    a.within = flag(v, "within", at);
    return a;
  }
  [[noreturn]] void fail(const std::string& what) const { throw InputError(source_ + ": not perfgate ab's JSON: " + what); }

 private:
  std::string source_;
};

SpeedupVerdict speedup_verdict(const std::string& text, const Reader& r, const std::string& where) {
  if (text == "PASS") return SpeedupVerdict::pass;
  if (text == "FAIL" || text == "ACCEPTED") return SpeedupVerdict::fail;
  if (text == "INCONCLUSIVE") return SpeedupVerdict::inconclusive;
  r.fail(where + ".verdict is not PASS, FAIL, ACCEPTED or INCONCLUSIVE");
}

}  // namespace

int exit_status_of(const AbRecord& record) {
  for (const auto& t : record.timings) if (fails(t.comparison)) return 1;
  for (const auto& c : record.costs) if (fails(c)) return 1;
  for (const auto& t : record.timings) if (t.comparison.verdict == SpeedupVerdict::inconclusive) return 3;
  return 0;
}

std::string overall_text(const AbRecord& record) {
  switch (exit_status_of(record)) {
    case 1: return "FAIL";
    case 3: return "INCONCLUSIVE";
    default: return "PASS";
  }
}

std::string ab_json_text(const AbRecord& record) {
  nlohmann::json doc;
  doc["format"] = "perfgate-ab";
  doc["version"] = kFormatVersion;
  doc["overall"] = overall_text(record);
  doc["max_slowdown"] = record.max_slowdown;
  nlohmann::json revisions = nlohmann::json::array();
  for (const auto& r : record.revisions) revisions.push_back({{"label", r.label}, {"commit", r.commit}});
  doc["revisions"] = revisions;
  nlohmann::json timings = nlohmann::json::array();
  for (const auto& t : record.timings) {
    const auto& c = t.comparison;
    timings.push_back({{"suite", t.suite},           {"filter", t.filter},         {"benchmark", c.benchmark},
                       {"base", c.base},             {"head", c.head},             {"base_commit", t.base_commit},
                       {"head_commit", t.head_commit}, {"unit", c.unit},           {"base_median", c.base_median},
                       {"head_median", c.head_median}, {"ratio", c.median},        {"low", c.low},
                       {"high", c.high},             {"confidence", c.confidence}, {"rounds", t.rounds},
                       {"verdict", verdict_text(c)}, {"acceptance", acceptance_json(c.acceptance)}});
  }
  doc["timings"] = timings;
  if (record.has_costs) {
    nlohmann::json costs = nlohmann::json::array();
    for (const auto& c : record.costs) {
      costs.push_back({{"benchmark", c.benchmark}, {"base", c.base}, {"head", c.head}, {"change", c.change},
                       {"verdict", verdict_text(c)}, {"acceptance", acceptance_json(c.acceptance)}});
    }
    doc["instructions"] = {{"max_increase", record.max_instruction_increase}, {"comparisons", costs}};
  }
  return json_output_text(doc);
}

AbRecord parse_ab_json(const std::string& text, const std::string& source) {
  const auto doc = parse_json_input(text, source);
  const Reader r(source);
  if (!doc.is_object() || !doc.contains("format") || doc["format"] != "perfgate-ab") r.fail("no \"format\": \"perfgate-ab\"");
  const auto& version = r.member(doc, "version", "the document");
  if (exact_int64(version) != kFormatVersion) r.fail("version is not " + std::to_string(kFormatVersion));
  AbRecord record;
  record.max_slowdown = r.number(doc, "max_slowdown", "the document");
  const auto& revisions = r.array(doc, "revisions", "the document");
  for (size_t i = 0; i < revisions.size(); ++i) {
    const std::string at = "revisions[" + std::to_string(i) + "]";
    record.revisions.push_back({r.text(revisions[i], "label", at), r.text(revisions[i], "commit", at)});
  }
  const auto& timings = r.array(doc, "timings", "the document");
  for (size_t i = 0; i < timings.size(); ++i) {
    const auto& t = timings[i];
    const std::string at = "timings[" + std::to_string(i) + "]";
    AbTiming timing;
    timing.suite = r.text(t, "suite", at);
    timing.filter = r.text(t, "filter", at);
    timing.base_commit = r.text(t, "base_commit", at);
    timing.head_commit = r.text(t, "head_commit", at);
    const auto rounds = exact_int64(r.member(t, "rounds", at));
    if (!rounds || *rounds < 0 || *rounds > 1000000) r.fail(at + ".rounds is not a count of rounds");
    timing.rounds = static_cast<int>(*rounds);
    auto& c = timing.comparison;
    c.benchmark = r.text(t, "benchmark", at);
    c.base = r.text(t, "base", at);
    c.head = r.text(t, "head", at);
    c.unit = r.text(t, "unit", at);
    c.base_median = r.number(t, "base_median", at);
    c.head_median = r.number(t, "head_median", at);
    c.median = r.number(t, "ratio", at);
    c.low = r.number(t, "low", at);
    c.high = r.number(t, "high", at);
    c.confidence = r.number(t, "confidence", at);
    const std::string verdict = r.text(t, "verdict", at);
    c.verdict = speedup_verdict(verdict, r, at);
    c.acceptance = r.acceptance(t, at);
    if (c.acceptance && c.verdict != SpeedupVerdict::fail) r.fail(at + " has an acceptance but is not a FAIL");
    if (verdict_text(c) != verdict) r.fail(at + ".verdict " + verdict + " disagrees with its acceptance");
    record.timings.push_back(timing);
  }
  if (doc.contains("instructions")) {
    record.has_costs = true;
    const auto& instructions = doc["instructions"];
    record.max_instruction_increase = r.number(instructions, "max_increase", "instructions");
    const auto& comparisons = r.array(instructions, "comparisons", "instructions");
    for (size_t i = 0; i < comparisons.size(); ++i) {
      const auto& e = comparisons[i];
      const std::string at = "instructions.comparisons[" + std::to_string(i) + "]";
      CostChange c;
      c.benchmark = r.text(e, "benchmark", at);
      c.base = r.number(e, "base", at);
      c.head = r.number(e, "head", at);
      c.change = r.number(e, "change", at);
      const std::string verdict = r.text(e, "verdict", at);
      if (verdict != "PASS" && verdict != "FAIL" && verdict != "ACCEPTED") r.fail(at + ".verdict is not PASS, FAIL or ACCEPTED");
      c.fail = verdict != "PASS";
      c.acceptance = r.acceptance(e, at);
      if (c.acceptance && !c.fail) r.fail(at + " has an acceptance but is not a FAIL");
      if (verdict_text(c) != verdict) r.fail(at + ".verdict " + verdict + " disagrees with its acceptance");
      record.costs.push_back(c);
    }
  }
  if (r.text(doc, "overall", "the document") != overall_text(record)) r.fail("overall disagrees with the verdicts");
  return record;
}

}  // namespace perfgate
