#pragma once
// perfgate's version (tools/VERSION) and the commit it was built from ("unknown" outside a git checkout, with
// "-dirty" when the tracked files had changes), written at build time by tools/cmake/version_info.cmake.
namespace perfgate {
extern const char* const kVersion;
extern const char* const kCommit;
}  // namespace perfgate
