#include "base/exit_codes.h"

#include <set>

namespace perfgate {
namespace {

struct Meaning {
  Exit code;
  const char* short_text;
  const char* long_text;
};

constexpr Meaning kMeanings[] = {
    {Exit::pass, "pass", "every verdict passed, or the command did its work"},
    {Exit::fail, "fail", "a verdict failed (a regression, a baselined metric not measured, a speedup below its floor)"},
    {Exit::bad_input, "bad input",
     "bad input or usage: one 'perfgate: error:' line on standard error; no verdict, report or baseline written "
     "(gate keeps the results of the gates it measured before)"},
    {Exit::inconclusive, "inconclusive",
     "the measurements cannot decide (an interval straddling the threshold); measuring more may"},
    {Exit::internal, "internal error", "a bug in perfgate; please report it with the command"},
    {Exit::store_unavailable, "store unavailable", "a history store could not be reached; running again may succeed"},
    {Exit::unavailable, "unavailable",
     "this host cannot measure what was asked (e.g. callgrind cannot run the program on this CPU): one "
     "'perfgate: unavailable:' line with the cause and the way out; no verdict, nothing written"},
};

}  // namespace

std::string exit_codes_text(std::initializer_list<Exit> codes) {
  std::set<Exit> wanted(codes);
  wanted.insert({Exit::bad_input, Exit::internal});
  std::string out;
  for (const auto& m : kMeanings) {
    if (wanted.count(m.code) == 0) continue;
    out += (out.empty() ? "" : ", ") + std::to_string(code_of(m.code)) + " " + m.short_text;
  }
  return out;
}

std::string exit_code_table() {
  std::string out;
  for (const auto& m : kMeanings) out += "  " + std::to_string(code_of(m.code)) + "  " + m.long_text + "\n";
  return out;
}

}  // namespace perfgate
