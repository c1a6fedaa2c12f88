#pragma once
// The history as a data branch of a git repository: each run is its own file, runs/<year>/<month>/<name>.json, so
// that concurrent runs never touch the same content. An append commits the files on the branch's current tip and
// pushes; when another run pushed first (the push is not a fast-forward and the tip has moved), it commits again on
// the tip fetched after a random wait that doubles, until it lands or kGitAttempts are used (StoreUnavailable). No
// server, no lock: the ref update of the remote is the only point of order. Only regular *.json files under runs/
// are read, straight from git's objects (never checked out: no link is followed, no attribute applied).
#include "base/temporary_folder.h"
#include "history/history_backend.h"

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace perfgate {

constexpr int kGitAttempts = 200;
constexpr size_t kMaxRunFileBytes = 4 << 20;  ///< a run file larger than this is not a run perfgate wrote

class GitHistory : public HistoryBackend {
 public:
  /// `remote`: a remote's name in the repository around the working folder (its URL and credentials are git's
  /// business), else a path or URL (git's ext:: transport refused). `branch`: the data branch, a name git accepts for
  /// a branch. read_only: a branch that does not exist is InputError.
  GitHistory(const std::string& remote, const std::string& branch, StoreAccess access);
  ~GitHistory() override;
  GitHistory(const GitHistory&) = delete;
  GitHistory& operator=(const GitHistory&) = delete;

  size_t append(const std::vector<HistoryRun>& runs) override;
  std::vector<HistoryRun> runs() const override;
  /// git:REMOTE#BRANCH, a URL's user and password left out.
  std::string name() const override;

 private:
  /// Fetches the branch into `ref`; "" when the remote has no such branch yet, else the tip's commit id.
  std::string fetch(const std::string& ref) const;
  void sweep_private_refs() const;
  /// Writes each run's file (its identity text) into git's objects; (path under runs/, object id) in order.
  std::vector<std::pair<std::string, std::string>> store_run_objects(const std::vector<HistoryRun>& runs) const;
  /// The objects of the run files at `tip` (none for an empty tip).
  std::set<std::string> run_objects_at(const std::string& tip) const;
  /// Runs git in the repository; its standard output, trimmed. StoreUnavailable with git's own words on failure.
  std::string git(const std::vector<std::string>& args, const std::string& what,
                  const std::vector<std::string>& env = {}, const std::string& input = "") const;
  /// The same, its output exactly as git wrote it (`input`: a file given to git as its standard input).
  std::string git_raw(const std::vector<std::string>& args, const std::string& what,
                      const std::vector<std::string>& env = {}, const std::string& input = "") const;

  std::string remote_, branch_;
  StoreAccess access_;
  std::unique_ptr<TemporaryFolder> scratch_;  ///< the temporary index, files, and a bare repository when needed
  std::string repository_;           ///< where git runs: the working folder's repository, or a bare one in scratch_
  bool scratch_repository_ = false;  ///< repository_ is the scratch one (fetched shallow)
  std::string ref_prefix_;           ///< private refs of this process: refs/perfgate-history/<pid>-<random>
};

}  // namespace perfgate
