// Contract: perfgate reads results and baselines strictly, judges them by the stated tolerance rules, and plans
// baseline updates that refuse absent metrics and disagreeing timing captures.
#include <algorithm>
#include "base/error.h"
#include "base/number_format.h"
#include "base/one_line.h"
#include "formats/report_data.h"
#include "formats/results_input.h"
#include "formats/verdicts_input.h"
#include "model/baseline.h"
#include "model/compare.h"
#include "model/fix_command.h"
#include "model/results.h"
#include "model/update.h"
#include "render/comment_markdown.h"
#include "render/report_render.h"
#include "render/row_text.h"
#include "render/svg_plot.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

const std::string kInputs = PERFGATE_TEST_INPUTS;

perfgate::Results results(const std::string& name) { return perfgate::read_results(kInputs + "/" + name); }
perfgate::Baseline baseline(const std::string& name) { return perfgate::read_baseline(kInputs + "/" + name); }

const perfgate::Row& row_of(const std::vector<perfgate::Row>& rows, const std::string& bench,
                            const std::string& field) {
  for (const auto& r : rows) {
    if (r.benchmark == bench && r.field == field) return r;
  }
  throw std::runtime_error("no row " + bench + " " + field);
}

TEST(perfgate_compare, within_tolerance_passes_and_unbaselined_is_reported) {
  const auto rows = perfgate::compare(results("results_ok.json"), baseline("baseline_ok.json"));
  EXPECT_EQ(row_of(rows, "BM_Accuracy", "psnr_db").verdict, perfgate::Verdict::pass);  // 22.0 ≥ 22.5 − 1
  EXPECT_EQ(row_of(rows, "BM_Accuracy", "spread_db").verdict, perfgate::Verdict::pass);
  EXPECT_EQ(row_of(rows, "BM_Other", "").verdict, perfgate::Verdict::unbaselined);
  EXPECT_EQ(perfgate::exit_code_of(rows), 0);
}

TEST(perfgate_compare, regression_beyond_tolerance_fails) {
  const auto rows = perfgate::compare(results("results_ok.json"), baseline("baseline_regressed.json"));
  const auto& r = row_of(rows, "BM_Accuracy", "psnr_db");
  EXPECT_EQ(r.verdict, perfgate::Verdict::fail);  // 22.0 < 24 − 1
  EXPECT_DOUBLE_EQ(r.threshold, 23.0);
  // The pure layer hands over values; the words are the renderers' (row_text.h).
  EXPECT_EQ(r.findings, std::vector<perfgate::Finding>{perfgate::Finding::beyond_tolerance});
  EXPECT_DOUBLE_EQ(r.band.low, 23.0);
  EXPECT_EQ(r.band.high, std::numeric_limits<double>::infinity());
  EXPECT_EQ(r.tolerance.kind, perfgate::Tolerance::Kind::abs);
  EXPECT_EQ(perfgate::reason_text(r), "worse than baseline beyond tolerance");
  EXPECT_EQ(perfgate::tolerance_text(r), "±1 abs");
  EXPECT_EQ(perfgate::exit_code_of(rows), 1);
}

TEST(perfgate_compare, vanished_benchmark_is_missing_and_fails) {
  const auto rows = perfgate::compare(results("results_ok.json"), baseline("baseline_vanished.json"));
  EXPECT_EQ(row_of(rows, "BM_Gone", "psnr_db").verdict, perfgate::Verdict::missing);
  EXPECT_EQ(perfgate::exit_code_of(rows), 1);
}

// Repetitions are judged by their median: one outlying repetition (a noisy neighbour, a page fault) moves a mean by
// a third here but the median not at all, so the verdict must not move either.
TEST(perfgate_compare, repetitions_are_judged_by_their_median) {
  const auto measured = perfgate::parse_results(R"({"benchmarks": [
    {"name": "BM_Step", "run_name": "BM_Step", "run_type": "iteration", "repetition_index": 0, "iterations": 1, "real_time": 1, "time_unit": "ms", "bytes": 10.0},
    {"name": "BM_Step", "run_name": "BM_Step", "run_type": "iteration", "repetition_index": 1, "iterations": 1, "real_time": 1, "time_unit": "ms", "bytes": 10.2},
    {"name": "BM_Step", "run_name": "BM_Step", "run_type": "iteration", "repetition_index": 2, "iterations": 1, "real_time": 1, "time_unit": "ms", "bytes": 19.0}]})",
                                                "three repetitions, one outlying");
  auto b = baseline("baseline_ok.json");
  b.entries.resize(1);
  b.entries[0].benchmark = "BM_Step";
  b.entries[0].field = "bytes";
  b.entries[0].unit = "";
  b.entries[0].value = 10.0;
  b.entries[0].direction = perfgate::Direction::lower;
  b.entries[0].tolerance = {perfgate::Tolerance::Kind::rel, 0.1, std::nullopt};
  b.entries[0].limit.reset();
  b.entries[0].advisory = false;
  const auto& row = row_of(perfgate::compare(measured, b), "BM_Step", "bytes");
  EXPECT_DOUBLE_EQ(row.value, 10.2);  // the median; the mean would be 13.07
  EXPECT_EQ(row.verdict, perfgate::Verdict::pass);
}

