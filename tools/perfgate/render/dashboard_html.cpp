#include "render/dashboard_html.h"

#include "base/error.h"
#include "base/number_format.h"
#include "base/one_line.h"
#include "base/xml_escape.h"
#include "render/svg_plot.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace perfgate {
namespace {

std::string e(const std::string& text) { return escape_xml(text); }

constexpr const char* kStyle = R"(
body{font:14px/1.45 sans-serif;margin:20px;color:#1f2328;max-width:1100px}
h1{font-size:22px;margin:0 0 4px}.meta{color:#59636e;margin:0 0 12px}
fieldset{border:1px solid #d0d7de;border-radius:6px;margin:0 8px 8px 0;display:inline-block;padding:4px 10px}
legend{color:#59636e;font-size:12px}label{margin-right:10px;white-space:nowrap}
.series{border-top:1px solid #d0d7de;padding:8px 0}.series h2{font-size:15px;margin:4px 0}
.kind{font-size:11px;color:#fff;border-radius:3px;padding:1px 6px;margin-left:6px;vertical-align:middle}
.k-gated{background:#1a7f37}.k-advisory{background:#9a6700}.k-recorded{background:#6e7781}
.changes{margin:2px 0 6px 0;padding-left:18px;color:#c0392b}.none{color:#59636e}
table.recent{border-collapse:collapse;margin:8px 0}table.recent td,table.recent th{border:1px solid #d0d7de;padding:3px 8px}
)";

std::string commit_link(const std::string& commit, const std::string& url_template) {
  const std::string shown = "<code>" + e(commit.substr(0, 12)) + "</code>";
  if (url_template.empty()) return shown;
  // A commit from the store is put into the link only when it is a hexadecimal id: anything else is shown as text.
  if (commit.empty() || commit.size() > 64 || commit.find_first_not_of("0123456789abcdef") != std::string::npos)
    return shown;
  std::string url = url_template;
  url.replace(url.find("{commit}"), 8, commit);
  return "<a href=\"" + e(url) + "\">" + shown + "</a>";
}

// The filter of one dimension: radio buttons over its values, and for each value a CSS rule hiding the other series.
void filter(std::ostringstream& html, std::ostringstream& css, const std::string& name, const std::string& legend,
            const std::vector<std::string>& values) {
  html << "<fieldset><legend>" << e(legend) << "</legend><label><input type=\"radio\" name=\"" << name << "\" id=\""
       << name << "-all\" checked> all</label>";
  for (size_t i = 0; i < values.size(); ++i) {
    const std::string id = name + "-" + std::to_string(i);
    html << "<label><input type=\"radio\" name=\"" << name << "\" id=\"" << id << "\"> "
         << e(values[i].empty() ? std::string("(none)") : values[i]) << "</label>";
    css << "body:has(#" << id << ":checked) .series:not(." << id << "){display:none}\n";
  }
  html << "</fieldset>\n";
}

}  // namespace

void validate_commit_url(const std::string& url_template) {
  const bool scheme = url_template.rfind("https://", 0) == 0 || url_template.rfind("http://", 0) == 0;
  const bool placeholder = url_template.find("{commit}") != std::string::npos;
  const bool plain = url_template.find_first_of(" \"'<>\\`\n\r\t") == std::string::npos && url_template.size() <= 500;
  if (!scheme || !placeholder || !plain) {
    throw InputError(
        "dashboard: --commit-url must be an http(s) URL containing {commit}, e.g. "
        "https://github.com/OWNER/REPO/commit/{commit}, not '" +
        one_line(url_template.substr(0, 200)) + "'");
  }
}

std::string render_dashboard(const DashboardData& data) {
  std::map<std::string, size_t> suites, machines;
  const std::vector<std::string> kinds = {"gated", "advisory", "recorded"};
  for (const auto& s : data.series) suites.emplace(s.suite, 0), machines.emplace(s.machine, 0);
  std::vector<std::string> suite_names, machine_names;
  for (auto& [name, index] : suites) index = suite_names.size(), suite_names.push_back(name);
  for (auto& [name, index] : machines) index = machine_names.size(), machine_names.push_back(name);

  std::ostringstream filters, css;
  filter(filters, css, "suite", "suite", suite_names);
  filter(filters, css, "machine", "machine", machine_names);
  filter(filters, css, "kind", "gated?", kinds);

  std::ostringstream recent, sections;
  size_t changed = 0;
  for (const auto& s : data.series) {
    const auto kind_index = static_cast<size_t>(std::find(kinds.begin(), kinds.end(), s.kind) - kinds.begin());
    const std::string classes = "series suite-" + std::to_string(suites.at(s.suite)) + " machine-" +
                                std::to_string(machines.at(s.machine)) + " kind-" + std::to_string(kind_index);
    const std::string title = s.benchmark + " " + s.field;
    std::vector<svg::Point> points;
    for (const auto& p : s.points) points.push_back({p.commit.substr(0, 7), p.value});
    std::vector<size_t> marks;
    for (const auto& c : s.changes) marks.push_back(c.index);
    sections << "<section class=\"" << classes << "\"><h2>" << e(title) << "<span class=\"kind k-" << s.kind << "\">"
             << s.kind << "</span></h2>"
             << "<p class=\"meta\">suite " << e(s.suite.empty() ? std::string("(none)") : s.suite) << " · machine "
             << e(s.machine.empty() ? std::string("(unknown)") : s.machine) << " · " << s.points.size()
             << " runs, latest " << e(format_number(s.points.back().value)) << " " << e(s.unit) << " at "
             << commit_link(s.points.back().commit, data.commit_url) << "</p>";
    if (s.changes.empty()) {
      sections << "<p class=\"none\">no change point</p>";
    } else {
      sections << "<ul class=\"changes\">";
      for (const auto& c : s.changes) {
        const auto [last_old, first_new] = runs_around(c);
        const std::string shift = change_text(c.after, c.before);
        sections << "<li>change point at " << commit_link(s.points[first_new].commit, data.commit_url) << " (after "
                 << commit_link(s.points[last_old].commit, data.commit_url) << "): median "
                 << e(format_number(c.before)) << " → " << e(format_number(c.after)) << " " << e(s.unit) << ", "
                 << e(shift) << "</li>";
        recent << "<tr class=\"" << classes << "\"><td>" << e(title) << "</td><td>" << e(s.suite) << "</td><td>"
               << e(s.machine) << "</td><td>" << commit_link(s.points[first_new].commit, data.commit_url) << "</td><td>"
               << e(shift) << "</td></tr>";
        ++changed;
      }
      sections << "</ul>";
    }
    sections << "<figure>" << svg::trend_chart(title, points, s.unit, marks) << "</figure></section>\n";
  }

  std::ostringstream out;
  out << "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src "
         "'unsafe-inline'\">"
      << "<title>" << e(data.title) << "</title><style>" << kStyle << css.str() << "</style></head><body>\n"
      << "<h1>" << e(data.title) << "</h1><p class=\"meta\">" << data.runs << " runs on branch <code>" << e(data.branch)
      << "</code> of " << e(data.store) << ", from " << e(data.first_run) << " to " << e(data.last_run) << "; "
      << data.series.size() << " series, " << changed << " change points; generated " << e(data.generated_at)
      << "</p>\n"
      << filters.str();
  if (changed > 0) {
    out << "<h2 style=\"font-size:16px\">Change points</h2><table "
           "class=\"recent\"><tr><th>series</th><th>suite</th><th>machine</th><th>first run at the new "
           "level</th><th>shift</th></tr>"
        << recent.str() << "</table>\n";
  }
  out << sections.str() << "</body></html>\n";
  return out.str();
}

}  // namespace perfgate
