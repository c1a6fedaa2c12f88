#pragma once
// Writing a report folder: report.html, summary.md, verdicts.json, junit.xml and plots/<n>-<name>.svg (and .png).
#include "base/output_files.h"
#include "formats/report_data.h"

#include <string>
#include <vector>

namespace perfgate {

/// Renders everything first, then writes every file through `outputs`, where `folder` is declared (on a failed
/// write, what was written is removed again); plot file names come from file_slug(), so no benchmark name can place a
/// file outside the folder. With `png`, each plot is also rendered by Chromium.
void write_report_files(const Outputs& outputs, const std::string& folder, const ReportData& data, bool png);

/// Removes what an earlier report left in `folder` (report.html first, then summary.md, verdicts.json, junit.xml and
/// plots/*.svg, *.png), so that a report that fails leaves no earlier verdict behind to be mistaken for its own.
/// Only a folder perfgate's report marked is cleared (`outputs` refused any other that holds files when it was
/// declared). Touches nothing else; a folder that does not exist is fine.
void clear_report_files(const Outputs& outputs, const std::string& folder);

/// Throws InputError naming the input when one of `inputs` is a file the report in `folder` would clear or write
/// (report.html, summary.md, verdicts.json, junit.xml, the marker, or an .svg/.png in plots/), however it is spelled:
/// a report never deletes or replaces what it reads.
void require_no_report_file_among(const std::string& folder, const std::vector<std::string>& inputs);

}  // namespace perfgate
