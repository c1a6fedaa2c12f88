// Contract: a callgrind dump's totals are read per event, its client-request name recovered, the cycle estimate is
// Ir + 10 × L1 misses + 100 × last-level misses, dumps group into per-step costs by name, and anything that is not
// a callgrind dump is refused with InputError.
#include "callgrind_dump.h"
#include "error.h"

#include <gtest/gtest.h>

namespace {

// The header and totals of a dump as callgrind 3.19 writes them with --cache-sim=yes (body lines elided).
std::string dump_text(const std::string& trigger, const std::string& counts) {
  return "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 7\ncmd: cost_step\npart: 2\n\n"
         "desc: I1 cache: 32768 B, 64 B, 8-way associative\ndesc: Timerange: Basic block 10 - 20\n"
         "desc: Trigger: " + trigger + "\n\npositions: line\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
         "summary: " + counts + "\n\n\nfl=(1) a.cpp\nfn=(1) f\n0 5 1 1\n\ntotals: " + counts + "\n";
}

TEST(perfgate_callgrind, reads_totals_and_the_region_name) {
  const auto d = perfgate::parse_callgrind_dump(dump_text("Client Request: BM_Step/n:512", "1000 300 200 4 5 6 1 2 3"), "x");
  EXPECT_EQ(perfgate::client_request_name(d), "BM_Step/n:512");
  EXPECT_EQ(d.events.at("Ir"), 1000);
  EXPECT_EQ(d.events.at("DLmw"), 3);
  EXPECT_EQ(perfgate::estimated_cycles(d), 1000 + 10 * (4 + 5 + 6) + 100 * (1 + 2 + 3));
}

TEST(perfgate_callgrind, tells_client_request_dumps_from_the_termination_dump) {
  EXPECT_TRUE(perfgate::is_client_request_dump(dump_text("Client Request: a", "1")));
  EXPECT_FALSE(perfgate::is_client_request_dump(dump_text("Program termination", "18446744073605403996")));
  EXPECT_FALSE(perfgate::is_client_request_dump("not a dump"));
}

TEST(perfgate_callgrind, trailing_zero_counts_may_be_omitted) {
  const auto d = perfgate::parse_callgrind_dump(dump_text("Client Request: a", "1000 300"), "x");
  EXPECT_EQ(d.events.at("D1mr"), 0);
  EXPECT_EQ(perfgate::estimated_cycles(d), 1000);
}

TEST(perfgate_callgrind, groups_dumps_into_per_step_costs) {
  std::vector<perfgate::CallgrindDump> dumps;
  for (const auto& [trigger, ir] : std::vector<std::pair<std::string, std::string>>{
           {"Client Request: ref", "100"}, {"Client Request: opt", "40"}, {"Client Request: ref", "101"},
           {"Program termination", "999999"}, {"Client Request: opt", "41"}}) {
    dumps.push_back(perfgate::parse_callgrind_dump(dump_text(trigger, ir), "x"));
  }
  const auto regions = perfgate::region_costs(dumps);
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(regions[0].name, "ref");
  EXPECT_EQ(regions[0].instructions, (std::vector<double>{100, 101}));
  EXPECT_EQ(regions[1].name, "opt");
  EXPECT_EQ(regions[1].estimated_cycles, (std::vector<double>{40, 41}));
}

TEST(perfgate_callgrind, refuses_what_is_not_a_dump) {
  EXPECT_THROW(perfgate::parse_callgrind_dump("{\"benchmarks\": []}", "x"), perfgate::InputError);
  EXPECT_THROW(perfgate::parse_callgrind_dump("events: Ir\n", "x"), perfgate::InputError);            // no totals
  EXPECT_THROW(perfgate::parse_callgrind_dump(dump_text("a", "1 2 3 4 5 6 7 8 9 10"), "x"), perfgate::InputError);
  EXPECT_THROW(perfgate::parse_callgrind_dump(dump_text("a", "12 -3"), "x"), perfgate::InputError);
  EXPECT_THROW(perfgate::parse_callgrind_dump(dump_text("a", "99999999999999999999999"), "x"), perfgate::InputError);
  // Without the cache simulation there is no cycle estimate.
  const auto plain = perfgate::parse_callgrind_dump("events: Ir\nsummary: 5\n", "x");
  EXPECT_THROW(perfgate::estimated_cycles(plain), perfgate::InputError);
}

}  // namespace
