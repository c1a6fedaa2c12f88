// The gate manifest's helpers: benchmark names made literal filters, the baseline path template, the commands'
// paths, the simulated caches, and what the parser refuses.
#include "formats/gate_manifest.h"
#include "base/error.h"
#include "model/simulated_cache.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

perfgate::GateManifest parse(const std::string& text) {
  return perfgate::parse_gate_manifest(text, "/project/perf/gates.json");
}

const char* const kPair = R"json({"schema_version": 2, "baseline_path": "../baselines/{label}/{name}/{name}.json",
  "gates": [{"name": "pair", "kind": "speedup", "label": "performance", "command": ["bin/bench", "--x"],
             "reference": "BM_Slow/n:8/min_time:0.500", "candidate": "BM_Fast+(1)", "floor": 2, "repetitions": 6}]})json";

}  // namespace

TEST(gate_manifest, names_become_literal_filters) {
  EXPECT_EQ(perfgate::regex_literal("a.b+c*d?(e)|[f]{g}^$\\"), "a\\.b\\+c\\*d\\?\\(e\\)\\|\\[f\\]\\{g\\}\\^\\$\\\\");
  EXPECT_EQ(perfgate::regex_literal("BM_Step/n:512"), "BM_Step/n:512");
  const auto m = parse(kPair);
  EXPECT_EQ(perfgate::pair_filter(m.gates.front()),
            "--benchmark_filter=^(BM_Slow/n:8/min_time:0\\.500|BM_Fast\\+\\(1\\))$");
}

TEST(gate_manifest, baseline_path_fills_every_placeholder_from_the_manifests_folder) {
  const auto m = parse(kPair);
  EXPECT_EQ(m.baseline_of("pair", "performance"), "/project/baselines/performance/pair/pair.json");
  EXPECT_EQ(m.baseline_of("series_x", "cost"), "/project/baselines/cost/series_x/series_x.json");
}

TEST(gate_manifest, commands_are_relative_to_the_build_folder) {
  const auto m = parse(kPair);
  const auto argv = perfgate::resolve_command(m.gates.front(), "some/build");
  ASSERT_EQ(argv.size(), 2u);
  EXPECT_EQ(argv[0], (std::filesystem::current_path() / "some/build/bin/bench").lexically_normal().string());
  EXPECT_EQ(argv[1], "--x");
  EXPECT_EQ(perfgate::resolve_command(m.gates.front(), "/abs/build")[0], "/abs/build/bin/bench");
}

TEST(gate_manifest, a_command_names_the_build_folder_and_the_perfgate_running) {
  const auto m = parse(R"json({"schema_version": 2, "baseline_path": "{name}.json",
    "gates": [{"name": "splitting", "kind": "baseline", "label": "performance",
               "command": ["{perfgate}", "catch2", "--runs", "5", "--", "{build}/suite", "x={build}/a {build}/b"]}]})json");
  const auto argv = perfgate::resolve_command(m.gates.front(), "/abs/build");
  EXPECT_EQ(argv[0], std::filesystem::read_symlink("/proc/self/exe").string());  // the program running: this test
  EXPECT_EQ(argv[5], "/abs/build/suite");
  EXPECT_EQ(argv[6], "x=/abs/build/a /abs/build/b");
}

TEST(gate_manifest, simulated_caches_are_what_callgrind_takes) {
  EXPECT_EQ(perfgate::to_text(perfgate::simulated_cache("LL", 8 << 20, 16, 64, "x")), "LL=8388608,16,64");
  EXPECT_EQ(perfgate::to_text(perfgate::parse_simulated_cache("D1=32768,8,64", "x")), "D1=32768,8,64");
  EXPECT_THROW(perfgate::simulated_cache("LL", 3 << 20, 16, 64, "x"), perfgate::InputError);  // 3072 sets
  EXPECT_THROW(perfgate::simulated_cache("LL", 8 << 20, 16, 48, "x"), perfgate::InputError);  // odd line size
  EXPECT_THROW(perfgate::simulated_cache("L2", 8 << 20, 16, 64, "x"), perfgate::InputError);
  EXPECT_THROW(perfgate::parse_simulated_cache("LL=8388608,16", "x"), perfgate::InputError);
  const std::vector<perfgate::SimulatedCache> twice = {perfgate::parse_simulated_cache("LL=8388608,16,64", "x"),
                                                       perfgate::parse_simulated_cache("LL=4194304,16,64", "x")};
  EXPECT_THROW(perfgate::require_distinct_levels(twice, "x"), perfgate::InputError);
}

TEST(gate_manifest, refuses_other_versions_and_misspelt_members) {
  std::string text = kPair;
  EXPECT_NO_THROW(parse(text));
  for (const auto& [from, to] :
       std::initializer_list<std::pair<std::string, std::string>>{{"\"schema_version\": 2", "\"schema_version\": 3"},
                                                                  {"\"schema_version\": 2", "\"schema_version\": 1"},
                                                                  {"\"floor\": 2", "\"flor\": 2"},
                                                                  {"\"repetitions\": 6", "\"repetitions\": 5"},
                                                                  {"\"floor\": 2", "\"floor\": 2, \"aim\": 2"},
                                                                  {"\"kind\": \"speedup\"", "\"kind\": \"speed\""}}) {
    auto changed = text;
    changed.replace(changed.find(from), from.size(), to);
    EXPECT_THROW(parse(changed), perfgate::InputError) << to;
  }
}

TEST(gate_manifest, only_gates_that_judge_no_timing_share_the_machine) {
  const auto m = parse(R"json({"schema_version": 2, "baseline_path": "{name}.json", "gates": [
    {"name": "counts", "kind": "baseline", "label": "accuracy", "command": ["bin/a"], "shares_machine": true},
    {"name": "times", "kind": "baseline", "label": "performance", "command": ["bin/a"]},
    {"name": "instructions", "kind": "cost", "label": "cost", "command": ["bin/c"]}]})json");
  EXPECT_TRUE(m.gate("counts").shares_machine);
  EXPECT_FALSE(m.gate("times").shares_machine);
  EXPECT_TRUE(m.gate("instructions").shares_machine);  // instruction counts, always
  std::string speedup = kPair;
  const std::string repetitions = "\"repetitions\": 6";
  speedup.replace(speedup.find(repetitions), repetitions.size(), repetitions + ", \"shares_machine\": true");
  EXPECT_NO_THROW(parse(std::string(kPair)));  // the same manifest without the member is valid
  try {
    parse(speedup);
    ADD_FAILURE() << "a speedup gate sharing the machine was read";
  } catch (const perfgate::InputError& e) {  // a speedup is timed: the member is unknown to its kind
    EXPECT_NE(std::string(e.what()).find("shares_machine"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse(R"json({"schema_version": 2, "baseline_path": "{name}.json", "gates": [
    {"name": "counts", "kind": "baseline", "label": "accuracy", "command": ["bin/a"], "shares_machine": "yes"}]})json"),
               perfgate::InputError);
}
