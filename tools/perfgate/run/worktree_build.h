#pragma once
// A revision built in a folder of its own: a detached git worktree and the manifest's build steps inside it, so that
// two revisions' benchmarks are two different executables, never one process measuring one revision's code twice.
#include "formats/gate_manifest.h"

#include <string>
#include <vector>

namespace perfgate {

struct RevisionBuild {
  std::string commit;     ///< full commit id
  std::string worktree;   ///< <work>/<commit[0:12]>
  std::string build_dir;  ///< <worktree>/<build.directory>
};

/// Creates (or reuses) the worktree of `commit` under `work`, exactly the commit (a reused one is reset to it, its
/// unknown files other than the build folder removed), and builds it (build_worktree). Throws InputError with the
/// failing step when git or the build fails.
RevisionBuild build_revision(const std::string& repo_root, const std::string& work, const std::string& commit,
                             const GateBuild& build, const std::vector<std::string>& targets);

/// Runs `build`'s steps in the worktree as it is now (selftest's plants: the commit with a patch applied), each
/// argument "{targets}" replaced by `targets` (GateBuild says how an empty list is written). ccache is pointed at the
/// repository so that unchanged files compile once for all worktrees. Throws InputError with the failing step.
void build_worktree(const std::string& repo_root, const RevisionBuild& revision, const GateBuild& build,
                    const std::vector<std::string>& targets);

}  // namespace perfgate
