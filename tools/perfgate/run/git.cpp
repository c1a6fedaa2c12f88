#include "run/git.h"

#include "base/error.h"
#include "model/commit_mark.h"
#include "run/process.h"

namespace perfgate {
namespace {

constexpr double kGitSeconds = 120.0;  // every git perfgate runs answers in well under a second on a sound repository

ProcessResult git_in(const std::string& directory, std::vector<std::string> args, StandardError standard_error) {
  args.insert(args.begin(), {"git", "-C", directory.empty() ? std::string(".") : directory});
  ProcessOptions options;
  options.standard_error = standard_error;
  options.unset = repository_selector_variables();
  // git's messages in English (repository_state reads "not a git repository"); no optional lock taken, so that asking
  // about a user's tree (git status refreshing its index) never makes their own git wait on index.lock.
  options.env = {"LC_ALL=C", "GIT_OPTIONAL_LOCKS=0"};
  // git can hang (an fsmonitor hook, a stalled network file system): it is killed, with its children, after
  // kGitSeconds, and the caller says so.
  options.timeout_seconds = kGitSeconds;
  auto r = run_process(args, options);
  if (r.timed_out)
    throw InputError("git in '" + directory + "' did not finish within " +
                     std::to_string(static_cast<int>(kGitSeconds)) + " s");
  return r;
}

ProcessResult git(const std::string& directory, std::vector<std::string> args) {
  return git_in(directory, std::move(args), StandardError::discard);
}

std::string first_line(std::string text) {
  const auto end = text.find_first_of("\r\n");
  return end == std::string::npos ? text : text.substr(0, end);
}

}  // namespace

const std::vector<std::string>& repository_selector_variables() {
  static const std::vector<std::string> names = {
      "GIT_DIR",        "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
      "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX"};
  return names;
}

std::optional<std::string> head_sha(const std::string& directory) {
  const auto r = git(directory, {"rev-parse", "HEAD"});
  if (r.status != 0) return std::nullopt;
  return first_line(r.output);
}

RepositoryState repository_state(const std::string& directory) {
  RepositoryState state;
  const auto probe = git_in(directory, {"rev-parse", "--is-inside-work-tree"}, StandardError::merge);
  if (probe.status < 0)
    throw InputError("cannot ask git about '" + directory + "': git could not be run (is it installed?)");
  if (probe.status != 0) {
    if (probe.output.find("not a git repository") != std::string::npos) return state;
    throw InputError("cannot ask git about '" + directory + "': " + output_tail(first_line(probe.output), 200));
  }
  state.inside = true;
  state.commit = head_sha(directory).value_or("");
  const auto r = git(directory, {"status", "--porcelain", "--untracked-files=no"});
  if (r.status != 0) throw InputError("cannot check '" + directory + "' for uncommitted changes: git status failed");
  size_t start = 0;
  while (start < r.output.size()) {
    auto end = r.output.find('\n', start);
    if (end == std::string::npos) end = r.output.size();
    if (end - start > 3) state.uncommitted.push_back(r.output.substr(start + 3, end - start - 3));
    start = end + 1;
  }
  return state;
}

std::string marked_commit(const RepositoryState& state) {
  if (!state.inside || state.commit.empty()) return "";
  return state.uncommitted.empty() ? state.commit : state.commit + std::string(kUncommittedMark);
}

MeasuredCommit measured_commit(const std::string& directory) {
  try {
    const auto state = repository_state(directory);
    if (!state.inside) return {"", "'" + directory + "' is not in a git repository"};
    if (state.commit.empty()) return {"", "the repository of '" + directory + "' has no commit yet"};
    return {marked_commit(state), ""};
  } catch (const InputError& e) {
    return {"", e.what()};
  }
}

bool tree_is_dirty(const std::string& directory) {
  const std::vector<std::string> status = {"status", "--porcelain", "--untracked-files=no"};
  const auto r = git(directory, status);
  if (r.status == 0) return !r.output.empty();
  // Say why git could not answer (no repository, "dubious ownership" in a container, git missing): a failure
  // to check is not a dirty tree, and the fix is rarely to switch the check off.
  if (r.status < 0)
    throw InputError("cannot check '" + directory +
                     "' for uncommitted changes: git could not be run (is it installed?)");
  const auto why = output_tail(first_line(git_in(directory, status, StandardError::merge).output), 200);
  throw InputError("cannot check '" + directory + "' for uncommitted changes: git status failed: " + why);
}

std::string resolve_commit(const std::string& directory, const std::string& revision) {
  if (revision.empty() || revision.front() == '-')
    throw InputError("revision '" + revision + "' is not a revision name");
  const auto r = git(directory, {"rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"});
  if (r.status != 0 || r.output.empty())
    throw InputError("revision '" + revision + "' names no commit in this repository");
  return first_line(r.output);
}

std::string repository_root(const std::string& directory) {
  const auto r = git(directory, {"rev-parse", "--show-toplevel"});
  if (r.status != 0 || r.output.empty()) throw InputError("'" + directory + "' is not inside a git repository");
  return first_line(r.output);
}

std::vector<std::string> first_parent_line(const std::string& directory, const std::string& good,
                                           const std::string& bad) {
  if (git(directory, {"merge-base", "--is-ancestor", good, bad}).status != 0) {
    throw InputError("bisect: " + good.substr(0, 12) + " is not an ancestor of " + bad.substr(0, 12) +
                     " (GOOD must come before BAD)");
  }
  const auto r = git(directory, {"rev-list", "--first-parent", "--reverse", good + ".." + bad});
  if (r.status != 0) throw InputError("git rev-list " + good.substr(0, 12) + ".." + bad.substr(0, 12) + " failed");
  std::vector<std::string> line = {good};
  size_t start = 0;
  for (size_t end; (end = r.output.find('\n', start)) != std::string::npos; start = end + 1) {
    if (end > start) line.push_back(r.output.substr(start, end - start));
  }
  if (line.back() != bad)
    throw InputError("bisect: " + bad.substr(0, 12) + " is not on the first-parent line from " + good.substr(0, 12));
  return line;
}

std::string commit_subject(const std::string& directory, const std::string& commit) {
  const auto r = git(directory, {"log", "-1", "--format=%s", commit});
  return r.status == 0 ? first_line(r.output) : std::string();
}

}  // namespace perfgate
