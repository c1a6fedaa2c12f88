#include "run/accept_trailers.h"

#include "base/error.h"
#include "base/one_line.h"
#include "run/git.h"
#include "run/process.h"

#include <sstream>

namespace perfgate {

std::vector<AcceptRule> accept_rules_from_trailers(const std::string& directory, const std::string& range) {
  if (range.empty() || range.front() == '-')
    throw InputError("--accept-trailers: '" + one_line(range) + "' is not a revision range");
  // One record per commit, NUL-terminated (-z; a commit message cannot hold a NUL): its full id on the first line, then
  // each trailer value on a line of its own (values unfolded). A value with a control character is refused by the rule
  // parser, so no message can forge another commit's record.
  ProcessOptions options;
  options.unset = repository_selector_variables();
  options.env = {"LC_ALL=C"};
  options.timeout_seconds = 120.0;
  options.standard_error = StandardError::merge;
  const auto r = run_process({"git", "-C", directory.empty() ? std::string(".") : directory, "log", "-z", "--no-merges",
                              "--format=%H%n%(trailers:key=perfgate-accept,valueonly,unfold)", range, "--"},
                             options);
  if (r.timed_out) throw InputError("--accept-trailers: git log did not finish within 120 s");
  if (r.status != 0)
    throw InputError("--accept-trailers: git cannot read '" + one_line(range) +
                     "': " + one_line(output_tail(r.output, 200)));
  std::vector<AcceptRule> rules;
  std::istringstream records(r.output);
  std::string record;
  while (std::getline(records, record, '\0')) {
    const auto newline = record.find('\n');
    const std::string commit = record.substr(0, newline);
    if (commit.size() != 40 || commit.find_first_not_of("0123456789abcdef") != std::string::npos) {
      throw InputError("--accept-trailers: git log gave '" + one_line(commit.substr(0, 60)) +
                       "' where a commit id belongs");
    }
    std::istringstream values(newline == std::string::npos ? std::string() : record.substr(newline + 1));
    std::string value;
    while (std::getline(values, value)) {
      if (!value.empty() && value.back() == '\r') value.pop_back();  // a message written with CRLF line ends
      if (value.find_first_not_of(" \t") == std::string::npos) continue;
      rules.push_back(parse_accept_rule(value, "commit " + commit.substr(0, 12)));
    }
  }
  return rules;
}

}  // namespace perfgate
