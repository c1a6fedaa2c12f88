#include "render/svg_plot.h"
#include "base/number_format.h"

#include "base/utf8_text.h"
#include "base/xml_escape.h"
#include "model/stats.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace perfgate::svg {
namespace {

constexpr double kWidth = 800, kLabelWidth = 300, kRight = 30, kRowHeight = 26, kTop = 40, kAxis = 40;
constexpr double kCharWidth = 7;    // the widest a character of the 12 px sans-serif figures is drawn, for fitting text
constexpr double kLaneHeight = 14;  // one line of 12 px text, for labels stacked above one another

// How wide `text` may be drawn: its code points at the widest a character is drawn.
double text_width(const std::string& text) {
  size_t n = 0;
  for_each_code_point(text, [&](uint32_t, int) { ++n; });
  return kCharWidth * static_cast<double>(n);
}

// Labels along one line that must not overlap: each takes the first lane (a line of text, 0 nearest the line they
// label) in which it clears every label already placed there by a gap.
class Lanes {
 public:
  size_t place(double left, double right) {
    for (size_t lane = 0;; ++lane) {
      if (lane == taken_.size()) taken_.emplace_back();
      if (clear(lane, left, right)) {
        taken_[lane].emplace_back(left, right);
        return lane;
      }
    }
  }
  /// Whether [left, right] fits in `lane` (nothing placed).
  bool clear(size_t lane, double left, double right) const {
    if (lane >= taken_.size()) return true;
    for (const auto& [l, r] : taken_[lane])
      if (left < r + kGap && right > l - kGap) return false;
    return true;
  }
  size_t count() const { return taken_.size(); }

 private:
  static constexpr double kGap = 4;
  std::vector<std::vector<std::pair<double, double>>> taken_;
};

// A tick step of 1, 2 or 5 × 10^k giving about five ticks over [low, high].
double tick_step(double low, double high) {
  const double raw = (high - low) / 5.0;
  if (!(raw > 0.0) || !std::isfinite(raw)) return 1.0;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0}) {
    if (raw <= m * power) return m * power;
  }
  return 10.0 * power;
}

// The tick values over [low, high]: multiples k·step for whole k, at most kMaxTicks of them, strictly increasing.
// Counted by k, never by adding step to a value: where step is below the values' resolution (values one ulp apart near
// 1e16) t + step == t, and a loop that adds would never end. Such a range gets its two ends as ticks.
std::vector<double> ticks(double low, double high) {
  constexpr int kMaxTicks = 12;
  std::vector<double> out;
  if (!std::isfinite(low) || !std::isfinite(high) || !(high >= low)) return out;
  const double step = tick_step(low, high);
  const double first = std::ceil(low / step), last = std::floor((high + 1e-9 * step) / step);
  if (!(last - first < kMaxTicks) || first + 1.0 == first) {
    out.push_back(low);
    if (high > low) out.push_back(high);
    return out;
  }
  // A whole-number counter bounds the loop whatever the doubles do (first + i may round back near 1e16).
  for (int i = 0; i < kMaxTicks && first + i <= last; ++i) {
    const double t = (first + i) * step;
    if (out.empty() || t > out.back()) out.push_back(std::abs(t) < 1e-12 * step ? 0.0 : t);
  }
  if (out.empty()) out.push_back(low);
  return out;
}

// The value range of everything drawn, padded by 5 %, never empty.
struct Range {
  double low = 0.0, high = 1.0;
  void include(double v) {
    if (!std::isfinite(v)) return;
    if (empty) {
      low = high = v;
      empty = false;
    } else {
      low = std::min(low, v);
      high = std::max(high, v);
    }
  }
  void pad(bool from_zero) {
    if (empty) low = 0.0, high = 1.0;
    if (from_zero) low = std::min(low, 0.0);
    // Halves, so that the span of values near ±DBL_MAX does not overflow; the padded ends stay finite.
    const double half_span = high / 2 - low / 2 > 0.0 ? high / 2 - low / 2 : std::max(std::abs(high), 1.0) / 2;
    constexpr double kLargest = std::numeric_limits<double>::max();
    if (!from_zero || low < 0.0) low = std::max(low - 0.1 * half_span, -kLargest);
    high = std::min(high + 0.1 * half_span, kLargest);
    // Values a few ulps apart pad to nothing at their magnitude: widen by a relative amount, so that the axis has a
    // length and no coordinate divides by zero.
    if (!(high > low)) {
      const double widen = std::max(std::abs(high), 1.0) * 1e-6;
      low -= widen;
      high += widen;
    }
  }
  bool empty = true;
};

