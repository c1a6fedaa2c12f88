#pragma once
// The functions of one callgrind dump: each function's own instructions, the instructions of everything it ran
// (itself and its callees), and the calls between functions. Pure (text in, numbers out); cost_runner.h reads one per
// measured region, function_changes.h compares two.
#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace perfgate {

struct FunctionCost {
  int64_t self = 0;       ///< instructions executed in the function itself (exclusive)
  int64_t inclusive = 0;  ///< in the function and everything it called, a recursive call counted once
};

struct FunctionProfile {
  int64_t total = 0;  ///< the dump's instructions (its summary or totals line): the sum of every function's self
  /// By name as callgrind wrote it (every output escapes it), callgrind's recursion levels (name'2, name'3, ...)
  /// merged into one function. A function without a symbol (callgrind names it by its address, 0x...)
  /// is named "<address> in <object file name>".
  std::map<std::string, FunctionCost> functions;
  /// (caller, callee) → the instructions the callee's calls from that caller ran, its callees included. A function's
  /// calls to itself are not edges.
  std::map<std::pair<std::string, std::string>, int64_t> calls;
};

/// Reads the cost lines of a callgrind output file (format version 1, one dump) for the event `event`, with
/// callgrind's name compression ("fn=(12) name", later "fn=(12)") and relative positions ("+3", "-2", "*"). A
/// function's inclusive instructions are its own plus those of its calls to other functions (a mutually recursive
/// cycle is counted once per way in, as callgrind_annotate does). Throws InputError naming `source` when the text is
/// not such a file: no events line, the event not recorded, a count that is not a non-negative integer within int64,
/// a compressed name never defined, or a cost line outside a function.
FunctionProfile parse_function_profile(const std::string& text, const std::string& source,
                                       const std::string& event = "Ir");

/// `name` without callgrind's recursion-level suffix: "f'2" → "f" (a name whose quote is not followed by digits only
/// is unchanged).
std::string without_recursion_level(const std::string& name);

}  // namespace perfgate
