#pragma once
// Replaces a file's content all at once: readers and crashes see the old file or the new one, never a mix.
#include <string>

namespace perfgate {

/// Writes `content` to a temporary file in the same folder, flushes it to disk, then renames it over `path`.
/// Throws InputError when the folder is not writable; `path` is then untouched.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace perfgate
