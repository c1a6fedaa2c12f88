#pragma once
// The report's renderings of one ReportData: a self-contained HTML page (inline CSS and SVG, images as data:
// URIs, no script, no network), a Markdown summary for $GITHUB_STEP_SUMMARY, verdicts.json and JUnit XML.
#include "formats/report_data.h"

#include <string>
#include <vector>

namespace perfgate {

std::string render_html(const ReportData& data, const std::vector<Plot>& plots);
std::string render_markdown(const ReportData& data);
std::string render_verdicts_json(const ReportData& data);
std::string render_junit(const ReportData& data);

}  // namespace perfgate