// A document with horizontal rows: labels on the left, a shared value axis along the bottom.
class RowFrame {
 public:
  // The markers' labels are laid out first: the lanes they need above the rows set where the rows start.
  RowFrame(const std::string& title, size_t rows, Range range, const std::string& unit,
           const std::vector<Marker>& markers)
      : range_(range), markers_(markers) {
    Lanes lanes;
    for (const auto& m : markers_) {
      const double at = x(m.value), width = text_width(m.label);
      // Right of its line, or left of it where it would run past the plot's edge.
      const bool leftward = at + 3 + width > kWidth - 2;
      marker_leftward_.push_back(leftward);
      marker_lanes_.push_back(leftward ? lanes.place(at - 3 - width, at - 3) : lanes.place(at + 3, at + 3 + width));
    }
    top_ = kTop + kLaneHeight * static_cast<double>(std::max<size_t>(lanes.count(), 1) - 1);
    height_ = top_ + kRowHeight * static_cast<double>(std::max<size_t>(rows, 1)) + kAxis;
    out_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << height_
         << "\" viewBox=\"0 0 " << kWidth << ' ' << height_
         << "\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">"
         << "<title>" << escape_xml(title) << "</title><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
         << "<text x=\"8\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" << escape_xml(title) << "</text>";
    const double bottom = height_ - kAxis;
    out_ << "<line x1=\"" << kLabelWidth << "\" y1=\"" << bottom << "\" x2=\"" << kWidth - kRight << "\" y2=\""
         << bottom << "\" stroke=\"#444\"/>";
    Lanes tick_labels;  // a tick whose label would touch the one before it keeps its mark and loses its label
    for (const double t : ticks(range_.low, range_.high)) {
      out_ << "<line x1=\"" << x(t) << "\" y1=\"" << bottom << "\" x2=\"" << x(t) << "\" y2=\"" << bottom + 4
           << "\" stroke=\"#444\"/>";
      const auto text = format_number(t, 4);
      const double half = text_width(text) / 2;
      if (!tick_labels.clear(0, x(t) - half, x(t) + half)) continue;
      tick_labels.place(x(t) - half, x(t) + half);
      out_ << "<text x=\"" << x(t) << "\" y=\"" << bottom + 16 << "\" text-anchor=\"middle\">" << text << "</text>";
    }
    out_ << "<text x=\"" << (kLabelWidth + kWidth - kRight) / 2 << "\" y=\"" << bottom + 32
         << "\" text-anchor=\"middle\" fill=\"#444\">" << escape_xml(unit) << "</text>";
  }
  double x(double v) const {  // in halves: finite for any finite range
    return kLabelWidth +
           (v / 2 - range_.low / 2) / (range_.high / 2 - range_.low / 2) * (kWidth - kRight - kLabelWidth);
  }
  double row_y(size_t row) const { return top_ + kRowHeight * (static_cast<double>(row) + 0.5); }
  void label(size_t row, const std::string& text) {
    // Google Benchmark's run settings (/min_time:0.500, /iterations:1) say nothing about the subject: dropped here.
    std::string shown = text;
    for (const char* setting : {"/min_time:", "/iterations:", "/repeats:"}) {
      const auto at = shown.find(setting);
      if (at != std::string::npos)
        shown = shown.substr(0, at) + shown.substr(std::min(shown.size(), shown.find('/', at + 1)));
    }
    shown = shorten(shown, 46, 14);  // by characters: a cut inside one would make the SVG invalid UTF-8
    out_ << "<text x=\"" << kLabelWidth - 8 << "\" y=\"" << row_y(row) + 4 << "\" text-anchor=\"end\"><title>"
         << escape_xml(text) << "</title>" << escape_xml(shown) << "</text>";
  }
  void markers() {
    for (size_t i = 0; i < markers_.size(); ++i) {
      const auto& m = markers_[i];
      const double y = top_ - 5 - kLaneHeight * static_cast<double>(marker_lanes_[i]);
      out_ << "<line x1=\"" << x(m.value) << "\" y1=\"" << top_ - 2 << "\" x2=\"" << x(m.value) << "\" y2=\""
           << height_ - kAxis << "\" stroke=\"#c0392b\" stroke-dasharray=\"5,3\"/>";
      const bool leftward = marker_leftward_[i];
      out_ << "<text x=\"" << x(m.value) + (leftward ? -3 : 3) << "\" y=\"" << y << "\" fill=\"#c0392b\""
           << (leftward ? " text-anchor=\"end\"" : "") << ">" << escape_xml(m.label) << "</text>";
    }
  }
  std::ostringstream& body() { return out_; }
  std::string finish() { return out_.str() + "</svg>"; }

