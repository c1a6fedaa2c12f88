// Bisection on exact counts (bisect_search.h), on lines of made-up figures: the probes it takes, the commit it names,
// a creep it refuses to blame on one commit, and commits that cannot be measured.
#include "model/bisect_search.h"

#include "base/error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>

namespace {

// A line of `count` commits whose figure for BM_Step is `value(i)`; `broken` commits cannot be measured. Counts how
// often each commit is measured.
struct Line {
  size_t count;
  std::function<double(size_t)> value;
  std::set<size_t> broken;
  std::vector<int> measured = std::vector<int>(count, 0);
  perfgate::BisectFigures operator()(size_t i) {
    ++measured.at(i);
    if (broken.count(i)) return std::nullopt;
    return std::map<std::string, double>{{"BM_Step", value(i)}, {"BM_Other", 5000.0}};
  }
};

perfgate::BisectOutcome bisect(Line& line, double tolerance = 0.005) {
  return perfgate::bisect_exact(
      line.count, [&](size_t i) { return line(i); }, tolerance);
}

}  // namespace

TEST(bisect, names_the_commit_that_moved_the_counts_in_log2_probes) {
  // 33 commits: each moves the count by 0.01 %, commit 20 by 5 %.
  Line line{33, [](size_t i) { return 1e6 + 100.0 * i + (i >= 20 ? 50000.0 : 0.0); }, {}};
  const auto out = bisect(line);
  EXPECT_EQ(out.kind, perfgate::BisectOutcome::Kind::culprit);
  EXPECT_EQ(out.first_bad, 20u);
  EXPECT_EQ(out.last_good, 19u);
  EXPECT_LE(out.probes.size(), static_cast<size_t>(std::ceil(std::log2(33.0))) + 1);  // endpoints included
  EXPECT_EQ(out.moved, std::vector<std::string>{"BM_Step"});
  for (const int times : line.measured) EXPECT_LE(times, 1);
}

TEST(bisect, finds_a_drop_as_well_as_a_rise) {
  Line line{17, [](size_t i) { return i >= 3 ? 900.0 : 1000.0; }, {}};
  const auto out = bisect(line);
  EXPECT_EQ(out.kind, perfgate::BisectOutcome::Kind::culprit);
  EXPECT_EQ(out.first_bad, 3u);
}

TEST(bisect, a_creep_has_no_single_culprit) {
  // 0.2 % per commit against a 0.5 % tolerance: the line crosses it at commit 3, by a change within it.
  Line line{33, [](size_t i) { return 1e6 * std::pow(1.002, static_cast<double>(i)); }, {}};
  const auto out = bisect(line);
  EXPECT_EQ(out.kind, perfgate::BisectOutcome::Kind::creep);
  EXPECT_EQ(out.first_bad, 3u);
}

TEST(bisect, nothing_moved_takes_two_probes) {
  Line line{40, [](size_t i) { return 1e6 + static_cast<double>(i); }, {}};
  const auto out = bisect(line);
  EXPECT_EQ(out.kind, perfgate::BisectOutcome::Kind::no_change);
  EXPECT_EQ(out.probes.size(), 2u);
}

TEST(bisect, commits_that_cannot_be_measured_are_stepped_over) {
  Line skipped{33, [](size_t i) { return i >= 20 ? 2e6 : 1e6; }, {18, 19, 20, 21}};
  const auto around = bisect(skipped);
  EXPECT_EQ(around.kind, perfgate::BisectOutcome::Kind::skipped);
  EXPECT_LT(around.last_good, 18u);
  EXPECT_GT(around.first_bad, 21u);
  Line one{33, [](size_t i) { return i >= 20 ? 2e6 : 1e6; }, {16}};
  const auto past = bisect(one);
  EXPECT_EQ(past.kind, perfgate::BisectOutcome::Kind::culprit);
  EXPECT_EQ(past.first_bad, 20u);
}

// A commit that cannot be measured is a probe too: listed (and written to the JSON) as not built, not left out.
TEST(bisect, records_commits_it_could_not_measure) {
  Line one{33, [](size_t i) { return i >= 20 ? 2e6 : 1e6; }, {16}};
  const auto out = bisect(one);
  EXPECT_TRUE(std::any_of(out.probes.begin(), out.probes.end(),
                          [](const perfgate::BisectProbe& p) { return p.index == 16 && !p.figures; }));
  EXPECT_EQ(out.probes.size(), static_cast<size_t>(std::count(one.measured.begin(), one.measured.end(), 1)));
}

