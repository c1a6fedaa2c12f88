#pragma once
// What `perfgate ab` compares: revisions × a gate of the manifest (whose command is built and run), a benchmark filter
// and extra benchmark options — from the command line or a task list (CSV: one row per revision and gate; each
// group's first row is the base the others are compared with).
#include <string>
#include <vector>

namespace perfgate {

struct AbTask {
  std::string revision;              ///< as the user wrote it (resolved to a commit later)
  std::string suite;                 ///< the manifest's gate whose command is built and run
  std::string filter;                ///< --benchmark_filter
  std::vector<std::string> options;  ///< extra --benchmark_* arguments, e.g. --benchmark_min_time=0.2
};

struct AbGroup {  ///< one gate/filter/options run at several revisions, interleaved; revisions[0] is the base
  std::string suite, filter;
  std::vector<std::string> options, revisions;
};

/// Parses CSV text with the header "revision,gate,filter,options" (options: space-separated --benchmark_*
/// arguments, may be empty; fields may be double-quoted). Throws InputError naming the line for anything else.
std::vector<AbTask> parse_ab_tasks(const std::string& text, const std::string& source);

/// Checks one task's fields (also for tasks from the command line): the gate's name is [a-z0-9_]+, the filter is
/// non-empty without control characters, every option is one --benchmark_NAME[=VALUE] argument but not
/// --benchmark_out*.
void validate_ab_task(const AbTask& task, const std::string& where);

/// Groups tasks by (gate, filter, options) in first-seen order; a group needs two distinct revisions.
std::vector<AbGroup> group_ab_tasks(const std::vector<AbTask>& tasks);

}  // namespace perfgate