 private:
  Range range_;
  std::vector<Marker> markers_;
  std::vector<size_t> marker_lanes_;
  std::vector<bool> marker_leftward_;
  double top_ = kTop, height_ = 0.0;
  std::ostringstream out_;
};

}  // namespace

std::string strip_plot(const std::string& title, const std::vector<Group>& groups, const std::string& unit,
                       const std::vector<Marker>& markers) {
  Range range;
  for (const auto& g : groups)
    for (const double v : g.values) range.include(v);
  for (const auto& m : markers) range.include(m.value);
  range.pad(false);
  RowFrame frame(title, groups.size(), range, unit, markers);
  frame.markers();
  for (size_t row = 0; row < groups.size(); ++row) {
    frame.label(row, groups[row].label);
    const double y = frame.row_y(row);
    size_t i = 0;
    for (const double v : groups[row].values) {
      const double jitter = (static_cast<double>(i++ % 5) - 2.0) * 2.0;  // deterministic spread of coincident dots
      frame.body() << "<circle class=\"sample\" cx=\"" << frame.x(v) << "\" cy=\"" << y + jitter
                   << "\" r=\"3\" fill=\"#2c7fb8\" fill-opacity=\"0.6\"/>";
    }
    if (!groups[row].values.empty()) {
      const double m = frame.x(stats::quantile(groups[row].values, 0.5));
      frame.body() << "<line x1=\"" << m << "\" y1=\"" << y - 9 << "\" x2=\"" << m << "\" y2=\"" << y + 9
                   << "\" stroke=\"#000\" stroke-width=\"2\"/>";
    }
  }
  return frame.finish();
}

std::string interval_plot(const std::string& title, const std::vector<IntervalRow>& rows, const std::string& unit,
                          const std::vector<Marker>& markers) {
  Range range;
  for (const auto& r : rows) range.include(r.low), range.include(r.high), range.include(r.point);
  for (const auto& m : markers) range.include(m.value);
  range.pad(false);
  RowFrame frame(title, rows.size(), range, unit, markers);
  frame.markers();
  for (size_t row = 0; row < rows.size(); ++row) {
    frame.label(row, rows[row].label);
    const double y = frame.row_y(row);
    frame.body() << "<line class=\"interval\" x1=\"" << frame.x(rows[row].low) << "\" y1=\"" << y << "\" x2=\""
                 << frame.x(rows[row].high) << "\" y2=\"" << y
                 << "\" stroke=\"#2c7fb8\" stroke-width=\"6\" stroke-linecap=\"round\" stroke-opacity=\"0.5\"/>"
                 << "<circle cx=\"" << frame.x(rows[row].point) << "\" cy=\"" << y << "\" r=\"5\" fill=\"#000\"/>";
    // The figures go right of the interval, or left of it when they would run past the plot's edge.
    const std::string figures = format_number(rows[row].point, 4) + " [" + format_number(rows[row].low, 4) + ", " +
                                format_number(rows[row].high, 4) + "]";
    const double right = frame.x(rows[row].high) + 8;
    if (right + kCharWidth * static_cast<double>(figures.size()) <= kWidth) {
      frame.body() << "<text x=\"" << right << "\" y=\"" << y + 4 << "\">" << figures << "</text>";
    } else {
      frame.body() << "<text x=\"" << frame.x(rows[row].low) - 8 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">"
                   << figures << "</text>";
    }
  }
  return frame.finish();
}

std::string bar_chart(const std::string& title, const std::vector<Bar>& bars, const std::string& unit,
                      const std::vector<Marker>& markers) {
  Range range;
  for (const auto& b : bars) range.include(b.value);
  for (const auto& m : markers) range.include(m.value);
  range.pad(true);
  RowFrame frame(title, bars.size(), range, unit, markers);
  for (size_t row = 0; row < bars.size(); ++row) {
    frame.label(row, bars[row].label);
    const double y = frame.row_y(row), x0 = frame.x(0.0), x1 = frame.x(bars[row].value);
    frame.body() << "<rect class=\"bar\" x=\"" << std::min(x0, x1) << "\" y=\"" << y - 8 << "\" width=\""
                 << std::abs(x1 - x0) << "\" height=\"16\" fill=\"#7fcdbb\"/><text x=\"" << std::max(x0, x1) + 4
                 << "\" y=\"" << y + 4 << "\">" << format_number(bars[row].value, 4) << "</text>";
  }
  frame.markers();
  return frame.finish();
}

