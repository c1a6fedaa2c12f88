#pragma once
// Regressions accepted on purpose: a pull request's commit trailer `perfgate-accept: GLOB FIELD +N% reason` turns a
// FAIL of a matching metric into ACCEPTED when the metric got worse by at most N %, and leaves it a FAIL beyond.
// Nothing is accepted without a rule; a rule never turns anything but a FAIL into something else.
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

struct AcceptRule {
  std::string pattern;   ///< glob over the benchmark's name (fnmatch: *, ?, [...]; '*' also matches '/')
  std::string field;     ///< glob over the field's name: real_time, instructions, a counter, ...
  double percent = 0.0;  ///< how much worse is accepted, in percent (> 0)
  std::string reason;    ///< why, as its author wrote it (one line)
  std::string source;    ///< where it came from: "commit <12 hex>" or "--accept"
  std::string text;      ///< the rule as written, for messages
};

/// Parses `GLOB FIELD +N% reason...` (the trailer's value). Throws InputError naming `source` when it is not of that
/// shape: N a decimal number in (0, 1000], the reason non-empty.
AcceptRule parse_accept_rule(const std::string& text, const std::string& source);

/// What the rules make of one FAIL: the matching rule with the largest N, and whether the metric's worsening (a
/// fraction: 0.08 is 8 % worse) is within it. nullopt when no rule matches.
struct Acceptance {
  AcceptRule rule;
  bool within = false;
};
std::optional<Acceptance> acceptance_of(const std::vector<AcceptRule>& rules, const std::string& benchmark,
                                        const std::string& field, double worsening);

/// "accepted: +8% allowed by commit 0123456789ab: reason" or "beyond the accepted +8% (commit ...): reason".
std::string acceptance_text(const Acceptance& a);

}  // namespace perfgate