// A hard limit is a ceiling on a lower-is-better metric and a floor on a higher-is-better one: past it fails even
// inside the tolerance band.
TEST(perfgate_compare, hard_limit_fails_even_within_tolerance) {
  auto b = baseline("baseline_ok.json");
  b.entries[1].limit = 0.35;  // spread 0.4 is within ±0.5 of 0.3 but above the ceiling
  b.entries[0].limit = 22.2;  // psnr 22.0 is within ±1 of 22.5 but under the floor
  const auto rows = perfgate::compare(results("results_ok.json"), b);
  for (const char* field : {"spread_db", "psnr_db"}) {
    const auto& r = row_of(rows, "BM_Accuracy", field);
    EXPECT_EQ(r.verdict, perfgate::Verdict::fail) << field;
    EXPECT_EQ(r.findings, std::vector<perfgate::Finding>{perfgate::Finding::beyond_limit}) << field;
  }
  const auto& spread = row_of(rows, "BM_Accuracy", "spread_db");
  EXPECT_EQ(perfgate::reason_text(spread), "beyond the hard limit 0.35");
  EXPECT_EQ(perfgate::tolerance_text(spread), "±0.5 abs, max 0.35");
  b.entries[0].limit = 21.8;
  EXPECT_EQ(row_of(perfgate::compare(results("results_ok.json"), b), "BM_Accuracy", "psnr_db").verdict,
            perfgate::Verdict::pass);
}

// The limit itself is allowed on both sides: only a value past it fails.
TEST(perfgate_compare, a_value_on_its_hard_limit_passes) {
  auto b = baseline("baseline_ok.json");
  b.entries[0].limit = 22.0;  // psnr 22.0 measured, "higher": exactly on the floor
  b.entries[1].limit = 0.4;   // spread 0.4 measured, "lower": exactly on the ceiling
  const auto rows = perfgate::compare(results("results_ok.json"), b);
  for (const char* field : {"psnr_db", "spread_db"}) {
    const auto& r = row_of(rows, "BM_Accuracy", field);
    EXPECT_EQ(r.verdict, perfgate::Verdict::pass) << field;
    EXPECT_TRUE(r.findings.empty()) << field;
  }
  EXPECT_EQ(perfgate::exit_code_of(rows), 0);
}

TEST(perfgate_compare, exact_tolerance) {
  auto b = baseline("baseline_ok.json");
  b.entries[0].tolerance.kind = perfgate::Tolerance::Kind::exact;
  b.entries[0].value = 22.0;
  EXPECT_EQ(row_of(perfgate::compare(results("results_ok.json"), b), "BM_Accuracy", "psnr_db").verdict,
            perfgate::Verdict::pass);
  b.entries[0].value = 22.000001;
  EXPECT_EQ(row_of(perfgate::compare(results("results_ok.json"), b), "BM_Accuracy", "psnr_db").verdict,
            perfgate::Verdict::fail);
}

TEST(perfgate_compare, either_direction_fails_on_any_move_beyond_tolerance) {
  auto b = baseline("baseline_ok.json");
  b.entries[0].direction = perfgate::Direction::either;
  b.entries[0].tolerance = {perfgate::Tolerance::Kind::rel, 0.01, std::nullopt};
  b.entries[0].value = 21.9;  // 22.0 is within 1 %
  EXPECT_EQ(row_of(perfgate::compare(results("results_ok.json"), b), "BM_Accuracy", "psnr_db").verdict,
            perfgate::Verdict::pass);
  b.entries[0].value = 22.5;  // 22.0 is 2.2 % below: better for "higher", a failure for "either"
  EXPECT_EQ(row_of(perfgate::compare(results("results_ok.json"), b), "BM_Accuracy", "psnr_db").verdict,
            perfgate::Verdict::fail);
  b.entries[0].value = 21.5;
  EXPECT_EQ(row_of(perfgate::compare(results("results_ok.json"), b), "BM_Accuracy", "psnr_db").verdict,
            perfgate::Verdict::fail);
}

TEST(perfgate_compare, advisory_timing_is_judged_only_on_its_own_machine_and_never_fails) {
  auto r = results("results_ok.json");  // BM_Other real_time 1.5 ms: 50 % slower than the advisory 1.0 ms
  auto rows = perfgate::compare(r, baseline("baseline_advisory.json"));
  EXPECT_EQ(row_of(rows, "BM_Other", "real_time").verdict, perfgate::Verdict::other_machine);  // no fingerprint
  EXPECT_EQ(perfgate::exit_code_of(rows), 0);
  r.context["machine_fingerprint"] = "00000000feedf00d";
  rows = perfgate::compare(r, baseline("baseline_advisory.json"));
  EXPECT_EQ(row_of(rows, "BM_Other", "real_time").verdict, perfgate::Verdict::slower);
  EXPECT_EQ(row_of(rows, "BM_Accuracy", "psnr_db").verdict, perfgate::Verdict::pass);
  EXPECT_EQ(perfgate::exit_code_of(rows), 0);
  r.context["machine_fingerprint"] = "1111111111111111";
  EXPECT_EQ(row_of(perfgate::compare(r, baseline("baseline_advisory.json")), "BM_Other", "real_time").verdict,
            perfgate::Verdict::other_machine);
}

// A gated timing is judged on the machine that recorded it, and fails there; from another machine its wall time
// says nothing about the code, so it is not judged (never a pass by a faster machine, nor a failure by a slower one).
TEST(perfgate_compare, gated_timing_fails_on_its_own_machine_and_is_skipped_elsewhere) {
  auto r = results("results_ok.json");
  auto b = baseline("baseline_advisory.json");
  b.entries[1].advisory = false;
  r.context["machine_fingerprint"] = "00000000feedf00d";
  auto rows = perfgate::compare(r, b);
  EXPECT_EQ(row_of(rows, "BM_Other", "real_time").verdict, perfgate::Verdict::fail);
  EXPECT_EQ(perfgate::exit_code_of(rows), 1);
  r.context["machine_fingerprint"] = "1111111111111111";
  rows = perfgate::compare(r, b);
  EXPECT_EQ(row_of(rows, "BM_Other", "real_time").verdict, perfgate::Verdict::other_machine);
  EXPECT_EQ(perfgate::exit_code_of(rows), 0);
}

