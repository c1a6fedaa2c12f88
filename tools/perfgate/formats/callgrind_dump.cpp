#include "formats/callgrind_dump.h"

#include "base/decimal_count.h"
#include "base/error.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace perfgate {
namespace {

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

double count_of(const std::string& word, const std::string& source) {
  const auto value = decimal_count(word);
  if (!value)
    throw InputError(source + ": callgrind count '" + word.substr(0, 40) +
                     "' is not a non-negative integer within int64");
  return static_cast<double>(*value);
}

double event(const CallgrindDump& dump, const std::string& name) {
  const auto it = dump.events.find(name);
  if (it == dump.events.end()) {
    throw InputError("callgrind dump has no '" + name + "' event (was it run with --cache-sim=yes?)");
  }
  return it->second;
}

// The C library's allocators, as callgrind names them.
bool is_allocator(const std::string& name) {
  for (const char* allocator : {"malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign", "memalign", "valloc"})
    if (name == allocator) return true;
  return false;
}

}  // namespace

CallgrindDump parse_callgrind_dump(const std::string& text, const std::string& source) {
  CallgrindDump dump;
  std::vector<std::string> names;
  std::string totals;
  // Function names are compressed: "(id) name" where first written, "(id)" after; fn= and cfn= share the ids.
  std::map<std::string, std::string> function_names;
  const auto function_of = [&](const std::string& spec) {
    if (spec.empty() || spec[0] != '(') return spec;
    const auto close = spec.find(')');
    if (close == std::string::npos) return spec;
    const auto id = spec.substr(0, close + 1);
    if (close + 1 < spec.size()) return function_names[id] = spec.substr(std::min(spec.size(), close + 2));
    const auto known = function_names.find(id);
    return known != function_names.end() ? known->second : std::string();
  };
  std::string callee;  // the function the next calls= line counts calls of
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (starts_with(line, "fn="))
      function_of(line.substr(3));
    else if (starts_with(line, "cfn="))
      callee = function_of(line.substr(4));
    else if (starts_with(line, "calls=")) {
      const auto counts = words(line.substr(6));
      if (!counts.empty() && is_allocator(callee)) dump.allocations += count_of(counts[0], source);
      callee.clear();
    } else if (starts_with(line, "desc: Trigger: "))
      dump.trigger = line.substr(15);
    else if (starts_with(line, "events:"))
      names = words(line.substr(7));
    else if (starts_with(line, "summary:"))
      totals = line.substr(8);
    else if (starts_with(line, "totals:") && totals.empty())
      totals = line.substr(7);
  }
  if (names.empty()) throw InputError(source + ": not a callgrind output file (no events line)");
  if (totals.empty()) throw InputError(source + ": callgrind output without a summary or totals line");
  const auto counts = words(totals);
  // Callgrind may omit trailing zero counts.
  if (counts.size() > names.size()) throw InputError(source + ": callgrind totals have more counts than events");
  for (size_t i = 0; i < names.size(); ++i)
    dump.events[names[i]] = i < counts.size() ? count_of(counts[i], source) : 0.0;
  return dump;
}

bool is_client_request_dump(const std::string& text) {
  const auto events = text.find("\nevents:");
  const auto trigger = text.find("\ndesc: Trigger: Client Request: ");
  return trigger != std::string::npos && (events == std::string::npos || trigger < events);
}

std::string client_request_name(const CallgrindDump& dump) {
  const std::string prefix = "Client Request: ";
  return starts_with(dump.trigger, prefix) ? dump.trigger.substr(prefix.size()) : std::string();
}

double estimated_cycles(const CallgrindDump& dump) {
  const double l1_misses = event(dump, "I1mr") + event(dump, "D1mr") + event(dump, "D1mw");
  const double last_level_misses = event(dump, "ILmr") + event(dump, "DLmr") + event(dump, "DLmw");
  return event(dump, "Ir") + 10.0 * l1_misses + 100.0 * last_level_misses;
}

std::vector<RegionCost> region_costs(const std::vector<CallgrindDump>& dumps) {
  std::vector<RegionCost> regions;
  for (const auto& dump : dumps) {
    const auto name = client_request_name(dump);
    if (name.empty()) continue;
    auto it = regions.begin();
    while (it != regions.end() && it->name != name) ++it;
    if (it == regions.end()) it = regions.insert(regions.end(), RegionCost{name, {}, {}, {}});
    it->instructions.push_back(event(dump, "Ir"));
    it->estimated_cycles.push_back(estimated_cycles(dump));
  }
  return regions;
}

}  // namespace perfgate
