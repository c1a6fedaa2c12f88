// Bisection on exact counts (bisect_search.h), on lines of made-up figures: the probes it takes, the commit it names,
// a creep it refuses to blame on one commit, and commits that cannot be measured.
#include "bisect_search.h"

#include "error.h"

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
  return perfgate::bisect_exact(line.count, [&](size_t i) { return line(i); }, tolerance);
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
  EXPECT_TRUE(std::any_of(out.probes.begin(), out.probes.end(), [](const perfgate::BisectProbe& p) { return p.index == 16 && !p.figures; }));
  EXPECT_EQ(out.probes.size(), static_cast<size_t>(std::count(one.measured.begin(), one.measured.end(), 1)));
}

TEST(bisect, refuses_endpoints_it_cannot_measure) {
  Line line{9, [](size_t) { return 1.0; }, {0}};
  EXPECT_THROW(bisect(line), perfgate::InputError);
}
