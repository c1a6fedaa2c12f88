#pragma once
// What a report shows, assembled from the run's files: results judged against baselines, the paired speedup,
// the bars, images and history trends. The renderers (HTML, Markdown, verdicts.json, JUnit)
// only read this.
#include "formats/ab_json.h"
#include "formats/instruction_changes.h"
#include "model/compare.h"
#include "model/speedup.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace perfgate {

struct CheckSection {  ///< one results file judged against its baseline
  std::string name;    ///< the results file's stem, e.g. "accuracy"
  std::string results_path, baseline_path;
  std::vector<Row> rows;
  std::map<std::pair<std::string, std::string>, std::vector<double>> samples;  ///< (benchmark, field) → repetitions
  std::map<std::string, std::string> context;  ///< the results' context (commit, machine, ...)
  InstructionChanges functions;    ///< the functions that moved its changed instruction counts (function profiles kept)
  std::vector<std::string> notes;  ///< what reading the results set aside (Results::notes)
};

struct SpeedupSection {
  std::string results_path, reference, candidate;
  SpeedupReport report;          ///< judged against the gate's threshold
  std::optional<double> target;  ///< a second, aspirational threshold shown (not gated), e.g. an aim beyond the gate's
  std::optional<SpeedupVerdict> target_verdict;
  std::string gate;  ///< the manifest's name of the gate; empty for --speedup-results
};

struct AblationBar {
  std::string label;   ///< benchmark name
  double value = 0.0;  ///< median real_time
};
struct AblationSection {
  std::string results_path, unit;
  std::vector<AblationBar> bars;
};

struct ReportImage {
  std::string caption;  ///< file stem, e.g. "error_map"
  std::string png;      ///< the file's bytes (embedded as a data: URI)
};
struct ImageSet {     ///< one folder's images (what a program measured produced, e.g. its output images)
  std::string label;  ///< the folder's name
  std::vector<ReportImage> images;
};

struct TrendSection {
  std::string benchmark, field, unit;
  std::vector<std::pair<std::string, double>> points;  ///< (commit, value), oldest first
  std::vector<size_t> changes;                         ///< change points (index of the first run after the shift)
  std::vector<std::string> change_notes;               ///< one sentence per change point
};

struct ReportData {
  std::string title = "perfgate report";
  std::string git_sha, machine, date;
  /// Set when Google Benchmark's library says it was built as DEBUG (library_build_type "debug"; Debian's package
  /// is built without NDEBUG, which makes it print "***WARNING*** Library was built as DEBUG"): what that means.
  std::string benchmark_library_note;
  std::vector<CheckSection> checks;
  std::vector<SpeedupSection> speedups;  ///< one per speedup gate (or --speedup-results), in order
  std::optional<AblationSection> ablation;
  std::vector<ImageSet> image_sets;
  std::vector<ReportImage> figures;  ///< charts and figures, each shown at its own width
  std::vector<TrendSection> trends;
  std::optional<AbRecord> ab;  ///< perfgate ab's verdicts against the merge base (ab --json)
};

/// The paired speedup of `candidate` over `reference` in `results` (read from `results_path`), judged at the gate's
/// `threshold` and, when given, separately at the aspirational `target`.
SpeedupSection judge_speedup_section(const Results& results, const std::string& results_path,
                                     const std::string& reference, const std::string& candidate, double threshold,
                                     std::optional<double> target);

enum class Overall { pass, fail, inconclusive };

/// FAIL when any check failed or went missing, the speedup failed or the A/B failed (a FAIL not accepted);
/// INCONCLUSIVE when nothing failed but the speedup or the A/B was inconclusive; PASS otherwise. Advisory rows and the
/// speedup target never decide it.
Overall overall(const ReportData& data);
std::string to_string(Overall o);

/// The run's commit and machine from a results file's context: git_sha, and machine (else cpu_model).
void set_identity(ReportData& data, const std::map<std::string, std::string>& context);

/// Reads RESULTS and BASELINE and judges them (compare()); keeps every repetition for the plots. `thresholds`, when
/// given, may change the baseline's entries before they are judged (thresholds from history) and returns notes for
/// the section.
using Thresholds = std::function<std::vector<std::string>(Baseline& baseline, const Results& results)>;
CheckSection load_check(const std::string& results_path, const std::string& baseline_path,
                        const Thresholds& thresholds = {});

/// The PNG files of a folder, sorted by name, labelled with the folder's name; throws InputError when it is not a
/// readable folder, holds no PNG, or a .png file is not one.
ImageSet load_images(const std::string& folder);
/// One PNG figure captioned by its file stem; throws InputError when it is missing or not a PNG.
ReportImage load_figure(const std::string& path);

/// The report's plots, each tagged with the section it belongs to ("speedup", "check:NAME", "ablation",
/// "trends") and a file name stem unique within the report.
struct Plot {
  std::string section, slug, title, svg;
};
std::vector<Plot> report_plots(const ReportData& data);

/// The plots' section of the report's speedup number `index` (from 0): "speedup", then "speedup:2", "speedup:3", ...
std::string speedup_section(size_t index);

/// Median real_time per benchmark of an ablation run, in the file's order.
AblationSection load_ablation(const std::string& results_path);

}  // namespace perfgate
