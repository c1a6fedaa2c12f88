// Contract: a callgrind dump's totals are read per event, its allocator calls counted, its client-request name
// recovered, the cycle estimate is Ir + 10 × L1 misses + 100 × last-level misses, dumps group into per-step costs by
// name, and anything that is not a callgrind dump is refused with InputError.
#include "base/error.h"
#include "formats/callgrind_dump.h"
#include "run/valgrind_diagnosis.h"

#include <gtest/gtest.h>

namespace {

// The header and totals of a dump as callgrind 3.19 writes them with --cache-sim=yes (body lines elided).
std::string dump_text(const std::string& trigger, const std::string& counts) {
  return "# callgrind format\nversion: 1\ncreator: callgrind-3.19.0\npid: 7\ncmd: cost_step\npart: 2\n\n"
         "desc: I1 cache: 32768 B, 64 B, 8-way associative\ndesc: Timerange: Basic block 10 - 20\n"
         "desc: Trigger: " +
         trigger +
         "\n\npositions: line\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n"
         "summary: " +
         counts + "\n\n\nfl=(1) a.cpp\nfn=(1) f\n0 5 1 1\n\ntotals: " + counts + "\n";
}

TEST(perfgate_callgrind, reads_totals_and_the_region_name) {
  const auto d =
      perfgate::parse_callgrind_dump(dump_text("Client Request: BM_Step/n:512", "1000 300 200 4 5 6 1 2 3"), "x");
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

// Heap allocations are the calls of the C library's allocators, from the call records, names compressed as callgrind
// writes them: "(id) name" the first time, "(id)" after, shared by fn= and cfn=.
TEST(perfgate_callgrind, counts_the_calls_of_the_allocators) {
  const std::string body =
      "fn=(1) BM_Join(benchmark::State&)\n0 10\ncob=(2) libc.so.6\ncfn=(3) malloc\ncalls=7 0\n0 700\n"
      "cfn=(4) operator new(unsigned long)\ncalls=2 0\n0 40\nfn=(4)\n0 3\ncfn=(3)\ncalls=2 0\n0 200\n"
      "fn=(5) resize_buffer\ncfn=(6) realloc\ncalls=1 0\n0 50\ncfn=(7) mallocx\ncalls=9 0\n0 9\n";
  const auto text = dump_text("--dump-before=benchmark::State::FinishKeepRunning()", "1000 300 200 4 5 6 1 2 3");
  const auto d = perfgate::parse_callgrind_dump(text.substr(0, text.find("totals:")) + body + "totals: 1000\n", "x");
  EXPECT_EQ(d.allocations, 7 + 2 + 1);  // malloc from BM_Join and from operator new, realloc; not mallocx, not new
  EXPECT_EQ(perfgate::parse_callgrind_dump(dump_text("Client Request: a", "1"), "x").allocations, 0);
  // A name first written on an fn= line (malloc's own costs come before its callers'), then called by its id alone.
  const std::string defined_first = "fn=(9) malloc\n0 40\nfn=(1) f\ncfn=(9)\ncalls=5 0\n0 200\n";
  EXPECT_EQ(perfgate::parse_callgrind_dump(text.substr(0, text.find("totals:")) + defined_first + "totals: 1000\n", "x")
                .allocations,
            5);
}

TEST(perfgate_callgrind, groups_dumps_into_per_step_costs) {
  std::vector<perfgate::CallgrindDump> dumps;
  for (const auto& [trigger, ir] : std::vector<std::pair<std::string, std::string>>{{"Client Request: ref", "100"},
                                                                                    {"Client Request: opt", "40"},
                                                                                    {"Client Request: ref", "101"},
                                                                                    {"Program termination", "999999"},
                                                                                    {"Client Request: opt", "41"}}) {
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
  EXPECT_THROW(perfgate::parse_callgrind_dump("events: Ir\n", "x"), perfgate::InputError);  // no totals
  EXPECT_THROW(perfgate::parse_callgrind_dump(dump_text("a", "1 2 3 4 5 6 7 8 9 10"), "x"), perfgate::InputError);
  EXPECT_THROW(perfgate::parse_callgrind_dump(dump_text("a", "12 -3"), "x"), perfgate::InputError);
  EXPECT_THROW(perfgate::parse_callgrind_dump(dump_text("a", "99999999999999999999999"), "x"), perfgate::InputError);
  // Without the cache simulation there is no cycle estimate.
  const auto plain = perfgate::parse_callgrind_dump("events: Ir\nsummary: 5\n", "x");
  EXPECT_THROW(perfgate::estimated_cycles(plain), perfgate::InputError);
}

}  // namespace

namespace {

// valgrind 3.19's words when it stops a program at RDTSCP on a host whose CPUID hides it (libhwy's initializer).
const char* const kStoppedAtRdtscp =
    "==123== Command: bin/cost_step\n"
    "vex amd64->IR: unhandled instruction bytes: 0xF 0x1 0xF9 0x48 0xC1 0xE2 0x20 0x48 0x9 0xD0\n"
    "vex amd64->IR:   REX=0 REX.W=0 REX.R=0 REX.X=0 REX.B=0\n"
    "==123== valgrind: Unrecognised instruction at address 0x5d7e522.\n"
    "==123==    at 0x5D7E522: hwy::platform::TimerResolution() (in /usr/lib/x86_64-linux-gnu/libhwy.so.1.0.3)\n"
    "==123==    by 0x5D7C219: ??? (in /usr/lib/x86_64-linux-gnu/libhwy.so.1.0.3)\n"
    "==123== Process terminating with default action of signal 4 (SIGILL)\n";

}  // namespace

TEST(perfgate_valgrind_diagnosis, names_the_instruction_and_who_ran_it) {
  const auto u = perfgate::undecoded_instruction(kStoppedAtRdtscp);
  ASSERT_TRUE(u.has_value());
  EXPECT_EQ(u->name, "RDTSCP");
  EXPECT_EQ(u->bytes, "0F 01 F9 48 C1 E2 20 48 09 D0");
  EXPECT_EQ(u->where, "hwy::platform::TimerResolution() (in /usr/lib/x86_64-linux-gnu/libhwy.so.1.0.3)");
}

TEST(perfgate_valgrind_diagnosis, knows_rdpid_with_a_rex_prefix_and_evex) {
  EXPECT_EQ(
      perfgate::undecoded_instruction("vex amd64->IR: unhandled instruction bytes: 0xF3 0x41 0xF 0xC7 0xFD\n")->name,
      "RDPID");
  EXPECT_EQ(perfgate::undecoded_instruction("vex amd64->IR: unhandled instruction bytes: 0x62 0xF1 0x7D 0x48\n")->name,
            "an AVX-512 (EVEX-encoded) instruction");
  // Prefixes in any order and number before it (an F3 then a 66: the prefix loop must move on).
  EXPECT_EQ(
      perfgate::undecoded_instruction("vex amd64->IR: unhandled instruction bytes: 0xF3 0x66 0xF3 0xF 0xC7 0xF8\n")
          ->name,
      "RDPID");
  EXPECT_EQ(perfgate::undecoded_instruction("vex amd64->IR: unhandled instruction bytes: 0x66 0xF2 0x62 0xF1\n")->name,
            "an AVX-512 (EVEX-encoded) instruction");
  const auto unknown = perfgate::undecoded_instruction("vex amd64->IR: unhandled instruction bytes: 0xF 0xFF\n");
  ASSERT_TRUE(unknown.has_value());
  EXPECT_EQ(unknown->name, "");
  EXPECT_EQ(unknown->where, "");  // no stack printed: nothing made up
}

TEST(perfgate_valgrind_diagnosis, finds_nothing_in_other_failures) {
  EXPECT_FALSE(perfgate::undecoded_instruction("").has_value());
  EXPECT_FALSE(perfgate::undecoded_instruction("==1== Process terminating with default action of signal 11 (SIGSEGV)\n")
                   .has_value());
  // A program's own output that merely mentions the words, without valgrind's byte list, is not a finding.
  EXPECT_FALSE(perfgate::undecoded_instruction("unhandled instruction bytes: none\n").has_value());
  // A long line of output is read in linear time and without a finding.
  EXPECT_FALSE(perfgate::undecoded_instruction(std::string(8u << 20, 'x') + "\n").has_value());
}

TEST(perfgate_valgrind_diagnosis, lists_every_instruction_with_who_ran_it) {
  const std::string two = std::string(
                              "vex amd64->IR: unhandled instruction bytes: 0xF3 0xF 0xC7 0xF8\n"
                              "==9== valgrind: Unrecognised instruction at address 0x1.\n"
                              "==9==    at 0x1: first (a.c:1)\n") +
                          "vex amd64->IR: unhandled instruction bytes: 0x62 0xF1 0x7D 0x48\n"
                          "==9== valgrind: Unrecognised instruction at address 0x2.\n"
                          "==9==    at 0x2: second (b.c:2)\n";
  const auto all = perfgate::undecoded_instructions(two);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].name, "RDPID");
  EXPECT_EQ(all[0].where, "first (a.c:1)");
  EXPECT_EQ(all[1].name, "an AVX-512 (EVEX-encoded) instruction");
  EXPECT_EQ(all[1].where, "second (b.c:2)");
  std::string many;
  for (int i = 0; i < 1000; ++i) many += "vex amd64->IR: unhandled instruction bytes: 0xF 0x1 0xF9\n";
  EXPECT_EQ(perfgate::undecoded_instructions(many).size(), 64u);  // bounded
}
