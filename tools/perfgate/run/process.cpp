#include "run/process.h"

#include "base/error.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

extern char** environ;

namespace perfgate {
namespace {

// Our environment without the `unset` names and with `extra` entries added, an extra entry replacing one of the same
// name.
std::vector<std::string> environment_with(const std::vector<std::string>& extra,
                                          const std::vector<std::string>& unset) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& x : extra) replaced = replaced || x.substr(0, x.find('=')) == name;
    for (const auto& u : unset) replaced = replaced || u == name;
    if (!replaced) env.push_back(entry);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> raw;
  for (auto& s : strings) raw.push_back(s.data());
  raw.push_back(nullptr);
  return raw;
}

// The process group of the child running under a time limit, which perfgate's own group does not include: an
// interrupt or termination of perfgate (Ctrl-C, a cancelled CI job, ctest's timeout) is passed on to it, so that no
// measured program outlives perfgate. 0 when there is none.
std::atomic<pid_t> g_child_group{0};
static_assert(std::atomic<pid_t>::is_always_lock_free, "read in a signal handler");

extern "C" void stop_child_group_and_exit(int signal_number) {
  const pid_t group = g_child_group.load();
  if (group > 0) {
    kill(-group, SIGKILL);
    waitpid(group, nullptr,
            0);  // reaped before perfgate goes: no measured program is left behind, not even as a zombie
  }
  ::signal(signal_number, SIG_DFL);  // then die of the signal as perfgate would have without the handler
  raise(signal_number);
}

void pass_termination_on_to_child_groups() {
  static const bool installed = [] {
    for (const int s : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction action {};
      action.sa_handler = stop_child_group_and_exit;
      sigemptyset(&action.sa_mask);
      sigaction(s, &action, nullptr);
    }
    return true;
  }();
  (void)installed;
}

// A child's output is kept within bounds whatever it prints: its first and last 8 MiB (the context lines a
// measured program prints come first, an error's last words come last), the middle dropped in large steps so
// that trimming stays cheap.
void keep_head_and_tail(std::string& output) {
  constexpr size_t kKeep = 8u << 20;
  if (output.size() <= 3 * kKeep) return;
  static const std::string kDropped = "\n[... output dropped ...]\n";
  output.erase(kKeep, output.size() - 2 * kKeep);
  output.insert(kKeep, kDropped);
}

}  // namespace

std::string output_tail(const std::string& output, size_t limit) {
  std::string tail = output.size() > limit ? output.substr(output.size() - limit) : output;
  for (char& c : tail) c = static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  const auto begin = tail.find_first_not_of(' '), end = tail.find_last_not_of(' ');
  return begin == std::string::npos ? std::string() : tail.substr(begin, end - begin + 1);
}

