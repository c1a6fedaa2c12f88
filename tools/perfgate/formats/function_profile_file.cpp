#include "formats/function_profile_file.h"

#include "base/decimal_count.h"
#include "base/error.h"
#include "base/one_line.h"
#include "base/read_file.h"

#include <filesystem>
#include <set>
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
  const auto value = decimal_count(word);
  if (!value)
    throw InputError(where + ": '" + one_line(word.substr(0, 40)) + "' is not a non-negative integer within int64");
  return *value;
}

// A name as one field of a record: unchanged, so that it reads back as the same name, unless a tab or line break in it
// would split the record (callgrind writes none; a region is a benchmark's name): then escaped, one way.
std::string field(const std::string& name) {
  return name.find_first_of("\t\r\n") == std::string::npos ? name : one_line(name);
}

}  // namespace

std::string function_profile_path(const std::string& json_path) {
  const std::string suffix = ".json";
  if (json_path.size() > suffix.size() &&
      json_path.compare(json_path.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return json_path.substr(0, json_path.size() - suffix.size()) + ".functions.tsv";
  }
  return json_path + ".functions.tsv";
}

std::string function_profile_text(const RegionProfiles& profiles, double min_share) {
  // What is kept, then each kept function's number (by name, so that the file is the same for the same profiles).
  std::map<std::string, size_t> numbers;
  std::ostringstream body;
  const auto number = [&](const std::string& name) { return std::to_string(numbers.at(field(name))); };
  for (int pass = 0; pass < 2; ++pass) {
    for (const auto& [region, profile] : profiles) {
      const double floor = min_share * static_cast<double>(profile.total);
      const auto kept = [&](int64_t v) { return v > 0 && static_cast<double>(v) >= floor; };
      if (pass == 1) body << "region\t" << profile.total << "\t" << field(region) << "\n";
      for (const auto& [name, cost] : profile.functions) {
        if (!kept(cost.self) && !kept(cost.inclusive)) continue;
        if (pass == 0)
          numbers[field(name)] = 0;
        else
          body << "fn\t" << cost.self << "\t" << cost.inclusive << "\t" << number(name) << "\n";
      }
      for (const auto& [edge, count] : profile.calls) {
        if (!kept(count)) continue;
        if (pass == 0)
          numbers[field(edge.first)] = numbers[field(edge.second)] = 0;
        else
          body << "call\t" << count << "\t" << number(edge.first) << "\t" << number(edge.second) << "\n";
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
  if (std::getline(in, line) && !line.empty() && line.back() == '\r') line.pop_back();
  if (line != kHeader)
    throw InputError(source + ": not a perfgate function profile (its first line is not '" + kHeader + "')");
  FunctionProfile* current = nullptr;
  std::set<std::pair<std::string, std::string>>
      seen;  // (record kind, key): each name, function and call once per region
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();  // a checkout with CRLF line ends reads the same
    const auto where = source + ":" + std::to_string(number);
    if (line.empty()) continue;
    const auto f = fields_of(line);
    const auto need = [&](size_t n) {
      if (f.size() != n)
        throw InputError(where + ": a '" + one_line(f[0].substr(0, 20)) + "' record has " + std::to_string(n) +
                         " tab-separated fields, not " + std::to_string(f.size()));
    };
    const auto named = [&](const std::string& id) -> const std::string& {
      const auto found = names.find(id);
      if (found == names.end())
        throw InputError(where + ": function number '" + one_line(id.substr(0, 20)) +
                         "' is not defined by a name record before it");
      return found->second;
    };
    if (f[0] == "event") {
      need(2);
      if (f[1] != "Ir")
        throw InputError(where + ": profiles of event '" + one_line(f[1].substr(0, 20)) + "' are not read (Ir only)");
    } else if (f[0] == "name") {
      need(3);
      count_of(f[1], where);
      if (!names.emplace(f[1], f[2]).second) throw InputError(where + ": function number " + f[1] + " is named twice");
    } else if (f[0] == "region") {
      need(3);
      if (profiles.count(f[2])) throw InputError(where + ": region '" + one_line(f[2]) + "' appears twice");
      current = &profiles[f[2]];
      current->total = count_of(f[1], where);
      seen.clear();
    } else if (f[0] == "fn" || f[0] == "call") {
      need(4);
      if (!current) throw InputError(where + ": a '" + f[0] + "' record before any region");
      const auto key = f[0] == "fn" ? f[3] : f[2] + "\t" + f[3];
      if (!seen.emplace(f[0], key).second)
        throw InputError(where + ": a second '" + f[0] + "' record of the same " +
                         (f[0] == "fn" ? "function" : "call") + " in one region");
      if (f[0] == "fn") {
        const FunctionCost cost{count_of(f[1], where), count_of(f[2], where)};
        if (cost.self > cost.inclusive)
          throw InputError(where + ": a function's own instructions exceed its inclusive ones");
        current->functions[named(f[3])] = cost;
      } else {
        if (f[2] == f[3]) throw InputError(where + ": a call of a function to itself (recursion is not an edge)");
        current->calls[{named(f[2]), named(f[3])}] = count_of(f[1], where);
      }
    } else {
      throw InputError(where + ": unknown record '" + one_line(f[0].substr(0, 20)) + "'");
    }
  }
  return profiles;
}

RegionProfiles read_function_profiles_if_any(const std::string& path) {
  std::error_code ignored;
  if (!std::filesystem::exists(path, ignored)) return {};
  // A profile is kilobytes to a few megabytes; its maps take about fourteen times the text: a bound well below memory.
  constexpr std::uintmax_t kMaxProfileBytes = 64ull * 1024 * 1024;
  const auto bytes = std::filesystem::is_regular_file(path, ignored) ? std::filesystem::file_size(path, ignored) : 0;
  if (bytes > kMaxProfileBytes) throw InputError("function profile '" + path + "' is larger than 64 MiB");
  return parse_function_profiles(read_whole_file(path, "function profile"), path);
}

}  // namespace perfgate
