#pragma once
// The gate manifest: a project's gates written once as data (docs/reference/gate-manifest.md). `perfgate gate` runs
// and judges them, `perfgate report --manifest` reports them, `perfgate ab --manifest` builds and runs their
// commands, and the installed CMake package registers one ctest test per gate from it. Nothing here knows a project:
// every command, benchmark, threshold and path comes from the file.
#include "model/simulated_cache.h"

#include <optional>
#include <string>
#include <vector>

namespace perfgate {

/// The manifest versions perfgate reads (the schema_version member).
constexpr int kGateManifestVersion = 2;

enum class GateKind {
  baseline,  ///< a Google Benchmark suite judged against its baseline
  speedup,   ///< two benchmarks measured interleaved in one run; their paired speedup judged at a floor (and an aim)
  cost,      ///< a program run under callgrind; its instructions and cycle estimates per step judged against a baseline
  bars,      ///< benchmarks measured once and shown side by side in the report; never a verdict
  profile,   ///< a program that records a Chrome trace; its operators by time printed and the trace kept; never a
             ///< verdict
};
std::string to_string(GateKind kind);

struct Gate {
  std::string name;   ///< [a-z0-9_]+: the results file <results>/<name>.json and the ctest test <label>.<name>
  std::string label;  ///< [a-z0-9_]+: the ctest label
  GateKind kind = GateKind::baseline;
  /// The program and its arguments. The program is relative to the build folder unless absolute (a program on PATH
  /// is run through /usr/bin/env).
  std::vector<std::string> command;
  std::vector<std::string> targets;  ///< build targets the command needs ("{targets}" in the build steps)
  double timeout_seconds = 600.0;    ///< each measuring command's time limit (measuring more has its own budget)
  /// Its figures do not depend on what else runs on the machine, so a test runner may run it beside other tests: true
  /// for a cost gate (instruction counts), and for a baseline gate that says so (counts, accuracy, memory), whose
  /// baseline may then hold no timing (perfgate gate refuses one that does); false for every gate that times.
  bool shares_machine = false;
  // speedup
  std::string reference, candidate;
  double floor = 0.0;
  std::optional<double> aim;
  int repetitions = 0, more_repetitions = 0;
  double more_seconds = 0.0;
  std::string series;             ///< non-empty: the speedup is also a baselined series of this name
  bool compare_baseline = false;  ///< speedup: the same run is also judged against the gate's own baseline
  // cost
  std::vector<SimulatedCache> cache;  ///< the caches callgrind simulates (none: the machine's)
  bool suite = false;  ///< the command is an unchanged Google Benchmark suite, measured per iteration (cost_runner.h)
  std::string whole;   ///< non-empty: the command marks nothing; its whole run is one step of this benchmark
  // bars
  std::vector<std::string> benchmarks;  ///< names (or name prefixes) shown, in order
  // profile: the command holds "{trace}" where the trace's path goes
  int per = 1, top = 20;  ///< times divided by `per` (named `per_name`), `top` operators listed
  std::string per_name = "run";
};

/// How a revision of the project is built (perfgate ab, selftest): each step runs in the checkout's root; an argument
/// "{targets}" stands for the targets of the gates used; when they name none, it is dropped, and so is the option
/// before it (e.g. "--target"), so that the step builds everything.
struct GateBuild {
  std::vector<std::vector<std::string>> steps;
  std::string directory;  ///< the build folder, relative to the checkout's root
};

/// One check of the self-test: a gate, with arguments appended to its command for the self-test only (to measure a
/// subset of its benchmarks; rows of the baseline not measured read MISSING and are neither catches nor failures); or
/// a command run in the build folder (a test suite), which passes with exit status 0, and the targets it needs.
struct SelftestCheck {
  std::string gate;
  std::vector<std::string> arguments;
  std::vector<std::string> command, targets;
};

/// Plants (patches in `plants`, relative to the manifest) and the checks one of which each must fail.
struct PlantSet {
  std::string plants;
  std::vector<SelftestCheck> checks;
};

/// The self-test (perfgate selftest): a copy of the tree built with `build` must pass every set's checks, and each
/// plant applied to it must fail one of its set's.
struct Selftest {
  GateBuild build;
  std::vector<PlantSet> sets;
};

struct GateManifest {
  std::string path;                      ///< the file, as given
  std::string folder;                    ///< its folder, absolute: relative paths in the manifest start here
  std::string baseline_path;             ///< template with {name} and {label}
  std::vector<std::string> environment;  ///< NAME=value for every command the gates run
  std::optional<GateBuild> build;
  std::vector<Gate> gates;
  std::optional<Selftest> selftest;

  /// The baseline file of a gate (or of a speedup's series: `name` is then the series), absolute.
  std::string baseline_of(const std::string& name, const std::string& label) const;
  /// The gate of that name; throws InputError listing the names when there is none.
  const Gate& gate(const std::string& name) const;
};

/// Reads and checks a manifest. Throws InputError naming the file and the member for anything unexpected: another
/// schema_version, an unknown member (a misspelt key is never silently ignored; members ending in _reason and
/// "about" are comments), a wrong type, a number out of its range, two gates of one name, a kind's required member
/// missing or another kind's present.
GateManifest read_gate_manifest(const std::string& path);
GateManifest parse_gate_manifest(const std::string& text, const std::string& path);

/// The gate's program with its arguments: "{build}" in any word replaced by `build_folder` (absolute); the program
/// "{perfgate}" replaced by the perfgate running (so that a gate runs perfgate's own runners, perfgate catch2 and
/// perfgate time, wherever perfgate is installed), any other resolved against the build folder unless absolute.
std::vector<std::string> resolve_command(const Gate& gate, const std::string& build_folder);

/// A speedup gate's pair as one --benchmark_filter argument, matching the two names exactly.
std::string pair_filter(const Gate& gate);

/// A speedup gate's command measuring its pair `repetitions` times, interleaved at random in one process: the one way
/// perfgate runs a pair (gate, measuring more, calibrate).
std::vector<std::string> interleaved_pair_command(const Gate& gate, const std::string& build_folder, int repetitions);

/// `text` as a Google Benchmark filter (an extended regular expression) matching it literally.
std::string regex_literal(const std::string& text);

}  // namespace perfgate
