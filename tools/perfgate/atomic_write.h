#pragma once
// Replaces a file's content all at once: readers and crashes see the old file or the new one, never a mix, and
// a process killed at any moment leaves nothing that `git add -A` would pick up.
#include <string>

namespace perfgate {

/// The file a write to `path` replaces: `path` itself, or the file its symlinks lead to (the link is kept).
std::string write_target_of(const std::string& path);

/// Throws InputError when write_target_of(path) exists and is not a regular file (a folder, a device such as
/// /dev/null, a FIFO): perfgate's outputs only ever replace files. Commands whose output comes after long work
/// (profile, speedup, cost) call it before that work, too.
void require_replaceable(const std::string& path);

/// Writes `content` to a new file, flushes it to disk, gives it the mode of the file it replaces (or 0666 less
/// the umask for a new file), then renames it over write_target_of(path). The new file is staged inside the
/// enclosing repository's .git folder when there is one on the same file system (git never adds files there),
/// else beside the target as a hidden .<name>.perfgate-XXXXXX. Throws InputError when it cannot be written or
/// the target is not replaceable (require_replaceable); the target is then untouched and the staged file removed.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace perfgate
