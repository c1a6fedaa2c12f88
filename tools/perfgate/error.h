#pragma once
// The one error type of perfgate: bad input or usage. main() turns it into one line and exit code 2.
#include <stdexcept>
#include <string>

namespace perfgate {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace perfgate