ProcessResult run_process(const std::vector<std::string>& argv, const ProcessOptions& options) {
  if (argv.empty()) throw InputError("run_process: no program");
  int pipe_fds[2] = {-1, -1};
  if (options.capture_output && pipe2(pipe_fds, O_CLOEXEC) != 0)
    throw InputError("cannot create a pipe to run " + argv.front());
  // O_CLOEXEC: the child keeps only the copies dup2 makes (its standard output and error); a descendant it leaves
  // running in the background must not hold the pipe open, or reading would wait for that descendant's end.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (options.capture_output) {
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    if (options.standard_error == StandardError::merge)
      posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  }
  if (options.standard_error == StandardError::discard) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  } else if (options.standard_error == StandardError::inherit && !options.standard_error_file.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, options.standard_error_file.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
  }
  if (!options.standard_input.empty())
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, options.standard_input.c_str(), O_RDONLY, 0);
  if (!options.directory.empty()) posix_spawn_file_actions_addchdir_np(&actions, options.directory.c_str());
  std::vector<std::string> args = argv;
  auto env = environment_with(options.env, options.unset);
  auto raw_args = pointers(args);
  auto raw_env = pointers(env);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (options.timeout_seconds > 0.0) {
    pass_termination_on_to_child_groups();
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, raw_args.front(), &actions, &attributes, raw_args.data(), raw_env.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ProcessResult result;
  if (options.capture_output) close(pipe_fds[1]);
  if (spawned != 0) {
    if (options.capture_output) close(pipe_fds[0]);
    return result;
  }
  const bool limited = options.timeout_seconds > 0.0;
  if (limited) g_child_group.store(pid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(options.timeout_seconds);
  auto milliseconds_left = [&] {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    return static_cast<int>(std::max<long long>(0, std::min<long long>(left, 1000)));
  };
  auto stop_group = [&] {
    kill(-pid, SIGKILL);
    result.timed_out = true;
  };
  if (options.capture_output) {
    std::array<char, 4096> buffer{};
    for (;;) {
      // Checked on every pass, not only when the child is quiet: one that prints without pause must stop too.
      if (limited && std::chrono::steady_clock::now() >= deadline) {
        stop_group();
        break;
      }
      pollfd readable{pipe_fds[0], POLLIN, 0};
      const int ready = poll(&readable, 1, limited ? milliseconds_left() : -1);
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) continue;
      const ssize_t n = read(pipe_fds[0], buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      result.output.append(buffer.data(), static_cast<size_t>(n));
      keep_head_and_tail(result.output);
    }
    close(pipe_fds[0]);
  }
  int status = 0;
  while (limited && !result.timed_out && waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      stop_group();
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!limited || result.timed_out) waitpid(pid, &status, 0);
  if (limited) g_child_group.store(0);
  result.status = !result.timed_out && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

TimedProcess run_timed(const std::vector<std::string>& argv, double timeout_seconds,
                       const std::string& standard_error_file) {
  if (argv.empty()) throw InputError("no program to run");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  if (standard_error_file.empty()) {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  } else {
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, standard_error_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
  }
  std::vector<std::string> args = argv;
  auto env = environment_with({}, {});
  auto raw_args = pointers(args);
  auto raw_env = pointers(env);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  const bool limited = timeout_seconds > 0.0;
  if (limited) {
    pass_termination_on_to_child_groups();
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
  }
  TimedProcess result;
  pid_t pid = 0;
  const auto start = std::chrono::steady_clock::now();
  const int spawned = posix_spawnp(&pid, raw_args.front(), &actions, &attributes, raw_args.data(), raw_env.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) return result;
  if (limited) g_child_group.store(pid);
  // A watchdog kills the group at the deadline; the wait below blocks, so the time read is the child's end exactly.
  std::mutex mutex;
  std::condition_variable ended;
  bool done = false;
  std::thread watchdog;
  if (limited) {
    watchdog = std::thread([&] {
      std::unique_lock<std::mutex> lock(mutex);
      if (!ended.wait_for(lock, std::chrono::duration<double>(timeout_seconds), [&] { return done; })) {
        kill(-pid, SIGKILL);
        result.timed_out = true;
      }
    });
  }
  // Wait for the end without reaping (WNOWAIT): the process group still exists while the watchdog may signal it,
  // so its kill can never reach a group that a reused id names. Then stop the watchdog, then reap.
  siginfo_t info{};
  int waited = 0;
  while ((waited = waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT)) < 0 && errno == EINTR) {
  }
  const auto end = std::chrono::steady_clock::now();
  if (limited) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
    }
    ended.notify_one();
    watchdog.join();
    g_child_group.store(0);
  }
  int status = 0;
  rusage usage{};
  pid_t reaped = -1;
  while ((reaped = wait4(pid, &status, 0, &usage)) < 0 && errno == EINTR) {
  }
  if (waited < 0 || reaped != pid) return result;  // not waited for (SIGCHLD ignored): no status, no time
  result.wall_seconds = std::chrono::duration<double>(end - start).count();
  result.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                       static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  result.status = !result.timed_out && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace perfgate
