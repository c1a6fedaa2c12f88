#include "model/machine_identity.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <sstream>

namespace perfgate {
namespace {

// FNV-1a, 64 bit: a stable short key for a description (not a security property).
std::string fnv1a_hex(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

// "L1d", "L2", ...; fields of an unexpected type count as absent (the context is informative, never judged).
std::string cache_name(const nlohmann::json& cache) {
  const auto type = cache.find("type");
  const auto level = cache.find("level");
  const std::string kind = type != cache.end() && type->is_string() ? type->get<std::string>() : std::string();
  const std::string suffix = kind == "Data" ? "d" : kind == "Instruction" ? "i" : "";
  const long long number = level != cache.end() && level->is_number_integer() ? level->get<long long>() : 0;
  return "L" + std::to_string(number) + suffix;
}

}  // namespace

std::optional<MachineIdentity> identity_from_benchmark_context(const nlohmann::json& context) {
  if (!context.is_object()) return std::nullopt;
  const auto cpus = context.find("num_cpus");
  const auto caches = context.find("caches");
  const bool has_cpus = cpus != context.end() && cpus->is_number_integer();
  const bool has_caches = caches != context.end() && caches->is_array() && !caches->empty();
  if (!has_cpus && !has_caches) return std::nullopt;
  std::ostringstream d;
  d << (has_cpus ? std::to_string(cpus->get<long long>()) : std::string("?")) << " cpu";
  if (has_caches) {
    d << '|';
    bool first = true;
    for (const auto& cache : *caches) {
      if (!cache.is_object() || !cache.contains("size") || !cache["size"].is_number_integer()) continue;
      d << (first ? "" : " ") << cache_name(cache) << ' ' << cache["size"].get<long long>() / 1024 << 'K';
      first = false;
    }
  }
  const auto build = context.find("library_build_type");
  if (build != context.end() && build->is_string()) d << "|library " << build->get<std::string>();
  // What perfgate adds where it runs a suite (run/host_context.h): the processor's model, and a name the owner gave
  // the host; either tells apart hosts that Google Benchmark's figures alone would call one.
  for (const char* key : {"cpu_name", "machine_name"}) {
    const auto value = context.find(key);
    if (value != context.end() && value->is_string() && !value->get<std::string>().empty())
      d << '|' << (std::string(key) == "machine_name" ? "name " : "") << value->get<std::string>();
  }
  MachineIdentity id;
  id.description = d.str();
  id.fingerprint = "gb-" + fnv1a_hex(id.description);
  return id;
}

}  // namespace perfgate
