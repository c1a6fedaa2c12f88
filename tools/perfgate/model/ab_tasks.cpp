#include "model/ab_tasks.h"

#include "base/error.h"

#include <algorithm>
#include <sstream>

namespace perfgate {
namespace {

// One CSV record's fields: commas separate, double quotes enclose fields that hold commas or quotes ("" is a quote).
std::vector<std::string> split_csv_line(const std::string& line, const std::string& where) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
        fields.back() += '"', ++i;
      else if (c == '"')
        quoted = false;
      else
        fields.back() += c;
    } else if (c == '"') {
      if (!fields.back().empty()) throw InputError(where + ": a quote inside an unquoted field");
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  if (quoted) throw InputError(where + ": unterminated quote");
  return fields;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

}  // namespace

void validate_ab_task(const AbTask& t, const std::string& where) {
  if (t.revision.empty()) throw InputError(where + ": empty revision");
  if (t.suite.empty() || !std::all_of(t.suite.begin(), t.suite.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
      })) {
    throw InputError(where + ": gate '" + t.suite + "' must be a gate name of the manifest (a-z, 0-9, _)");
  }
  if (t.filter.empty() ||
      std::any_of(t.filter.begin(), t.filter.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; })) {
    throw InputError(where + ": the benchmark filter must be non-empty, without control characters");
  }
  for (const auto& o : t.options) {
    if (o.rfind("--benchmark_", 0) != 0 || o.size() <= 12 || o.rfind("--benchmark_out", 0) == 0 ||
        o.rfind("--benchmark_filter", 0) == 0) {
      throw InputError(where + ": option '" + o +
                       "' is not an allowed --benchmark_* argument (out and filter are perfgate's)");
    }
  }
}

std::vector<AbTask> parse_ab_tasks(const std::string& text, const std::string& source) {
  const std::string bom = "\xEF\xBB\xBF";  // spreadsheets save CSV with a UTF-8 byte-order mark
  std::istringstream in(text.compare(0, bom.size(), bom) == 0 ? text.substr(bom.size()) : text);
  std::string line;
  size_t number = 0;
  std::vector<AbTask> tasks;
  bool header_seen = false;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string where = source + ":" + std::to_string(number);
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    const auto fields = split_csv_line(line, where);
    if (!header_seen) {
      if (fields.size() != 4 || trim(fields[0]) != "revision" || trim(fields[1]) != "gate" ||
          trim(fields[2]) != "filter" || trim(fields[3]) != "options") {
        throw InputError(where + ": the first line must be the header revision,gate,filter,options");
      }
      header_seen = true;
      continue;
    }
    if (fields.size() != 4) throw InputError(where + ": expected 4 fields, found " + std::to_string(fields.size()));
    AbTask t{trim(fields[0]), trim(fields[1]), trim(fields[2]), {}};
    std::istringstream options(fields[3]);
    for (std::string o; options >> o;) t.options.push_back(o);
    validate_ab_task(t, where);
    tasks.push_back(t);
  }
  if (!header_seen) throw InputError(source + ": empty task list (expected the header revision,gate,filter,options)");
  if (tasks.empty()) throw InputError(source + ": no task after the header");
  return tasks;
}

std::vector<AbGroup> group_ab_tasks(const std::vector<AbTask>& tasks) {
  std::vector<AbGroup> groups;
  for (const auto& t : tasks) {
    auto g = std::find_if(groups.begin(), groups.end(), [&](const AbGroup& x) {
      return x.suite == t.suite && x.filter == t.filter && x.options == t.options;
    });
    if (g == groups.end()) groups.push_back({t.suite, t.filter, t.options, {}}), g = groups.end() - 1;
    if (std::find(g->revisions.begin(), g->revisions.end(), t.revision) == g->revisions.end())
      g->revisions.push_back(t.revision);
  }
  for (const auto& g : groups) {
    if (g.revisions.size() < 2)
      throw InputError("task list: gate " + g.suite + " with filter '" + g.filter +
                       "' has only one revision; nothing to compare");
  }
  return groups;
}

}  // namespace perfgate
