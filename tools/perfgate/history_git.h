#pragma once
// The history as a data branch of a git repository: each run is its own file, runs/<year>/<month>/<name>.json, so
// that concurrent runs never touch the same content. An append commits the file on the branch's current tip and
// pushes; when another run pushed first (the push is not a fast-forward), it fetches the new tip and commits again,
// with a growing random wait, until it lands or kGitAttempts are used (StoreUnavailable). No server, no lock: the
// ref update of the remote is the only point of order.
#include "history_backend.h"
#include "temporary_folder.h"

#include <memory>

namespace perfgate {

constexpr int kGitAttempts = 200;

class GitHistory : public HistoryBackend {
 public:
  /// `remote`: a remote's name in the repository around the working folder (its URL and credentials are git's
  /// business), else a path or URL. `branch`: the data branch. read_only: a branch that does not exist is InputError.
  GitHistory(const std::string& remote, const std::string& branch, StoreAccess access);

  void append(const HistoryRun& run) override;
  std::vector<HistoryRun> runs() const override;
  std::string name() const override { return "git:" + remote_ + "#" + branch_; }

 private:
  /// Fetches the branch into a private ref; false when the remote has no such branch yet.
  bool fetch(const std::string& ref) const;
  std::string git(const std::vector<std::string>& args, const std::string& what, const std::vector<std::string>& env = {}) const;

  std::string remote_, branch_;
  StoreAccess access_;
  std::unique_ptr<TemporaryFolder> scratch_;  ///< the temporary index, checkouts, and a bare repository when needed
  std::string repository_;                    ///< where git runs: the working folder's repository, or a bare one in scratch_
  bool scratch_repository_ = false;           ///< repository_ is the scratch one (fetched shallow)
  std::string ref_prefix_;                    ///< private refs of this process: refs/perfgate-history/<pid>-<random>
};

}  // namespace perfgate
