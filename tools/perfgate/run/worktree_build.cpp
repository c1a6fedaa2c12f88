#include "run/worktree_build.h"

#include "base/error.h"
#include "run/git.h"
#include "run/process.h"

#include <filesystem>

namespace perfgate {

RevisionBuild build_revision(const std::string& repo_root, const std::string& work, const std::string& commit,
                             const GateBuild& steps, const std::vector<std::string>& targets) {
  RevisionBuild b;
  b.commit = commit;
  b.worktree = (std::filesystem::absolute(work) / commit.substr(0, 12)).string();
  b.build_dir = (std::filesystem::path(b.worktree) / steps.directory).lexically_normal().string();
  ProcessOptions quiet;
  quiet.standard_error = StandardError::merge;
  quiet.unset = repository_selector_variables();  // the worktree belongs to repo_root, whatever the environment says
  quiet.timeout_seconds = 600.0;                  // a worktree of a large repository takes a while, never forever
  // Worktrees whose folders were deleted are forgotten first, so that their names can be added again.
  run_process({"git", "-C", repo_root, "worktree", "prune"}, quiet);
  if (!std::filesystem::exists(std::filesystem::path(b.worktree) / ".git")) {
    std::filesystem::create_directories(std::filesystem::path(b.worktree).parent_path());
    const auto r =
        run_process({"git", "-C", repo_root, "worktree", "add", "--detach", "--force", b.worktree, commit}, quiet);
    if (r.status != 0) throw InputError("git worktree add " + b.worktree + " failed: " + output_tail(r.output));
  }
  // A worktree left by an earlier run is measured only as the commit: its tracked files are reset to it and files git
  // does not know (other than the build folder, kept for an incremental build) are removed, whatever was changed in it.
  const std::string build_in_tree = std::filesystem::path(steps.directory).lexically_normal().string();
  for (const std::vector<std::string>& restore :
       {std::vector<std::string>{"git", "-C", b.worktree, "reset", "--quiet", "--hard", commit},
        {"git", "-C", b.worktree, "clean", "-ffdq", "-e", "/" + build_in_tree}}) {
    const auto r = run_process(restore, quiet);
    if (r.status != 0)
      throw InputError("worktree " + b.worktree + " could not be restored to " + commit + ": " + output_tail(r.output));
  }
  const auto status = run_process({"git", "-C", b.worktree, "status", "--porcelain", "--untracked-files=no"}, quiet);
  if (head_sha(b.worktree).value_or("") != commit || status.status != 0 || !status.output.empty()) {
    throw InputError("worktree " + b.worktree + " is not clean at " + commit +
                     "; remove it (git worktree remove --force) and retry");
  }
  build_worktree(repo_root, b, steps, targets);
  return b;
}

void build_worktree(const std::string& repo_root, const RevisionBuild& b, const GateBuild& steps,
                    const std::vector<std::string>& targets) {
  ProcessOptions build;
  build.directory = b.worktree;
  build.standard_error = StandardError::merge;
  build.unset = repository_selector_variables();  // the build's own git calls (version stamps) see its worktree
  // base_dir makes ccache hash paths relative to the build folder, so the same file in two worktrees hits the cache.
  build.env = {"CCACHE_BASEDIR=" + std::filesystem::path(repo_root).string(), "CCACHE_NOHASHDIR=1"};
  for (const auto& written : steps.steps) {
    std::vector<std::string> step;
    for (const auto& word : written) {
      if (word != "{targets}") {
        step.push_back(word);
      } else if (!targets.empty()) {
        step.insert(step.end(), targets.begin(), targets.end());
      } else if (!step.empty() && step.back().rfind('-', 0) == 0) {
        step.pop_back();  // "--target {targets}" with no target: build everything
      }
    }
    const auto r = run_process(step, build);
    if (r.status != 0) {
      std::string shown;
      for (const auto& word : step) shown += (shown.empty() ? "" : " ") + word;
      throw InputError("building " + b.commit.substr(0, 12) + " failed at '" + shown + "': " + output_tail(r.output));
    }
  }
}

}  // namespace perfgate
