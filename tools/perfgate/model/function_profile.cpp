#include "model/function_profile.h"

#include "base/decimal_count.h"
#include "base/error.h"

#include <limits>
#include <sstream>
#include <vector>

namespace perfgate {
namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

int64_t count_of(const std::string& word, const std::string& source, size_t line_number) {
  const auto value = decimal_count(word);
  if (!value) {
    throw InputError(source + ":" + std::to_string(line_number) + ": callgrind count '" + word.substr(0, 40) +
                     "' is not a non-negative integer within int64");
  }
  return *value;
}

// "(12) name" defines id 12 as name; "(12)" refers to it; a name without an id stands for itself, parentheses and all
// ("(below main)", "(anonymous namespace)::f" when callgrind writes names uncompressed).
std::string expand_name(const std::string& spec, std::map<std::string, std::string>& names, const std::string& source,
                        size_t line_number) {
  if (spec.empty() || spec[0] != '(') return spec;
  const auto close = spec.find(')');
  if (close == std::string::npos || close == 1 || spec.find_first_not_of("0123456789", 1) != close) return spec;
  const auto id = spec.substr(1, close - 1);
  if (close + 1 < spec.size()) {
    auto name = spec.substr(close + 1);
    if (!name.empty() && name[0] == ' ') name.erase(0, 1);
    names[id] = name;
    return name;
  }
  const auto found = names.find(id);
  if (found == names.end())
    throw InputError(source + ":" + std::to_string(line_number) + ": compressed name (" + id.substr(0, 20) +
                     ") is used before it is defined");
  return found->second;
}

// A function without a symbol is only an address: named with the file it is in, so that a reader knows where it is.
std::string with_object(const std::string& name, const std::string& object) {
  if (name.rfind("0x", 0) != 0 || object.empty()) return name;
  const auto slash = object.rfind('/');
  return name + " in " + (slash == std::string::npos ? object : object.substr(slash + 1));
}

bool is_cost_line(const std::string& line) {
  const char c = line.empty() ? '\0' : line[0];
  return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '*';
}

}  // namespace

std::string without_recursion_level(const std::string& name) {
  const auto quote = name.rfind('\'');
  if (quote == std::string::npos || quote + 1 == name.size()) return name;
  if (name.find_first_not_of("0123456789", quote + 1) != std::string::npos) return name;
  return name.substr(0, quote);
}

FunctionProfile parse_function_profile(const std::string& text, const std::string& source, const std::string& event) {
  FunctionProfile profile;
  std::map<std::string, std::string> names;    // compressed function ids (fn= and cfn= share them)
  std::map<std::string, std::string> objects;  // compressed object ids (ob= and cob= share them)
  std::string object, callee_object;  // the current function's object file; the next call's, when cob= names one
  size_t positions = 1, column = std::string::npos;
  bool have_events = false, have_total = false, next_is_call = false;
  std::string function, callee;
  std::istringstream in(text);
  size_t line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (starts_with(line, "positions:")) {
      positions = words(line.substr(10)).size();
      if (positions == 0)
        throw InputError(source + ":" + std::to_string(line_number) + ": positions line names no position");
    } else if (starts_with(line, "events:")) {
      const auto events = words(line.substr(7));
      for (size_t i = 0; i < events.size(); ++i) {
        if (events[i] == event) column = i;
      }
      have_events = true;
      if (column == std::string::npos)
        throw InputError(source + ": callgrind output does not record the event " + event);
    } else if (starts_with(line, "summary:") || (starts_with(line, "totals:") && !have_total)) {
      const auto counts = words(line.substr(line[0] == 's' ? 8 : 7));
      profile.total = column < counts.size() ? count_of(counts[column], source, line_number) : 0;
      have_total = true;
    } else if (starts_with(line, "ob=")) {
      object = expand_name(line.substr(3), objects, source, line_number);
    } else if (starts_with(line, "cob=")) {
      callee_object = expand_name(line.substr(4), objects, source, line_number);
    } else if (starts_with(line, "fn=")) {
      function = with_object(without_recursion_level(expand_name(line.substr(3), names, source, line_number)), object);
      profile.functions[function];  // a function with no cost lines is still a function
      next_is_call = false;
    } else if (starts_with(line, "cfn=")) {
      callee = with_object(without_recursion_level(expand_name(line.substr(4), names, source, line_number)),
                           callee_object.empty() ? object : callee_object);
    } else if (starts_with(line, "calls=")) {
      next_is_call = true;
    } else if (is_cost_line(line)) {
      if (!have_events)
        throw InputError(source + ":" + std::to_string(line_number) + ": cost line before the events line");
      if (function.empty())
        throw InputError(source + ":" + std::to_string(line_number) + ": cost line outside a function");
      const auto fields = words(line);
      const size_t at = positions + column;
      const int64_t cost = at < fields.size() ? count_of(fields[at], source, line_number) : 0;
      for (size_t i = positions; i < fields.size(); ++i)
        count_of(fields[i], source, line_number);  // every count well-formed
      auto& f = profile.functions[function];
      const auto add = [&](int64_t& to) {
        if (to > std::numeric_limits<int64_t>::max() - cost)
          throw InputError(source + ": instruction counts overflow int64");
        to += cost;
      };
      if (next_is_call) {
        if (callee.empty())
          throw InputError(source + ":" + std::to_string(line_number) + ": a call without a called function (cfn=)");
        if (callee != function) {
          add(f.inclusive);
          add(profile.calls[{function, callee}]);
          profile.functions[callee];
        }
        next_is_call = false;
        callee_object.clear();  // cob= names the object of one call
      } else {
        add(f.self);
        add(f.inclusive);
      }
    }
    // Other lines (ob=, fl=, fi=, fe=, cob=, cfi=, cfl=, jump=, jcnd=, desc:, cmd:, ...) name objects and files or
    // describe the run: they do not change whose instructions a cost line holds.
  }
  if (!have_events) throw InputError(source + ": not a callgrind output file (no events line)");
  if (!have_total) {
    for (const auto& [name, cost] : profile.functions) {
      if (profile.total > std::numeric_limits<int64_t>::max() - cost.self)
        throw InputError(source + ": instruction counts overflow int64");
      profile.total += cost.self;
    }
  }
  return profile;
}

}  // namespace perfgate
