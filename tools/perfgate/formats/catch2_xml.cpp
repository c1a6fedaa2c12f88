#include "formats/catch2_xml.h"

#include "base/error.h"
#include "base/time_units.h"
#include "base/xml_input.h"

#include <cmath>
#include <cstdlib>
#include <set>

namespace perfgate {

namespace {

struct Reading {
  const std::string& source;
  Results& results;
  std::set<std::string> seen;
};

// A decimal number as Catch2's stream writes one (digits, a sign, a point, an exponent): never hexadecimal, never with
// blanks, never infinite.
double number_attribute(const XmlElement& e, const std::string& key, const std::string& where) {
  const auto* text = e.attribute(key);
  if (text == nullptr) throw InputError(where + " has no " + e.name + " " + key);
  const bool decimal = !text->empty() && text->find_first_not_of("0123456789+-.eE") == std::string::npos;
  char* end = nullptr;
  const double v = decimal ? std::strtod(text->c_str(), &end) : 0.0;
  if (!decimal || end != text->c_str() + text->size() || !std::isfinite(v))
    throw InputError(where + " has " + e.name + " " + key + " '" + *text + "', not a finite decimal number");
  return v;
}

// Whether a test case (or a benchmark) records a failure anywhere within: an OverallResult or Expression that says
// success="false". Catch2 2 leaves a benchmark whose assertion failed unclosed, so the test case's OverallResult can
// sit inside the benchmark's element rather than beside it.
bool records_failure(const XmlElement& e) {
  for (const auto& child : e.children) {
    if (child.name == "OverallResult" || child.name == "Expression") {
      const auto* success = child.attribute("success");
      if (success != nullptr && *success == "false") return true;
    }
    if (records_failure(child)) return true;
  }
  return false;
}

void read_benchmark(const XmlElement& e, const std::string& test_case, bool test_case_failed, Reading& r) {
  const auto* name = e.attribute("name");
  const std::string line = r.source + ":" + std::to_string(e.line);
  if (name == nullptr || name->empty()) throw InputError(line + ": a BenchmarkResults without a name");
  const std::string where = line + ": benchmark '" + *name + "'";
  if (!r.seen.insert(*name).second)
    throw InputError(where + " appears twice (perfgate tells benchmarks apart by name: give each its own)");
  const XmlElement* mean = nullptr;
  for (const auto& child : e.children) {
    if (child.name == "failed") {
      const auto* message = child.attribute("message");
      throw InputError(where + " failed: " + (message != nullptr ? *message : std::string("no message")));
    }
    if (child.name == "mean") {
      if (mean != nullptr) throw InputError(where + " has two means");
      mean = &child;
    }
    if (child.name == "BenchmarkResults") throw InputError(where + " holds another benchmark's results within it");
  }
  if (records_failure(e)) throw InputError(where + " failed an assertion");
  if (test_case_failed) throw InputError(where + " is in test case '" + test_case + "', which failed");
  if (mean == nullptr) throw InputError(where + " has no mean");
  const double value = number_attribute(*mean, "value", where);
  if (value < 0 || !std::isfinite(convert_time(value, "ns", "ns")))
    throw InputError(where + " has a mean of " + std::to_string(value) + " ns, not a time");
  r.results.measurements.push_back({*name, "real_time", value, "ns", 0, std::nullopt});
}

// Walks the report: benchmarks sit in test cases, possibly within sections and groups.
void walk(const XmlElement& e, const std::string& test_case, bool test_case_failed, Reading& r) {
  for (const auto& child : e.children) {
    if (child.name == "TestCase") {
      const auto* name = child.attribute("name");
      walk(child, name != nullptr ? *name : std::string("?"), records_failure(child), r);
    } else if (child.name == "BenchmarkResults") {
      read_benchmark(child, test_case, test_case_failed, r);
    } else {
      walk(child, test_case, test_case_failed, r);
    }
  }
}

}  // namespace

Results parse_catch2_xml(const std::string& text, const std::string& source) {
  const auto root = parse_xml_input(text, source);
  if (root.name != "Catch" && root.name != "Catch2TestRun") {
    throw InputError(source + ": not a Catch2 XML report (its root is '" + root.name +
                     "', not Catch or Catch2TestRun)");
  }
  Results results;
  results.source = source;
  const auto* version = root.attribute("catch2-version");
  results.context["harness"] = version != nullptr ? "Catch2 " + *version : root.name == "Catch" ? "Catch2 2" : "Catch2";
  Reading reading{source, results, {}};
  walk(root, "", false, reading);
  if (results.measurements.empty())
    throw InputError(source +
                     ": a Catch2 report of no benchmark (none ran, or the build lacks "
                     "CATCH_CONFIG_ENABLE_BENCHMARKING in Catch2 2)");
  return results;
}

}  // namespace perfgate
