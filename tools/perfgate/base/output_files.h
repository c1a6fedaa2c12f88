#pragma once
// The one way a perfgate command writes: every file and folder it writes is declared, with everything it reads, to an
// Outputs before the command's work starts, and written through it. The checks live here, not in the commands:
// - an output is never one of the inputs, nor another declared output (by device and inode when it exists, and by its
//   resolved path when it does not yet);
// - a file the user named replaces only a regular file; a link the user named is followed to the file it leads to
//   (a committed baseline kept as a link), so a link to an input is an input;
// - a folder perfgate fills carries a marker file (.perfgate-<command>); an existing folder that holds anything
//   without a perfgate marker is the user's and is refused whole, never written into. Inside a marked folder a link in
//   the way is replaced as a name, never followed, and sub-folders are real folders.
// tools/lint/perfgate-writes.sh fails on a write anywhere else in perfgate.
#include <string>
#include <vector>

namespace perfgate {

class Outputs {
 public:
  /// `command` names the command in messages and in the marker of the folders it fills ("report", "dashboard").
  explicit Outputs(std::string command);

  /// Declares files (or folders) the command reads: no output may be one of them. Empty paths are ignored.
  void read(const std::string& path);
  void read(const std::vector<std::string>& paths);

  /// Declares a file the user named, `option` naming it in messages ("--out"). Checks now, before any work: its
  /// folder exists and is writable, it is no input and no other output, and what is there is a regular file or
  /// nothing. Throws InputError otherwise.
  void file(const std::string& path, const std::string& option);

  /// Declares a file the command reads and replaces in place (update's --baseline, a gate's results that speedup
  /// --pooled-out grows with the repetitions it measured more): checked as file() is, except against itself.
  void in_place(const std::string& path, const std::string& option);

  /// Declares a file whose name perfgate derives from a declared file's (a function profile beside its counts):
  /// checked as file() is, but a link at its path is replaced as a name, never followed, since the user never named it.
  void companion(const std::string& path, const std::string& what);

  /// Declares a folder the command fills. Checks now: it is not a link or another kind of file, holds nothing or
  /// carries a perfgate marker, is no input, and neither holds nor lies in another declared folder. It is created and
  /// marked at the first write into it. Throws InputError otherwise.
  void folder(const std::string& path, const std::string& option);

  /// Creates and marks a declared folder now, for files that programs the command runs write into it.
  void create(const std::string& folder) const;

  /// Writes `content` to a declared file, or to a file inside a declared folder (its sub-folders created as real
  /// folders), atomically (atomic_write.h). Re-checks that the file is no input. Throws InputError when it cannot,
  /// and std::logic_error for a path that was never declared (a mistake in perfgate, not in the input).
  void write(const std::string& path, const std::string& content) const;

  /// Removes a file inside a declared, marked folder (an earlier run's, so that it cannot be mistaken for this
  /// run's); a link there is removed itself. Nothing happens when it is absent. Throws as write() does.
  void remove(const std::string& path) const;

  /// Whether `folder` (a declared folder) carries a perfgate marker already: its files are an earlier run's.
  bool marked(const std::string& folder) const;

  const std::string& command() const { return command_; }

 private:
  struct Declared {
    std::string path, option, resolved;
    bool folder = false;
    bool companion = false;
  };
  const Declared* owner_of(const std::string& path, bool& inside_folder) const;
  void require_not_an_input(const std::string& path, const std::string& option) const;
  void prepare_folder(const Declared& folder, const std::string& file, bool create = true) const;

  std::string command_;
  struct Input {
    std::string path;
    bool replaced_in_place = false;  ///< read and replaced by the command itself (in_place)
  };
  std::vector<Input> inputs_;
  std::vector<Declared> outputs_;
};

/// The marker file a command's folder carries: ".perfgate-" + command.
std::string output_marker_name(const std::string& command);

}  // namespace perfgate