TEST(perfgate_inputs, malformed_baselines_are_refused) {
  for (const char* name :
       {"baseline_wrong_schema.json", "baseline_unknown_field.json", "baseline_duplicate.json",
        "baseline_negative_tolerance.json", "baseline_bad_direction.json", "baseline_truncated.json",
        "baseline_nan.json", "baseline_advisory_not_bool.json", "baseline_number_overflow.json", "no_such_file.json"}) {
    EXPECT_THROW(baseline(name), perfgate::InputError) << name;
  }
}

TEST(perfgate_inputs, malformed_results_are_refused) {
  for (const char* name : {"results_duplicate.json", "results_negative_time.json", "results_no_benchmarks.json",
                           "results_string_value.json", "results_truncated.json", "no_such_file.json"}) {
    EXPECT_THROW(results(name), perfgate::InputError) << name;
  }
}

TEST(perfgate_inputs, baseline_round_trips_through_its_serialisation) {
  const auto b = baseline("baseline_ok.json");
  const auto again = perfgate::parse_baseline(perfgate::to_json_text(b), "round trip");
  ASSERT_EQ(again.entries.size(), b.entries.size());
  EXPECT_EQ(again.entries[1].limit, b.entries[1].limit);
  EXPECT_EQ(again.provenance.reason, "fixture");
  const auto advisory = baseline("baseline_advisory.json");
  const auto advisory_again = perfgate::parse_baseline(perfgate::to_json_text(advisory), "round trip");
  EXPECT_TRUE(advisory_again.entries[1].advisory);
  EXPECT_FALSE(advisory_again.entries[0].advisory);
  EXPECT_EQ(advisory_again.provenance.machine_fingerprint, "00000000feedf00d");
}

perfgate::UpdateRequest req(std::vector<perfgate::TrackSpec> track = {}, bool ratchet = false) {
  perfgate::UpdateRequest r;
  r.track = std::move(track);
  r.ratchet = ratchet;
  return r;
}

TEST(perfgate_update, tracks_new_metrics_and_updates_existing_ones) {
  const auto plan = perfgate::plan_update({results("results_ok.json")}, baseline("baseline_ok.json"), req(), {});
  EXPECT_DOUBLE_EQ(plan.next.entries[0].value, 22.0);
  const auto fresh = perfgate::plan_update({results("results_ok.json")}, std::nullopt,
                                           req({perfgate::parse_track_spec("psnr_db:higher:abs=1:unit=dB")}), {});
  ASSERT_EQ(fresh.next.entries.size(), 1u);
  EXPECT_EQ(fresh.next.entries[0].unit, "dB");
  EXPECT_DOUBLE_EQ(fresh.next.entries[0].value, 22.0);
  EXPECT_TRUE(perfgate::parse_track_spec("real_time:lower:rel=0.2:advisory").advisory);
}

TEST(perfgate_update, ratchet_only_moves_the_good_way) {
  const auto plan =
      perfgate::plan_update({results("results_ok.json")}, baseline("baseline_ok.json"), req({}, true), {});
  EXPECT_DOUBLE_EQ(plan.next.entries[0].value, 22.5);  // 22.0 is worse for "higher": kept
  EXPECT_DOUBLE_EQ(plan.next.entries[1].value, 0.3);   // 0.4 is worse for "lower": kept
}

TEST(perfgate_update, refuses_absent_metrics_and_single_timing_captures) {
  EXPECT_THROW(perfgate::plan_update({results("results_ok.json")}, baseline("baseline_vanished.json"), req(), {}),
               perfgate::InputError);
  const auto timing = perfgate::parse_track_spec("real_time:lower:rel=0.1");
  EXPECT_THROW(perfgate::plan_update({results("results_ok.json")}, std::nullopt, req({timing}), {}),
               perfgate::InputError);
  EXPECT_NO_THROW(
      perfgate::plan_update({results("results_ok.json"), results("results_ok.json")}, std::nullopt, req({timing}), {}));
}

// The second capture of a timing must fall inside the tolerance band around the first: a baseline written from one
// noisy capture would gate every later run against noise.
TEST(perfgate_update, timing_captures_must_agree_within_the_tolerance) {
  const auto timing = perfgate::parse_track_spec("real_time:lower:rel=0.1");
  const auto first = results("results_ok.json");
  const auto scaled = [&](double factor) {
    auto again = first;
    for (auto& m : again.measurements) {
      if (m.field == "real_time") m.value *= factor;
    }
    return again;
  };
  EXPECT_NO_THROW(perfgate::plan_update({first, scaled(1.05)}, std::nullopt, req({timing}), {}));
  EXPECT_NO_THROW(perfgate::plan_update({first, scaled(0.95)}, std::nullopt, req({timing}), {}));
  EXPECT_THROW(perfgate::plan_update({first, scaled(1.5)}, std::nullopt, req({timing}), {}), perfgate::InputError);
  EXPECT_THROW(perfgate::plan_update({first, scaled(0.5)}, std::nullopt, req({timing}), {}), perfgate::InputError);
}

// A baseline value is the median over the capture's repetitions, not any one of them (the first is often cold).
TEST(perfgate_update, a_new_value_is_the_median_of_the_repetitions) {
  perfgate::Results r;
  r.source = "test";
  const double reps[] = {9.0, 4.0, 6.0, 7.0, 5.0};  // the median is neither the first nor the last
  for (int i = 0; i < 5; ++i) r.measurements.push_back({"BM_Step", "instructions", reps[i], "", i, std::nullopt});
  const auto plan =
      perfgate::plan_update({r}, std::nullopt, req({perfgate::parse_track_spec("instructions:lower:rel=0.01")}), {});
  ASSERT_EQ(plan.next.entries.size(), 1u);
  EXPECT_EQ(plan.next.entries[0].value, 6.0);
}

