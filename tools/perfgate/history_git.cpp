#include "history_git.h"

#include "error.h"
#include "git.h"
#include "json_input.h"
#include "one_line.h"
#include "process.h"
#include "read_file.h"
#include "atomic_write.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

namespace perfgate {
namespace {

constexpr double kGitSeconds = 300.0;  // a fetch or push of a large history over a slow network

bool valid_branch(const std::string& b) {
  if (b.empty() || b.size() > 200 || b.front() == '-' || b.front() == '/' || b.back() == '/' || b.find("..") != std::string::npos) return false;
  return b.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-") == std::string::npos;
}

std::string random_hex(size_t digits) {
  static std::mt19937_64 rng(std::random_device{}() ^ (static_cast<uint64_t>(::getpid()) << 32) ^
                             static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  const char* hex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < digits; ++i) out += hex[rng() % 16];
  return out;
}

// A file name that sorts in the order of appending (UTC time to the microsecond), unique by its random tail.
std::string run_file_name() {
  const auto now = std::chrono::system_clock::now();
  const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[128];
  std::snprintf(stamp, sizeof stamp, "runs/%04d/%02d/%04d%02d%02dT%02d%02d%02d.%06lldZ-", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<long long>(micros % 1000000 + (micros < 0 ? 1000000 : 0)));
  return stamp + random_hex(12) + ".json";
}

bool push_lost_a_race(const std::string& output) {
  for (const char* sign : {"non-fast-forward", "fetch first", "cannot lock ref", "failed to update ref", "failed to lock",
                           "reference already exists", "stale info", "Unable to create", "index.lock"}) {
    if (output.find(sign) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

GitHistory::GitHistory(const std::string& remote, const std::string& branch, StoreAccess access)
    : remote_(remote), branch_(branch), access_(access), scratch_(std::make_unique<TemporaryFolder>("history")) {
  if (remote.empty() || remote.front() == '-') throw InputError("history git:" + one_line(remote) + "#...: not a remote, path or URL");
  if (!valid_branch(branch)) throw InputError("history git:...#" + one_line(branch) + ": not a branch name (letters, digits, . _ / -)");
  ref_prefix_ = "refs/perfgate-history/" + std::to_string(::getpid()) + "-" + random_hex(8);
  // A remote's name is resolved where the user works, so that its URL and credentials are the checkout's.
  ProcessOptions quiet;
  quiet.unset = repository_selector_variables();
  quiet.standard_error = StandardError::discard;
  quiet.timeout_seconds = 60.0;
  const auto is_remote = run_process({"git", "remote", "get-url", "--", remote}, quiet);
  if (is_remote.status == 0) {
    repository_ = repository_root(".");
  } else {
    repository_ = scratch_->path().string();
    git({"init", "--quiet", "--bare", "--template=", "repository.git"}, "create a scratch repository");
    repository_ = (scratch_->path() / "repository.git").string();
    scratch_repository_ = true;
    if (std::filesystem::exists(remote_)) remote_ = std::filesystem::absolute(remote_).lexically_normal().string();
  }
}

std::string GitHistory::git(const std::vector<std::string>& args, const std::string& what, const std::vector<std::string>& env) const {
  std::vector<std::string> argv = {"git", "-C", repository_.empty() ? std::string(".") : repository_, "-c", "gc.auto=0", "-c", "maintenance.auto=false"};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessOptions options;
  options.unset = repository_selector_variables();
  options.env = env;
  options.env.push_back("LC_ALL=C");
  options.standard_error = StandardError::merge;
  options.timeout_seconds = kGitSeconds;
  const auto r = run_process(argv, options);
  if (r.timed_out) throw StoreUnavailable("history " + name() + ": git could not " + what + " within " + std::to_string(static_cast<int>(kGitSeconds)) + " s");
  if (r.status != 0) throw StoreUnavailable("history " + name() + ": git could not " + what + ": " + one_line(output_tail(r.output, 300)));
  auto out = r.output;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

bool GitHistory::fetch(const std::string& ref) const {
  std::vector<std::string> argv = {"git", "-C", repository_, "-c", "gc.auto=0", "-c", "maintenance.auto=false", "fetch", "--quiet", "--no-tags", "--no-write-fetch-head"};
  // The scratch repository needs the tip only (its tree, and the commit as the next one's parent): a shallow fetch keeps
  // each append's transfer small however long the history. A user's repository is never made shallow.
  if (scratch_repository_) argv.push_back("--depth=1");
  argv.insert(argv.end(), {"--", remote_, "+refs/heads/" + branch_ + ":" + ref});
  ProcessOptions options;
  options.unset = repository_selector_variables();
  options.env = {"LC_ALL=C", "GIT_TERMINAL_PROMPT=0"};
  options.standard_error = StandardError::merge;
  options.timeout_seconds = kGitSeconds;
  const auto r = run_process(argv, options);
  if (r.status == 0) return true;
  if (r.output.find("couldn't find remote ref") != std::string::npos) return false;
  if (r.timed_out) throw StoreUnavailable("history " + name() + ": fetching did not finish within " + std::to_string(static_cast<int>(kGitSeconds)) + " s");
  if (r.output.find("does not appear to be a git repository") != std::string::npos || r.output.find("not a git repository") != std::string::npos) {
    throw InputError("history " + name() + ": '" + remote_ + "' is not a git repository or remote");
  }
  throw StoreUnavailable("history " + name() + ": cannot fetch: " + one_line(output_tail(r.output, 300)));
}

std::vector<HistoryRun> GitHistory::runs() const {
  const std::string ref = ref_prefix_ + "/read";
  if (!fetch(ref)) {
    if (access_ == StoreAccess::read_only) throw InputError("history " + name() + ": no such branch, no runs recorded");
    return {};
  }
  const auto index = (scratch_->path() / "read.index").string();
  const auto files = scratch_->path() / ("read-" + random_hex(8));
  git({"read-tree", ref}, "read the branch", {"GIT_INDEX_FILE=" + index});
  std::filesystem::create_directories(files);  // git checks the work tree out only into a folder that exists
  git({"--work-tree=" + files.string(), "checkout-index", "--all", "--force", "--prefix=" + files.string() + "/"}, "check the runs out",
      {"GIT_INDEX_FILE=" + index});
  git({"update-ref", "-d", ref}, "remove a private ref");
  std::vector<std::string> names;
  if (std::filesystem::exists(files / "runs")) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(files / "runs")) {
      if (entry.is_regular_file() && entry.path().extension() == ".json") names.push_back(entry.path().string());
    }
  }
  std::sort(names.begin(), names.end());  // the order of appending (names start with the time of the append)
  std::vector<HistoryRun> out;
  for (const auto& file : names) {
    const auto shown = name() + ":" + std::filesystem::relative(file, files).string();
    out.push_back(parse_history_run(parse_json_input(read_whole_file(file, "history run"), shown), shown));
  }
  std::filesystem::remove_all(files);
  return out;
}

void GitHistory::append(const HistoryRun& run) {
  const std::string file = run_file_name();
  const auto blob_file = scratch_->path() / "run.json";
  write_file_atomically(blob_file.string(), history_run_json(run).dump() + "\n");
  const std::string blob = git({"hash-object", "-w", "--", blob_file.string()}, "store the run");
  const std::vector<std::string> identity = {"GIT_AUTHOR_NAME=perfgate", "GIT_AUTHOR_EMAIL=perfgate@localhost", "GIT_COMMITTER_NAME=perfgate",
                                             "GIT_COMMITTER_EMAIL=perfgate@localhost"};
  const auto index = (scratch_->path() / "append.index").string();
  const std::string ref = ref_prefix_ + "/append";
  std::mt19937 rng(std::random_device{}());
  std::string last_refusal;
  for (int attempt = 1; attempt <= kGitAttempts; ++attempt) {
    std::filesystem::remove(index);
    const bool has_tip = fetch(ref);
    if (has_tip) git({"read-tree", ref}, "read the branch", {"GIT_INDEX_FILE=" + index});
    git({"update-index", "--add", "--cacheinfo", "100644," + blob + "," + file}, "add the run", {"GIT_INDEX_FILE=" + index});
    const std::string tree = git({"write-tree"}, "write the tree", {"GIT_INDEX_FILE=" + index});
    std::vector<std::string> commit_args = {"commit-tree", tree, "-m", "perfgate history: " + run.info.commit.substr(0, 12) + " on " + run.info.branch};
    if (has_tip) commit_args.insert(commit_args.end(), {"-p", ref});
    const std::string commit = git(commit_args, "commit the run", identity);
    ProcessOptions options;
    options.unset = repository_selector_variables();
    options.env = {"LC_ALL=C", "GIT_TERMINAL_PROMPT=0"};
    options.standard_error = StandardError::merge;
    options.timeout_seconds = kGitSeconds;
    // Never forced: a push that is not a fast-forward means another run landed first, and this one is redone on top.
    const auto pushed = run_process({"git", "-C", repository_, "-c", "gc.auto=0", "-c", "maintenance.auto=false", "push", "--quiet", "--", remote_, commit + ":refs/heads/" + branch_}, options);
    if (pushed.status == 0) {
      git({"update-ref", "-d", ref}, "remove a private ref");
      return;
    }
    if (!push_lost_a_race(pushed.output)) {
      throw StoreUnavailable("history " + name() + ": cannot push: " + one_line(output_tail(pushed.output, 300)));
    }
    last_refusal = output_tail(pushed.output, 200);
    // Another run landed first: wait a random while that doubles with each lost race (up to 2 s), so that many runners
    // pushing at once spread out instead of all losing again; then commit again on the new tip.
    const int ceiling_ms = 25 << std::min(attempt - 1, 6);
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, ceiling_ms)(rng)));
  }
  throw StoreUnavailable("history " + name() + ": the branch kept moving; " + std::to_string(kGitAttempts) + " pushes lost the race (last: " +
                         one_line(last_refusal) + "); nothing was recorded, run it again");
}

}  // namespace perfgate
