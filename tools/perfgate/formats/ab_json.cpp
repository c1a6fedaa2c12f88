#include "formats/ab_json.h"

#include "base/error.h"
#include "base/exit_codes.h"
#include "base/json_input.h"
#include "base/json_reader.h"
#include "formats/function_changes_input.h"

#include <algorithm>
#include <cmath>

namespace perfgate {
namespace {

constexpr int kFormatVersion = 1;

nlohmann::json acceptance_json(const std::optional<Acceptance>& a) {
  if (!a) return nullptr;
  return {{"rule", a->rule.text},       {"pattern", a->rule.pattern}, {"field", a->rule.field},
          {"percent", a->rule.percent}, {"reason", a->rule.reason},   {"source", a->rule.source},
          {"within", a->within}};
}

std::optional<Acceptance> read_acceptance(const JsonReader& r, const nlohmann::json& object, const std::string& where) {
  const auto& v = r.member(object, "acceptance", where);
  if (v.is_null()) return std::nullopt;
  const std::string at = where + ".acceptance";
  Acceptance a;
  a.rule.text = r.text(v, "rule", at);
  a.rule.pattern = r.text(v, "pattern", at);
  a.rule.field = r.text(v, "field", at);
  a.rule.percent = r.number(v, "percent", at);
  a.rule.reason = r.text(v, "reason", at);
  a.rule.source = r.text(v, "source", at);
  a.within = r.flag(v, "within", at);
  if (!(a.rule.percent > 0.0 && a.rule.percent <= 1000.0)) r.fail(at + ".percent is not in (0, 1000]");
  return a;
}

// An acceptance read back must be what its rule makes of the figures: the rule matches the benchmark and field, and
// `within` is the rule's verdict on the worsening. A file that claims more is refused, not believed.
void check_acceptance(const JsonReader& r, const std::optional<Acceptance>& a, const std::string& benchmark,
                      const std::string& field, double worsening, const std::string& where) {
  if (!a) return;
  const auto again = acceptance_of({a->rule}, benchmark, field, worsening);
  if (!again) r.fail(where + ".acceptance: its rule does not match " + benchmark + " " + field);
  if (again->within != a->within) r.fail(where + ".acceptance: 'within' disagrees with the figures");
}

SpeedupVerdict speedup_verdict(const std::string& text, const JsonReader& r, const std::string& where) {
  if (text == "PASS") return SpeedupVerdict::pass;
  if (text == "FAIL" || text == "ACCEPTED") return SpeedupVerdict::fail;
  if (text == "INCONCLUSIVE") return SpeedupVerdict::inconclusive;
  r.fail(where + ".verdict is not PASS, FAIL, ACCEPTED or INCONCLUSIVE");
}

}  // namespace

int exit_status_of(const AbRecord& record) {
  for (const auto& t : record.timings)
    if (fails(t.comparison)) return code_of(Exit::fail);
  for (const auto& c : record.costs)
    if (fails(c)) return code_of(Exit::fail);
  for (const auto& t : record.timings)
    if (t.comparison.verdict == SpeedupVerdict::inconclusive) return code_of(Exit::inconclusive);
  return code_of(Exit::pass);
}

std::string overall_text(const AbRecord& record) {
  const int status = exit_status_of(record);
  return status == code_of(Exit::fail) ? "FAIL" : status == code_of(Exit::inconclusive) ? "INCONCLUSIVE" : "PASS";
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
    timings.push_back({{"suite", t.suite},
                       {"filter", t.filter},
                       {"benchmark", c.benchmark},
                       {"base", c.base},
                       {"head", c.head},
                       {"base_commit", t.base_commit},
                       {"head_commit", t.head_commit},
                       {"unit", c.unit},
                       {"base_median", c.base_median},
                       {"head_median", c.head_median},
                       {"ratio", c.median},
                       {"low", c.low},
                       {"high", c.high},
                       {"confidence", c.confidence},
                       {"rounds", t.rounds},
                       {"verdict", verdict_text(c)},
                       {"acceptance", acceptance_json(c.acceptance)}});
  }
  doc["timings"] = timings;
  if (record.has_costs) {
    nlohmann::json costs = nlohmann::json::array();
    for (const auto& c : record.costs) {
      costs.push_back({{"benchmark", c.benchmark},
                       {"base", c.base},
                       {"head", c.head},
                       {"change", c.change},
                       {"verdict", verdict_text(c)},
                       {"acceptance", acceptance_json(c.acceptance)}});
      if (c.functions) costs.back()["functions"] = profile_changes_json(*c.functions);
    }
    doc["instructions"] = {{"max_increase", record.max_instruction_increase}, {"comparisons", costs}};
  }
  return json_output_text(doc);
}

