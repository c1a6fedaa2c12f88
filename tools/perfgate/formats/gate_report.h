#pragma once
// A manifest's gates as a report's sections, from the results a gate run left in a folder: the one place that knows
// which results file is judged against which baseline (perfgate gate --verdicts, perfgate report --manifest).
#include "formats/gate_manifest.h"
#include "formats/report_data.h"
#include "model/speedup_series.h"

#include <string>
#include <vector>

namespace perfgate {

/// The results file a gate writes (<results_folder>/<name>.json).
std::string results_of(const std::string& results_folder, const std::string& name);

/// Sets the series row of `section` (the speedup's results against its baselined speedup, `name`) to `series`, the
/// verdict perfgate speedup gave it: by the speedup's interval, not by the median alone.
void apply_series_verdict(CheckSection& section, const SeriesVerdict& series, const std::string& name);

/// The series row of `section` (the speedup's results against its baselined speedup) judged as perfgate speedup judges
/// it: by the speedup's interval, FAIL only when the whole interval lies below the baselined speedup minus its
/// tolerance (or its limit), not by the median alone.
void judge_series_as_speedup_does(CheckSection& section, const SpeedupSection& speedup);

/// Adds to `data` each of `gates` whose results are in `results_folder`: baseline and cost gates as checks against
/// their baselines; a speedup gate as the speedup (judged at its floor, its aim reported), its run as a check when it
/// compares its baseline, and its series as a check judged by the interval; a bars gate as the ablation. A gate without
/// results is skipped (a run of some labels only) unless `require_results`, when that is an InputError. Each speedup
/// gate is a speedup section of its own, in the manifest's order. Throws InputError when two gates would fill the one
/// bars section a report has.
void add_gate_sections(ReportData& data, const GateManifest& manifest, const std::vector<const Gate*>& gates,
                       const std::string& results_folder, bool require_results);

}  // namespace perfgate
