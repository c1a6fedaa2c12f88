#include "cli/cli_help.h"

#include <algorithm>
#include <sstream>

namespace perfgate {
namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string command_footer(const std::string& example, std::initializer_list<Exit> codes, const std::string& note) {
  return "\nExample:\n  " + example + "\n\nExit codes: " + exit_codes_text(codes) + (note.empty() ? "" : "; " + note) +
         " (perfgate help: what each means).\n";
}

std::string overview(const std::vector<std::pair<std::string, std::string>>& commands) {
  std::ostringstream out;
  out << "perfgate: gate benchmark results (Google Benchmark, Catch2, hyperfine, any command) against committed "
         "baselines, in CI and by hand\n"
      << "Usage: perfgate COMMAND [OPTIONS]      perfgate help COMMAND      perfgate --version\n\nCommands:\n";
  for (const auto& [name, description] : commands)
    out << "  " << name << std::string(name.size() < 11 ? 11 - name.size() : 1, ' ') << description << '\n';
  out << "\nStart: perfgate help update (create a baseline), perfgate help compare (gate against it).\n"
      << "Exit codes, the same for every command:\n"
      << exit_code_table();
  return out.str();
}

std::string closest_name(const std::string& word, const std::vector<std::string>& names) {
  std::string best;
  size_t best_distance = word.size() / 3 + 1;
  size_t prefixed = 0;
  std::string prefix_match;
  for (const auto& name : names) {
    if (name.rfind(word, 0) == 0 && word.size() >= 2) {
      ++prefixed;
      prefix_match = name;
    }
    const size_t d = edit_distance(word, name);
    if (d < best_distance) {
      best_distance = d;
      best = name;
    }
  }
  if (!best.empty()) return best;
  return prefixed == 1 ? prefix_match : std::string();
}

}  // namespace perfgate
