// A fixture: a command that writes around the output discipline, twice.
#include "base/atomic_write.h"
#include <fstream>
int run_sneaky(const std::string& out, const std::string& text) {
  // write_file_atomically(out, text);  a comment is no write
  write_file_atomically(out, text);
  std::ofstream copy(out + ".copy");
  return 0;
}
