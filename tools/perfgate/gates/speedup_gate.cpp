#include "gates/speedup_gate.h"

#include "base/error.h"
#include "base/exit_codes.h"
#include "base/one_line.h"
#include "base/output_files.h"
#include "base/temporary_folder.h"
#include "formats/results_input.h"
#include "formats/results_write.h"
#include "model/baseline.h"
#include "render/row_text.h"
#include "run/benchmark_runner.h"

#include <chrono>
#include <iostream>
#include <optional>

namespace perfgate {
namespace {

void print(const SpeedupReport& r, const SpeedupRequest& a) {
  if (a.aim) {
    std::cout << "aim " << r.threshold << "x (not gated): " << aim_status(r.verdict) << ": speedup " << r.median
              << "x, " << static_cast<int>(r.confidence * 1000.0) / 10.0 << " % interval [" << r.low << ", " << r.high
              << "] over " << r.pairs << " paired repetitions\n";
    return;
  }
  std::cout << to_string(r.verdict) << ": speedup " << one_line(a.reference) << " / " << one_line(a.candidate) << " = "
            << r.median << "x, " << static_cast<int>(r.confidence * 1000.0) / 10.0 << " % interval [" << r.low << ", "
            << r.high << "] over " << r.pairs << " paired repetitions; threshold " << r.threshold << "x\n";
}

}  // namespace

SpeedupOutcome judge_speedup_request(const SpeedupRequest& a) {
  if (a.more_seconds > 0.0 && a.command.empty())
    throw InputError("speedup: --more-seconds needs the benchmark command after --");
  Outputs outputs(
      "speedup");  // before measuring more: a FIFO, a folder or one of the inputs at an output is refused now
  // --pooled-out may be --results itself: a gate grows its results file in place with the repetitions it measured more.
  if (!a.pooled_out.empty() && a.pooled_out == a.results) {
    outputs.in_place(a.results, "--pooled-out");
  } else {
    outputs.read(a.results);
    if (!a.pooled_out.empty()) outputs.file(a.pooled_out, "--pooled-out");
  }
  outputs.read(a.baseline);
  if (!a.out.empty()) outputs.file(a.out, "--out");
  std::optional<Baseline> baseline;  // read first: a bad baseline is refused before anything is measured or written
  if (!a.baseline.empty()) baseline = read_baseline(a.baseline);
  auto results = read_results(a.results);
  auto report = judge_speedup(results, a.reference, a.candidate, a.threshold, a.confidence);
  // The baseline's entry is looked up now, so that a baseline without it is refused before anything more is measured.
  if (baseline) judge_against_baseline(report, *baseline, speedup_series_name(a.reference, a.candidate));
  const auto start = std::chrono::steady_clock::now();
  std::optional<TemporaryFolder> folder;
  for (int extra = 0; extra < 3 && report.verdict == SpeedupVerdict::inconclusive && !a.command.empty(); ++extra) {
    const double left =
        a.more_seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (left <= 0.0) break;
    print(report, a);
    std::cout << "measuring more (" << static_cast<int>(left) << " s of the budget left)\n" << std::flush;
    if (!folder) folder.emplace("speedup");
    try {
      // The budget is a time limit: a run still going when it ends is stopped, and the verdict stays as judged.
      const auto more = run_benchmark(a.command, (folder->path() / ("more" + std::to_string(extra) + ".json")).string(),
                                      a.env, left, a.tree);
      if (values_of(more, a.reference, "real_time").empty() || values_of(more, a.candidate, "real_time").empty()) {
        throw InputError("speedup: the command after -- did not measure both '" + a.reference + "' and '" +
                         a.candidate + "'");
      }
      append_repetitions(results, more);
    } catch (const BenchmarkTimedOut& e) {
      std::cout << "measuring more stopped: " << one_line(e.what()) << " (the --more-seconds budget)\n";
      break;
    }
    report = judge_speedup(results, a.reference, a.candidate, a.threshold, a.confidence);
  }
  SpeedupVerdict verdict = a.aim ? SpeedupVerdict::pass : report.verdict;
  std::optional<SeriesVerdict> series;
  if (baseline) {
    // The baselined series: the speedup this pair had when it was last accepted, which moves far less than
    // absolute times, so a loss well above the floor still fails.
    series = judge_against_baseline(report, *baseline, speedup_series_name(a.reference, a.candidate));
    if (series->verdict == SpeedupVerdict::fail) verdict = SpeedupVerdict::fail;
  }
  if (!a.out.empty()) outputs.write(a.out, speedup_results_text(report, results, a.reference, a.candidate));
  if (!a.pooled_out.empty() && folder) outputs.write(a.pooled_out, results_json_text(results));
  print(report, a);
  if (series) {
    std::cout << (series->advisory ? (series->below ? "WARNING" : "ADVISORY-PASS") : to_string(series->verdict))
              << ": against the baselined speedup " << series->baseline << "x ("
              << criterion_text(Direction::higher, series->tolerance, series->hard_limit, series->advisory)
              << "): the interval [" << report.low << ", " << report.high << "] "
              << (series->below ? "lies wholly below " : "reaches ") << series->limit << "x\n";
  }
  SpeedupOutcome out{report, series, code_of(Exit::pass)};
  switch (verdict) {
    case SpeedupVerdict::pass:
      out.code = series && series->advisory && series->below ? a.warning_exit_code : code_of(Exit::pass);
      break;
    case SpeedupVerdict::fail:
      out.code = code_of(Exit::fail);
      break;
    case SpeedupVerdict::inconclusive:
      out.code = code_of(Exit::inconclusive);
      break;
  }
  return out;
}

}  // namespace perfgate
