#include "render/flame_graph.h"

#include "base/xml_escape.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace perfgate {
namespace {

struct Frame {
  std::string name;
  double after = 0.0, before = 0.0;  // instructions of this frame's path, on each side
  int depth = 0;
  double x = 0.0;  // left edge, in instructions of the after step
};

using Callees = std::map<std::string, std::map<std::string, int64_t>>;  // caller → callee → instructions

Callees callees_of(const FunctionProfile& p) {
  Callees out;
  for (const auto& [edge, count] : p.calls) out[edge.first][edge.second] += count;
  return out;
}

std::vector<std::string> roots_of(const FunctionProfile& p) {
  std::set<std::string> called;
  for (const auto& [edge, count] : p.calls) called.insert(edge.second);
  std::vector<std::string> roots;
  for (const auto& [name, cost] : p.functions) {
    if (!called.count(name) && cost.inclusive > 0) roots.push_back(name);
  }
  return roots;
}

double inclusive_of(const FunctionProfile& p, const std::string& name) {
  const auto f = p.functions.find(name);
  return f == p.functions.end() ? 0.0 : static_cast<double>(f->second.inclusive);
}

class Layout {
 public:
  Layout(const FunctionProfile& before, const FunctionProfile& after, const FlameGraphOptions& options)
      : before_(before),
        after_(after),
        before_calls_(callees_of(before)),
        after_calls_(callees_of(after)),
        options_(options),
        min_width_(options.min_share * static_cast<double>(std::max<int64_t>(after.total, 1))) {}

  std::vector<Frame> frames() {
    auto roots = roots_of(after_);
    if (roots.empty() &&
        !after_.functions.empty()) {  // every function is called (a cycle at the top): start at the widest
      const auto widest =
          std::max_element(after_.functions.begin(), after_.functions.end(),
                           [](const auto& x, const auto& y) { return x.second.inclusive < y.second.inclusive; });
      roots.push_back(widest->first);
    }
    double x = 0.0;
    std::vector<std::string> path;
    for (const auto& root : roots) {
      const double a = inclusive_of(after_, root);
      place(root, a, inclusive_of(before_, root), 0, x, path);
      x += a;
    }
    return frames_;
  }

 private:
  void place(const std::string& name, double after, double before, int depth, double x,
             std::vector<std::string>& path) {
    if (after < min_width_ || depth >= options_.max_depth || frames_.size() >= kMaxFrames || visits_ >= kMaxVisits)
      return;
    if (std::find(path.begin(), path.end(), name) != path.end()) return;  // a cycle through merged recursion levels
    frames_.push_back({name, after, before, depth, x});
    path.push_back(name);
    place_callees(name, after, before, depth, x, path);
    path.pop_back();
  }

  void place_callees(const std::string& name, double after, double before, int depth, double x,
                     std::vector<std::string>& path) {
    // This frame's share of the function's calls on each side: the function's whole inclusive cost is split among
    // its callers' frames, and its callees' costs with it.
    const double after_scale = after / std::max(inclusive_of(after_, name), 1.0);
    const double before_scale = before / std::max(inclusive_of(before_, name), 1.0);
    const auto found = after_calls_.find(name);
    if (found == after_calls_.end()) return;
    const auto before_found = before_calls_.find(name);
    // Callees never wider than their caller together, whatever a kept profile claims: so each row holds at most
    // 1 / min_share frames, and the drawing stays linear in its depth.
    double callees_after = 0.0;
    for (const auto& [callee, count] : found->second) callees_after += static_cast<double>(count) * after_scale;
    const double fit = callees_after > after ? after / callees_after : 1.0;
    double child_x = x;
    for (const auto& [callee, count] : found->second) {  // alphabetical, as flame graphs order siblings
      if (frames_.size() >= kMaxFrames || ++visits_ >= kMaxVisits) return;
      const double callee_after = static_cast<double>(count) * after_scale * fit;
      if (callee_after < min_width_) {
        child_x += callee_after;
        continue;  // too narrow to draw: neither it nor its callees are visited
      }
      double callee_before = 0.0;
      if (before_found != before_calls_.end()) {
        const auto b = before_found->second.find(callee);
        if (b != before_found->second.end()) callee_before = static_cast<double>(b->second) * before_scale;
      }
      place(callee, callee_after, callee_before, depth + 1, child_x, path);
      child_x += callee_after;
    }
  }

