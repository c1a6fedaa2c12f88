#pragma once
// perfgate ab's verdicts as GitHub-flavoured Markdown: a heading line, the timings, the exact instruction counts and
// the regressions accepted on purpose, failures first, each table within its budget (markdown_rows.h). In the pull
// request's comment and in the report's summary. Pure.
#include "formats/ab_json.h"

#include <string>

namespace perfgate {

std::string render_ab_markdown(const AbRecord& ab);

}  // namespace perfgate
