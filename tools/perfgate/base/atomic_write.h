#pragma once
// Replaces a file's content all at once: readers and crashes see the old file or the new one, never a mix, and
// a process killed at any moment leaves nothing that `git add -A` would pick up.
#include <string>
#include <vector>

namespace perfgate {

/// The folder `path` would be written into, or its nearest ancestor that exists ("." for a relative path none of
/// whose folders exist): where a file still to be made is locked and asked about in git, so that a refused write
/// creates no folder.
std::string nearest_existing_folder(const std::string& path);

/// The file a write to `path` replaces: `path` itself, or, when `path` is a symbolic link, the file it leads to as the
/// file system resolves it (every link on the way, in the path's folders too, followed by the kernel's rules; the
/// link is kept). Throws InputError for a link that leads nowhere (perfgate never creates a file through a link) or
/// loops.
std::string write_target_of(const std::string& path);

/// How a write treats a symbolic link at its path. follow: the user named the link (a committed baseline kept as a
/// link): the file it leads to is replaced. replace: the path lies inside a folder perfgate writes (a report): a link
/// found there is replaced by the file itself, and nothing it points to is touched.
enum class AtLink { follow, replace };

/// Throws InputError when write_target_of(path) exists and is not a regular file (a folder, a device such as
/// /dev/null, a FIFO): perfgate's outputs only ever replace files. Commands whose output comes after long work
/// (profile, speedup, cost) call it before that work, too.
void require_replaceable(const std::string& path);

/// Writes `content` to a new file, flushes it to disk, gives it the mode of the file it replaces (or 0666 less
/// the umask for a new file), then renames it over write_target_of(path). The new file is staged inside the
/// enclosing repository's .git folder when there is one on the same file system (git never adds files there),
/// else beside the target as a hidden .<name>.perfgate-XXXXXX. Throws InputError when it cannot be written or
/// the target is not replaceable (require_replaceable); the target is then untouched and the staged file removed.
void write_file_atomically(const std::string& path, const std::string& content, AtLink at_link = AtLink::follow);

/// Throws InputError when `output` (resolved as a write resolves it) is the same file as any of `inputs` (same
/// device and inode, so another spelling, a link or a hard link is caught): an output never replaces what the command
/// is reading. `what` names the output's option in the message, e.g. "--out".
void require_not_an_input(const std::string& output, const std::string& what, const std::vector<std::string>& inputs);

}  // namespace perfgate
