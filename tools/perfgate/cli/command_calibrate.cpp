// perfgate calibrate: A/A runs on this machine — from results files already captured, or by running a benchmark
// command N times — and the noise, suggested tolerance and smallest detectable slowdown per benchmark.
#include "base/error.h"
#include "base/one_line.h"
#include "base/temporary_folder.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "formats/gate_manifest.h"
#include "formats/results_input.h"
#include "model/calibrate.h"
#include "run/benchmark_runner.h"
#include "run/progress.h"

#include <unistd.h>

#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace perfgate {
namespace {

std::string percent(double v) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << 100.0 * v << " %";
  return out.str();
}

void print(const Calibration& c, const CalibrateArgs& a) {
  std::cout << "A/A calibration over " << (a.command.empty() ? a.results.size() : static_cast<size_t>(a.runs))
            << " runs of " << a.field << "; tolerance for a " << percent(a.false_alarm_rate)
            << " false-alarm rate, slowdown detectable with " << percent(a.power)
            << " power (base-vs-head comparison of two runs)\n";
  std::cout << std::left << std::setw(58) << "benchmark" << std::setw(8) << "runs" << std::setw(14) << "median"
            << std::setw(12) << "between" << std::setw(12) << "within" << std::setw(12) << "tolerance" << std::setw(13)
            << "detectable" << std::setw(13) << "noise band"
            << "flags\n";
  for (const auto& n : c.benchmarks) {
    std::ostringstream median;
    median << std::setprecision(5) << n.median << ' ' << n.unit;
    std::string flags;
    for (const auto& f : n.flags) flags += (flags.empty() ? "" : ",") + f;
    std::cout << std::left << std::setw(58) << one_line(n.benchmark) << std::setw(8) << n.runs << std::setw(14)
              << median.str() << std::setw(12) << percent(n.between_run_sigma) << std::setw(12)
              << percent(n.within_run_cv) << std::setw(12) << percent(n.suggested_tolerance) << std::setw(13)
              << percent(n.detectable_slowdown) << std::setw(13) << percent(n.noise_band)
              << (flags.empty() ? "-" : flags) << '\n';
  }
  std::cout << "noise band: what update --track " << a.field
            << ":lower:noise learns from these runs (one-sided 99 % prediction interval of one more run, at least "
               "5 %); tolerance: the fixed band for a 2-run comparison at this false-alarm rate\n";
  if (c.speedup) {
    const auto& s = *c.speedup;
    std::cout << "speedup " << one_line(a.reference) << " / " << one_line(a.candidate) << ": run medians "
              << std::setprecision(4) << s.low << " .. " << s.high << " (median " << s.median << ", sigma of log "
              << std::setprecision(3) << s.sigma << ")";
    if (a.threshold > 0.0) {
      std::cout << "; against " << a.threshold << "x: " << s.passes << " PASS, " << s.fails << " FAIL, "
                << s.inconclusive << " INCONCLUSIVE (false-alarm rate "
                << percent(static_cast<double>(s.fails + s.inconclusive) / static_cast<double>(s.runs.size()))
                << " of runs)";
    }
    std::cout << '\n';
  }
}

}  // namespace

Command add_calibrate_command(CLI::App& app, CalibrateArgs& a) {
  Command cmd(app, "calibrate", "A/A noise per benchmark: suggested tolerances and the smallest detectable slowdown");
  cmd.footer(
      command_footer("perfgate calibrate --runs 10 -- build/sort_benchmarks --benchmark_repetitions=3", {Exit::pass}));
  cmd.option("--results", a.results, "results of identical runs (>= 3), instead of running a command");
  cmd.option("--runs", a.runs, "run the command this many times (>= 3)").in_range(3, 1000);
  cmd.option("--field", a.field, "the measured field").show_default();
  cmd.option("--false-alarm-rate", a.false_alarm_rate, "one-sided false-alarm rate").show_default().in_range(1e-6, 0.5);
  cmd.option("--power", a.power, "detection probability").show_default().in_range(0.5, 0.999999);
  cmd.option("--reference", a.reference, "also calibrate the paired speedup of this benchmark ...");
  cmd.option("--candidate", a.candidate, "... over this one");
  cmd.option("--threshold", a.threshold, "judge each run's speedup against this threshold (A/A false alarms)")
      .positive();
  cmd.option("--manifest", a.manifest, "with --build and --gate: run that speedup gate's command, pair and floor");
  cmd.option("--build", a.build, "with --manifest: the build folder the gate's program is relative to");
  cmd.option("--gate", a.gate, "with --manifest: the speedup gate to calibrate");
  cmd.option("command", a.command, "after --: a benchmark executable and its arguments");
  return cmd;
}

int run_calibrate(const CalibrateArgs& given) {
  CalibrateArgs a = given;
  std::vector<std::string> env;  // the manifest's environment for its gate's command
  double timeout_seconds = 0.0;  // and the gate's time limit per run
  std::string tree;              // and the manifest's folder, whose commit the runs record
  if (!a.manifest.empty() || !a.build.empty() || !a.gate.empty()) {
    if (a.manifest.empty() || a.build.empty() || a.gate.empty())
      throw InputError("calibrate: --manifest, --build and --gate go together");
    if (!a.command.empty() || !a.reference.empty() || !a.candidate.empty() || a.threshold > 0.0) {
      throw InputError(
          "calibrate: the gate gives the command, --reference, --candidate and --threshold; leave them out");
    }
    const auto manifest = read_gate_manifest(a.manifest);
    const auto& gate = manifest.gate(a.gate);
    if (gate.kind != GateKind::speedup) throw InputError("calibrate: gate " + gate.name + " is not a speedup gate");
    a.command = interleaved_pair_command(gate, a.build, gate.repetitions);
    env = manifest.environment;
    timeout_seconds = gate.timeout_seconds;
    tree = manifest.folder;
    a.reference = gate.reference;
    a.candidate = gate.candidate;
    a.threshold = gate.floor;
  }
  if (a.command.empty() == a.results.empty())
    throw InputError("calibrate: give either --results files or -- COMMAND (with --runs)");
  if (a.reference.empty() != a.candidate.empty())
    throw InputError("calibrate: --reference and --candidate go together");
  if (a.threshold > 0.0 && a.reference.empty())
    throw InputError("calibrate: --threshold judges a speedup; give --reference and --candidate");
  std::vector<Results> runs;
  if (!a.results.empty()) {
    for (const auto& path : a.results) runs.push_back(read_results(path));
  } else {
    const TemporaryFolder folder("calibrate");
    Progress progress;
    for (int i = 0; i < a.runs; ++i) {
      progress.update("calibrate: run " + std::to_string(i + 1) + " of " + std::to_string(a.runs));
      runs.push_back(run_benchmark(a.command, (folder.path() / ("run" + std::to_string(i) + ".json")).string(), env,
                                   timeout_seconds, tree));
    }
  }
  CalibrationOptions options;
  options.field = a.field;
  options.false_alarm_rate = a.false_alarm_rate;
  options.power = a.power;
  if (!a.reference.empty()) options.pair = std::make_pair(a.reference, a.candidate);
  options.threshold = a.threshold;
  print(calibrate(runs, options), a);
  return code_of(Exit::pass);
}

}  // namespace perfgate
