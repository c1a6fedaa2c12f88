#include "model/accept_rules.h"

#include "base/error.h"
#include "base/number_format.h"
#include "base/one_line.h"

#include <fnmatch.h>

#include <cmath>
#include <cstdlib>

namespace perfgate {
namespace {

constexpr size_t kMaxRuleLength = 1000;

bool is_space(char c) { return c == ' ' || c == '\t'; }

// The next space-separated word of `text` from `pos`, or "" at the end.
std::string next_word(const std::string& text, size_t& pos) {
  while (pos < text.size() && is_space(text[pos])) ++pos;
  const size_t start = pos;
  while (pos < text.size() && !is_space(text[pos])) ++pos;
  return text.substr(start, pos - start);
}

double parse_percent(const std::string& word, const std::string& where) {
  const std::string shape = where + ": the allowance must be written +N% (e.g. +8%), not '" + one_line(word) + "'";
  if (word.size() < 3 || word.front() != '+' || word.back() != '%') throw InputError(shape);
  const std::string digits = word.substr(1, word.size() - 2);
  bool dot = false;
  for (const char c : digits) {
    if (c == '.' && !dot) {
      dot = true;
      continue;
    }
    if (c < '0' || c > '9') throw InputError(shape);
  }
  if (digits.front() == '.' || digits.back() == '.') throw InputError(shape);
  const double n = std::strtod(digits.c_str(), nullptr);
  if (!(n > 0.0 && n <= 1000.0))
    throw InputError(where + ": the allowance must be above 0% and at most +1000%, not " + one_line(word));
  return n;
}

}  // namespace

AcceptRule parse_accept_rule(const std::string& text, const std::string& source) {
  const std::string where = "perfgate-accept rule from " + source;
  if (text.size() > kMaxRuleLength)
    throw InputError(where + ": longer than " + std::to_string(kMaxRuleLength) + " characters");
  for (const unsigned char c : text) {
    if (c < 0x20 && c != '\t') throw InputError(where + ": a control character in '" + one_line(text) + "'");
  }
  AcceptRule rule;
  size_t pos = 0;
  rule.pattern = next_word(text, pos);
  rule.field = next_word(text, pos);
  const std::string allowance = next_word(text, pos);
  while (pos < text.size() && is_space(text[pos])) ++pos;
  rule.reason = text.substr(pos);
  while (!rule.reason.empty() && is_space(rule.reason.back())) rule.reason.pop_back();
  if (rule.pattern.empty() || rule.field.empty() || allowance.empty() || rule.reason.empty()) {
    throw InputError(where + ": expected 'GLOB FIELD +N% reason', got '" + one_line(text) + "'");
  }
  rule.percent = parse_percent(allowance, where);
  rule.source = source;
  rule.text = text;
  return rule;
}

std::optional<Acceptance> acceptance_of(const std::vector<AcceptRule>& rules, const std::string& benchmark,
                                        const std::string& field, double worsening) {
  std::optional<Acceptance> best;
  for (const auto& rule : rules) {
    if (fnmatch(rule.pattern.c_str(), benchmark.c_str(), 0) != 0) continue;
    if (fnmatch(rule.field.c_str(), field.c_str(), 0) != 0) continue;
    if (!best || rule.percent > best->rule.percent) best = Acceptance{rule, false};
  }
  // A worsening that is not a number (a zero baseline) is never within an allowance. The edge is inclusive up to the
  // rounding of a ratio minus one (1.08 - 1 is 0.08000000000000007 in doubles): a rule of +8% covers a ratio of 1.08.
  if (best) best->within = std::isfinite(worsening) && worsening <= best->rule.percent / 100.0 + 1e-12;
  return best;
}

std::string acceptance_text(const Acceptance& a) {
  const std::string allowance = "+" + format_number(a.rule.percent) + "%";
  return (a.within ? "accepted: up to " + allowance + " allowed by " : "beyond the accepted " + allowance + " of ") +
         a.rule.source + ": " + one_line(a.rule.reason);
}

}  // namespace perfgate
