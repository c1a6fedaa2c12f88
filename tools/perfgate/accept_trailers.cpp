#include "accept_trailers.h"

#include "error.h"
#include "git.h"
#include "one_line.h"
#include "process.h"

#include <sstream>

namespace perfgate {

std::vector<AcceptRule> accept_rules_from_trailers(const std::string& directory, const std::string& range) {
  if (range.empty() || range.front() == '-') throw InputError("--accept-trailers: '" + one_line(range) + "' is not a revision range");
  // One record per commit: its id, a unit separator, then each trailer value on its own line (values unfolded).
  ProcessOptions options;
  options.unset = repository_selector_variables();
  options.env = {"LC_ALL=C"};
  options.timeout_seconds = 120.0;
  options.standard_error = StandardError::merge;
  const auto r = run_process({"git", "-C", directory.empty() ? std::string(".") : directory, "log", "--no-merges",
                              "--format=%H%x1f%(trailers:key=perfgate-accept,valueonly,unfold)%x1e", range, "--"},
                             options);
  if (r.timed_out) throw InputError("--accept-trailers: git log did not finish within 120 s");
  if (r.status != 0) throw InputError("--accept-trailers: git cannot read '" + one_line(range) + "': " + one_line(output_tail(r.output, 200)));
  std::vector<AcceptRule> rules;
  std::istringstream records(r.output);
  std::string record;
  while (std::getline(records, record, '\x1e')) {
    const auto sep = record.find('\x1f');
    if (sep == std::string::npos) continue;
    std::string commit = record.substr(0, sep);
    while (!commit.empty() && (commit.front() == '\n' || commit.front() == '\r')) commit.erase(commit.begin());
    std::istringstream values(record.substr(sep + 1));
    std::string value;
    while (std::getline(values, value)) {
      if (!value.empty() && value.back() == '\r') value.pop_back();
      if (value.find_first_not_of(" \t") == std::string::npos) continue;
      rules.push_back(parse_accept_rule(value, "commit " + commit.substr(0, 12)));
    }
  }
  return rules;
}

}  // namespace perfgate