// --track on a field already tracked gives its entries the new criterion, and says so; a field tracked twice in one
// update is refused rather than one criterion silently winning.
TEST(perfgate_update, track_changes_the_criterion_of_a_tracked_field) {
  const auto plan = perfgate::plan_update({results("results_ok.json")}, baseline("baseline_ok.json"),
                                          req({perfgate::parse_track_spec("psnr_db:higher:abs=2")}), {});
  EXPECT_EQ(plan.next.entries[0].tolerance.amount, 2.0);
  bool said = false;
  for (const auto& line : plan.diff)
    said = said || line.find("criterion higher:abs=1 -> higher:abs=2") != std::string::npos;
  EXPECT_TRUE(said);
  EXPECT_THROW(perfgate::plan_update({results("results_ok.json")}, baseline("baseline_ok.json"),
                                     req({perfgate::parse_track_spec("psnr_db:higher:abs=2"),
                                          perfgate::parse_track_spec("psnr_db:higher:abs=3")}),
                                     {}),
               perfgate::InputError);
}

// A metric gone on purpose is dropped by name; a drop of an entry the baseline does not hold is refused.
TEST(perfgate_update, drop_removes_a_vanished_metric) {
  auto r = req();
  EXPECT_THROW(perfgate::plan_update({results("results_ok.json")}, baseline("baseline_vanished.json"), r, {}),
               perfgate::InputError);
  const auto vanished = baseline("baseline_vanished.json");
  const auto measured = results("results_ok.json");
  const perfgate::MeasurementIndex index(measured);
  for (const auto& e : vanished.entries) {
    if (index.values_of(e.benchmark, e.field).empty()) r.drop.push_back({e.benchmark, e.field});
  }
  ASSERT_FALSE(r.drop.empty());
  const auto plan = perfgate::plan_update({results("results_ok.json")}, vanished, r, {});
  EXPECT_EQ(plan.next.entries.size(), vanished.entries.size() - r.drop.size());
  r.drop = {perfgate::parse_entry_key("BM_Nothing/n:1:psnr_db")};
  EXPECT_EQ(r.drop[0].benchmark, "BM_Nothing/n:1");
  EXPECT_THROW(perfgate::plan_update({results("results_ok.json")}, baseline("baseline_ok.json"), r, {}),
               perfgate::InputError);
  EXPECT_THROW(perfgate::parse_entry_key("no_colon"), perfgate::InputError);
}

// --only re-records the named entries and leaves every other one as recorded, even one the results lack; a name the
// baseline does not hold, or one also dropped, is refused.
TEST(perfgate_update, only_moves_the_named_entries) {
  auto r = req();
  r.only = {perfgate::parse_entry_key("BM_Accuracy:spread_db", "--only")};
  const auto plan = perfgate::plan_update({results("results_ok.json")}, baseline("baseline_ok.json"), r, {});
  ASSERT_EQ(plan.next.entries.size(), 2u);
  EXPECT_DOUBLE_EQ(plan.next.entries[0].value, 22.5);  // psnr_db measured 22.0: kept
  EXPECT_DOUBLE_EQ(plan.next.entries[1].value, 0.4);   // spread_db: re-recorded
  bool said = false;
  for (const auto& line : plan.diff)
    said = said || line.find("psnr_db: 22.5 kept (not named by --only)") != std::string::npos;
  EXPECT_TRUE(said);
  // An entry left alone need not be in the results at all.
  auto partial = results("results_ok.json");
  partial.measurements.erase(std::remove_if(partial.measurements.begin(), partial.measurements.end(),
                                            [](const perfgate::Measurement& m) { return m.field == "psnr_db"; }),
                             partial.measurements.end());
  EXPECT_NO_THROW(perfgate::plan_update({partial}, baseline("baseline_ok.json"), r, {}));
  EXPECT_THROW(perfgate::plan_update({partial}, baseline("baseline_ok.json"), req(), {}), perfgate::InputError);
  r.only = {perfgate::parse_entry_key("BM_Accuracy:ssim", "--only")};
  EXPECT_THROW(perfgate::plan_update({results("results_ok.json")}, baseline("baseline_ok.json"), r, {}),
               perfgate::InputError);
  r.only = {perfgate::parse_entry_key("BM_Accuracy:spread_db", "--only")};
  r.drop = r.only;
  EXPECT_THROW(perfgate::plan_update({results("results_ok.json")}, baseline("baseline_ok.json"), r, {}),
               perfgate::InputError);
  EXPECT_THROW(perfgate::parse_entry_key("no_colon", "--only"), perfgate::InputError);
  // A kept value is held to its entry's limit too: here a new criterion's floor above the kept 22.5.
  r.drop.clear();
  r.track = {perfgate::parse_track_spec("psnr_db:higher:abs=1:limit=23")};
  EXPECT_THROW(perfgate::plan_update({results("results_ok.json")}, baseline("baseline_ok.json"), r, {}),
               perfgate::InputError);
}

// A value already beyond the entry's own hard limit is never written: the baseline would fail at once.
TEST(perfgate_update, refuses_a_value_beyond_its_own_limit) {
  auto b = baseline("baseline_ok.json");
  b.entries[0].limit = 22.2;  // psnr 22.0 measured, "higher" with a floor of 22.2
  EXPECT_THROW(perfgate::plan_update({results("results_ok.json")}, b, req(), {}), perfgate::InputError);
  b.entries[0].limit = 21.0;
  EXPECT_NO_THROW(perfgate::plan_update({results("results_ok.json")}, b, req(), {}));
}

// An entry already tracked takes the whole criterion of its --track spec: a spec without limit= removes the limit
// the entry had, and the plan says so.
TEST(perfgate_update, a_track_spec_without_a_limit_removes_the_entrys_limit) {
  auto b = baseline("baseline_ok.json");
  b.entries[0].limit = 21.0;  // psnr_db, "higher", measured 22.0
  auto r = req();
  r.track = {perfgate::parse_track_spec("psnr_db:higher:abs=1")};
  const auto plan = perfgate::plan_update({results("results_ok.json")}, b, r, {});
  ASSERT_EQ(plan.next.entries.size(), 2u);
  EXPECT_FALSE(plan.next.entries[0].limit.has_value());
  bool said = false;
  for (const auto& line : plan.diff)
    said = said || (line.find("psnr_db") != std::string::npos && line.find("criterion") != std::string::npos);
  EXPECT_TRUE(said);
  r.track = {perfgate::parse_track_spec("psnr_db:higher:abs=1:limit=21.5")};
  EXPECT_EQ(perfgate::plan_update({results("results_ok.json")}, b, r, {}).next.entries[0].limit, 21.5);
}

