#pragma once
// Reading a whole input file: the one place perfgate opens files it was given.
#include <cstdint>
#include <string>

namespace perfgate {

/// Largest input perfgate reads (results, baselines, traces, task lists, callgrind dumps): far above any real one,
/// far below what would exhaust memory.
constexpr std::uintmax_t kMaxInputBytes = 512ull * 1024 * 1024;

/// The file's bytes. Throws InputError "cannot read <what> '<path>'" when it cannot be opened or read, and refuses
/// without opening it anything that is not a regular file (a folder, a FIFO that would block, /dev/zero that never
/// ends) or is larger than kMaxInputBytes.
std::string read_whole_file(const std::string& path, const std::string& what);

/// At most the last `bytes` bytes of a file perfgate had a program write (its standard error, for a message); "" when
/// it cannot be read.
std::string read_file_tail(const std::string& path, std::uintmax_t bytes);

}  // namespace perfgate
