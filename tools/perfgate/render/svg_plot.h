#pragma once
// Plots as standalone SVG documents, for the HTML report (inline) and as files: repeated measurements as strips,
// intervals against thresholds, bar charts and trends. Every label is escaped; no script, no external reference.
#include <string>
#include <vector>

namespace perfgate::svg {

struct Marker {  ///< a reference line across the plot (a threshold, a baseline, a tolerance edge)
  double value = 0.0;
  std::string label;
};

struct Group {  ///< one row of a strip plot: every repetition as a dot, the median as a bar
  std::string label;
  std::vector<double> values;
};
std::string strip_plot(const std::string& title, const std::vector<Group>& groups, const std::string& unit,
                       const std::vector<Marker>& markers);

struct IntervalRow {  ///< a point estimate with its interval
  std::string label;
  double point = 0.0, low = 0.0, high = 0.0;
};
std::string interval_plot(const std::string& title, const std::vector<IntervalRow>& rows, const std::string& unit,
                          const std::vector<Marker>& markers);

struct Bar {
  std::string label;
  double value = 0.0;
};
std::string bar_chart(const std::string& title, const std::vector<Bar>& bars, const std::string& unit,
                      const std::vector<Marker>& markers);

struct Point {  ///< one run of a trend, in order; the label (a commit) is shown under the axis
  std::string label;
  double value = 0.0;
};
/// A line through the points; each index in `changes` marks a change point before that point.
std::string trend_chart(const std::string& title, const std::vector<Point>& points, const std::string& unit,
                        const std::vector<size_t>& changes);

}  // namespace perfgate::svg