AbRecord parse_ab_json(const std::string& text, const std::string& source) {
  const auto doc = parse_json_input(text, source);
  const JsonReader r(source, "perfgate ab's JSON");
  if (!doc.is_object() || !doc.contains("format") || doc["format"] != "perfgate-ab")
    r.fail("no \"format\": \"perfgate-ab\"");
  const auto& version = r.member(doc, "version", "the document");
  if (exact_int64(version) != kFormatVersion) r.fail("version is not " + std::to_string(kFormatVersion));
  AbRecord record;
  record.max_slowdown = r.number(doc, "max_slowdown", "the document");
  if (!(record.max_slowdown >= 0.0 && record.max_slowdown <= kMaxToleratedChange))
    r.fail("max_slowdown is not in [0, 10], which ab takes");
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
    timing.rounds = static_cast<int>(r.count(t, "rounds", at, 0, 1000000));
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
    if (!(c.confidence > 0.0 && c.confidence <= 1.0)) r.fail(at + ".confidence is not in (0, 1]");
    if (!(c.base_median > 0.0 && c.head_median > 0.0 && c.low > 0.0 && c.low <= c.median && c.median <= c.high)) {
      r.fail(at + ": times and ratios must be positive, with low <= ratio <= high");
    }
    const std::string verdict = r.text(t, "verdict", at);
    c.verdict = speedup_verdict(verdict, r, at);
    c.acceptance = read_acceptance(r, t, at);
    if (c.acceptance && c.verdict != SpeedupVerdict::fail) r.fail(at + " has an acceptance but is not a FAIL");
    // The verdict must be the one the interval gives against the tolerated slowdown (INCONCLUSIVE is also what too few
    // rounds give, whatever the interval).
    const double limit = 1.0 + record.max_slowdown;
    if ((c.verdict == SpeedupVerdict::pass && c.high > limit) ||
        (c.verdict == SpeedupVerdict::fail && !(c.low > limit))) {
      r.fail(at + ".verdict " + verdict + " disagrees with its interval and the tolerated slowdown");
    }
    check_acceptance(r, c.acceptance, c.benchmark, "real_time", c.high - 1.0, at);
    if (verdict_text(c) != verdict) r.fail(at + ".verdict " + verdict + " disagrees with its acceptance");
    record.timings.push_back(timing);
  }
  if (doc.contains("instructions")) {
    record.has_costs = true;
    const auto& instructions = doc["instructions"];
    record.max_instruction_increase = r.number(instructions, "max_increase", "instructions");
    if (!(record.max_instruction_increase >= 0.0 && record.max_instruction_increase <= kMaxToleratedChange)) {
      r.fail("instructions.max_increase is not in [0, 10], which ab takes");
    }
    const auto& comparisons = r.array(instructions, "comparisons", "instructions");
    for (size_t i = 0; i < comparisons.size(); ++i) {
      const auto& e = comparisons[i];
      const std::string at = "instructions.comparisons[" + std::to_string(i) + "]";
      CostChange c;
      c.benchmark = r.text(e, "benchmark", at);
      c.base = r.number(e, "base", at);
      c.head = r.number(e, "head", at);
      c.change = r.number(e, "change", at);
      if (!(c.base > 0.0 && c.head > 0.0) ||
          std::fabs(c.change - (c.head / c.base - 1.0)) > 1e-9 * std::max(1.0, std::fabs(c.change))) {
        r.fail(at + ": counts must be positive and change must be head / base - 1");
      }
      const std::string verdict = r.text(e, "verdict", at);
      if (verdict != "PASS" && verdict != "FAIL" && verdict != "ACCEPTED")
        r.fail(at + ".verdict is not PASS, FAIL or ACCEPTED");
      c.fail = verdict != "PASS";
      if (c.fail != (c.change > record.max_instruction_increase))
        r.fail(at + ".verdict " + verdict + " disagrees with the change and the tolerated increase");
      c.acceptance = read_acceptance(r, e, at);
      if (c.acceptance && !c.fail) r.fail(at + " has an acceptance but is not a FAIL");
      check_acceptance(r, c.acceptance, c.benchmark, "instructions", c.change, at);
      if (verdict_text(c) != verdict) r.fail(at + ".verdict " + verdict + " disagrees with its acceptance");
      if (e.contains("functions")) c.functions = parse_profile_changes(r, e.at("functions"), at + ".functions");
      record.costs.push_back(c);
    }
  }
  if (r.text(doc, "overall", "the document") != overall_text(record)) r.fail("overall disagrees with the verdicts");
  return record;
}

}  // namespace perfgate
