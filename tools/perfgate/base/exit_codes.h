#pragma once
// perfgate's exit codes, stated once: main() returns them, every command's help and `perfgate help` print them from
// this table (so docs/reference/perfgate-cli.md, generated from the help, states them too), and the composite action
// passes them on. A code keeps its meaning across releases (docs/reference/compatibility.md).
#include <initializer_list>
#include <string>

namespace perfgate {

enum class Exit : int {
  pass = 0,               ///< every verdict passed, or the command did its work
  fail = 1,               ///< a verdict failed
  bad_input = 2,          ///< bad input or usage: one "perfgate: error:" line, nothing written
  inconclusive = 3,       ///< the measurements cannot decide; measuring more may
  internal = 4,           ///< a bug in perfgate
  store_unavailable = 5,  ///< a history store could not be reached; worth running again
  unavailable = 6,        ///< this host cannot measure what was asked (the cause and the way out are printed)
};

constexpr int code_of(Exit e) { return static_cast<int>(e); }

/// "0 pass, 1 fail, ..." for the codes given (each with its short meaning), and always 2 and 4.
std::string exit_codes_text(std::initializer_list<Exit> codes);

/// Every code with its full meaning, one per line, for `perfgate help`.
std::string exit_code_table();

}  // namespace perfgate