TEST(bisect, refuses_endpoints_it_cannot_measure) {
  Line line{9, [](size_t) { return 1.0; }, {0}};
  EXPECT_THROW(bisect(line), perfgate::InputError);
}

namespace {

// A line of `count` commits compared with GOOD on timings: commits from `culprit` on are slower (bad), those in
// `undecided` cannot be decided, those in `broken` do not build; `confirmed` is what the new measurement of the commit
// found against its parent says. Counts how often each commit is compared.
struct TimedLine {
  TimedLine(size_t n, size_t first_slower) : count(n), culprit(first_slower) {}
  size_t count, culprit;
  std::set<size_t> undecided, broken;
  bool confirmed = true;
  std::vector<int> compared = std::vector<int>(count, 0);
  std::vector<std::pair<size_t, size_t>> confirmations;
  perfgate::BisectOutcome run() {
    return perfgate::bisect_timing(
        count,
        [&](size_t i) {
          ++compared.at(i);
          perfgate::TimingProbe p;
          if (broken.count(i)) return p;
          p.figures = std::map<std::string, double>{{"BM_Step", i >= culprit ? 1.5 : 1.0}, {"BM_Other", 1.0}};
          if (i >= culprit) p.slower = {"BM_Step"};
          p.verdict = undecided.count(i) ? perfgate::TimingProbe::Verdict::undecided
                      : i >= culprit     ? perfgate::TimingProbe::Verdict::bad
                                         : perfgate::TimingProbe::Verdict::good;
          return p;
        },
        [&](size_t parent, size_t commit) {
          confirmations.emplace_back(parent, commit);
          return confirmed;
        });
  }
};

}  // namespace

TEST(bisect_timing, names_the_slower_commit_after_confirming_it_against_its_parent) {
  TimedLine line{33, 20};
  const auto out = line.run();
  EXPECT_EQ(out.kind, perfgate::BisectOutcome::Kind::culprit);
  EXPECT_EQ(out.first_bad, 20u);
  EXPECT_EQ(out.last_good, 19u);
  EXPECT_EQ(out.moved, std::vector<std::string>{"BM_Step"});  // not BM_Other, which BAD did not slow
  ASSERT_EQ(line.confirmations.size(), 1u);
  EXPECT_EQ(line.confirmations[0], std::make_pair(size_t{19}, size_t{20}));
  EXPECT_LE(out.probes.size(), 7u);  // GOOD, BAD and at most ceil(log2 33) - 1 between
  EXPECT_EQ(line.compared[0], 0);    // GOOD is the reference, never compared with itself
  for (const int n : line.compared) EXPECT_LE(n, 1);
}

TEST(bisect_timing, names_no_commit_when_the_confirmation_does_not_find_it_slower) {
  TimedLine line{33, 20};
  line.confirmed = false;
  EXPECT_EQ(line.run().kind, perfgate::BisectOutcome::Kind::unconfirmed);
}

TEST(bisect_timing, names_no_commit_when_bad_is_not_slower_or_undecided) {
  TimedLine same{33, 99};  // no commit is slower
  const auto out = same.run();
  EXPECT_EQ(out.kind, perfgate::BisectOutcome::Kind::no_change);
  EXPECT_EQ(out.probes.size(), 2u);
  EXPECT_TRUE(same.confirmations.empty());
  TimedLine unsure{33, 20};
  unsure.undecided = {32};
  EXPECT_EQ(unsure.run().kind, perfgate::BisectOutcome::Kind::undecided);
}

TEST(bisect_timing, steps_over_undecided_and_unbuildable_commits) {
  TimedLine line{33, 20};
  line.undecided = {16};
  line.broken = {17, 18};
  auto out = line.run();
  EXPECT_EQ(out.kind, perfgate::BisectOutcome::Kind::culprit);
  EXPECT_EQ(out.first_bad, 20u);
  TimedLine hidden{33, 20};
  hidden.undecided = {19};
  hidden.broken = {18};
  out = hidden.run();
  EXPECT_EQ(out.kind, perfgate::BisectOutcome::Kind::skipped);  // the culprit is 18, 19 or 20: none can be named
  EXPECT_EQ(out.first_bad, 20u);
  EXPECT_TRUE(hidden.confirmations.empty());
}
