// The report's plots: which figure shows what, built from ReportData with svg_plot.
#include "base/number_format.h"
#include "base/xml_escape.h"
#include "formats/report_data.h"
#include "render/flame_graph.h"
#include "render/row_text.h"
#include "render/svg_plot.h"

#include <iomanip>
#include <sstream>

namespace perfgate {
namespace {

class PlotList {
 public:
  void add(const std::string& section, const std::string& name, const std::string& title, std::string svg) {
    std::ostringstream slug;
    slug << std::setw(2) << std::setfill('0') << plots_.size() + 1 << '-' << file_slug(name);  // numbered: unique
    plots_.push_back({section, slug.str(), title, std::move(svg)});
  }
  std::vector<Plot> take() { return std::move(plots_); }

 private:
  std::vector<Plot> plots_;
};

void speedup_plots(const SpeedupSection& s, const std::string& section, PlotList& plots) {
  const auto& r = s.report;
  std::vector<svg::Marker> markers{{r.threshold, "gate " + format_fixed(r.threshold, 2) + "x"}};
  if (s.target) markers.push_back({*s.target, "target " + format_fixed(*s.target, 2) + "x"});
  const std::string pair = s.reference + " / " + s.candidate;
  plots.add(
      section, "speedup-interval", "Speedup: median of paired ratios and its interval",
      svg::interval_plot("Speedup: median of paired ratios, " + format_fixed(100.0 * r.confidence, 1) + " % interval",
                         {{pair, r.median, r.low, r.high}}, "speedup (x)", markers));
  plots.add(section, "speedup-ratios", "Speedup per repetition",
            svg::strip_plot("Speedup per paired repetition (" + std::to_string(r.pairs) + ")", {{pair, r.ratios}},
                            "speedup (x)", markers));
  plots.add(section, "speedup-times", "Time per repetition",
            svg::strip_plot("Time per repetition, interleaved",
                            {{s.reference, r.reference_times}, {s.candidate, r.candidate_times}},
                            "real_time (" + r.unit + ")", {}));
}

void check_plots(const CheckSection& c, PlotList& plots) {
  for (const auto& row : c.rows) {
    const auto found = c.samples.find({row.benchmark, row.field});
    if (found == c.samples.end() || found->second.empty()) continue;
    const std::string title = row.benchmark + " · " + row.field;
    plots.add("check:" + c.name, c.name + "-" + row.benchmark + "-" + row.field, title,
              svg::strip_plot(
                  title, {{to_string(row.verdict), found->second}}, row.unit.empty() ? row.field : row.unit,
                  {{row.baseline, "baseline " + with_unit(format_value(row.baseline, row.baseline_integer), row.unit)},
                   {row.threshold, "worst acceptable " + with_unit(format_number(row.threshold), row.unit)}}));
  }
  for (const auto& b : c.functions.benchmarks) {
    const std::string title = b.benchmark + " · differential flame graph, baseline → results";
    plots.add("functions:" + c.name, c.name + "-" + b.benchmark + "-flame", title,
              differential_flame_graph(title, b.before, b.after));
  }
}

}  // namespace

std::string speedup_section(size_t index) { return index == 0 ? "speedup" : "speedup:" + std::to_string(index + 1); }

std::vector<Plot> report_plots(const ReportData& data) {
  PlotList plots;
  for (size_t i = 0; i < data.speedups.size(); ++i) speedup_plots(data.speedups[i], speedup_section(i), plots);
  for (const auto& c : data.checks) check_plots(c, plots);
  if (data.ablation) {
    std::vector<svg::Bar> bars;
    for (const auto& b : data.ablation->bars) bars.push_back({b.label, b.value});
    plots.add("ablation", "ablation", "Ablation",
              svg::bar_chart("Time per step, one switch flipped at a time", bars,
                             "real_time (" + data.ablation->unit + ")", {}));
  }
  for (const auto& t : data.trends) {
    std::vector<svg::Point> points;
    for (const auto& [commit, value] : t.points) points.push_back({commit, value});
    const std::string title = t.benchmark + " · " + t.field;
    plots.add("trends", "trend-" + t.benchmark + "-" + t.field, title,
              svg::trend_chart(title, points, t.unit, t.changes));
  }
  return plots.take();
}

}  // namespace perfgate
