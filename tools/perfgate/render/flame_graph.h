#pragma once
// A differential flame graph of one measured step as a standalone SVG: the call tree of the `after` profile, each
// frame as wide as its inclusive instructions after the change and coloured by how its instructions moved (red: more,
// blue: fewer, pale: unchanged). callgrind records calls between pairs of functions, not whole stacks, so a function's
// cost under a caller is split among its callees in proportion to the calls it made to each (the usual approximation
// for a flame graph from a call graph; exact where a function has one caller). Every name is escaped; no script.
#include "model/function_profile.h"

#include <string>

namespace perfgate {

struct FlameGraphOptions {
  double min_share = 0.002;  ///< frames narrower than this share of the step are not drawn
  int max_depth = 48;
  int width = 1200;
};

std::string differential_flame_graph(const std::string& title, const FunctionProfile& before,
                                     const FunctionProfile& after, const FlameGraphOptions& options = {});

}  // namespace perfgate