// Captures needed: one for counts, two when the update will hold a timing, the noise runs for a band from noise.
TEST(perfgate_update, captures_needed_follow_what_the_update_records) {
  const auto r = results("results_ok.json");
  EXPECT_EQ(perfgate::captures_needed(r, baseline("baseline_ok.json"), req(), 5), 1);
  EXPECT_EQ(perfgate::captures_needed(r, baseline("baseline_advisory.json"), req(), 5), 2);
  EXPECT_EQ(perfgate::captures_needed(r, std::nullopt, req({perfgate::parse_track_spec("real_time:lower:rel=0.5")}), 5),
            2);
  EXPECT_EQ(perfgate::captures_needed(r, std::nullopt, req({perfgate::parse_track_spec("real_time:lower:noise")}), 7),
            7);
  // A timing already tracked, given a band from noise by --track: its new criterion decides.
  EXPECT_EQ(perfgate::captures_needed(r, baseline("baseline_advisory.json"),
                                      req({perfgate::parse_track_spec("real_time:lower:noise")}), 6),
            6);
}

// A tolerance from noise: the value is the runs' geometric mean, the band is learned from their spread and recorded
// with where it came from, and it survives the baseline's text; too few runs are refused naming the way out.
TEST(perfgate_update, a_tolerance_from_noise_is_learned_from_the_runs) {
  auto run = [](double ms) {
    perfgate::Results r;
    r.source = "run";
    r.measurements.push_back({"BM_Work", "real_time", ms, "ms", 0, std::nullopt});
    return r;
  };
  std::vector<perfgate::Results> runs;
  for (const double ms : {10.0, 11.0, 9.5, 10.5}) runs.push_back(run(ms));
  const auto plan =
      perfgate::plan_update(runs, std::nullopt, req({perfgate::parse_track_spec("real_time:lower:noise")}), {});
  ASSERT_EQ(plan.next.entries.size(), 1u);
  const auto& e = plan.next.entries[0];
  EXPECT_NEAR(e.value, 10.234730170855482, 1e-9);
  EXPECT_EQ(e.tolerance.kind, perfgate::Tolerance::Kind::rel);
  EXPECT_NEAR(e.tolerance.amount, 0.3776, 1e-12);  // 0.377544... rounded up to four decimals
  ASSERT_TRUE(e.tolerance.noise.has_value());
  EXPECT_EQ(e.tolerance.noise->runs, 4);
  EXPECT_NEAR(e.tolerance.noise->sigma, 0.063094, 1e-12);
  EXPECT_NE(plan.text.find("\"noise\""), std::string::npos);
  const auto again = perfgate::parse_baseline(plan.text, "planned");
  ASSERT_TRUE(again.entries[0].tolerance.noise.has_value());
  EXPECT_EQ(again.entries[0].tolerance.noise->runs, 4);
  ASSERT_EQ(plan.notes.size(), 1u);  // 37.8 %: a 1.25x slowdown would pass, and the update says so
  EXPECT_NE(plan.notes[0].find("a change of 1.25x the bad way would pass"), std::string::npos);
  EXPECT_NE(plan.diff[0].find("(new; band 37.76 % from the noise of 4 runs: spread 6.31 %)"), std::string::npos);
  // Re-recorded: the band is learned anew from the new runs, and it is not a change of criterion.
  std::vector<perfgate::Results> quiet;
  for (const double ms : {10.0, 10.2, 9.9, 10.1, 10.0}) quiet.push_back(run(ms));
  const auto next = perfgate::plan_update(quiet, plan.next, req(), {});
  EXPECT_DOUBLE_EQ(next.next.entries[0].tolerance.amount, 0.05);  // the floor
  EXPECT_EQ(next.next.entries[0].tolerance.noise->runs, 5);
  EXPECT_TRUE(next.notes.empty());
  for (const auto& line : next.diff) EXPECT_EQ(line.find("criterion"), std::string::npos) << line;
  EXPECT_THROW(perfgate::plan_update({runs[0], runs[1]}, plan.next, req(), {}), perfgate::InputError);
}

// The rows come failures first, then MISSING, then WARNING, then the rest in the baseline's order.
TEST(perfgate_compare, rows_come_failures_first_then_missing_then_warnings) {
  perfgate::Results r;
  r.source = "r";
  r.context["machine_fingerprint"] = "m";
  for (const auto& [name, value] : std::vector<std::pair<std::string, double>>{
           {"BM_Pass1", 1.0}, {"BM_Warn", 5.0}, {"BM_Fail", 5.0}, {"BM_Pass2", 1.0}})
    r.measurements.push_back({name, "n", value, "", 0, std::nullopt});
  perfgate::Baseline b;
  b.provenance.machine_fingerprint = "m";
  for (const auto* name : {"BM_Pass1", "BM_Warn", "BM_Missing", "BM_Fail", "BM_Pass2"}) {
    perfgate::Entry e;
    e.benchmark = name;
    e.field = "n";
    e.value = 1.0;
    e.direction = perfgate::Direction::lower;
    e.tolerance = {perfgate::Tolerance::Kind::abs, 0.5, std::nullopt};
    e.advisory = std::string(name) == "BM_Warn";
    b.entries.push_back(e);
  }
  std::vector<std::string> order;
  for (const auto& row : perfgate::compare(r, b))
    order.push_back(row.benchmark + ":" + perfgate::to_string(row.verdict));
  EXPECT_EQ(order, (std::vector<std::string>{"BM_Fail:FAIL", "BM_Missing:MISSING", "BM_Warn:WARNING", "BM_Pass1:PASS",
                                             "BM_Pass2:PASS"}));
}

