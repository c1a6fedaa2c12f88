#pragma once
// The dashboard as one self-contained HTML page: per series a trend with its change points, commits linked, gated,
// advisory and merely recorded series told apart, filters by suite, machine and kind. No script: the filters are
// radio buttons and CSS (:has), so the page keeps the report's Content-Security-Policy (nothing runs, nothing loads).
#include "render/dashboard_data.h"

#include <string>

namespace perfgate {

/// Throws InputError for a commit URL template that is not a plain http(s) URL containing {commit}.
void validate_commit_url(const std::string& url_template);

std::string render_dashboard(const DashboardData& data);

}  // namespace perfgate
