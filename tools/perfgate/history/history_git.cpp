#include "history/history_git.h"

#include "base/atomic_write.h"
#include "base/error.h"
#include "base/json_input.h"
#include "base/one_line.h"
#include "base/read_file.h"
#include "run/git.h"
#include "run/process.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <thread>

namespace perfgate {
namespace {

constexpr double kGitSeconds = 300.0;               // a fetch or push of a large history over a slow network
constexpr size_t kMaxStoreBytes = size_t{1} << 30;  // the distinct run files one read holds, at most
constexpr size_t kBatchBytes = 16 << 20;  // objects read per `git cat-file --batch`, within what run_process keeps

std::string random_hex(size_t digits) {
  static std::mt19937_64 rng(std::random_device{}() ^ (static_cast<uint64_t>(::getpid()) << 32) ^
                             static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  const char* hex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < digits; ++i) out += hex[rng() % 16];
  return out;
}

// A file name that sorts in the order of appending (UTC time to the microsecond), unique by its random tail.
std::string run_file_name(size_t sequence) {
  const auto now = std::chrono::system_clock::now();
  const long long micros = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
  const std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char stamp[128];
  std::snprintf(stamp, sizeof stamp, "runs/%04d/%02d/%04d%02d%02dT%02d%02d%02d.%06lldZ-%06zu-", utc.tm_year + 1900,
                utc.tm_mon + 1, utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                micros % 1000000, sequence);
  return stamp + random_hex(12) + ".json";
}

bool is_object_id(const std::string& text) {
  return (text.size() == 40 || text.size() == 64) && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// The last line of git's output (its answer; anything before it is not what was asked).
std::string last_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const auto newline = text.rfind('\n');
  return newline == std::string::npos ? text : text.substr(newline + 1);
}

// Every git perfgate runs here: no repository chosen by the environment, no transport that runs commands, no
// automatic housekeeping, no prompt.
ProcessOptions git_options(std::vector<std::string> env) {
  ProcessOptions options;
  options.unset = repository_selector_variables();
  options.unset.insert(options.unset.end(), {"GIT_ALLOW_PROTOCOL", "GIT_PROTOCOL_FROM_USER"});
  env.insert(env.end(), {"LC_ALL=C", "GIT_TERMINAL_PROMPT=0"});
  options.env = env;
  options.timeout_seconds = kGitSeconds;
  return options;
}

std::vector<std::string> git_command(const std::string& repository, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {
      "git", "-C", repository, "-c", "protocol.ext.allow=never", "-c", "gc.auto=0", "-c", "maintenance.auto=false"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

}  // namespace

GitHistory::GitHistory(const std::string& remote, const std::string& branch, StoreAccess access)
    : remote_(remote), branch_(branch), access_(access), scratch_(std::make_unique<TemporaryFolder>("history")) {
  if (remote.empty() || remote.front() == '-' || remote.rfind("ext::", 0) == 0) {
    throw InputError("history git:" + one_line(remote) +
                     "#...: not a remote, path or URL (git's ext:: transport is not used)");
  }
  // A branch name as git itself accepts it, given as a branch (not HEAD, not a full ref name).
  ProcessOptions quiet = git_options({});
  quiet.standard_error = StandardError::discard;
  const auto format = run_process({"git", "check-ref-format", "refs/heads/" + branch}, quiet);
  if (branch.empty() || branch == "HEAD" || branch.rfind("refs/", 0) == 0 || branch.front() == '-' ||
      format.status != 0) {
    throw InputError("history git:...#" + one_line(branch) + ": not a branch name git accepts (e.g. perfgate-history)");
  }
  ref_prefix_ = "refs/perfgate-history/" + std::to_string(::getpid()) + "-" + random_hex(8);
  // A remote's name is resolved where the user works, so that its URL and credentials are the checkout's.
  if (run_process({"git", "remote", "get-url", "--", remote}, quiet).status == 0) {
    repository_ = repository_root(".");
    sweep_private_refs();
  } else {
    repository_ = scratch_->path().string();
    git({"init", "--quiet", "--bare", "--template=", "repository.git"}, "create a scratch repository");
    repository_ = (scratch_->path() / "repository.git").string();
    scratch_repository_ = true;
    if (std::filesystem::exists(remote_)) remote_ = std::filesystem::absolute(remote_).lexically_normal().string();
  }
}

void GitHistory::sweep_private_refs() const {
  // refs/perfgate-history/<pid>-<random>/...: a process killed before its destructor ran leaves them behind; those of a
  // process no longer running here are removed.
  const auto listed = run_process(
      git_command(repository_, {"for-each-ref", "--format=%(refname)", "refs/perfgate-history/"}), git_options({}));
  std::istringstream refs(listed.output);
  for (std::string ref; std::getline(refs, ref);) {
    const auto owner = ref.substr(std::string("refs/perfgate-history/").size());
    const long pid = std::strtol(owner.c_str(), nullptr, 10);
    if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      run_process(git_command(repository_, {"update-ref", "-d", ref}), git_options({}));
    }
  }
}

GitHistory::~GitHistory() {
  if (scratch_repository_) return;  // the scratch repository goes with its folder
  // Private refs left by a failure in the user's repository are removed.
  try {
    const auto listed =
        run_process(git_command(repository_, {"for-each-ref", "--format=%(refname)", ref_prefix_}), git_options({}));
    std::istringstream refs(listed.output);
    for (std::string ref; std::getline(refs, ref);) {
      if (ref.rfind(ref_prefix_ + "/", 0) == 0)
        run_process(git_command(repository_, {"update-ref", "-d", ref}), git_options({}));
    }
  } catch (...) {
  }
}

std::string GitHistory::name() const {
  // A URL's credentials (https://user:token@host/...) are git's to use, never perfgate's to print.
  std::string shown = remote_;
  const auto scheme = shown.find("://");
  if (scheme != std::string::npos) {
    const auto at = shown.find('@', scheme + 3);
    const auto slash = shown.find('/', scheme + 3);
    if (at != std::string::npos && (slash == std::string::npos || at < slash))
      shown = shown.substr(0, scheme + 3) + shown.substr(at + 1);
  }
  return one_line("git:" + shown + "#" + branch_);
}

std::string GitHistory::git(const std::vector<std::string>& args, const std::string& what,
                            const std::vector<std::string>& env, const std::string& input) const {
  auto out = git_raw(args, what, env, input);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

std::string GitHistory::git_raw(const std::vector<std::string>& args, const std::string& what,
                                const std::vector<std::string>& env, const std::string& input) const {
  auto options = git_options(env);
  options.standard_error_file = (scratch_->path() / "git-stderr.txt").string();
  options.standard_input = input;
  const auto r = run_process(git_command(repository_, args), options);
  if (r.timed_out)
    throw StoreUnavailable("history " + name() + ": git could not " + what + " within " +
                           std::to_string(static_cast<int>(kGitSeconds)) + " s");
  if (r.status != 0) {
    std::string why;
    try {
      why = read_whole_file(options.standard_error_file, "git's messages");
    } catch (const InputError&) {
    }
    throw StoreUnavailable("history " + name() + ": git could not " + what + ": " +
                           output_tail(why.empty() ? r.output : why, 300));
  }
  return r.output;
}

std::string GitHistory::fetch(const std::string& ref) const {
  std::vector<std::string> args = {"fetch", "--quiet", "--no-tags", "--no-write-fetch-head"};
  // The scratch repository needs the tip only (its tree, and the commit as the next one's parent): a shallow fetch
  // keeps each append's transfer small however long the history. A user's repository is never made shallow.
  if (scratch_repository_) args.push_back("--depth=1");
  args.insert(args.end(), {"--", remote_, "+refs/heads/" + branch_ + ":" + ref});
  auto options = git_options({});
  options.standard_error = StandardError::merge;
  const auto r = run_process(git_command(repository_, args), options);
  if (r.timed_out)
    throw StoreUnavailable("history " + name() + ": fetching did not finish within " +
                           std::to_string(static_cast<int>(kGitSeconds)) + " s");
  if (r.status != 0) {
    if (r.output.find("couldn't find remote ref") != std::string::npos) return "";
    if (r.output.find("does not appear to be a git repository") != std::string::npos ||
        r.output.find("not a git repository") != std::string::npos) {
      throw InputError("history " + name() + ": not a git repository or remote");
    }
    if (r.output.find("transport") != std::string::npos && r.output.find("not allowed") != std::string::npos) {
      throw InputError("history " + name() + ": " + output_tail(r.output, 200));
    }
    throw StoreUnavailable("history " + name() + ": cannot fetch: " + output_tail(r.output, 300));
  }
  const std::string tip =
      last_line(git({"rev-parse", "--verify", "--quiet", ref + "^{commit}"}, "read the branch's tip"));
  if (!is_object_id(tip)) throw StoreUnavailable("history " + name() + ": the branch's tip is not a commit");
  return tip;
}

std::vector<HistoryRun> GitHistory::runs() const {
  const std::string ref = ref_prefix_ + "/read";
  if (fetch(ref).empty()) {
    if (access_ == StoreAccess::read_only) throw InputError("history " + name() + ": no such branch, no runs recorded");
    return {};
  }
  // The tree's entries under runs/: mode, type, object, size and path (NUL-separated, any name). Only regular files
  // named *.json are runs; a link, a submodule or anything else in the branch is not read.
  const std::string listing = git({"ls-tree", "-r", "-l", "-z", "--full-tree", ref, "--", "runs/"}, "list the runs");
  git({"update-ref", "-d", ref}, "remove a private ref");
  struct Entry {
    std::string object, path;
    size_t size = 0;
  };
  std::vector<Entry> entries;
  // A run is its content: a blob named under several paths is one run, read once, so that a small tree naming one
  // large blob many times cannot multiply what is read and held.
  std::set<std::string> objects;
  size_t total_bytes = 0;
  std::istringstream records(listing);
  for (std::string record; std::getline(records, record, '\0');) {
    const auto tab = record.find('\t');
    if (tab == std::string::npos) continue;
    std::istringstream fields(record.substr(0, tab));
    std::string mode, type, object, size;
    fields >> mode >> type >> object >> size;
    const std::string path = record.substr(tab + 1);
    if (path.size() < 5 || path.compare(path.size() - 5, 5, ".json") != 0) continue;
    // A run file committed executable is still a file; a link or a submodule under runs/ is no run perfgate wrote,
    // and is never followed or read.
    if ((mode != "100644" && mode != "100755") || type != "blob") continue;
    const auto bytes = static_cast<size_t>(std::strtoull(size.c_str(), nullptr, 10));
    if (bytes > kMaxRunFileBytes)
      throw InputError("history " + name() + ":" + one_line(path) + ": larger than a run file (" +
                       std::to_string(bytes) + " bytes)");
    if (!objects.insert(object).second) continue;
    total_bytes += bytes;
    if (total_bytes > kMaxStoreBytes) {
      throw InputError("history " + name() + ": its run files add up to more than " +
                       std::to_string(kMaxStoreBytes >> 20) +
                       " MiB, more than one read holds; export older runs into a store of their own");
    }
    entries.push_back({object, path, bytes});
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.path < b.path; });  // the order of appending
  std::vector<HistoryRun> out;
  for (size_t first = 0; first < entries.size();) {
    size_t last = first, bytes = 0;
    std::string wanted;
    while (last < entries.size() && (last == first || bytes + entries[last].size <= kBatchBytes)) {
      wanted += entries[last].object + "\n";
      bytes += entries[last].size;
      ++last;
    }
    const auto list = (scratch_->path() / "objects.txt").string();
    write_file_atomically(list, wanted);
    const std::string batch = git_raw({"cat-file", "--batch"}, "read the runs", {}, list);
    size_t at = 0;
    for (size_t i = first; i < last; ++i) {
      const auto header_end = batch.find('\n', at);
      if (header_end == std::string::npos)
        throw StoreUnavailable("history " + name() + ": git's answer for the runs was cut short");
      std::istringstream header(batch.substr(at, header_end - at));
      std::string object, type;
      size_t size = 0;
      header >> object >> type >> size;
      if (object != entries[i].object || type != "blob" || header_end + 1 + size > batch.size()) {
        throw StoreUnavailable("history " + name() + ": git's answer for the runs does not match what it listed: ");
      }
      const std::string shown = name() + ":" + entries[i].path;
      out.push_back(parse_history_run(parse_json_input(batch.substr(header_end + 1, size), shown), shown));
      at = header_end + 1 + size + 1;
    }
    first = last;
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> GitHistory::store_run_objects(
    const std::vector<HistoryRun>& runs) const {
  std::vector<std::pair<std::string, std::string>> files;  // (path, object)
  std::string paths;
  for (size_t i = 0; i < runs.size(); ++i) {
    const auto file = scratch_->path() / ("run-" + std::to_string(i) + ".json");
    const auto text = run_identity(runs[i]) + "\n";  // equal runs are one object
    // What is written is what a read accepts: a run file past the bound would make the whole branch unreadable.
    if (text.size() > kMaxRunFileBytes) {
      throw InputError("history " + name() + ": a run of " + std::to_string(runs[i].metrics.size()) + " metrics is " +
                       std::to_string(text.size() >> 10) + " KiB as a run file, more than the " +
                       std::to_string(kMaxRunFileBytes >> 20) +
                       " MiB a data branch holds per run; record its suites separately");
    }
    write_file_atomically(file.string(), text);
    paths += file.string() + "\n";
  }
  const auto path_list = (scratch_->path() / "paths.txt").string();
  write_file_atomically(path_list, paths);
  std::istringstream objects(git({"hash-object", "-w", "--stdin-paths"}, "store the runs", {}, path_list));
  for (size_t i = 0; i < runs.size(); ++i) {
    std::string object;
    if (!std::getline(objects, object) || !is_object_id(object))
      throw StoreUnavailable("history " + name() + ": git did not store a run");
    files.emplace_back(run_file_name(i), object);
  }
  return files;
}

std::set<std::string> GitHistory::run_objects_at(const std::string& tip) const {
  std::set<std::string> present;
  if (tip.empty()) return present;
  std::istringstream listed(git({"ls-tree", "-r", "--full-tree", tip, "--", "runs/"}, "list the runs"));
  for (std::string line; std::getline(listed, line);) {
    std::istringstream fields(line);
    std::string mode, type, object;
    if (fields >> mode >> type >> object) present.insert(object);
  }
  return present;
}

size_t GitHistory::append(const std::vector<HistoryRun>& runs) {
  if (runs.empty()) return 0;
  // The files' objects, written once: each attempt only builds a tree and a commit on the tip it fetched.
  const auto files = store_run_objects(runs);
  const auto info_file = (scratch_->path() / "index-info.txt").string();

  const std::vector<std::string> identity = {"GIT_AUTHOR_NAME=perfgate", "GIT_AUTHOR_EMAIL=perfgate@localhost",
                                             "GIT_COMMITTER_NAME=perfgate", "GIT_COMMITTER_EMAIL=perfgate@localhost"};
  const auto index = (scratch_->path() / "append.index").string();
  const std::string ref = ref_prefix_ + "/append";
  const std::string message =
      "perfgate history: " + std::to_string(runs.size()) + (runs.size() == 1 ? " run" : " runs");
  std::mt19937 rng(std::random_device{}());
  std::string tip = fetch(ref), last_refusal;
  for (int attempt = 1; attempt <= kGitAttempts; ++attempt) {
    std::filesystem::remove(index);
    const std::vector<std::string> with_index = {"GIT_INDEX_FILE=" + index};
    if (!tip.empty()) git({"read-tree", tip}, "read the branch", with_index);
    // Skipping duplicates: against the runs of the tip this commit is built on, and pushed only as a fast-forward of
    // it, so that two imports at once add each run once.
    auto present = run_objects_at(tip);
    std::string index_info;
    size_t added = 0;
    for (const auto& [path, object] : files) {
      if (!present.insert(object).second) continue;
      index_info += "100644 " + object + "\t" + path + "\n";
      ++added;
    }
    if (added == 0) {
      git({"update-ref", "-d", ref}, "remove a private ref");
      return 0;
    }
    write_file_atomically(info_file, index_info);
    git({"update-index", "--add", "--index-info"}, "add the runs", with_index, info_file);
    const std::string tree = last_line(git({"write-tree"}, "write the tree", with_index));
    std::vector<std::string> commit_args = {"commit-tree", tree, "-m", message};
    if (!tip.empty()) commit_args.insert(commit_args.end(), {"-p", tip});
    const std::string commit = last_line(git(commit_args, "commit the runs", identity));
    if (!is_object_id(tree) || !is_object_id(commit))
      throw StoreUnavailable("history " + name() + ": git did not commit the runs");
    // Never forced, never through the checkout's hooks: a push that is not a fast-forward means another run landed
    // first.
    auto options = git_options({});
    options.standard_error = StandardError::merge;
    const auto pushed = run_process(git_command(repository_, {"push", "--quiet", "--porcelain", "--no-verify", "--",
                                                              remote_, commit + ":refs/heads/" + branch_}),
                                    options);
    if (pushed.status == 0) {
      git({"update-ref", "-d", ref}, "remove a private ref");
      return added;
    }
    if (pushed.timed_out)
      throw StoreUnavailable("history " + name() + ": pushing did not finish within " +
                             std::to_string(static_cast<int>(kGitSeconds)) + " s");
    last_refusal = output_tail(pushed.output, 300);
    // A lost race: git says the branch is ahead of the commit's parent ("[rejected] (fetch first)" or
    // "(non-fast-forward)" in its porcelain status), or, when it says something else (a ref lock lost on the server), a
    // fetch finds the tip moved. A refusal that leaves the tip where it was (a hook, a protected branch, missing
    // rights, a name that clashes with another ref) is not a race, and no retry would help: it is reported at once,
    // with git's words.
    const bool behind = pushed.output.find("\t[rejected] (fetch first)") != std::string::npos ||
                        pushed.output.find("\t[rejected] (non-fast-forward)") != std::string::npos;
    if (!behind && fetch(ref) == tip)
      throw StoreUnavailable("history " + name() + ": the push was refused: " + last_refusal);
    if (attempt == kGitAttempts) break;
    // Wait first, then fetch: the next commit is built on the tip as it stands after the wait, so the window in which
    // another run can land first is from that fetch to the push, however long the wait has grown.
    const int ceiling_ms = 25 << std::min(attempt - 1, 6);
    std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, ceiling_ms)(rng)));
    tip = fetch(ref);
  }
  throw StoreUnavailable("history " + name() + ": the branch kept moving; " + std::to_string(kGitAttempts) +
                         " pushes lost the race (the last: " + last_refusal + "); nothing was recorded, run it again");
}

}  // namespace perfgate