// Each run of a band from noise is the median of its repetitions, as a gate run's value is.
TEST(perfgate_update, each_run_of_a_band_is_the_median_of_its_repetitions) {
  std::vector<perfgate::Results> runs;
  const std::vector<double> medians = {10.0, 11.0, 9.5, 10.5};
  for (const double m : medians) {
    perfgate::Results r;
    r.source = "run";
    for (const double v : {m + 2.0, m, m - 0.1})  // the first repetition is an outlier, m the median
      r.measurements.push_back(
          {"BM_Work", "real_time", v, "ms", static_cast<int>(r.measurements.size()), std::nullopt});
    runs.push_back(r);
  }
  const auto e =
      perfgate::plan_update(runs, std::nullopt, req({perfgate::parse_track_spec("real_time:lower:noise")}), {})
          .next.entries.at(0);
  EXPECT_NEAR(e.value, 10.234730170855482, 1e-9);  // the geometric mean of the medians (stats_oracle.out)
  EXPECT_NEAR(e.tolerance.noise->sigma, 0.063094, 1e-12);
}

// A band from noise given by --track to a baseline's timings: a ratchet that keeps a value still learns the band from
// the runs, and --only, which leaves other entries as they are, refuses to give them a band it cannot learn.
TEST(perfgate_update, a_band_from_noise_with_ratchet_or_only) {
  auto run = [](double a, double b) {
    perfgate::Results r;
    r.source = "run";
    r.measurements.push_back({"BM_A", "real_time", a, "ms", 0, std::nullopt});
    r.measurements.push_back({"BM_B", "real_time", b, "ms", 0, std::nullopt});
    return r;
  };
  std::vector<perfgate::Results> runs;
  for (const double f : {1.0, 1.01, 0.99, 1.02, 1.0}) runs.push_back(run(10.0 * f, 20.0 * f));
  const auto fixed =
      perfgate::plan_update(runs, std::nullopt, req({perfgate::parse_track_spec("real_time:lower:rel=0.5")}), {})
          .next;  // BM_A 10 ms, BM_B 20 ms, 50 % each
  auto ratchet = req({perfgate::parse_track_spec("real_time:lower:noise")});
  ratchet.ratchet = true;
  std::vector<perfgate::Results> slower;
  for (const double f : {1.0, 1.01, 0.99, 1.02, 1.0}) slower.push_back(run(11.0 * f, 22.0 * f));
  const auto kept = perfgate::plan_update(slower, fixed, ratchet, {});
  for (const auto& e : kept.next.entries) {
    EXPECT_NEAR(e.value, e.benchmark == "BM_A" ? 10.0 : 20.0, 1e-9) << e.benchmark;  // kept: slower is not better
    ASSERT_TRUE(e.tolerance.noise.has_value()) << e.benchmark;
    EXPECT_EQ(e.tolerance.noise->runs, 5);
  }
  perfgate::parse_baseline(kept.text, "kept");  // the planned text is a baseline
  auto only = req({perfgate::parse_track_spec("real_time:lower:noise")});
  only.only = {perfgate::parse_entry_key("BM_A:real_time")};
  try {
    perfgate::plan_update(runs, fixed, only, {});
    FAIL() << "--only with a band from noise for an entry it leaves";
  } catch (const perfgate::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("BM_B / real_time"), std::string::npos) << e.what();
  }
}

// The report's overall verdict with every check passing is the speedup's: FAIL, INCONCLUSIVE or PASS.
TEST(perfgate_report, the_overall_verdict_follows_the_speedup_when_every_check_passes) {
  perfgate::ReportData data;
  data.checks.push_back({"accuracy",
                         "r.json",
                         "b.json",
                         perfgate::compare(results("results_ok.json"), baseline("baseline_ok.json")),
                         {},
                         {},
                         {},
                         {}});
  ASSERT_EQ(perfgate::overall(data), perfgate::Overall::pass);
  data.speedups.emplace_back();
  for (const auto& [verdict, expected] :
       {std::pair{perfgate::SpeedupVerdict::fail, perfgate::Overall::fail},
        std::pair{perfgate::SpeedupVerdict::inconclusive, perfgate::Overall::inconclusive},
        std::pair{perfgate::SpeedupVerdict::pass, perfgate::Overall::pass}}) {
    data.speedups.front().report.verdict = verdict;
    EXPECT_EQ(perfgate::overall(data), expected) << perfgate::to_string(expected);
  }
  // With a second speedup, either failing fails the report; an undecided one with a passing one is undecided.
  data.speedups.emplace_back();
  data.speedups.back().report.verdict = perfgate::SpeedupVerdict::fail;
  EXPECT_EQ(perfgate::overall(data), perfgate::Overall::fail);
  data.speedups.back().report.verdict = perfgate::SpeedupVerdict::inconclusive;
  EXPECT_EQ(perfgate::overall(data), perfgate::Overall::inconclusive);
}

// The aim is judged at its own threshold: a ~4x speedup passes the 3x gate and has not reached a 6x aim.
TEST(perfgate_report, the_aim_is_judged_at_the_target_not_at_the_gate) {
  perfgate::Results r;
  r.source = "test";
  const double ref[] = {60, 62, 58, 61, 59, 63, 60, 61, 64, 57};
  for (int i = 0; i < 10; ++i) {
    r.measurements.push_back({"ref", "real_time", ref[i], "ms", i, std::nullopt});
    r.measurements.push_back({"cand", "real_time", ref[i] / (4.0 + 0.01 * i), "ms", i, std::nullopt});
  }
  const auto s = perfgate::judge_speedup_section(r, "r.json", "ref", "cand", 3.0, 6.0);
  EXPECT_EQ(s.report.verdict, perfgate::SpeedupVerdict::pass);
  ASSERT_TRUE(s.target_verdict.has_value());
  EXPECT_EQ(*s.target_verdict, perfgate::SpeedupVerdict::fail);
  EXPECT_FALSE(
      perfgate::judge_speedup_section(r, "r.json", "ref", "cand", 3.0, std::nullopt).target_verdict.has_value());
}

