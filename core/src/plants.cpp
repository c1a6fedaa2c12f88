// Compiled only with RECON_GATE_PLANTS (see plants.h); RECON_GATE_PLANT_NAMES comes from core/CMakeLists.txt.
#include "plants.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace recon::detail {
namespace {

std::string active_plant() {
  const char* value = std::getenv("RECON_PLANT");
  const std::string name = value ? value : "";
  if (name.empty()) return name;
  const std::string known = "," RECON_GATE_PLANT_NAMES ",";
  if (name.find(',') != std::string::npos || known.find("," + name + ",") == std::string::npos) {
    std::fprintf(stderr, "error: RECON_PLANT=%s is not a plant (known: %s)\n", name.c_str(), RECON_GATE_PLANT_NAMES);
    std::exit(2);
  }
  return name;
}

}  // namespace

bool planted(std::string_view plant) {
  static const std::string active = active_plant();
  return active == plant;
}

}  // namespace recon::detail
