#pragma once
// The git facts perfgate records or checks, obtained by running git directly (never through a shell).
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

/// The environment variables with which a caller's environment would choose the repository (or its index, objects or
/// work tree) instead of the folder perfgate asks about. Every git that perfgate runs has them removed: a CI step's
/// exported GIT_DIR must not make another repository's state the target's.
const std::vector<std::string>& repository_selector_variables();

/// HEAD's commit id in the repository containing `directory`, or nullopt outside a repository.
std::optional<std::string> head_sha(const std::string& directory);

/// Where `directory` stands in git, for a baseline's provenance: outside any repository is a fact to record, not an
/// error. Throws InputError with git's own reason when git cannot tell (a repository git refuses as not safe, git
/// not installed).
struct RepositoryState {
  bool inside = false;                   ///< false: not in a git repository (commit and uncommitted stay empty)
  std::string commit;                    ///< HEAD's full commit id ("" in a repository with no commit yet)
  std::vector<std::string> uncommitted;  ///< tracked files with uncommitted changes, as `git status` names them
};
RepositoryState repository_state(const std::string& directory);
/// HEAD's id as a measurement of that tree records it: marked "-dirty" when tracked files have uncommitted changes;
/// "" outside a repository or before its first commit.
std::string marked_commit(const RepositoryState& state);

/// The commit a measurement of `directory`'s tree is of, as results and provenance record it: HEAD's id, marked
/// "-dirty" when tracked files have uncommitted changes. Without one, `commit` is "" and `reason` says why: not in a
/// git repository, no commit yet, or git's own words where it cannot tell (never an exception: a measurement without
/// its commit is still a measurement).
struct MeasuredCommit {
  std::string commit, reason;
};
MeasuredCommit measured_commit(const std::string& directory);
/// True when the working tree has uncommitted changes (tracked files only). Throws InputError with git's own
/// reason when git cannot tell (not a repository, a repository git refuses as not safe, git not installed).
bool tree_is_dirty(const std::string& directory);

/// The full commit id a revision names in the repository containing `directory`. Throws InputError when it names
/// no commit or looks like an option (a leading '-'): revisions come from users and are never given to a shell.
std::string resolve_commit(const std::string& directory, const std::string& revision);

/// The repository's top-level folder; throws InputError outside a repository.
std::string repository_root(const std::string& directory);

/// The commits from `good` to `bad` along first parents, `good` first and `bad` last (full ids). Throws InputError
/// when `good` is not an ancestor of `bad`.
std::vector<std::string> first_parent_line(const std::string& directory, const std::string& good,
                                           const std::string& bad);

/// A commit's subject line, for messages.
std::string commit_subject(const std::string& directory, const std::string& commit);

}  // namespace perfgate
