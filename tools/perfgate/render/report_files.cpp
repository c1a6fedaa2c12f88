#include "render/report_files.h"

#include "base/atomic_write.h"
#include "base/error.h"
#include "render/png_render.h"
#include "base/read_file.h"
#include "render/report_render.h"

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

// The report writes only into real folders: a plots/ that is a link would take its writes and deletions elsewhere.
void require_real_plots_folder(const std::string& folder) {
  std::error_code error;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(std::filesystem::path(folder) / "plots", error))) {
    throw InputError("--out-dir '" + folder + "': its plots/ is a symbolic link; perfgate writes reports into real folders only");
  }
}

}  // namespace

void write_report_files(const std::string& folder, const ReportData& data, bool png) {
  // Everything is rendered before anything is written, so a rendering error leaves no partial report; a failed
  // write removes what was written.
  const auto plots = report_plots(data);
  // One browser run per plot: bounded, so that a report of thousands of entries cannot start thousands of browsers.
  constexpr size_t kMaxPngPlots = 200;
  if (png && plots.size() > kMaxPngPlots) {
    throw InputError("report --png: " + std::to_string(plots.size()) + " plots, more than the " + std::to_string(kMaxPngPlots) +
                     " that are rendered by a browser; leave out --png (the SVG plots are written either way)");
  }
  const auto summary = render_markdown(data), verdicts = render_verdicts_json(data), junit = render_junit(data);
  const auto html = render_html(data, plots);
  const auto base = std::filesystem::path(folder);
  const auto plots_folder = base / "plots";
  require_real_plots_folder(folder);
  std::error_code error;
  std::filesystem::create_directories(plots_folder, error);
  if (error) throw InputError("--out-dir '" + folder + "': cannot create it (" + error.message() + ")");
  try {
    // Every file inside the report's folder is written as a name there (AtLink::replace): a link found in its place
    // is replaced, and what it pointed to is never written.
    write_file_atomically((base / kReportMarker).string(), "written by perfgate report: its files here are replaced on every run\n",
                          AtLink::replace);
    for (const auto& plot : plots) {
      const auto svg_path = (plots_folder / (plot.slug + ".svg")).string();
      write_file_atomically(svg_path, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + plot.svg + "\n", AtLink::replace);
      if (png) render_png(svg_path, (plots_folder / (plot.slug + ".png")).string(), declared(plot.svg, "width", 800), declared(plot.svg, "height", 200));
    }
    write_file_atomically((base / "summary.md").string(), summary, AtLink::replace);
    write_file_atomically((base / "verdicts.json").string(), verdicts, AtLink::replace);
    write_file_atomically((base / "junit.xml").string(), junit, AtLink::replace);
    write_file_atomically((base / "report.html").string(), html, AtLink::replace);  // last: its presence means complete
  } catch (...) {
    clear_report_files(folder);
    throw;
  }
}

void require_no_report_file_among(const std::string& folder, const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  const fs::path base(folder);
  const char* names[] = {"report.html", "summary.md", "verdicts.json", "junit.xml", kReportMarker};
  for (const auto& input : inputs) {
    std::error_code error;
    const fs::path path(input);
    const auto parent = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    const auto name = path.filename().string();
    bool ours = false;
    if (fs::exists(base, error) && fs::equivalent(parent, base, error)) {
      for (const char* n : names) ours = ours || name == n;
    }
    const auto extension = path.extension();
    if (fs::exists(base / "plots", error) && fs::equivalent(parent, base / "plots", error)) ours = ours || extension == ".svg" || extension == ".png";
    // A link (or hard link) to one of those files elsewhere reads the file the report replaces.
    for (const char* n : names) ours = ours || (fs::exists(base / n, error) && fs::equivalent(path, base / n, error));
    if (ours) throw InputError("report: the input '" + input + "' is a file the report in '" + folder + "' writes; move it out of --out-dir first");
  }
}

void clear_report_files(const std::string& folder) {
  const auto base = std::filesystem::path(folder);
  const char* names[] = {"report.html", "summary.md", "verdicts.json", "junit.xml"};
  std::error_code error;
  // Only a folder perfgate wrote is cleared: its marker, a regular file, says so. Files of the same names that
  // someone else wrote are never deleted (a verdicts.json that merely mentions "overall" proves nothing).
  const bool ours = std::filesystem::is_regular_file(std::filesystem::symlink_status(base / kReportMarker, error));
  if (!ours) {
    for (const char* name : names) {
      if (std::filesystem::exists(base / name, error)) {
        throw InputError("--out-dir '" + folder + "' holds a " + name + " that perfgate did not write; give a new folder or an earlier report's");
      }
    }
    return;
  }
  require_real_plots_folder(folder);
  // remove() deletes a link itself, never what it points to; entries are judged without following links.
  for (const char* name : names) std::filesystem::remove(base / name, error);
  std::vector<std::filesystem::path> plots;
  for (const auto& entry : std::filesystem::directory_iterator(base / "plots", error)) {
    const auto extension = entry.path().extension();
    const auto kind = entry.symlink_status(error).type();
    const bool file_or_link = kind == std::filesystem::file_type::regular || kind == std::filesystem::file_type::symlink;
    if (file_or_link && (extension == ".svg" || extension == ".png")) plots.push_back(entry.path());
  }
  for (const auto& plot : plots) std::filesystem::remove(plot, error);
}

}  // namespace perfgate
