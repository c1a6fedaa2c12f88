#pragma once
// Reading results whichever harness wrote them: the format is told by the content, never by the file's name
// (docs/reference/results-formats.md). Every command that reads results reads them here.
#include "model/results.h"

#include <string>

namespace perfgate {

/// Reads results from text in any of the formats, told by the content: XML is a Catch2 report; JSON is perfgate's own
/// results when it has a perfgate_results member, Google Benchmark's when it has "benchmarks", hyperfine's when it has
/// "results". `source` names the text in messages. Throws InputError from the
/// format's reader (formats/google_benchmark_json.h, perfgate_results_json.h, hyperfine_json.h, catch2_xml.h), and
/// one naming the formats perfgate reads when the text is none of them.
Results parse_results(const std::string& text, const std::string& source);

/// The same, from a file (at most kMaxInputBytes; read_file.h).
Results read_results(const std::string& path);

}  // namespace perfgate
