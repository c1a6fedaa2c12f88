// Contract: a perfgate-accept rule turns a FAIL into ACCEPTED only within its allowance (worse by at most N %, the
// A/B judged on its interval's upper end); beyond it the FAIL stays and fails; nothing else changes. ab's JSON reads
// back what it wrote and refuses anything else; the comment built from it stays bounded whatever the results hold.
#include "base/error.h"
#include "base/markdown_text.h"
#include "formats/ab_json.h"
#include "formats/verdicts_input.h"
#include "model/accept_rules.h"
#include "model/function_changes.h"
#include "render/comment_markdown.h"
#include "run/accept_trailers.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace {

using perfgate::AbComparison;
using perfgate::AcceptRule;
using perfgate::SpeedupVerdict;

AbComparison timing(const std::string& name, double low, double high, SpeedupVerdict verdict) {
  AbComparison c;
  c.benchmark = name;
  c.base = "base";
  c.head = "head";
  c.unit = "ms";
  c.base_median = 10.0;
  c.head_median = 10.0 * (low + high) / 2.0;
  c.median = (low + high) / 2.0;
  c.low = low;
  c.high = high;
  c.confidence = 0.95;
  c.verdict = verdict;
  return c;
}

TEST(accept_rules, reads_the_trailer_shape) {
  const auto r =
      perfgate::parse_accept_rule("BM_Step/* real_time +8.5%  slower, but the default is now exact ", "commit abc");
  EXPECT_EQ(r.pattern, "BM_Step/*");
  EXPECT_EQ(r.field, "real_time");
  EXPECT_DOUBLE_EQ(r.percent, 8.5);
  EXPECT_EQ(r.reason, "slower, but the default is now exact");
  EXPECT_EQ(r.source, "commit abc");
}

TEST(accept_rules, refuses_other_shapes) {
  for (const std::string& text : std::vector<std::string>{
           "", "BM_X", "BM_X real_time", "BM_X real_time +8%", "BM_X real_time 8% why", "BM_X real_time +8 why",
           "BM_X real_time -8% why", "BM_X real_time +0% why", "BM_X real_time +1001% why", "BM_X real_time +.5% why",
           "BM_X real_time +5.% why", "BM_X real_time +1e3% why", "BM_X real_time +nan% why", "BM_X real_time +8%% why",
           "BM_X real_time +8% why\nnext", std::string(1001, 'x')}) {
    EXPECT_THROW(perfgate::parse_accept_rule(text, "--accept"), perfgate::InputError) << text;
  }
}

TEST(accept_rules, the_largest_matching_allowance_decides_and_its_edge_is_inclusive) {
  const std::vector<AcceptRule> rules = {
      perfgate::parse_accept_rule("BM_* real_time +5% small", "--accept"),
      perfgate::parse_accept_rule("BM_Step* real_time +10% large", "--accept"),
      perfgate::parse_accept_rule("BM_Step* instructions +50% other field", "--accept")};
  const auto a = perfgate::acceptance_of(rules, "BM_Step/512", "real_time", 0.10);
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->within);
  EXPECT_EQ(a->rule.reason, "large");
  EXPECT_FALSE(perfgate::acceptance_of(rules, "BM_Step/512", "real_time", 0.1001)->within);
  EXPECT_FALSE(perfgate::acceptance_of(rules, "Other", "real_time", 0.01));
  EXPECT_FALSE(perfgate::acceptance_of(rules, "BM_Step/512", "real_time", std::nan(""))->within);
}

