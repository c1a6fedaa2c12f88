// perfgate gate: runs and judges the gates a manifest declares (gate_manifest.h), in the manifest's order: each
// measuring command writes <results>/<name>.json, which is judged as perfgate compare, speedup and cost would judge it,
// with the same printed tables and fixes. --verdicts writes what was judged as verdicts.json (report_verdicts.cpp).
// Exit: the worst verdict (1 a failure, 3 inconclusive, the --unavailable-exit-code for a gate this host cannot
// measure, the --warning-exit-code for an advisory figure beyond its tolerance, 0 pass); 2 bad input, including a
// measuring command that fails. A gate this host cannot measure is said in one line and the other gates still run.
#include "base/atomic_write.h"
#include "base/error.h"
#include "base/one_line.h"
#include "base/output_files.h"
#include "base/utc_time.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "formats/function_profile_file.h"
#include "formats/gate_manifest.h"
#include "formats/gate_report.h"
#include "formats/results_input.h"
#include "gates/check_gate.h"
#include "gates/cost_gate.h"
#include "gates/profile_gate.h"
#include "gates/speedup_gate.h"
#include "history/history_backend.h"
#include "model/results.h"
#include "model/speedup_series.h"
#include "render/report_render.h"
#include "run/benchmark_runner.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>

namespace perfgate {
namespace {

std::vector<const Gate*> selected_gates(const GateManifest& m, const GateArgs& a) {
  for (const auto& name : a.only) m.gate(name);  // an unknown name is refused, listing the known ones
  std::vector<const Gate*> out;
  for (const auto& g : m.gates) {
    if (!a.only.empty() && std::find(a.only.begin(), a.only.end(), g.name) == a.only.end()) continue;
    if (!a.labels.empty() && std::find(a.labels.begin(), a.labels.end(), g.label) == a.labels.end()) continue;
    out.push_back(&g);
  }
  if (out.empty()) throw InputError("gate: no gate of " + m.path + " is selected by --only and --label");
  return out;
}

// The worse of two exit codes: a failure, then inconclusive, then a gate not measured on this host, then an advisory
// warning, then a pass.
int worse(int a, int b, const GateArgs& args) {
  for (const int code :
       {code_of(Exit::fail), code_of(Exit::inconclusive), args.unavailable_exit_code, args.warning_exit_code}) {
    if (code != code_of(Exit::pass) && (a == code || b == code)) return code;
  }
  return code_of(Exit::pass);
}

// A profile gate's trace: beside the results, not a results file (<name>.trace, Chrome's trace-event JSON).
std::string trace_of(const std::string& folder, const std::string& name) {
  return (std::filesystem::path(folder) / (name + ".trace")).string();
}

std::vector<std::string> with(std::vector<std::string> argv, const std::vector<std::string>& more) {
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

// A speedup gate judged once: its speedup at the floor (measuring more while inconclusive, pooled into its results),
// its aim reported, its run against its baseline when it compares one, and its series judged by the interval.
int run_speedup_gate(const GateManifest& m, const Gate& g, const std::string& results, const std::string& folder,
                     const GateArgs& a, ReportData& judged) {
  const auto interleaved = [&](int repetitions) { return interleaved_pair_command(g, a.build, repetitions); };
  run_benchmark(interleaved(g.repetitions), results, m.environment, g.timeout_seconds, m.folder);
  SpeedupRequest s;
  s.results = results;
  s.reference = g.reference;
  s.candidate = g.candidate;
  s.threshold = g.floor;
  s.more_seconds = g.more_seconds;
  if (g.more_repetitions > 0) s.command = interleaved(g.more_repetitions);
  s.env = m.environment;
  s.pooled_out = results;  // the repetitions measured more join the results, so that every later reader judges them all
  s.warning_exit_code = a.warning_exit_code;
  s.tree = m.folder;
  if (!g.series.empty()) {
    s.baseline = m.baseline_of(g.series, g.label);
    s.out = results_of(folder, g.series);
  }
  const auto speedup = judge_speedup_request(s);
  int code = speedup.code;
  SpeedupSection section{results, g.reference, g.candidate, speedup.report, std::nullopt, std::nullopt, g.name};
  if (g.aim) {
    SpeedupRequest aim;
    aim.results = results;
    aim.reference = g.reference;
    aim.candidate = g.candidate;
    aim.threshold = *g.aim;
    aim.aim = true;
    section.target = *g.aim;
    section.target_verdict = judge_speedup_request(aim).report.verdict;  // printed as reached or not; never a verdict
  }
  judged.speedups.push_back(section);
  if (g.compare_baseline) {
    auto check = judge_check(
        {results, m.baseline_of(g.name, g.label), interleaved(g.repetitions), a.warning_exit_code, false, a.history});
    code = worse(code, check.code, a);
    judged.checks.push_back(std::move(check.section));
  }
  if (speedup.series) {
    auto series = load_check(s.out, s.baseline);
    apply_series_verdict(series, *speedup.series, speedup_series_name(g.reference, g.candidate));
    judged.checks.push_back(std::move(series));
  }
  return code;
}

// Runs and judges one gate, adding what it judged to `judged` (verdicts.json is written from it, never judged again).
int run_one(const GateManifest& m, const Gate& g, const std::string& folder, const GateArgs& a, ReportData& judged) {
  const auto argv = resolve_command(g, a.build);
  const auto results = results_of(folder, g.name);
  std::cout << "gate " << g.name << " (" << to_string(g.kind) << (g.label.empty() ? "" : ", label " + g.label) << ")"
            << std::endl;
  const auto check = [&](const std::vector<std::string>& command) {
    auto outcome = judge_check(
        {results, m.baseline_of(g.name, g.label), command, a.warning_exit_code, g.shares_machine, a.history});
    judged.checks.push_back(std::move(outcome.section));
    return outcome.code;
  };
  switch (g.kind) {
    case GateKind::baseline:
      if (g.shares_machine) require_no_timing(m.baseline_of(g.name, g.label), g.name);
      run_benchmark(argv, results, m.environment, g.timeout_seconds, m.folder);
      return check(argv);
    case GateKind::speedup:
      return run_speedup_gate(m, g, results, folder, a, judged);
    case GateKind::cost: {
      CostRequest c;
      c.out = results;
      c.context = a.context;
      c.cache = g.cache;
      c.command = argv;
      c.env = m.environment;
      c.timeout_seconds = g.timeout_seconds;
      c.tree = m.folder;
      c.suite = g.suite;
      c.whole = g.whole;
      measure_cost_into(c);
      return check({});
    }
    case GateKind::bars: {
      std::string alternatives;
      for (const auto& b : g.benchmarks) alternatives += (alternatives.empty() ? "" : "|") + regex_literal(b);
      const auto measured = run_benchmark(with(argv, {"--benchmark_filter=^(" + alternatives + ")"}), results,
                                          m.environment, g.timeout_seconds, m.folder);
      std::set<std::string> names;
      for (const auto& r : measured.measurements) names.insert(r.benchmark);
      std::cout << "measured " << names.size() << " benchmarks into " << one_line(results) << " (shown, never gated)\n";
      if (!a.verdicts.empty()) judged.ablation = load_ablation(results);
      return code_of(Exit::pass);
    }
    case GateKind::profile: {
      ProfileRequest p;
      p.out = trace_of(folder, g.name);
      p.command = argv;
      p.per = g.per;
      p.per_name = g.per_name;
      p.top = g.top;
      p.env = m.environment;
      record_profile(p);  // the table printed, the trace kept; never a verdict
      return code_of(Exit::pass);
    }
  }
  throw std::logic_error("gate " + g.name + ": a kind of gate perfgate does not run");
}

// Before anything is measured: what the gates read and write. No output may replace an input (the manifest, a
// baseline), verdicts.json is a file of its own, and a report holds one bars section, so verdicts.json can hold only
// one.
Outputs declare_outputs(const GateManifest& m, const std::vector<const Gate*>& gates, const std::string& folder,
                        const GateArgs& a) {
  std::vector<std::string> inputs = {a.manifest};
  if (!a.history.store.empty()) {
    for (const auto& file : history_store_files(a.history.store)) inputs.push_back(file);
  }
  std::vector<std::pair<std::string, std::string>> outputs;  // (file, what)
  int bars = 0;
  for (const auto* g : gates) {
    inputs.push_back(m.baseline_of(g->name, g->label));
    outputs.emplace_back(g->kind == GateKind::profile ? trace_of(folder, g->name) : results_of(folder, g->name),
                         "gate " + g->name + "'s results");
    if (!g->series.empty()) {
      inputs.push_back(m.baseline_of(g->series, g->label));
      outputs.emplace_back(results_of(folder, g->series), "gate " + g->name + "'s series results");
    }
    bars += g->kind == GateKind::bars;
  }
  for (const auto& [file, what] : outputs) require_not_an_input(file, what, inputs);
  Outputs written("gate");
  written.read(inputs);
  if (!a.verdicts.empty()) {
    if (bars > 1) throw InputError("gate: --verdicts holds one bars gate; select them one at a time (--only)");
    written.file(a.verdicts, "--verdicts");  // the verdicts replace no input...
    // ...nor a results file this run writes, which need not exist yet: compared by path, not by file.
    const auto verdicts_path = std::filesystem::weakly_canonical(std::filesystem::absolute(a.verdicts));
    for (const auto& [file, what] : outputs) {
      if (std::filesystem::weakly_canonical(std::filesystem::absolute(file)) == verdicts_path) {
        throw InputError("gate: --verdicts '" + a.verdicts + "' is " + what +
                         "; give the verdicts a file of their own");
      }
    }
    const auto parent = std::filesystem::absolute(a.verdicts).parent_path();
    if (!std::filesystem::is_directory(parent))
      throw InputError("gate: --verdicts '" + a.verdicts + "': its folder does not exist");
  }
  written.folder(folder, "--results-dir");
  return written;
}

}  // namespace

Command add_gate_command(CLI::App& app, GateArgs& a) {
  Command cmd(app, "gate", "run and judge every gate a manifest declares (suites, speedups, callgrind costs)");
  cmd.footer(command_footer(
      "perfgate gate --manifest perf/gates.json --build build --label performance --verdicts build/verdicts.json",
      {Exit::pass, Exit::fail, Exit::inconclusive, Exit::unavailable},
      "bad input includes a measuring command that fails"));
  cmd.option("--manifest", a.manifest, "the gate manifest (JSON; docs/reference/gate-manifest.md)").required();
  cmd.option("--build", a.build, "the build folder: gates' programs are relative to it").required();
  cmd.option("--only", a.only, "run this gate only (repeatable)");
  cmd.option("--label", a.labels, "run the gates of this label only (repeatable)");
  cmd.option("--results-dir", a.results_dir, "where each gate writes <name>.json (default: <build>/results)");
  cmd.option("--verdicts", a.verdicts, "also write what was judged as verdicts.json (as perfgate report writes it)");
  cmd.option("--context", a.context, "KEY=VALUE recorded in the cost gates' results (repeatable)");
  cmd.option("--warning-exit-code", a.warning_exit_code,
             "exit with this code (0, or 7 to 255) when nothing failed but an advisory figure is beyond its tolerance")
      .zero_or_in(7, 255);
  cmd.option("--unavailable-exit-code", a.unavailable_exit_code,
             "exit with this code (6 to 255) when nothing failed but a gate cannot be measured on this host "
             "(callgrind cannot run its program here; ctest's SKIP_RETURN_CODE shows it as skipped, with the reason)")
      .in_range(6, 255);
  add_history_threshold_options(cmd, a.history);
  cmd.flag("--list", a.list, "print the selected gates (name, kind, label, timeout) and exit");
  return cmd;
}

int run_gate(const GateArgs& a) {
  const auto m = read_gate_manifest(a.manifest);
  const auto gates = selected_gates(m, a);
  if (a.list) {
    for (const auto* g : gates) {
      std::cout << g->name << ' ' << to_string(g->kind) << ' ' << (g->label.empty() ? "-" : g->label) << ' '
                << static_cast<long>(g->timeout_seconds) << '\n';
    }
    return code_of(Exit::pass);
  }
  if (!std::filesystem::is_directory(a.build)) throw InputError("gate: --build '" + a.build + "' is not a folder");
  const auto folder = a.results_dir.empty() ? (std::filesystem::path(a.build) / "results").string() : a.results_dir;
  auto written = declare_outputs(m, gates, folder, a);
  written.create(folder);  // the suites the gates run write their results into it
  int code = code_of(Exit::pass);
  ReportData judged;  // what the gates judged, once: verdicts.json is written from it
  std::vector<std::string> unmeasured;
  for (const auto* g : gates) {
    try {
      code = worse(code, run_one(m, *g, folder, a, judged), a);
    } catch (const HostUnsupported& e) {
      // Results of an earlier run at this gate's paths would read as this run's to whoever reads the folder next
      // (a report, a history record): they go, so that the gate has no results rather than stale ones.
      const auto results = results_of(folder, g->name);
      for (const auto& stale : {results, function_profile_path(results)}) written.remove(stale);
      std::cerr << "perfgate: unavailable: gate " << g->name << ": " << one_line(e.what()) << '\n';
      unmeasured.push_back(g->name);
      code = worse(code, a.unavailable_exit_code, a);
    } catch (const InputErrorWithFix&) {
      throw;  // its message already names the baseline, and its fix must stay as printed
    } catch (const InputError& e) {
      throw InputError("gate " + g->name + ": " + e.what());
    }
    std::cout << std::endl;
  }
  if (!a.verdicts.empty()) {
    judged.date = utc_now();
    set_identity(judged, !judged.speedups.empty() ? read_results(judged.speedups.front().results_path).context
                                                  : (judged.checks.empty() ? std::map<std::string, std::string>{}
                                                                           : judged.checks.front().context));
    written.write(a.verdicts, render_verdicts_json(judged));
  }
  const std::string outcome = code == code_of(Exit::fail)           ? "FAIL"
                              : code == code_of(Exit::inconclusive) ? "INCONCLUSIVE"
                              : !unmeasured.empty()                 ? "NOT MEASURED HERE"
                              : code == code_of(Exit::pass)         ? "PASS"
                                                                    : "PASS with warnings";
  std::string not_here;
  for (const auto& name : unmeasured) not_here += (not_here.empty() ? "; not measured on this host: " : ", ") + name;
  std::cout << "perfgate gate: " << outcome << " (" << gates.size() << " gate" << (gates.size() == 1 ? "" : "s")
            << not_here << ")\n";
  return code;
}

}  // namespace perfgate
