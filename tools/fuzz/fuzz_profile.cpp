// callgrind output and kept function profiles: read or refused with InputError. A function's own instructions never
// exceed its inclusive ones; a profile kept and read back is the same profile; two profiles always compare and draw.
#include "base/error.h"
#include "render/flame_graph.h"
#include "model/function_changes.h"
#include "model/function_profile.h"
#include "formats/function_profile_file.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto p = perfgate::parse_function_profile(text, "fuzz");
    for (const auto& [name, cost] : p.functions) {
      if (cost.self > cost.inclusive) std::abort();
    }
    const auto back = perfgate::parse_function_profiles(perfgate::function_profile_text({{"r", p}}, 0.0), "kept");
    if (back.at("r").total != p.total || back.at("r").calls.size() > p.calls.size()) std::abort();
    perfgate::profile_changes(p, back.at("r"));
    perfgate::differential_flame_graph("fuzz", p, back.at("r"));
  } catch (const perfgate::InputError&) {
  }
  try {
    for (const auto& [region, profile] : perfgate::parse_function_profiles(text, "fuzz")) {
      perfgate::profile_changes(profile, profile);
      perfgate::differential_flame_graph(region, profile, profile);
    }
  } catch (const perfgate::InputError&) {
  }
  return 0;
}
