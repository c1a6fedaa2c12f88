#pragma once
// The one error type of perfgate: bad input or usage. main() turns it into one line and exit code 2.
#include <stdexcept>
#include <string>
#include <utility>

namespace perfgate {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Bad input whose message ends with the command that mends it. main() prints the message as one line and the
/// command as it is: a command built of shell_quote words is one line of printable ASCII already, and the escapes of
/// one_line would change what it runs.
class InputErrorWithFix : public InputError {
 public:
  InputErrorWithFix(const std::string& message, std::string command) : InputError(message), command_(std::move(command)) {}
  const std::string& command() const { return command_; }

 private:
  std::string command_;
};

}  // namespace perfgate
