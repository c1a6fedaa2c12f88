#include "formats/gate_report.h"

#include "base/error.h"
#include "formats/results_input.h"
#include "model/baseline.h"
#include "model/results.h"
#include "model/speedup_series.h"

#include <filesystem>

namespace perfgate {

std::string results_of(const std::string& results_folder, const std::string& name) {
  return (std::filesystem::path(results_folder) / (name + ".json")).string();
}

void judge_series_as_speedup_does(CheckSection& section, const SpeedupSection& speedup) {
  const auto name = speedup_series_name(speedup.reference, speedup.candidate);
  apply_series_verdict(section, judge_against_baseline(speedup.report, read_baseline(section.baseline_path), name),
                       name);
}

void apply_series_verdict(CheckSection& section, const SeriesVerdict& series, const std::string& name) {
  for (auto& row : section.rows) {
    if (row.benchmark != name || row.field != "speedup") continue;
    row.findings.clear();
    if (series.below) row.findings.push_back(Finding::beyond_tolerance);
    row.verdict = !series.below ? Verdict::pass : series.advisory ? Verdict::slower : Verdict::fail;
  }
}

void add_gate_sections(ReportData& data, const GateManifest& manifest, const std::vector<const Gate*>& gates,
                       const std::string& results_folder, bool require_results) {
  const auto present = [](const std::string& file) {
    std::error_code ignored;
    return std::filesystem::exists(std::filesystem::symlink_status(file, ignored));
  };
  const auto check = [&](const std::string& name, const std::string& label) {
    const auto results = results_of(results_folder, name);
    if (!present(results)) {
      if (require_results) throw InputError("gate '" + name + "' left no results at " + results);
      return;
    }
    data.checks.push_back(load_check(results, manifest.baseline_of(name, label)));
  };
  for (const auto* gate : gates) {
    const auto results = results_of(results_folder, gate->name);
    switch (gate->kind) {
      case GateKind::baseline:
      case GateKind::cost:
        check(gate->name, gate->label);
        break;
      case GateKind::speedup:
        if (!present(results)) {
          if (require_results) throw InputError("gate '" + gate->name + "' left no results at " + results);
          break;
        }
        data.speedups.push_back(judge_speedup_section(read_results(results), results, gate->reference, gate->candidate,
                                                      gate->floor, gate->aim));
        data.speedups.back().gate = gate->name;
        if (gate->compare_baseline) check(gate->name, gate->label);
        if (!gate->series.empty()) {
          const auto before = data.checks.size();
          check(gate->series, gate->label);
          if (data.checks.size() > before) judge_series_as_speedup_does(data.checks.back(), data.speedups.back());
        }
        break;
      case GateKind::profile:
        break;  // a trace to open, no section of a report
      case GateKind::bars:
        if (!present(results)) break;  // measured by whoever wants the bars; never required
        if (data.ablation) throw InputError("a report holds one bars gate; give one of them (--only)");
        data.ablation = load_ablation(results);
        break;
    }
  }
}

}  // namespace perfgate
