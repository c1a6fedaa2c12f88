#include "number_format.h"

#include <iomanip>
#include <sstream>

namespace perfgate {

std::string format_number(double value, int significant) {
  std::ostringstream out;
  out << std::setprecision(significant) << value;
  return out.str();
}

std::string format_fixed(double value, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << value;
  return out.str();
}

}  // namespace perfgate
