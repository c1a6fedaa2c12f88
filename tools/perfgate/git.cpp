#include "git.h"

#include "error.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstring>

extern char** environ;

namespace perfgate {

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& directory) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw InputError("cannot create a pipe to run " + argv.front());
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  // git's -C selects the directory, so no chdir is needed in the child; other programs run where we are.
  std::vector<std::string> args = argv;
  if (args.front() == "git" && !directory.empty()) args.insert(args.begin() + 1, {"-C", directory});
  std::vector<char*> raw;
  for (auto& a : args) raw.push_back(a.data());
  raw.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, raw.front(), &actions, nullptr, raw.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  ProcessResult result;
  if (spawned != 0) {
    close(pipe_fds[0]);
    return result;
  }
  std::array<char, 4096> buffer{};
  ssize_t n = 0;
  while ((n = read(pipe_fds[0], buffer.data(), buffer.size())) > 0) result.output.append(buffer.data(), static_cast<size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::optional<std::string> head_sha(const std::string& directory) {
  auto r = run_process({"git", "rev-parse", "HEAD"}, directory);
  if (r.status != 0) return std::nullopt;
  while (!r.output.empty() && (r.output.back() == '\n' || r.output.back() == '\r')) r.output.pop_back();
  return r.output;
}

bool tree_is_dirty(const std::string& directory) {
  const auto r = run_process({"git", "status", "--porcelain", "--untracked-files=no"}, directory);
  return r.status != 0 || !r.output.empty();
}

}  // namespace perfgate
