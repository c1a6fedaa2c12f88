// The recon command's arguments: the input is split at NUL bytes into argv; parsing never throws and always
// ends in arguments or an exit code (0 help, 2 one error line); accepted arguments are validated without a crash.
#include "recon_args.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> argv = {"recon"};
  std::string current;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      argv.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  argv.push_back(current);
  const auto outcome = recon::cli::parse_recon_args(argv);
  if (outcome.args) {
    (void)recon::cli::validate(*outcome.args);
  } else if (outcome.exit_code != 0 && outcome.exit_code != 2) {
    std::abort();
  } else if (outcome.exit_code == 2 && outcome.output.find('\n') != std::string::npos &&
             outcome.output.find('\n') + 1 != outcome.output.size()) {
    std::abort();  // an error is one line
  }
  return 0;
}
