#pragma once
// The few git facts perfgate records or checks, obtained by running git directly (never through a shell).
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

/// Runs a program with arguments (no shell), in `directory`; returns its exit status and standard output.
struct ProcessResult {
  int status = -1;
  std::string output;
};
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& directory);

/// HEAD's commit id in the repository containing `directory`, or nullopt outside a repository.
std::optional<std::string> head_sha(const std::string& directory);

/// True when the working tree has uncommitted changes (tracked files only).
bool tree_is_dirty(const std::string& directory);

}  // namespace perfgate
