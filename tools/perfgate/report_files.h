#pragma once
// Writing a report folder: report.html, summary.md, verdicts.json, junit.xml and plots/<n>-<name>.svg (and .png).
#include "report_data.h"

#include <string>

namespace perfgate {

/// Creates `folder` (and plots/) and writes every file atomically; plot file names come from file_slug(), so no
/// benchmark name can place a file outside the folder. With `png`, each plot is also rendered by Chromium.
void write_report_files(const std::string& folder, const ReportData& data, bool png);

}  // namespace perfgate
