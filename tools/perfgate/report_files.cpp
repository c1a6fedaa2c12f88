#include "report_files.h"

#include "atomic_write.h"
#include "error.h"
#include "png_render.h"
#include "read_file.h"
#include "report_render.h"

#include <filesystem>
#include <regex>
#include <vector>

namespace perfgate {
namespace {

// The pixel size an SVG of ours declares on its root element.
int declared(const std::string& svg, const std::string& attribute, int fallback) {
  std::smatch match;
  if (std::regex_search(svg, match, std::regex(attribute + "=\"([0-9.]+)\""))) return static_cast<int>(std::stod(match[1].str()) + 0.5);
  return fallback;
}

constexpr const char* kReportMarker = ".perfgate-report";

}  // namespace

void write_report_files(const std::string& folder, const ReportData& data, bool png) {
  // Everything is rendered before anything is written, so a rendering error leaves no partial report; a failed
  // write removes what was written.
  const auto plots = report_plots(data);
  const auto summary = render_markdown(data), verdicts = render_verdicts_json(data), junit = render_junit(data);
  const auto html = render_html(data, plots);
  const auto base = std::filesystem::path(folder);
  const auto plots_folder = base / "plots";
  std::error_code error;
  std::filesystem::create_directories(plots_folder, error);
  if (error) throw InputError("--out '" + folder + "': cannot create it (" + error.message() + ")");
  try {
    write_file_atomically((base / kReportMarker).string(), "written by perfgate report: its files here are replaced on every run\n");
    for (const auto& plot : plots) {
      const auto svg_path = (plots_folder / (plot.slug + ".svg")).string();
      write_file_atomically(svg_path, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + plot.svg + "\n");
      if (png) render_png(svg_path, (plots_folder / (plot.slug + ".png")).string(), declared(plot.svg, "width", 800), declared(plot.svg, "height", 200));
    }
    write_file_atomically((base / "summary.md").string(), summary);
    write_file_atomically((base / "verdicts.json").string(), verdicts);
    write_file_atomically((base / "junit.xml").string(), junit);
    write_file_atomically((base / "report.html").string(), html);  // last: its presence means complete
  } catch (...) {
    clear_report_files(folder);
    throw;
  }
}

void clear_report_files(const std::string& folder) {
  const auto base = std::filesystem::path(folder);
  const char* names[] = {"report.html", "summary.md", "verdicts.json", "junit.xml"};
  std::error_code error;
  // Only a folder perfgate wrote is cleared: its marker, or (reports written before the marker existed) a
  // verdicts.json of ours. Files of the same names that someone else wrote are never deleted.
  const bool ours = std::filesystem::exists(base / kReportMarker, error) ||
                    (std::filesystem::is_regular_file(base / "verdicts.json", error) &&
                     read_whole_file((base / "verdicts.json").string(), "earlier verdicts").find("\"overall\"") != std::string::npos);
  if (!ours) {
    for (const char* name : names) {
      if (std::filesystem::exists(base / name, error)) {
        throw InputError("--out '" + folder + "' holds a " + name + " that perfgate did not write; give a new folder or an earlier report's");
      }
    }
    return;
  }
  for (const char* name : names) std::filesystem::remove(base / name, error);
  std::vector<std::filesystem::path> plots;
  for (const auto& entry : std::filesystem::directory_iterator(base / "plots", error)) {
    const auto extension = entry.path().extension();
    if (entry.is_regular_file() && (extension == ".svg" || extension == ".png")) plots.push_back(entry.path());
  }
  for (const auto& plot : plots) std::filesystem::remove(plot, error);
}

}  // namespace perfgate
