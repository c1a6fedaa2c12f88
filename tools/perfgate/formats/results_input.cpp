#include "formats/results_input.h"

#include "base/error.h"
#include "base/json_input.h"
#include "base/read_file.h"
#include "formats/catch2_xml.h"
#include "formats/google_benchmark_json.h"
#include "formats/hyperfine_json.h"
#include "formats/perfgate_results_json.h"

namespace perfgate {

namespace {

const char* const kFormats =
    "Google Benchmark JSON (a \"benchmarks\" array), perfgate results JSON (\"perfgate_results\": 1), hyperfine's "
    "--export-json (a \"results\" array) or Catch2's XML report (-r xml)";

// The first character that is not white space or a UTF-8 byte order mark; '\0' when there is none.
char first_character(const std::string& text) {
  size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
  return i < text.size() ? text[i] : '\0';
}

}  // namespace

Results parse_results(const std::string& text, const std::string& source) {
  const char first = first_character(text);
  if (first == '<') return parse_catch2_xml(text, source);
  if (first != '{') throw InputError(source + ": not results perfgate reads; it reads " + std::string(kFormats));
  // One parse serves both the sniffing and the reading. NaN and Infinity tokens (Google Benchmark's) read as null in
  // every JSON format: a value that was not measured.
  const auto doc = parse_json_input(non_finite_as_null(text), source);
  if (doc.is_object()) {
    if (doc.contains("perfgate_results")) return perfgate_results(doc, source);
    if (doc.contains("benchmarks")) return google_benchmark_results(doc, source);
    if (doc.contains("results")) return hyperfine_results(doc, source);
  }
  throw InputError(source + ": not results perfgate reads; it reads " + std::string(kFormats));
}

Results read_results(const std::string& path) { return parse_results(read_whole_file(path, "results"), path); }

}  // namespace perfgate
