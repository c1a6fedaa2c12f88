// A command-line tool with no benchmark library: counts the words of a text file and prints the most frequent.
//   wordfreq FILE [TOP]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace {

std::unordered_map<std::string, long> count_words(const std::string& text) {
  std::unordered_map<std::string, long> counts;
  std::string word;
  for (const char c : text) {
    if (c == ' ' || c == '\n' || c == '\t') {
      if (!word.empty()) ++counts[word];
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) ++counts[word];
  return counts;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: wordfreq FILE [TOP]\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "wordfreq: cannot read %s\n", argv[1]);
    return 2;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  const auto counts = count_words(text);
  std::vector<std::pair<std::string, long>> ranked(counts.begin(), counts.end());
  const size_t top = std::min<size_t>(ranked.size(), argc == 3 ? std::strtoul(argv[2], nullptr, 10) : 10);
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<long>(top), ranked.end(),
                    [](const auto& a, const auto& b) { return a.second != b.second ? a.second > b.second : a.first < b.first; });
  for (size_t i = 0; i < top; ++i) std::printf("%ld %s\n", ranked[i].second, ranked[i].first.c_str());
  return 0;
}
