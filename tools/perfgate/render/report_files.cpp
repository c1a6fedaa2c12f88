#include "render/report_files.h"

#include "base/error.h"
#include "base/read_file.h"
#include "render/png_render.h"
#include "render/report_render.h"

#include <filesystem>
#include <regex>
#include <vector>

namespace perfgate {
namespace {

// The pixel size an SVG of ours declares on its root element.
int declared(const std::string& svg, const std::string& attribute, int fallback) {
  std::smatch match;
  if (std::regex_search(svg, match, std::regex(attribute + "=\"([0-9.]+)\"")))
    return static_cast<int>(std::stod(match[1].str()) + 0.5);
  return fallback;
}

const std::string kReportMarker = output_marker_name("report");

}  // namespace

void write_report_files(const Outputs& outputs, const std::string& folder, const ReportData& data, bool png) {
  // Everything is rendered before anything is written, so a rendering error leaves no partial report; a failed
  // write removes what was written.
  const auto plots = report_plots(data);
  // One browser run per plot: bounded, so that a report of thousands of entries cannot start thousands of browsers.
  constexpr size_t kMaxPngPlots = 200;
  if (png && plots.size() > kMaxPngPlots) {
    throw InputError("report --png: " + std::to_string(plots.size()) + " plots, more than the " +
                     std::to_string(kMaxPngPlots) +
                     " that are rendered by a browser; leave out --png (the SVG plots are written either way)");
  }
  const auto summary = render_markdown(data), verdicts = render_verdicts_json(data), junit = render_junit(data);
  const auto html = render_html(data, plots);
  const auto base = std::filesystem::path(folder);
  const auto plots_folder = base / "plots";
  try {
    for (const auto& plot : plots) {
      const auto svg_path = (plots_folder / (plot.slug + ".svg")).string();
      outputs.write(svg_path, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + plot.svg + "\n");
      if (png) {
        outputs.write((plots_folder / (plot.slug + ".png")).string(),
                      render_png(svg_path, declared(plot.svg, "width", 800), declared(plot.svg, "height", 200)));
      }
    }
    outputs.write((base / "summary.md").string(), summary);
    outputs.write((base / "verdicts.json").string(), verdicts);
    outputs.write((base / "junit.xml").string(), junit);
    outputs.write((base / "report.html").string(), html);  // last: its presence means complete
  } catch (...) {
    clear_report_files(outputs, folder);
    throw;
  }
}

void require_no_report_file_among(const std::string& folder, const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  const fs::path base(folder);
  const std::string names[] = {"report.html", "summary.md", "verdicts.json", "junit.xml", kReportMarker};
  for (const auto& input : inputs) {
    std::error_code error;
    const fs::path path(input);
    const auto parent = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    const auto name = path.filename().string();
    bool ours = false;
    if (fs::exists(base, error) && fs::equivalent(parent, base, error)) {
      for (const auto& n : names) ours = ours || name == n;
    }
    const auto extension = path.extension();
    if (fs::exists(base / "plots", error) && fs::equivalent(parent, base / "plots", error))
      ours = ours || extension == ".svg" || extension == ".png";
    // A link (or hard link) to one of those files elsewhere reads the file the report replaces.
    for (const auto& n : names) ours = ours || (fs::exists(base / n, error) && fs::equivalent(path, base / n, error));
    if (ours)
      throw InputError("report: the input '" + input + "' is a file the report in '" + folder +
                       "' writes; move it out of --out-dir first");
  }
}

void clear_report_files(const Outputs& outputs, const std::string& folder) {
  const auto base = std::filesystem::path(folder);
  if (!outputs.marked(folder)) return;  // an empty or new folder: nothing of an earlier report
  for (const char* name : {"report.html", "summary.md", "verdicts.json", "junit.xml"})
    outputs.remove((base / name).string());
  std::error_code error;
  std::vector<std::filesystem::path> plots;
  for (const auto& entry : std::filesystem::directory_iterator(base / "plots", error)) {
    const auto extension = entry.path().extension();
    const auto kind = entry.symlink_status(error).type();
    const bool file_or_link =
        kind == std::filesystem::file_type::regular || kind == std::filesystem::file_type::symlink;
    if (file_or_link && (extension == ".svg" || extension == ".png")) plots.push_back(entry.path());
  }
  for (const auto& plot : plots) outputs.remove(plot.string());
}

}  // namespace perfgate
