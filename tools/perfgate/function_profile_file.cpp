#include "function_profile_file.h"

#include "error.h"
#include "one_line.h"
#include "read_file.h"

#include <filesystem>
#include <limits>
#include <sstream>
#include <vector>

namespace perfgate {
namespace {

constexpr const char* kHeader = "perfgate function profile 1";

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const auto tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return out;
    start = tab + 1;
  }
}

int64_t count_of(const std::string& word, const std::string& where) {
  if (word.empty() || word.size() > 19 || word.find_first_not_of("0123456789") != std::string::npos ||
      std::stoull(word) > static_cast<unsigned long long>(std::numeric_limits<int64_t>::max())) {
    throw InputError(where + ": '" + one_line(word.substr(0, 40)) + "' is not a non-negative integer within int64");
  }
  return static_cast<int64_t>(std::stoull(word));
}

}  // namespace

std::string function_profile_path(const std::string& json_path) {
  const std::string suffix = ".json";
  if (json_path.size() > suffix.size() && json_path.compare(json_path.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return json_path.substr(0, json_path.size() - suffix.size()) + ".functions.tsv";
  }
  return json_path + ".functions.tsv";
}

std::string function_profile_text(const RegionProfiles& profiles, double min_share) {
  // What is kept, then each kept function's number (by name, so that the file is the same for the same profiles).
  std::map<std::string, size_t> numbers;
  std::ostringstream body;
  const auto number = [&](const std::string& name) { return std::to_string(numbers.at(one_line(name))); };
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [region, profile] : profiles) {
      const double floor = min_share * static_cast<double>(profile.total);
      const auto kept = [&](int64_t v) { return v > 0 && static_cast<double>(v) >= floor; };
      if (pass == 1) body << "region\t" << profile.total << "\t" << one_line(region) << "\n";
      for (const auto& [name, cost] : profile.functions) {
        if (!kept(cost.self) && !kept(cost.inclusive)) continue;
        if (pass == 0) numbers[one_line(name)] = 0;
        else body << "fn\t" << cost.self << "\t" << cost.inclusive << "\t" << number(name) << "\n";
      }
      for (const auto& [edge, count] : profile.calls) {
        if (!kept(count)) continue;
        if (pass == 0) numbers[one_line(edge.first)] = numbers[one_line(edge.second)] = 0;
        else body << "call\t" << count << "\t" << number(edge.first) << "\t" << number(edge.second) << "\n";
      }
    }
    if (pass == 0) {
      size_t next = 0;
      for (auto& [name, n] : numbers) n = next++;
    }
  }
  std::ostringstream out;
  out << kHeader << "\nevent\tIr\n";
  for (const auto& [name, n] : numbers) out << "name\t" << n << "\t" << name << "\n";
  out << body.str();
  return out.str();
}

RegionProfiles parse_function_profiles(const std::string& text, const std::string& source) {
  RegionProfiles profiles;
  std::map<std::string, std::string> names;  // number → function
  std::istringstream in(text);
  std::string line;
  size_t number = 1;
  if (!std::getline(in, line) || line != kHeader) throw InputError(source + ": not a perfgate function profile (its first line is not '" + kHeader + "')");
  FunctionProfile* current = nullptr;
  while (std::getline(in, line)) {
    ++number;
    const auto where = source + ":" + std::to_string(number);
    if (line.empty()) continue;
    const auto f = fields_of(line);
    const auto need = [&](size_t n) {
      if (f.size() != n) throw InputError(where + ": a '" + one_line(f[0].substr(0, 20)) + "' record has " + std::to_string(n) + " tab-separated fields, not " + std::to_string(f.size()));
    };
    const auto named = [&](const std::string& id) -> const std::string& {
      const auto found = names.find(id);
      if (found == names.end()) throw InputError(where + ": function number '" + one_line(id.substr(0, 20)) + "' is not defined by a name record before it");
      return found->second;
    };
    if (f[0] == "event") {
      need(2);
      if (f[1] != "Ir") throw InputError(where + ": profiles of event '" + one_line(f[1].substr(0, 20)) + "' are not read (Ir only)");
    } else if (f[0] == "name") {
      need(3);
      count_of(f[1], where);
      names[f[1]] = f[2];
    } else if (f[0] == "region") {
      need(3);
      if (profiles.count(f[2])) throw InputError(where + ": region '" + one_line(f[2]) + "' appears twice");
      current = &profiles[f[2]];
      current->total = count_of(f[1], where);
    } else if (f[0] == "fn" || f[0] == "call") {
      need(4);
      if (!current) throw InputError(where + ": a '" + f[0] + "' record before any region");
      if (f[0] == "fn") current->functions[named(f[3])] = {count_of(f[1], where), count_of(f[2], where)};
      else current->calls[{named(f[2]), named(f[3])}] = count_of(f[1], where);
    } else {
      throw InputError(where + ": unknown record '" + one_line(f[0].substr(0, 20)) + "'");
    }
  }
  return profiles;
}

RegionProfiles read_function_profiles_if_any(const std::string& path) {
  std::error_code ignored;
  if (!std::filesystem::exists(path, ignored)) return {};
  return parse_function_profiles(read_whole_file(path, "function profile"), path);
}

}  // namespace perfgate
