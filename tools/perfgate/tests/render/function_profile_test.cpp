// Contract: a callgrind dump's functions are read with their own and inclusive instructions (compressed names,
// relative positions, recursion levels merged, a recursive call counted once); two profiles give the functions that
// changed most, largest first, with their shares of the step's change; a kept profile reads back as written; the
// differential flame graph is a well-formed SVG whose frames are coloured by the move; anything else is refused with
// InputError.
#include "model/function_profile.h"
#include "base/error.h"
#include "formats/function_profile_file.h"
#include "formats/instruction_changes.h"
#include "model/function_changes.h"
#include "render/flame_graph.h"

#include <gtest/gtest.h>

namespace {

// A dump as callgrind 3.19 writes it: main calls work twice-recursive (work'2) and leaf; leaf is also called by work.
std::string dump(int64_t leaf_cost) {
  const auto total = 10 + 100 + 30 + 5 + leaf_cost * 2;
  return "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\n\ndesc: Trigger: Client Request: BM_Step\n\n"
         "positions: line\nevents: Ir Dr\nsummary: " +
         std::to_string(total) +
         " 7\n\n\n"
         "ob=(1) /bin/x\nfl=(1) x.cpp\nfn=(1) main\n3 10 1\n"
         "cfn=(2) work\ncalls=1 20\n+2 " +
         std::to_string(100 + 30 + 5 + leaf_cost) +
         "\n"
         "cfn=(3) leaf\ncalls=1 40\n* " +
         std::to_string(leaf_cost) +
         "\n\n"
         "fn=(2)\n20 100 3\n-1 0\n"
         "cfn=(4) work'2\ncalls=1 20\n+1 " +
         std::to_string(30 + 5 + leaf_cost) +
         "\n\n"
         "fn=(4)\n20 30\ncfn=(3)\ncalls=2 40\n0 " +
         std::to_string(5 + leaf_cost) +
         "\n\n"
         "fn=(3)\n40 " +
         std::to_string(leaf_cost * 2 + 5) + "\n\ntotals: " + std::to_string(total) + " 7\n";
}

TEST(perfgate_function_profile, reads_own_and_inclusive_instructions_of_each_function) {
  const auto p = perfgate::parse_function_profile(dump(20), "x");
  EXPECT_EQ(p.total, 10 + 100 + 30 + 5 + 40);
  EXPECT_EQ(p.functions.at("main").self, 10);
  EXPECT_EQ(p.functions.at("main").inclusive, p.total);
  // work and work'2 are one function: its recursive call is not counted again in its inclusive instructions.
  EXPECT_EQ(p.functions.at("work").self, 130);
  EXPECT_EQ(p.functions.at("work").inclusive, 130 + 5 + 20);  // as main's call to it ran
  EXPECT_EQ(p.functions.count("work'2"), 0u);
  EXPECT_EQ(p.functions.at("leaf").self, 45);
  EXPECT_EQ(p.calls.at({"main", "leaf"}), 20);
  EXPECT_EQ(p.calls.count({"work", "work"}), 0u);
  int64_t own = 0;
  for (const auto& [name, cost] : p.functions) own += cost.self;
  EXPECT_EQ(own, p.total);
}

TEST(perfgate_function_profile, refuses_what_is_not_a_dump) {
  EXPECT_THROW(perfgate::parse_function_profile("hello\n", "x"), perfgate::InputError);
  EXPECT_THROW(perfgate::parse_function_profile("events: Ir\nfn=(9)\n1 2\n", "x"),
               perfgate::InputError);                                                              // never defined
  EXPECT_THROW(perfgate::parse_function_profile("events: Ir\n1 2\n", "x"), perfgate::InputError);  // outside a function
  EXPECT_THROW(perfgate::parse_function_profile("events: Ir\nfn=f\n1 -2\n", "x"), perfgate::InputError);
  EXPECT_THROW(perfgate::parse_function_profile("events: Ir\nfn=f\n1 99999999999999999999\n", "x"),
               perfgate::InputError);
  EXPECT_THROW(perfgate::parse_function_profile("events: Dr\nfn=f\n1 2\n", "x"),
               perfgate::InputError);  // no Ir recorded
  EXPECT_EQ(perfgate::without_recursion_level("f'12"), "f");
  EXPECT_EQ(perfgate::without_recursion_level("operator'x"), "operator'x");
}

TEST(perfgate_function_profile, reads_names_written_uncompressed_and_names_addresses_by_their_object) {
  const auto p = perfgate::parse_function_profile(
      "events: Ir\nob=(3) /usr/lib/libfftw3f.so.3\nfn=(below main)\n1 5\nfn=(anonymous namespace)::f\n1 7\nfn=(9) "
      "0x00000000001a2a80\n1 3\n"
      "ob=/bin/x\nfn=(9)\n1 1\n",
      "x");
  EXPECT_EQ(p.functions.at("(below main)").self, 5);
  EXPECT_EQ(p.functions.at("(anonymous namespace)::f").self, 7);
  EXPECT_EQ(p.functions.at("0x00000000001a2a80 in libfftw3f.so.3").self, 3);
  EXPECT_EQ(p.functions.at("0x00000000001a2a80 in x").self,
            1);  // the same address in another object is another function
}

TEST(perfgate_function_profile, names_the_function_that_moved_the_count_first) {
  const auto before = perfgate::parse_function_profile(dump(20), "before");
  const auto after = perfgate::parse_function_profile(dump(1020), "after");
  const auto c = perfgate::profile_changes(before, after);
  ASSERT_FALSE(c.by_self.empty());
  EXPECT_EQ(c.by_self.front().name, "leaf");
  EXPECT_EQ(c.by_self.front().self_delta(), 2000);
  EXPECT_EQ(c.total_delta(), 2000);
  EXPECT_DOUBLE_EQ(perfgate::share_of_change(c.by_self.front().self_delta(), c), 1.0);
  EXPECT_EQ(c.by_self.size(), 1u);  // no unchanged function listed
  EXPECT_EQ(c.by_inclusive.front().name, "leaf");
  EXPECT_EQ(c.by_inclusive.front().inclusive_delta(), 2000);
  EXPECT_EQ(c.by_inclusive.size(), 3u);  // leaf, main and work: each ran the new instructions
  EXPECT_NE(perfgate::profile_changes_text(c, "").find("+2000"), std::string::npos);
  const auto json = perfgate::profile_changes_json(c);
  EXPECT_EQ(json["by_self"][0]["function"], "leaf");
  EXPECT_EQ(json["by_self"][0]["delta"], 2000);
}

// Ranked by the size of the move, whichever way: a function that got cheaper by more than another got dearer comes
// first, and the list cut to `top` keeps the largest moves of both signs.
TEST(perfgate_function_profile, ranks_moves_by_their_size_either_way) {
  perfgate::FunctionProfile before, after;
  before.total = 3000;
  after.total = 2300;
  before.functions = {{"cheaper", {2000, 2000}}, {"dearer", {500, 500}}, {"same", {500, 500}}};
  after.functions = {{"cheaper", {1000, 1000}}, {"dearer", {800, 800}}, {"same", {500, 500}}};
  const auto c = perfgate::profile_changes(before, after, 1);
  ASSERT_EQ(c.by_self.size(), 1u);
  EXPECT_EQ(c.by_self.front().name, "cheaper");
  EXPECT_EQ(c.by_self.front().self_delta(), -1000);
  EXPECT_EQ(c.by_inclusive.front().name, "cheaper");
  EXPECT_EQ(perfgate::profile_changes(before, after).by_self.back().name, "dearer");
}

TEST(perfgate_function_profile, a_kept_profile_reads_back_as_written) {
  perfgate::RegionProfiles profiles{{"BM_Step", perfgate::parse_function_profile(dump(20), "x")}};
  const auto back = perfgate::parse_function_profiles(perfgate::function_profile_text(profiles, 0.0), "kept");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back.at("BM_Step").total, profiles.at("BM_Step").total);
  EXPECT_EQ(back.at("BM_Step").calls, profiles.at("BM_Step").calls);
  EXPECT_EQ(back.at("BM_Step").functions.at("work").inclusive, profiles.at("BM_Step").functions.at("work").inclusive);
  // A function below the share kept is left out.
  const auto pruned = perfgate::parse_function_profiles(perfgate::function_profile_text(profiles, 0.25), "kept");
  EXPECT_EQ(pruned.at("BM_Step").functions.count("main"), 1u);  // inclusive: all of the step
  EXPECT_EQ(pruned.at("BM_Step").functions.count("leaf"), 0u);  // 45 of 185 (24 %)
  // Names read back as written, however often a profile is written again: a backslash or a control character is
  // not escaped twice (a name escaped on every write would stop matching its own results).
  perfgate::RegionProfiles odd{{"BM_a\\b", {}}};
  odd["BM_a\\b"].total = 10;
  odd["BM_a\\b"].functions["ns\\leaf\x01"] = {10, 10};
  auto again = odd;
  for (int i = 0; i < 3; ++i)
    again = perfgate::parse_function_profiles(perfgate::function_profile_text(again, 0.0), "kept");
  ASSERT_EQ(again.count("BM_a\\b"), 1u);
  EXPECT_EQ(again.at("BM_a\\b").functions.count("ns\\leaf\x01"), 1u);
  // Line ends of a CRLF checkout read the same; inconsistent records are refused.
  auto crlf = perfgate::function_profile_text(profiles, 0.0);
  for (size_t at = crlf.find('\n'); at != std::string::npos; at = crlf.find('\n', at + 2)) crlf.insert(at, "\r");
  EXPECT_EQ(perfgate::parse_function_profiles(crlf, "crlf").at("BM_Step").total, profiles.at("BM_Step").total);
  const std::string head = "perfgate function profile 1\nname\t0\tf\nname\t1\tg\nregion\t5\tr\n";
  EXPECT_THROW(perfgate::parse_function_profiles(head + "fn\t3\t2\t0\n", "x"),
               perfgate::InputError);  // self > inclusive
  EXPECT_THROW(perfgate::parse_function_profiles(head + "fn\t1\t2\t0\nfn\t1\t2\t0\n", "x"),
               perfgate::InputError);                                                                    // twice
  EXPECT_THROW(perfgate::parse_function_profiles(head + "call\t1\t0\t0\n", "x"), perfgate::InputError);  // to itself
  EXPECT_THROW(perfgate::parse_function_profiles("perfgate function profile 1\nname\t0\tf\nname\t0\tg\n", "x"),
               perfgate::InputError);
  EXPECT_EQ(perfgate::function_profile_path("a/b.json"), "a/b.functions.tsv");
  EXPECT_EQ(perfgate::function_profile_path("a/b"), "a/b.functions.tsv");
  EXPECT_THROW(perfgate::parse_function_profiles("something else\n", "x"), perfgate::InputError);
  EXPECT_THROW(perfgate::parse_function_profiles("perfgate function profile 1\nfn\t1\t2\tf\n", "x"),
               perfgate::InputError);
  EXPECT_THROW(perfgate::parse_function_profiles("perfgate function profile 1\nregion\t5\tr\nfn\t1\t-2\tf\n", "x"),
               perfgate::InputError);
  EXPECT_THROW(perfgate::parse_function_profiles("perfgate function profile 1\nregion\t5\tr\nfn\t1\tf\n", "x"),
               perfgate::InputError);
  EXPECT_THROW(perfgate::parse_function_profiles("perfgate function profile 1\nregion\t5\tr\nfn\t1\t2\t0\n", "x"),
               perfgate::InputError);  // no name 0
  const auto text = perfgate::function_profile_text(profiles, 0.0);
  EXPECT_NE(text.find("name\t0\tleaf\n"), std::string::npos);  // each name once, numbered in name order
  EXPECT_EQ(text.find("\tleaf\n", text.find("\tleaf\n") + 1), std::string::npos);
}

