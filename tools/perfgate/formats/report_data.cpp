#include "formats/report_data.h"
#include "base/read_file.h"
#include "formats/results_input.h"

#include "base/error.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace perfgate {

SpeedupSection judge_speedup_section(const Results& results, const std::string& results_path,
                                     const std::string& reference, const std::string& candidate, double threshold,
                                     std::optional<double> target) {
  SpeedupSection s{results_path, reference, candidate, judge_speedup(results, reference, candidate, threshold),
                   target,       {},        {}};
  if (target) s.target_verdict = judge_speedup(results, reference, candidate, *target).verdict;
  return s;
}

Overall overall(const ReportData& data) {
  for (const auto& c : data.checks) {
    if (exit_code_of(c.rows) != 0) return Overall::fail;
  }
  const int ab = data.ab ? exit_status_of(*data.ab) : 0;
  if (ab == 1) return Overall::fail;
  bool undecided = ab == 3;
  for (const auto& s : data.speedups) {
    if (s.report.verdict == SpeedupVerdict::fail) return Overall::fail;
    undecided = undecided || s.report.verdict == SpeedupVerdict::inconclusive;
  }
  return undecided ? Overall::inconclusive : Overall::pass;
}

void set_identity(ReportData& data, const std::map<std::string, std::string>& context) {
  const auto value = [&](const char* key) {
    const auto found = context.find(key);
    return found == context.end() ? std::string() : found->second;
  };
  data.git_sha = value("git_sha");
  data.machine = value("machine").empty() ? value("cpu_model") : value("machine");
}

std::string to_string(Overall o) {
  switch (o) {
    case Overall::pass:
      return "PASS";
    case Overall::fail:
      return "FAIL";
    case Overall::inconclusive:
      return "INCONCLUSIVE";
  }
  return "?";
}

CheckSection load_check(const std::string& results_path, const std::string& baseline_path,
                        const Thresholds& thresholds) {
  CheckSection section;
  section.name = std::filesystem::path(results_path).stem().string();
  section.results_path = results_path;
  section.baseline_path = baseline_path;
  const auto results = read_results(results_path);
  auto baseline = read_baseline(baseline_path);
  section.notes = results.notes;
  if (thresholds) {
    const auto notes = thresholds(baseline, results);
    section.notes.insert(section.notes.end(), notes.begin(), notes.end());
  }
  section.rows = compare(results, baseline);
  section.context = results.context;
  section.functions = instruction_changes(section.rows, results_path, baseline_path);
  const MeasurementIndex index(results);
  for (const auto& row : section.rows) {
    if (row.verdict != Verdict::unbaselined)
      section.samples[{row.benchmark, row.field}] = index.values_of(row.benchmark, row.field);
  }
  return section;
}

namespace {
// The bytes of a PNG file, or an InputError naming the option it came from.
std::string read_png(const std::filesystem::path& path, const std::string& option) {
  const std::string png = read_whole_file(path.string(), "image");
  if (png.size() < 8 || png.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) {
    throw InputError(option + ": '" + path.string() + "' is not a PNG file");
  }
  return png;
}
}  // namespace

ReportImage load_figure(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) throw InputError("--figure '" + path + "': not a file");
  return {std::filesystem::path(path).stem().string(), read_png(path, "--figure")};
}

ImageSet load_images(const std::string& folder) {
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) throw InputError("--images '" + folder + "': not a folder");
  std::vector<std::filesystem::path> paths;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    if (entry.is_regular_file() && entry.path().extension() == ".png") paths.push_back(entry.path());
  }
  if (error) throw InputError("--images '" + folder + "': " + error.message());
  if (paths.empty()) throw InputError("--images '" + folder + "': no .png file in it");
  std::sort(paths.begin(), paths.end());
  ImageSet set;
  set.label = std::filesystem::path(folder).lexically_normal().filename().string();
  if (set.label.empty()) set.label = std::filesystem::path(folder).lexically_normal().parent_path().filename().string();
  for (const auto& path : paths) set.images.push_back({path.stem().string(), read_png(path, "--images")});
  return set;
}

AblationSection load_ablation(const std::string& results_path) {
  const auto results = read_results(results_path);
  AblationSection section;
  section.results_path = results_path;
  std::vector<std::string> order;
  std::set<std::string> seen;
  for (const auto& m : results.measurements) {
    if (m.field != "real_time") continue;
    if (seen.insert(m.benchmark).second) order.push_back(m.benchmark);
    if (section.unit.empty()) section.unit = m.unit;  // every bar in the first run's unit
  }
  if (order.empty()) throw InputError("--ablation: no timed benchmark in " + results_path);
  const MeasurementIndex index(results);
  for (const auto& name : order)
    section.bars.push_back({name, median(index.values_in_unit(name, "real_time", section.unit))});
  return section;
}

}  // namespace perfgate
