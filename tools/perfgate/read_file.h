#pragma once
// Reading a whole input file: the one place perfgate opens files it was given.
#include <string>

namespace perfgate {

/// The file's bytes. Throws InputError "cannot read <what> '<path>'" when it cannot be opened or read.
std::string read_whole_file(const std::string& path, const std::string& what);

}  // namespace perfgate