// An accepted regression beyond its N % still fails: the A/B is judged on the interval's upper end.
TEST(accept_rules, an_ab_fail_beyond_its_allowance_still_fails) {
  const auto rules =
      std::vector<AcceptRule>{perfgate::parse_accept_rule("BM_* real_time +8% on purpose", "commit 0123456789ab")};
  std::vector<AbComparison> t = {
      timing("BM_Within", 1.06, 1.08, SpeedupVerdict::fail), timing("BM_Beyond", 1.06, 1.09, SpeedupVerdict::fail),
      timing("BM_Pass", 0.98, 1.02, SpeedupVerdict::pass),
      timing("BM_Unsure", 1.01, 1.09, SpeedupVerdict::inconclusive), timing("Other", 1.06, 1.07, SpeedupVerdict::fail)};
  perfgate::apply_acceptance(t, rules);
  EXPECT_EQ(perfgate::verdict_text(t[0]), "ACCEPTED");
  EXPECT_FALSE(perfgate::fails(t[0]));
  EXPECT_EQ(perfgate::verdict_text(t[1]), "FAIL");
  EXPECT_TRUE(perfgate::fails(t[1]));
  ASSERT_TRUE(t[1].acceptance);  // the rule is recorded, so the comment says it did not cover the change
  EXPECT_NE(perfgate::acceptance_text(*t[1].acceptance).find("beyond the accepted +8%"), std::string::npos);
  EXPECT_EQ(perfgate::verdict_text(t[2]), "PASS");
  EXPECT_FALSE(t[2].acceptance);
  EXPECT_EQ(perfgate::verdict_text(t[3]), "INCONCLUSIVE");
  EXPECT_FALSE(t[3].acceptance);
  EXPECT_EQ(perfgate::verdict_text(t[4]), "FAIL");

  std::vector<perfgate::CostChange> costs = {{"BM_A", 100.0, 108.0, 0.08, true, std::nullopt, std::nullopt},
                                             {"BM_B", 100.0, 108.1, 0.081, true, std::nullopt, std::nullopt}};
  perfgate::apply_acceptance(costs, {perfgate::parse_accept_rule("BM_* instructions +8% on purpose", "--accept")});
  EXPECT_FALSE(perfgate::fails(costs[0]));
  EXPECT_TRUE(perfgate::fails(costs[1]));

  perfgate::AbRecord record;
  record.timings.push_back({"s", "f", "a", "b", 6, t[0]});
  EXPECT_EQ(perfgate::exit_status_of(record), 0);
  record.timings.push_back({"s", "f", "a", "b", 6, t[1]});
  EXPECT_EQ(perfgate::exit_status_of(record), 1);
}

TEST(accept_rules, are_read_from_the_commits_trailers) {
  const auto repo = std::filesystem::temp_directory_path() / ("perfgate-accept-" + std::to_string(::getpid()));
  std::filesystem::remove_all(repo);
  std::filesystem::create_directories(repo);
  const std::string git = "git -C '" + repo.string() + "' -c user.name=t -c user.email=t@t -c commit.gpgsign=false ";
  ASSERT_EQ(std::system((git + "init -q && " + git + "commit -q --allow-empty -m base").c_str()), 0);
  ASSERT_EQ(std::system((git + "commit -q --allow-empty -m 'slower default' -m 'body' -m 'perfgate-accept: BM_Step* "
                               "real_time +8% exact now'")
                            .c_str()),
            0);
  ASSERT_EQ(std::system((git + "commit -q --allow-empty -m 'two' -m 'perfgate-accept: BM_A instructions +1% "
                               "one\nperfgate-accept: BM_B real_time +2% two'")
                            .c_str()),
            0);
  const auto rules = perfgate::accept_rules_from_trailers(repo.string(), "HEAD~2..HEAD");
  ASSERT_EQ(rules.size(), 3u);
  EXPECT_EQ(rules[0].pattern, "BM_A");
  EXPECT_EQ(rules[2].reason, "exact now");
  EXPECT_EQ(rules[2].source.rfind("commit ", 0), 0u);
  EXPECT_TRUE(perfgate::accept_rules_from_trailers(repo.string(), "HEAD..HEAD").empty());
  ASSERT_EQ(
      std::system((git + "commit -q --allow-empty -m 'bad' -m 'perfgate-accept: BM_X real_time 8 percent'").c_str()),
      0);
  EXPECT_THROW(perfgate::accept_rules_from_trailers(repo.string(), "HEAD~1..HEAD"), perfgate::InputError);
  EXPECT_THROW(perfgate::accept_rules_from_trailers(repo.string(), "--output=/tmp/x"), perfgate::InputError);
  EXPECT_THROW(perfgate::accept_rules_from_trailers(repo.string(), "no-such..HEAD"), perfgate::InputError);
  std::filesystem::remove_all(repo);
}