// A benchmark that vanished from the results is a JUnit failure, as it fails the gate; never "skipped".
TEST(perfgate_report, junit_counts_a_missing_benchmark_as_a_failure) {
  perfgate::ReportData data;
  data.checks.push_back({"accuracy",
                         "r.json",
                         "b.json",
                         perfgate::compare(results("results_ok.json"), baseline("baseline_vanished.json")),
                         {},
                         {},
                         {},
                         {}});
  ASSERT_EQ(perfgate::overall(data), perfgate::Overall::fail);
  const auto junit = perfgate::render_junit(data);
  EXPECT_NE(junit.find("failures=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<failure"), std::string::npos) << junit;
}

// verdicts.json carries, per failing results file only, the update that accepts its change, and each row's unit;
// the comment shows the fix and the units.
TEST(perfgate_report, verdicts_carry_the_fix_of_each_failing_results_file) {
  perfgate::ReportData data;
  data.checks.push_back({"passing",
                         "p.json",
                         "pb.json",
                         perfgate::compare(results("results_ok.json"), baseline("baseline_ok.json")),
                         {},
                         {},
                         {},
                         {}});
  data.checks.push_back({"failing",
                         "f.json",
                         "fb.json",
                         perfgate::compare(results("results_ok.json"), baseline("baseline_regressed.json")),
                         {},
                         {},
                         {},
                         {}});
  const auto doc = perfgate::parse_verdicts_json(perfgate::render_verdicts_json(data), "verdicts.json");
  ASSERT_EQ(doc.fixes.size(), 1u);
  EXPECT_EQ(doc.fixes[0].suite, "failing");
  EXPECT_EQ(doc.fixes[0].command.rfind("perfgate update --baseline fb.json", 0), 0u) << doc.fixes[0].command;
  bool in_db = false;
  for (const auto& row : doc.rows) in_db = in_db || (row.field == "psnr_db" && row.unit == "dB");
  EXPECT_TRUE(in_db) << "no row kept its unit";
  perfgate::CommentInput input;
  input.verdicts = doc;
  const auto comment = perfgate::render_comment(input);
  EXPECT_NE(comment.find("Accept an intended change of **failing** with `perfgate update --baseline fb.json"),
            std::string::npos)
      << comment;
  EXPECT_EQ(comment.find("**passing**"), std::string::npos) << comment;
  // The row whole: value, baseline and worst acceptable value each in its unit, then the tolerance and the reason.
  EXPECT_NE(
      comment.find("| **FAIL** | BM\\_Accuracy | psnr\\_db | 22 dB | 24 dB | \\-8\\.33% \\(0\\.9167x\\) | 23 dB | "
                   "±1 abs | worse than baseline beyond tolerance |\n"),
      std::string::npos)
      << comment;
}

// The comment names the commit in 12 characters, and says when the run measured uncommitted changes.
TEST(perfgate_report, the_comment_keeps_a_dirty_commit_dirty) {
  perfgate::CommentInput input;
  input.verdicts = perfgate::VerdictsDocument{};
  input.verdicts->overall = "PASS";
  input.verdicts->git_sha = "0123456789abcdef0123456789abcdef01234567-dirty";
  const auto dirty = perfgate::render_comment(input);  // escaped as Markdown text: "0123456789ab\-<ZWSP>dirty"
  const auto at = dirty.find("(commit 0123456789ab");
  ASSERT_NE(at, std::string::npos) << dirty;
  EXPECT_EQ(dirty.find("dirty)", at), at + 25) << dirty;  // 20 + 2 + the 3 bytes of U+200B
  input.verdicts->git_sha = "0123456789abcdef0123456789abcdef01234567";
  EXPECT_NE(perfgate::render_comment(input).find("(commit 0123456789ab)"), std::string::npos);
  input.verdicts->git_sha = "";
  EXPECT_NE(perfgate::render_comment(input).find("(commit not recorded)"), std::string::npos);
}

TEST(perfgate_update, malformed_track_specs_are_refused) {
  for (const char* spec : {"psnr_db", "psnr_db:up:abs=1", "psnr_db:higher:abs=x", "psnr_db:higher:abs=-1",
                           "psnr_db:higher:near=1", "psnr_db:higher:abs=1:colour=red", "psnr_db:higher:noise=2"}) {
    EXPECT_THROW(perfgate::parse_track_spec(spec), perfgate::InputError) << spec;
  }
}

// A band's origin goes with rel only, and holds exactly its run count (>= 2) and spread (>= 0).
TEST(perfgate_baseline, a_band_from_noise_is_read_only_as_written) {
  auto with = [](const std::string& tolerance) {
    return R"({"schema_version": 1, "provenance": {}, "entries": [{"benchmark": "B", "field": "real_time",
      "value": 10, "unit": "ms", "direction": "lower", "tolerance": )" +
           tolerance + "}]}";
  };
  const auto ok = perfgate::parse_baseline(with(R"({"rel": 0.05, "noise": {"runs": 5, "sigma": 0.01}})"), "b");
  ASSERT_TRUE(ok.entries[0].tolerance.noise.has_value());
  EXPECT_EQ(perfgate::describe(ok.entries[0].tolerance), "5% rel (noise of 5 runs)");
  for (const char* bad :
       {R"({"abs": 1, "noise": {"runs": 5, "sigma": 0.01}})", R"({"noise": {"runs": 5, "sigma": 0}})",
        R"({"rel": 0.05, "noise": {"runs": 1, "sigma": 0.01}})", R"({"rel": 0.05, "noise": {"runs": 5, "sigma": -1}})",
        R"({"rel": 0.05, "noise": {"runs": 5}})", R"({"rel": 0.05, "noise": {"runs": 5.5, "sigma": 0}})",
        R"({"rel": 0.05, "noise": {"runs": 5, "sigma": 0, "seed": 1}})", R"({"rel": 0.05, "noise": 3})"}) {
    EXPECT_THROW(perfgate::parse_baseline(with(bad), "b"), perfgate::InputError) << bad;
  }
}

}  // namespace

