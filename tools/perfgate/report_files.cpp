#include "report_files.h"

#include "atomic_write.h"
#include "error.h"
#include "png_render.h"
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

}  // namespace

void write_report_files(const std::string& folder, const ReportData& data, bool png) {
  const auto plots_folder = std::filesystem::path(folder) / "plots";
  std::error_code error;
  std::filesystem::create_directories(plots_folder, error);
  if (error) throw InputError("--out '" + folder + "': cannot create it (" + error.message() + ")");
  const auto plots = report_plots(data);
  for (const auto& plot : plots) {
    const auto svg_path = (plots_folder / (plot.slug + ".svg")).string();
    write_file_atomically(svg_path, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + plot.svg + "\n");
    if (png) render_png(svg_path, (plots_folder / (plot.slug + ".png")).string(), declared(plot.svg, "width", 800), declared(plot.svg, "height", 200));
  }
  const auto base = std::filesystem::path(folder);
  write_file_atomically((base / "summary.md").string(), render_markdown(data));
  write_file_atomically((base / "verdicts.json").string(), render_verdicts_json(data));
  write_file_atomically((base / "junit.xml").string(), render_junit(data));
  write_file_atomically((base / "report.html").string(), render_html(data, plots));  // last: its presence means complete
}

void clear_report_files(const std::string& folder) {
  const auto base = std::filesystem::path(folder);
  std::error_code error;
  for (const char* name : {"report.html", "summary.md", "verdicts.json", "junit.xml"}) std::filesystem::remove(base / name, error);
  std::vector<std::filesystem::path> plots;
  for (const auto& entry : std::filesystem::directory_iterator(base / "plots", error)) {
    const auto extension = entry.path().extension();
    if (entry.is_regular_file() && (extension == ".svg" || extension == ".png")) plots.push_back(entry.path());
  }
  for (const auto& plot : plots) std::filesystem::remove(plot, error);
}

}  // namespace perfgate