TEST(ab_json, reads_back_what_it_wrote_and_refuses_a_verdict_its_acceptance_contradicts) {
  perfgate::AbRecord record;
  record.max_slowdown = 0.05;
  record.max_instruction_increase = 0.005;
  record.revisions = {{"base", std::string(40, 'a')}, {"head", std::string(40, 'b')}};
  auto c = timing("BM_Step", 1.06, 1.08, SpeedupVerdict::fail);
  std::vector<AbComparison> one = {c};
  perfgate::apply_acceptance(one, {perfgate::parse_accept_rule("BM_* real_time +8% why", "--accept")});
  record.timings.push_back({"s", "^BM_", std::string(40, 'a'), std::string(40, 'b'), 6, one[0]});
  record.has_costs = true;
  record.costs.push_back({"BM_Cost", 1e6, 1.001e6, 0.001, false, std::nullopt, std::nullopt});
  const std::string text = perfgate::ab_json_text(record);
  const auto back = perfgate::parse_ab_json(text, "ab.json");
  EXPECT_EQ(perfgate::ab_json_text(back), text);
  EXPECT_EQ(perfgate::overall_text(back), "PASS");

  std::string forged = text;
  forged.replace(forged.find("\"ACCEPTED\""), 10, "\"PASS\"");
  EXPECT_THROW(perfgate::parse_ab_json(forged, "ab.json"), perfgate::InputError);
  for (const std::string& bad :
       {std::string("{}"), std::string("[]"), std::string("{\"format\":\"perfgate-ab\",\"version\":2}"),
        text.substr(0, text.size() / 2)}) {
    EXPECT_THROW(perfgate::parse_ab_json(bad, "ab.json"), perfgate::InputError);
  }
}

TEST(comment, stays_bounded_and_lists_failures_first) {
  // Every text column filled with the characters that escaping makes longest, in every table: far more than fits.
  const std::string wide = std::string(100, '<') + std::string(100, '#');
  perfgate::VerdictsDocument v;
  v.overall = "FAIL";
  for (int i = 0; i < 5000; ++i) {
    perfgate::VerdictRow row{"s",   wide + std::to_string(i),
                             wide,  i % 2 ? "PASS" : "FAIL",
                             wide,  wide,
                             wide,  wide,
                             false, std::nullopt,
                             wide,  wide,
                             wide};
    v.rows.push_back(row);
    v.fixes.push_back({wide, std::string(900, '`') + wide});
  }
  perfgate::AbRecord ab;
  ab.max_slowdown = 0.05;
  ab.has_costs = true;
  for (int i = 0; i < 500; ++i) {
    auto c = timing(wide + std::to_string(i), 1.06, 1.08, SpeedupVerdict::fail);
    c.unit = wide;
    std::vector<AbComparison> one = {c};
    perfgate::apply_acceptance(one, {perfgate::parse_accept_rule("* real_time +10% " + wide, "commit " + wide)});
    ab.timings.push_back({"s", "f", "a", "b", 6, one[0]});
    std::vector<perfgate::CostChange> cost = {
        {wide + std::to_string(i), 100.0, 200.0, 1.0, true, std::nullopt, std::nullopt}};
    perfgate::apply_acceptance(cost, {perfgate::parse_accept_rule("* instructions +200% " + wide, "commit " + wide)});
    ab.costs.push_back(cost[0]);
  }
  perfgate::CommentInput input;
  input.verdicts = v;
  input.ab = ab;
  const auto text = perfgate::render_comment(input);
  EXPECT_LT(text.size(), 65536u) << "bytes, so characters too";
  EXPECT_EQ(text.rfind(perfgate::comment_marker_line("perfgate"), 0), 0u);
  EXPECT_NE(text.find("more, listed in the report"), std::string::npos);
  EXPECT_EQ(text.find("| **PASS**"), std::string::npos) << "passing metrics are counted, not listed";
  EXPECT_NE(text.find("accept the other 4995 changes are in the report"), std::string::npos);
  EXPECT_NE(text.find("**Against the committed baselines: FAIL**, 2500 failed"), std::string::npos);

  input.marker = "a b";
  EXPECT_THROW(perfgate::render_comment(input), perfgate::InputError);
  input.marker = "perfgate";
  for (const std::string url :
       {"javascript:alert(1)", "https://x/a)b", "https://x/ a", "https://x/<a>", "https://x/[a]", "ftp://x"}) {
    input.run_url = url;
    EXPECT_THROW(perfgate::render_comment(input), perfgate::InputError) << url;
  }
}