  static constexpr size_t kMaxFrames = 20000;
  static constexpr size_t kMaxVisits = 2000000;  // edges looked at: bounds the work on any profile, however wide
  size_t visits_ = 0;

  const FunctionProfile& before_;
  const FunctionProfile& after_;
  Callees before_calls_, after_calls_;
  FlameGraphOptions options_;
  double min_width_;
  std::vector<Frame> frames_;
};

std::string fill_of(double delta, double largest) {
  const double t = largest > 0.0 ? std::min(1.0, std::fabs(delta) / largest) : 0.0;
  const int strong = static_cast<int>(std::lround(235.0 - 175.0 * t));  // the other two channels fade as the move grows
  std::ostringstream out;
  if (delta > 0.0)
    out << "rgb(235," << strong << ',' << strong << ')';
  else if (delta < 0.0)
    out << "rgb(" << strong << ',' << strong << ",235)";
  else
    out << "rgb(235,235,235)";
  return out.str();
}

std::string count_text(double v) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(0) << v;
  return out.str();
}

}  // namespace

std::string differential_flame_graph(const std::string& title, const FunctionProfile& before,
                                     const FunctionProfile& after, const FlameGraphOptions& options) {
  const auto frames = Layout(before, after, options).frames();
  int depth = 0;
  double largest = 0.0;
  for (const auto& f : frames) {
    depth = std::max(depth, f.depth + 1);
    largest = std::max(largest, std::fabs(f.after - f.before));
  }
  constexpr int kRow = 17, kTop = 44, kBottom = 10;
  const int width = options.width;
  const int height = kTop + depth * kRow + kBottom;
  const double scale = (width - 20.0) / std::max(static_cast<double>(after.total), 1.0);
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << ' ' << height
      << "\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\"><title>" << escape_xml(title) << "</title>"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/><text x=\"10\" y=\"18\" font-size=\"14\" "
         "font-weight=\"bold\">"
      << escape_xml(title) << "</text><text x=\"10\" y=\"34\" fill=\"#555\">width: instructions per step after ("
      << after.total << "); red: more than before, blue: fewer; the stronger, the larger the move</text>";
  for (const auto& f : frames) {
    const double x = 10.0 + f.x * scale, w = f.after * scale;
    const double y = height - kBottom - (f.depth + 1) * kRow;  // the root at the bottom, callees above their callers
    const double delta = f.after - f.before;
    out << "<g><title>" << escape_xml(f.name) << ": " << count_text(f.before) << " -> " << count_text(f.after)
        << " instructions (" << (delta > 0 ? "+" : "") << count_text(delta) << ")</title><rect x=\"" << std::fixed
        << std::setprecision(2) << x << "\" y=\"" << y << "\" width=\"" << std::max(w - 0.5, 0.5) << "\" height=\""
        << kRow - 1 << "\" fill=\"" << fill_of(delta, largest) << "\" stroke=\"#fff\" stroke-width=\"0.5\"/>";
    const auto fits = static_cast<size_t>(std::max(0.0, (w - 6.0) / 6.5));  // characters at about 6.5 px each
    if (fits >= 3) {
      auto label = f.name.size() <= fits ? f.name : f.name.substr(0, fits - 2) + "..";
      while (!label.empty() && (static_cast<unsigned char>(label.back()) & 0x80))
        label.pop_back();  // no cut UTF-8 sequence
      out << "<text x=\"" << x + 3.0 << "\" y=\"" << y + kRow - 5 << "\">" << escape_xml(label) << "</text>";
    }
    out << "</g>";
  }
  out << "</svg>\n";
  return out.str();
}

}  // namespace perfgate
