#pragma once
// perfgate's error types, one per exit code that is not a verdict: bad input or usage (InputError, exit 2) and a host
// that cannot measure what was asked (HostUnsupported, exit 6). main() turns each into one line and its code; a
// history store that cannot be reached has its own type beside the stores (history_backend.h, exit 5).
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
  InputErrorWithFix(const std::string& message, std::string command)
      : InputError(message), command_(std::move(command)) {}
  const std::string& command() const { return command_; }

 private:
  std::string command_;
};

/// This host cannot measure what was asked, through no fault of the input: e.g. valgrind cannot decode an instruction
/// the program runs on this CPU. The message names the cause and the way out. Not a verdict: a gate it stops is
/// neither passed nor failed, and ctest shows it as skipped (--unavailable-exit-code).
class HostUnsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace perfgate