TEST(perfgate_function_profile, a_changed_count_gets_its_differential_only_from_matching_profiles) {
  perfgate::Row row;
  row.benchmark = "BM_Step";
  row.field = "instructions";
  row.verdict = perfgate::Verdict::fail;
  row.value = 2185;
  row.value_integer = 2185;
  row.baseline = 185;
  row.baseline_integer = 185;
  const perfgate::RegionProfiles before{{"BM_Step", perfgate::parse_function_profile(dump(20), "b")}};
  const perfgate::RegionProfiles after{{"BM_Step", perfgate::parse_function_profile(dump(1020), "a")}};
  auto changes = perfgate::instruction_changes({row}, after, before);
  ASSERT_EQ(changes.benchmarks.size(), 1u);
  EXPECT_EQ(changes.benchmarks[0].changes.by_self.front().name, "leaf");
  row.baseline = 190;  // the baseline's profile is of another count (beyond 0.1 %): no differential, a note saying why
  changes = perfgate::instruction_changes({row}, after, before);
  EXPECT_TRUE(changes.benchmarks.empty());
  ASSERT_EQ(changes.notes.size(), 1u);
  EXPECT_NE(changes.notes[0].text.find("not of the baselined count"), std::string::npos);
  row.baseline_integer = 2185;  // unchanged: nothing to explain
  row.baseline = 2185;
  EXPECT_TRUE(perfgate::instruction_changes({row}, after, after).benchmarks.empty());
  EXPECT_TRUE(perfgate::instruction_changes({row}, after, after).notes.empty());
  // A move below the kept profiles' resolution (a few instructions of another environment) is not explained either.
  row.value = 1e8;
  row.baseline = 1e8 + 41;
  EXPECT_TRUE(perfgate::instruction_changes({row}, after, before).benchmarks.empty());
  EXPECT_TRUE(perfgate::instruction_changes({row}, after, before).notes.empty());
}

