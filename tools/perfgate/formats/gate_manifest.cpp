#include "formats/gate_manifest.h"

#include "base/error.h"
#include "base/json_input.h"
#include "base/json_reader.h"
#include "base/read_file.h"
#include "model/simulated_cache.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

namespace perfgate {
namespace {

const char* const kKind = "a perfgate gate manifest";

bool is_comment(const std::string& key) {
  return key == "about" || key == "reason" || (key.size() > 7 && key.compare(key.size() - 7, 7, "_reason") == 0);
}

bool has(const nlohmann::json& object, const std::string& key) { return object.contains(key); }

// Printable text without control characters (NUL included), not empty: names, arguments and paths.
std::string plain_text(const JsonReader& r, const nlohmann::json& object, const std::string& key,
                       const std::string& where) {
  const auto v = r.text(object, key, where);
  if (v.empty()) r.fail(where + "." + key + " is empty");
  for (const unsigned char c : v) {
    if (c < 0x20 || c == 0x7f) r.fail(where + "." + key + " holds a control character");
  }
  return v;
}

std::string identifier(const JsonReader& r, const nlohmann::json& object, const std::string& key,
                       const std::string& where) {
  const auto v = plain_text(r, object, key, where);
  static const std::regex shape("[a-z0-9_]{1,64}");
  if (!std::regex_match(v, shape)) r.fail(where + "." + key + " '" + v + "' is not 1 to 64 of a-z, 0-9 and _");
  return v;
}

std::vector<std::string> words(const JsonReader& r, const nlohmann::json& object, const std::string& key,
                               const std::string& where, bool allow_empty_array) {
  const auto& list = r.array(object, key, where);
  if (list.empty() && !allow_empty_array) r.fail(where + "." + key + " is empty");
  std::vector<std::string> out;
  for (size_t i = 0; i < list.size(); ++i) {
    const nlohmann::json holder = {{"item", list[i]}};
    out.push_back(plain_text(r, holder, "item", where + "." + key + "[" + std::to_string(i) + "]"));
  }
  return out;
}

double number_in(const JsonReader& r, const nlohmann::json& object, const std::string& key, const std::string& where,
                 double low, double high) {
  const double v = r.number(object, key, where);
  if (v < low || v > high)
    r.fail(where + "." + key + " is not from " + std::to_string(low) + " to " + std::to_string(high));
  return v;
}

// The simulated caches: {"LL": {"bytes": B, "ways": W, "line_bytes": L}, ...}.
std::vector<SimulatedCache> cache_options(const JsonReader& r, const nlohmann::json& cache, const std::string& where) {
  r.only_members(cache, {"I1", "D1", "LL"}, where, is_comment);
  std::vector<SimulatedCache> out;
  for (const auto& level : {"I1", "D1", "LL"}) {
    if (!has(cache, level)) continue;
    const auto& spec = cache.at(level);
    const std::string at = where + "." + level;
    r.only_members(spec, {"bytes", "ways", "line_bytes"}, at, is_comment);
    const auto bytes = r.count(spec, "bytes", at, 0, int64_t{1} << 40);
    const auto ways = r.count(spec, "ways", at, 0, 1 << 20);
    const auto line = r.count(spec, "line_bytes", at, 0, 1 << 20);
    try {
      out.push_back(simulated_cache(level, bytes, ways, line, at));
    } catch (const InputError& e) {
      r.fail(e.what());
    }
  }
  return out;
}

GateBuild read_build(const JsonReader& r, const nlohmann::json& b, const std::string& where) {
  r.only_members(b, {"steps", "directory"}, where, is_comment);
  GateBuild build;
  build.directory = plain_text(r, b, "directory", where);
  if (std::filesystem::path(build.directory).is_absolute())
    r.fail(where + ".directory is absolute; it is relative to the checkout's root");
  const auto normal = std::filesystem::path(build.directory).lexically_normal();
  if (normal.empty() || *normal.begin() == "..")
    r.fail(where + ".directory '" + build.directory + "' is not a folder inside the checkout");
  const auto& steps = r.array(b, "steps", where);
  if (steps.empty()) r.fail(where + ".steps is empty");
  for (size_t i = 0; i < steps.size(); ++i) {
    const nlohmann::json holder = {{"step", steps[i]}};
    build.steps.push_back(words(r, holder, "step", where + ".steps[" + std::to_string(i) + "]", false));
  }
  return build;
}

Gate read_gate(const JsonReader& r, const nlohmann::json& g, const std::string& where) {
  Gate gate;
  const auto kind = r.one_of(g, "kind", where, {"baseline", "speedup", "cost", "bars", "profile"});
  const std::set<std::string> common = {"name", "kind", "label", "command", "targets", "timeout_seconds"};
  std::set<std::string> allowed = common;
  if (kind == "baseline") {
    allowed.insert("shares_machine");
  } else if (kind == "speedup") {
    gate.kind = GateKind::speedup;
    allowed.insert({"reference", "candidate", "floor", "aim", "repetitions", "more_repetitions", "more_seconds",
                    "series", "compare_baseline"});
  } else if (kind == "cost") {
    gate.kind = GateKind::cost;
    allowed.insert({"cache", "suite", "whole"});
  } else if (kind == "bars") {
    gate.kind = GateKind::bars;
    allowed.insert("benchmarks");
  } else if (kind == "profile") {
    gate.kind = GateKind::profile;
    allowed.insert({"per", "per_name", "top"});
  }
  r.only_members(g, allowed, where, is_comment);
  gate.name = identifier(r, g, "name", where);
  const std::string at = where + " (" + gate.name + ")";
  const bool judged = gate.kind != GateKind::bars && gate.kind != GateKind::profile;
  if (judged || has(g, "label")) gate.label = identifier(r, g, "label", at);
  gate.command = words(r, g, "command", at, false);
  if (has(g, "targets")) gate.targets = words(r, g, "targets", at, true);
  if (has(g, "timeout_seconds")) gate.timeout_seconds = number_in(r, g, "timeout_seconds", at, 1.0, 86400.0);
  if (gate.kind == GateKind::baseline && has(g, "shares_machine"))
    gate.shares_machine = r.flag(g, "shares_machine", at);
  if (gate.kind == GateKind::cost) gate.shares_machine = true;  // instruction counts, whatever runs beside them
  if (gate.kind == GateKind::speedup) {
    gate.reference = plain_text(r, g, "reference", at);
    gate.candidate = plain_text(r, g, "candidate", at);
    if (gate.reference == gate.candidate) r.fail(at + ": reference and candidate are the same benchmark");
    gate.floor = number_in(r, g, "floor", at, 1e-6, 1e6);
    if (has(g, "aim")) {
      gate.aim = number_in(r, g, "aim", at, 1e-6, 1e6);
      if (*gate.aim <= gate.floor)
        r.fail(at + ": aim " + std::to_string(*gate.aim) + " is not above floor " + std::to_string(gate.floor));
    }
    // The paired verdict needs 6 pairs at least (its sign-test interval); fewer could never decide.
    gate.repetitions = static_cast<int>(r.count(g, "repetitions", at, 6, 10000));
    if (has(g, "more_repetitions") != has(g, "more_seconds"))
      r.fail(at + ": more_repetitions and more_seconds go together");
    if (has(g, "more_repetitions")) {
      gate.more_repetitions = static_cast<int>(r.count(g, "more_repetitions", at, 1, 10000));
      gate.more_seconds = number_in(r, g, "more_seconds", at, 1.0, 86400.0);
    }
    if (has(g, "series")) gate.series = identifier(r, g, "series", at);
    if (has(g, "compare_baseline")) gate.compare_baseline = r.flag(g, "compare_baseline", at);
  } else if (gate.kind == GateKind::cost) {
    if (has(g, "cache")) gate.cache = cache_options(r, g.at("cache"), at + ".cache");
    if (has(g, "suite")) gate.suite = r.flag(g, "suite", at);
    if (has(g, "whole")) gate.whole = plain_text(r, g, "whole", at);
    if (gate.suite && !gate.whole.empty()) r.fail(at + ": suite and whole measure two different things; give one");
  } else if (gate.kind == GateKind::bars) {
    gate.benchmarks = words(r, g, "benchmarks", at, false);
  } else if (gate.kind == GateKind::profile) {
    if (std::count(gate.command.begin(), gate.command.end(), "{trace}") != 1)
      r.fail(at + ".command must hold \"{trace}\" once: where the trace's path goes");
    if (has(g, "per")) gate.per = static_cast<int>(r.count(g, "per", at, 1, 1000000));
    if (has(g, "per_name")) gate.per_name = identifier(r, g, "per_name", at);
    if (has(g, "top")) gate.top = static_cast<int>(r.count(g, "top", at, 1, 1000));
  }
  return gate;
}

}  // namespace

std::string to_string(GateKind kind) {
  switch (kind) {
    case GateKind::baseline:
      return "baseline";
    case GateKind::speedup:
      return "speedup";
    case GateKind::cost:
      return "cost";
    case GateKind::bars:
      return "bars";
    case GateKind::profile:
      return "profile";
  }
  return "?";
}

GateManifest parse_gate_manifest(const std::string& text, const std::string& path) {
  const auto doc = parse_json_input(text, path);
  const JsonReader r(path, kKind);
  // The version first: a manifest of another version is named as such, not by its first unfamiliar member.
  const auto version = r.count(doc, "schema_version", "the manifest", 1, 1000000);
  if (version != kGateManifestVersion) {
    r.fail("schema_version " + std::to_string(version) + " (this perfgate reads version " +
           std::to_string(kGateManifestVersion) + "; docs/reference/gate-manifest.md says what changed)");
  }
  r.only_members(doc, {"schema_version", "baseline_path", "environment", "build", "gates", "selftest"}, "the manifest",
                 is_comment);
  GateManifest m;
  m.path = path;
  m.folder = std::filesystem::absolute(path).parent_path().lexically_normal().string();
  m.baseline_path = plain_text(r, doc, "baseline_path", "the manifest");
  if (m.baseline_path.find("{name}") == std::string::npos)
    r.fail("baseline_path has no {name}: every gate would share one baseline");
  if (has(doc, "environment")) {
    m.environment = words(r, doc, "environment", "the manifest", true);
    for (const auto& e : m.environment) {
      static const std::regex shape("[A-Za-z_][A-Za-z0-9_]*=.*");
      if (!std::regex_match(e, shape)) r.fail("environment entry '" + e + "' is not NAME=value");
    }
  }
  if (has(doc, "build")) m.build = read_build(r, doc.at("build"), "build");
  const auto& gates = r.array(doc, "gates", "the manifest");
  if (gates.empty()) r.fail("gates is empty");
  std::set<std::string> names;
  for (size_t i = 0; i < gates.size(); ++i) {
    auto gate = read_gate(r, gates[i], "gates[" + std::to_string(i) + "]");
    if (!names.insert(gate.name).second) r.fail("two gates are named '" + gate.name + "'");
    if (!gate.series.empty() && !names.insert(gate.series).second)
      r.fail("series '" + gate.series + "' is also a gate's name");
    m.gates.push_back(std::move(gate));
  }
  if (has(doc, "selftest")) {
    const auto& t = doc.at("selftest");
    r.only_members(t, {"build", "sets"}, "selftest", is_comment);
    Selftest selftest;
    std::set<std::string> checked;  // a gate is a check once: its arguments there are the self-test's
    selftest.build = read_build(r, r.member(t, "build", "selftest"), "selftest.build");
    const auto& sets = r.array(t, "sets", "selftest");
    if (sets.empty()) r.fail("selftest.sets is empty");
    for (size_t k = 0; k < sets.size(); ++k) {
      const std::string set_at = "selftest.sets[" + std::to_string(k) + "]";
      r.only_members(sets[k], {"plants", "checks"}, set_at, is_comment);
      PlantSet set;
      set.plants = plain_text(r, sets[k], "plants", set_at);
      const auto& checks = r.array(sets[k], "checks", set_at);
      if (checks.empty()) r.fail(set_at + ".checks is empty");
      for (size_t i = 0; i < checks.size(); ++i) {
        const std::string at = set_at + ".checks[" + std::to_string(i) + "]";
        r.only_members(checks[i], {"gate", "arguments", "command", "targets"}, at, is_comment);
        SelftestCheck check;
        if (has(checks[i], "gate") == has(checks[i], "command"))
          r.fail(at + " needs a gate or a command (one of them)");
        if (has(checks[i], "gate")) {
          if (has(checks[i], "targets")) r.fail(at + ": a gate's targets are the gate's own");
          check.gate = identifier(r, checks[i], "gate", at);
          if (names.count(check.gate) == 0 || m.gate(check.gate).kind == GateKind::bars ||
              m.gate(check.gate).kind == GateKind::profile) {
            r.fail(at + ".gate '" + check.gate + "' is not a judged gate of the manifest");
          }
          if (!checked.insert(check.gate).second) r.fail(at + ".gate '" + check.gate + "' is a check already");
          if (has(checks[i], "arguments")) check.arguments = words(r, checks[i], "arguments", at, true);
        } else {
          if (has(checks[i], "arguments")) r.fail(at + ": a command's arguments are in the command");
          check.command = words(r, checks[i], "command", at, false);
          if (has(checks[i], "targets")) check.targets = words(r, checks[i], "targets", at, true);
        }
        set.checks.push_back(std::move(check));
      }
      selftest.sets.push_back(std::move(set));
    }
    m.selftest = std::move(selftest);
  }
  return m;
}

GateManifest read_gate_manifest(const std::string& path) {
  return parse_gate_manifest(read_whole_file(path, "gate manifest"), path);
}

std::string GateManifest::baseline_of(const std::string& name, const std::string& label) const {
  std::string p = baseline_path;
  for (const auto& [key, value] : std::map<std::string, std::string>{{"{name}", name}, {"{label}", label}}) {
    for (auto at = p.find(key); at != std::string::npos; at = p.find(key, at + value.size()))
      p.replace(at, key.size(), value);
  }
  return (std::filesystem::path(folder) / p).lexically_normal().string();
}

const Gate& GateManifest::gate(const std::string& name) const {
  std::string list;
  for (const auto& g : gates) {
    if (g.name == name) return g;
    list += (list.empty() ? "" : ", ") + g.name;
  }
  throw InputError(path + ": no gate named '" + name + "' (its gates: " + list + ")");
}

std::vector<std::string> resolve_command(const Gate& gate, const std::string& build_folder) {
  auto argv = gate.command;
  const std::string build = std::filesystem::absolute(build_folder).lexically_normal().string();
  for (auto& word : argv) {
    for (size_t at = word.find("{build}"); at != std::string::npos; at = word.find("{build}", at + build.size()))
      word.replace(at, 7, build);
  }
  if (argv[0] == "{perfgate}") {
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) throw InputError("gate " + gate.name + ": cannot tell where this perfgate is, for {perfgate}");
    argv[0] = self.string();
  } else if (!std::filesystem::path(argv[0]).is_absolute()) {
    argv[0] = (std::filesystem::path(build) / argv[0]).lexically_normal().string();
  }
  return argv;
}

std::string pair_filter(const Gate& g) {
  return "--benchmark_filter=^(" + regex_literal(g.reference) + "|" + regex_literal(g.candidate) + ")$";
}

std::vector<std::string> interleaved_pair_command(const Gate& g, const std::string& build_folder, int repetitions) {
  auto argv = resolve_command(g, build_folder);
  argv.insert(argv.end(), {pair_filter(g), "--benchmark_repetitions=" + std::to_string(repetitions),
                           "--benchmark_enable_random_interleaving=true"});
  return argv;
}

std::string regex_literal(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace perfgate
