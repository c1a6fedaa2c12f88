#pragma once
// How a recorded commit says the run measured uncommitted changes: the commit id followed by "-dirty", in results'
// git_sha and in a baseline's provenance. Such a run is of no commit. Header only: a fact about text, used by the
// readers (the comment, history) and by the writer (run/git.cpp).
#include <string>
#include <string_view>

namespace perfgate {

/// The mark after a commit measured with uncommitted changes to tracked files.
inline constexpr std::string_view kUncommittedMark = "-dirty";

/// Whether a recorded commit carries that mark.
inline bool marks_uncommitted_changes(const std::string& commit) {
  return commit.size() > kUncommittedMark.size() &&
         std::string_view(commit).substr(commit.size() - kUncommittedMark.size()) == kUncommittedMark;
}

}  // namespace perfgate