std::string trend_chart(const std::string& title, const std::vector<Point>& points, const std::string& unit,
                        const std::vector<size_t>& changes) {
  constexpr double height = 260, left = 70, bottom = 200, top = 34;
  Range range;
  for (const auto& p : points) range.include(p.value);
  range.pad(false);
  const double step_x = points.size() > 1 ? (kWidth - kRight - left) / static_cast<double>(points.size() - 1) : 0.0;
  auto x = [&](size_t i) {
    return points.size() > 1 ? left + step_x * static_cast<double>(i) : (left + kWidth - kRight) / 2;
  };
  auto y = [&](double v) {
    return bottom - (v / 2 - range.low / 2) / (range.high / 2 - range.low / 2) * (bottom - top);
  };
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kWidth << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << kWidth << ' ' << height
      << "\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\"><title>" << escape_xml(title)
      << "</title><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/><text x=\"8\" y=\"20\" font-size=\"14\" "
         "font-weight=\"bold\">"
      << escape_xml(title) << "</text><line x1=\"" << left << "\" y1=\"" << bottom << "\" x2=\"" << kWidth - kRight
      << "\" y2=\"" << bottom << "\" stroke=\"#444\"/><line x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left
      << "\" y2=\"" << bottom << "\" stroke=\"#444\"/>";
  for (const double t : ticks(range.low, range.high)) {
    out << "<text x=\"" << left - 6 << "\" y=\"" << y(t) + 4 << "\" text-anchor=\"end\">" << format_number(t, 4)
        << "</text>";
  }
  out << "<text x=\"12\" y=\"" << (top + bottom) / 2 << "\" transform=\"rotate(-90 12 " << (top + bottom) / 2
      << ")\" text-anchor=\"middle\" fill=\"#444\">" << escape_xml(unit) << "</text>";
  Lanes change_labels;  // change points close together get their labels one under another
  for (const size_t c : changes) {
    if (c == 0 || c >= points.size()) continue;
    const double cx = (x(c - 1) + x(c)) / 2;
    const size_t lane = change_labels.place(cx + 3, cx + 3 + text_width("change"));
    out << "<line class=\"change\" x1=\"" << cx << "\" y1=\"" << top << "\" x2=\"" << cx << "\" y2=\"" << bottom
        << "\" stroke=\"#c0392b\" stroke-dasharray=\"5,3\"/><text x=\"" << cx + 3 << "\" y=\""
        << top + 10 + kLaneHeight * static_cast<double>(lane) << "\" fill=\"#c0392b\">change</text>";
  }
  if (points.size() > 1) {
    out << "<polyline fill=\"none\" stroke=\"#2c7fb8\" stroke-width=\"1.5\" points=\"";
    for (size_t i = 0; i < points.size(); ++i) out << x(i) << ',' << y(points[i].value) << ' ';
    out << "\"/>";
  }
  const size_t label_every = std::max<size_t>(1, points.size() / 8);
  Lanes commit_labels;  // a label that would touch the one before it is left out (each point names itself on hover)
  for (size_t i = 0; i < points.size(); ++i) {
    out << "<circle class=\"sample\" cx=\"" << x(i) << "\" cy=\"" << y(points[i].value)
        << "\" r=\"3\" fill=\"#2c7fb8\"><title>" << escape_xml(points[i].label) << ": "
        << format_number(points[i].value, 6) << "</title></circle>";
    const auto label = shorten(points[i].label, 8, 7);
    const double half = text_width(label) / 2;
    if (i % label_every == 0 && commit_labels.clear(0, x(i) - half, x(i) + half)) {
      commit_labels.place(x(i) - half, x(i) + half);
      out << "<text x=\"" << x(i) << "\" y=\"" << bottom + 16 << "\" text-anchor=\"middle\" fill=\"#444\">"
          << escape_xml(label) << "</text>";
    }
  }
  return out.str() + "</svg>";
}

}  // namespace perfgate::svg