TEST(perfgate_function_profile, the_flame_graph_draws_each_frame_coloured_by_its_move) {
  const auto before = perfgate::parse_function_profile(dump(20), "before");
  const auto after = perfgate::parse_function_profile(dump(1020), "after");
  const auto svg = perfgate::differential_flame_graph("step <&>", before, after);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("step &lt;&amp;&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  // main at the root, leaf under main and under work: leaf's frames are red (more instructions), none blue.
  EXPECT_NE(svg.find("<title>leaf: 20 -> 1020 instructions (+1000)"), std::string::npos);
  EXPECT_NE(svg.find("<title>main: 185 -> 2185 instructions (+2000)"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"rgb(235,60,60)\""), std::string::npos);
  EXPECT_EQ(svg.find(",235)\""), std::string::npos);
  // A cycle at the top (every function called by another) is drawn from the widest function, not left empty.
  perfgate::FunctionProfile cycle;
  cycle.total = 100;
  cycle.functions = {{"a", {10, 100}}, {"b", {90, 90}}};
  cycle.calls = {{{"a", "b"}, 90}, {{"b", "a"}, 1}};
  const auto drawn = perfgate::differential_flame_graph("cycle", cycle, cycle);
  EXPECT_NE(drawn.find("<title>a: "), std::string::npos);
  EXPECT_NE(drawn.find("<title>b: "), std::string::npos);
  const auto same = perfgate::differential_flame_graph("same", after, after);
  EXPECT_EQ(same.find("rgb(235,60,60)"), std::string::npos);
  EXPECT_NE(same.find("rgb(235,235,235)"), std::string::npos);
}

}  // namespace
