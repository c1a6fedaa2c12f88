#pragma once
// A revision built in a folder of its own: a detached git worktree and a CMake build inside it, so that two
// revisions' benchmarks are two different executables (the seeds' branch benchmarking measured the first
// branch's code for every branch, since all ran in one process).
#include <string>

namespace perfgate {

struct RevisionBuild {
  std::string commit;      ///< full commit id
  std::string worktree;    ///< <work>/<commit[0:12]>
  std::string build_dir;   ///< <worktree>/build/<preset>
};

/// Creates (or reuses) the worktree of `commit` under `work` and builds `target` with the configure and build
/// presets named `preset`. ccache is pointed at the repository so that unchanged files compile once for all
/// worktrees. Throws InputError with the failing step when git or the build fails.
RevisionBuild build_revision(const std::string& repo_root, const std::string& work, const std::string& commit, const std::string& preset,
                             const std::string& target);

}  // namespace perfgate
