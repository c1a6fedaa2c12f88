#include "fields.h"

namespace {

std::vector<std::string> split_once(std::string_view line, char separator) {
  std::vector<std::string> fields;
  size_t start = 0;
  for (size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == separator) {
      fields.emplace_back(line.substr(start, i - start));
      start = i + 1;
    }
  }
  return fields;
}

}  // namespace

std::vector<std::string> split_fields(std::string_view line, char separator) {
  return split_once(line, separator);
}

std::string sample_csv(int rows) {
  std::string text;
  unsigned state = 12345;
  for (int r = 0; r < rows; ++r) {
    for (int f = 0; f < 8; ++f) {
      state = state * 1103515245u + 12345u;
      text += std::to_string(state % 100000) + (f == 7 ? "\n" : ",");
    }
  }
  return text;
}
