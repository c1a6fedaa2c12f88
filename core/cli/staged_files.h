#pragma once
// Writes a run's output files together: either every one is replaced by its complete new content, or (on any failure
// before the renames) every one is left as it was. A full disk, a folder where a file should be or a device at an
// output's name is one error line, never a truncated PNG or an output folder mixing two runs. The contents are
// flushed to disk before the renames; the renames themselves are not synced (a power cut right after a run may leave
// the previous outputs, each complete).
#include <string>
#include <vector>

namespace recon::cli {

/// Throws std::runtime_error when `path` exists and is neither a regular file nor a symbolic link (a folder, a device,
/// a FIFO, a socket): the rename replaces the entry itself, so a link is replaced, never written through. Called
/// before the run too, so that nothing is computed in vain.
void require_replaceable(const std::string& path);

/// Files staged beside their targets, each fully written and flushed to disk before any target is touched.
class StagedFiles {
 public:
  StagedFiles() = default;
  StagedFiles(const StagedFiles&) = delete;
  StagedFiles& operator=(const StagedFiles&) = delete;
  /// Removes every staged file that was not committed.
  ~StagedFiles();

  /// Writes `content` to a new temporary file beside `path` (require_replaceable first). Throws
  /// std::runtime_error naming `path` and the reason when any write, flush or close fails; `path` is untouched.
  void stage(const std::string& path, const std::string& content);

  /// Renames every staged file over its target, in staging order. Throws std::runtime_error if a rename fails (the
  /// targets before it are already replaced: with every file staged in its target's folder, that takes the folder
  /// changing under the run).
  void commit();

 private:
  struct Staged {
    std::string temporary, target;
  };
  std::vector<Staged> staged_;
};

}  // namespace recon::cli