// An acceptance is judged on the interval's upper end, also when read back: a file claiming a +8% rule covers an
// interval reaching 1.09 is refused.
TEST(ab_json, refuses_an_acceptance_its_interval_exceeds) {
  perfgate::AbRecord record;
  record.max_slowdown = 0.05;
  std::vector<AbComparison> one = {timing("BM_Step", 1.07, 1.09, SpeedupVerdict::fail)};
  perfgate::apply_acceptance(one, {perfgate::parse_accept_rule("BM_* real_time +10% why", "--accept")});
  record.timings.push_back({"s", "f", "a", "b", 6, one[0]});
  std::string text = perfgate::ab_json_text(record);
  EXPECT_NO_THROW(perfgate::parse_ab_json(text, "ab.json"));
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"\"percent\": 10.0", "\"percent\": 8.0"},
                                 {"\"percent\": 10", "\"percent\": 8"}}) {
    const auto at = text.find(from);
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  ASSERT_EQ(text.find("\"percent\": 10"), std::string::npos);
  EXPECT_THROW(perfgate::parse_ab_json(text, "ab.json"), perfgate::InputError);
}

// The baselines' own line fails on a MISSING metric, as the gate does.
TEST(comment, a_missing_metric_fails_the_baselines_line) {
  perfgate::VerdictsDocument v;
  v.overall = "FAIL";
  v.rows.push_back({"s", "BM_Gone", "real_time", "MISSING", "not measured", "", "", "10", false, std::nullopt, "ns",
                    "5% rel", "10.5"});
  perfgate::CommentInput input;
  input.verdicts = v;
  EXPECT_NE(perfgate::render_comment(input).find("**Against the committed baselines: FAIL**, 1 failed"),
            std::string::npos);
}

// A failing instruction count's differential reaches the comment, read back from verdicts.json and from ab's JSON as
// it was written: the function that moved it most, its delta and share, its name escaped.
TEST(comment, names_the_functions_that_moved_a_failing_count) {
  perfgate::ProfileChanges changes;
  changes.total_before = 1000;
  changes.total_after = 1300;
  changes.by_self = {{"added_*work*<b>", {0, 0}, {280, 280}}, {"main", {1000, 1000}, {1020, 1300}}};
  const auto json = perfgate::profile_changes_json(changes);
  nlohmann::json row = {{"suite", "cost"},   {"benchmark", "BM_Loop"}, {"field", "instructions"}, {"verdict", "FAIL"},
                        {"reason", "moved"}, {"value", 1300},          {"baseline", 1000},        {"functions", json}};
  nlohmann::json doc = {{"overall", "FAIL"}, {"git_sha", "abc"}, {"machine", "m"}, {"date", "d"}, {"checks", {row}}};
  perfgate::CommentInput input;
  input.verdicts = perfgate::parse_verdicts_json(doc.dump(), "verdicts.json");
  const auto text = perfgate::render_comment(input);
  EXPECT_NE(
      text.find(
          "**BM\\_Loop**: own instructions moved most in added\\_\\*work\\*&lt;b&gt; +280 (93.3 %), main +20 (6.7 %)"),
      std::string::npos)
      << text;
  // A delta that is not after - before is refused, not rendered.
  doc["checks"][0]["functions"]["by_self"][0]["delta"] = 999;
  EXPECT_THROW(perfgate::parse_verdicts_json(doc.dump(), "verdicts.json"), perfgate::InputError);
}

// Names are cut after exactly `max_characters` characters (UTF-8 counted as characters), with an ellipsis.
TEST(markdown_text, cuts_after_exactly_the_limit) {
  EXPECT_EQ(perfgate::markdown_text("aaaaa", 5), "aaaaa");
  EXPECT_EQ(perfgate::markdown_text("aaaaaa", 5), "aaaaa…");
  EXPECT_EQ(perfgate::markdown_text("ééééé", 5), "ééééé");
  EXPECT_EQ(perfgate::markdown_text("éééééé", 5), "ééééé…");
}

}  // namespace