// Values as a reader compares them: whole numbers in all their digits (a change of one count shows), large values
// without exponents, changes as percent and ratio without exponents either.
TEST(perfgate_numbers, whole_numbers_in_all_digits_and_changes_without_exponents) {
  EXPECT_EQ(perfgate::format_number(225960.0), "225960");
  EXPECT_EQ(perfgate::format_number(225961.0), "225961");
  EXPECT_EQ(perfgate::format_number(1054460.354), "1054460.35");
  // From 10^5 on, not from 10^6: six significant digits would print 123456.6 and 123457.4 alike, 999999.5 as 1e+06.
  EXPECT_EQ(perfgate::format_number(123456.6), "123456.6");
  EXPECT_EQ(perfgate::format_number(123457.4), "123457.4");
  EXPECT_EQ(perfgate::format_number(999999.5), "999999.5");
  EXPECT_EQ(perfgate::format_number(99999.25), "99999.2");  // below 10^5: six significant digits
  EXPECT_EQ(perfgate::format_number(12.14041234), "12.1404");
  EXPECT_EQ(perfgate::format_number(-0.0), "0");
  EXPECT_EQ(perfgate::format_value(9007199254740993.0, int64_t{9007199254740993}), "9007199254740993");
  EXPECT_EQ(perfgate::change_text(12379, 12378), "+0.0081% (1x)");
  EXPECT_EQ(perfgate::change_text(53590932, 53590927), "+0.0000093% (1x)");
  EXPECT_EQ(perfgate::change_text(29064, 9543), "+205% (3.046x)");
  EXPECT_EQ(perfgate::change_text(5, 10), "-50% (0.5x)");
  EXPECT_EQ(perfgate::change_text(1, 0), "");
  EXPECT_EQ(perfgate::change_text(13350, 1000), "+1235% (13.35x)");
  EXPECT_EQ(perfgate::change_text(2e6, 1000), "+199900% (2000x)");
}

// A crossed hard limit is never "accepted" by an update (update refuses such a value): the fix says what to do
// instead of printing a command that would be refused.
TEST(perfgate_fix, no_accepting_command_for_a_crossed_limit) {
  auto b = baseline("baseline_ok.json");
  b.entries[1].limit = 0.35;
  const auto rows = perfgate::compare(results("results_ok.json"), b);
  const auto fix = perfgate::accept_fix(rows, {"perfgate", "r.json", "b.json", {}, false});
  EXPECT_TRUE(fix.command.empty());
  ASSERT_EQ(fix.notes.size(), 1u);
  EXPECT_NE(fix.notes[0].find("limit"), std::string::npos);
  b.entries[1].limit.reset();
  b.entries[0].value = 30.0;  // a plain regression: the command is printed
  EXPECT_FALSE(perfgate::accept_fix(perfgate::compare(results("results_ok.json"), b),
                                    {"perfgate", "r.json", "b.json", {}, false})
                   .command.empty());
}

// The accepting command drops exactly the metrics that are no longer measured, and nothing else.
TEST(perfgate_fix, drops_exactly_the_missing_metrics) {
  const auto rows = perfgate::compare(results("results_ok.json"), baseline("baseline_vanished.json"));
  std::vector<std::string> missing;
  for (const auto& r : rows) {
    if (r.verdict == perfgate::Verdict::missing) missing.push_back(r.benchmark + ":" + r.field);
  }
  ASSERT_FALSE(missing.empty());
  const auto fix = perfgate::accept_fix(rows, {"perfgate", "r.json", "b.json", {"./bench"}, false});
  size_t drops = 0;
  for (size_t at = fix.command.find("--drop "); at != std::string::npos; at = fix.command.find("--drop ", at + 1))
    ++drops;
  EXPECT_EQ(drops, missing.size()) << fix.command;
  for (const auto& key : missing)
    EXPECT_NE(fix.command.find("--drop " + perfgate::shell_quote(key)), std::string::npos) << fix.command;
  EXPECT_NE(fix.command.find(" -- ./bench"), std::string::npos) << fix.command;
}

// An interval plot's figures stay inside the picture: right of the interval where they fit, left of it where an
// interval reaching the axis' end would push them past the edge (a 2.597 [2.340, 2.798] was cut off at "2.597 [").
TEST(perfgate_svg, interval_figures_stay_inside_the_picture) {
  const auto plot = [](double low, double point, double high, std::vector<perfgate::svg::Marker> markers) {
    return perfgate::svg::interval_plot("t", {{"pair", point, low, high}}, "x", markers);
  };
  const auto with_room = plot(3.55, 3.69, 3.8, {{3.0, "gate 3x"}, {6.0, "aim 6x"}});  // the aim extends the axis
  EXPECT_EQ(with_room.find("text-anchor=\"end\">3.69"), std::string::npos) << with_room;
  EXPECT_NE(with_room.find(">3.69 [3.55, 3.8]</text>"), std::string::npos) << with_room;
  const auto at_the_edge =
      plot(2.33959, 2.59685, 2.7982, {{1.8, "gate 1.8x"}});  // the interval ends where the axis does
  EXPECT_NE(at_the_edge.find("text-anchor=\"end\">2.597 [2.34, 2.798]</text>"), std::string::npos) << at_the_edge;
}
