// perfgate report: the run's verdicts and plots as report.html (self-contained), summary.md, verdicts.json,
// junit.xml and plots/*.svg (*.png with --png). Exit code: the overall verdict (0 pass, 1 fail, 3 inconclusive).
#include "base/error.h"
#include "base/read_file.h"
#include "base/utc_time.h"
#include "base/xml_escape.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "formats/gate_manifest.h"
#include "formats/gate_report.h"
#include "formats/results_input.h"
#include "history/history_store.h"
#include "model/change_points.h"
#include "render/report_files.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>

namespace perfgate {
namespace {

std::string context_of(const std::map<std::string, std::string>& context, const std::string& key) {
  const auto found = context.find(key);
  return found != context.end() ? found->second : std::string();
}

void add_trends(ReportData& data, const std::string& db) {
  const bool file = db.rfind("git:", 0) != 0 && db.rfind("postgres", 0) != 0;
  if (file && !std::filesystem::exists(db.rfind("sqlite:", 0) == 0 ? db.substr(7) : db))
    throw InputError("--history '" + db + "': no such file");
  const HistoryStore store(db, HistoryStore::Access::read_only);
  std::set<std::pair<std::string, std::string>> wanted;
  for (const auto& c : data.checks)
    for (const auto& row : c.rows)
      if (row.verdict != Verdict::unbaselined) wanted.emplace(row.benchmark, row.field);
  for (const auto& s : data.speedups)
    wanted.emplace(s.reference, "real_time"), wanted.emplace(s.candidate, "real_time");
  for (const auto& [benchmark, field] : store.metrics("main")) {
    if (wanted.count({benchmark, field}) == 0) continue;
    const auto points = store.series("main", benchmark, field, 50);
    if (points.size() < 2) continue;
    TrendSection t{benchmark, field, points.back().unit, {}, {}, {}};
    std::vector<double> values;
    for (const auto& p : points) t.points.emplace_back(p.commit, p.value), values.push_back(p.value);
    for (const auto& c : detect_change_points(values)) {
      t.changes.push_back(c.index);
      std::ostringstream note;
      const auto [last_old, first_new] = runs_around(c);
      note << benchmark << " " << field << ": change point between " << points[last_old].commit << " and "
           << points[first_new].commit << ", median " << std::setprecision(5) << c.before << " -> " << c.after;
      t.change_notes.push_back(note.str());
    }
    data.trends.push_back(std::move(t));
  }
}

}  // namespace

Command add_report_command(CLI::App& app, ReportArgs& a) {
  Command cmd(app, "report", "HTML report, Markdown summary, verdicts.json and JUnit XML of a gate run");
  cmd.footer(
      command_footer("perfgate report --out-dir build/report --check build/results/sorting.json=baselines/sorting.json",
                     {Exit::pass, Exit::fail, Exit::inconclusive}));
  cmd.option("--out-dir", a.out, "folder to write (created); --out names a file in every other command").required();
  cmd.option("--title", a.title, "report title").show_default();
  cmd.option("--check", a.checks, "RESULTS=BASELINE: a results file judged against its baseline (repeatable)");
  cmd.option("--speedup-results", a.speedup_results,
             "results with interleaved repetitions of --reference and --candidate");
  cmd.option("--reference", a.reference, "the speedup's reference benchmark");
  cmd.option("--candidate", a.candidate, "the speedup's candidate benchmark");
  cmd.option("--threshold", a.threshold, "the speedup the gate requires (with --speedup-results; no default)")
      .positive();
  cmd.option("--target", a.target, "a further speedup target, reported but not gated").positive();
  cmd.option("--ablation", a.ablation, "results of the ablation suite (bar chart)");
  cmd.option("--images", a.images,
             "a folder of PNG images shown in the report, labelled by the folder's name (repeatable)");
  cmd.option("--figure", a.figures,
             "a PNG chart or figure shown at its own width, captioned by its file name (repeatable)");
  cmd.option("--manifest", a.manifest, "a gate manifest: report its gates from the results in --results-dir");
  cmd.option("--results-dir", a.results_dir, "with --manifest: the folder perfgate gate wrote the results to");
  cmd.option("--ab", a.ab, "perfgate ab --json output: the A/B against the merge base, with accepted regressions");
  cmd.option("--history", a.history, "history store (as perfgate history --store takes) for trends and change points");
  cmd.flag("--png", a.png, "also render every plot as PNG with headless Chromium");
  return cmd;
}

int run_report(const ReportArgs& a) {
  std::vector<std::string> inputs = {a.speedup_results, a.ablation, a.history, a.ab};
  for (const auto& spec : a.checks) {
    const auto eq = spec.find('=');
    if (eq != std::string::npos) inputs.insert(inputs.end(), {spec.substr(0, eq), spec.substr(eq + 1)});
  }
  inputs.push_back(a.manifest);
  inputs.erase(std::remove(inputs.begin(), inputs.end(), std::string()), inputs.end());
  require_no_report_file_among(a.out, inputs);  // before anything is cleared: a report never deletes what it reads
  Outputs outputs("report");
  outputs.read(inputs);
  outputs.read(a.images);
  outputs.read(a.figures);
  outputs.folder(a.out, "--out-dir");
  clear_report_files(outputs, a.out);
  ReportData data;
  data.title = a.title;
  data.date = utc_now();
  for (const auto& spec : a.checks) {
    const auto eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
      throw InputError("--check '" + spec + "': expected RESULTS=BASELINE");
    data.checks.push_back(load_check(spec.substr(0, eq), spec.substr(eq + 1)));
    // Two results files of one name (a/acc.json, b/acc.json), or of names that make one anchor (acc.v1, acc_v1), make
    // two sections: each gets a name of its own, so that neither shows the other's plots or shares its anchor.
    auto& added = data.checks.back();
    const std::string stem = added.name;
    const auto same_anchor = [&](const CheckSection& c) { return file_slug(c.name) == file_slug(added.name); };
    for (int n = 2; std::count_if(data.checks.begin(), data.checks.end(), same_anchor) > 1; ++n) {
      added.name = stem + "-" + std::to_string(n);
    }
  }
  if (a.manifest.empty() != a.results_dir.empty()) throw InputError("report: --manifest and --results-dir go together");
  if (!a.manifest.empty()) {
    if (!a.speedup_results.empty() || !a.ablation.empty()) {
      throw InputError(
          "report: --manifest names the speedup and bars gates itself; leave out --speedup-results and --ablation");
    }
    if (!std::filesystem::is_directory(a.results_dir))
      throw InputError("report: --results-dir '" + a.results_dir + "' is not a folder");
    const auto manifest = read_gate_manifest(a.manifest);
    std::vector<const Gate*> gates;
    for (const auto& g : manifest.gates) gates.push_back(&g);
    add_gate_sections(data, manifest, gates, a.results_dir, false);
  }
  std::map<std::string, std::string> context;
  if (!data.speedups.empty()) context = read_results(data.speedups.front().results_path).context;
  if (!a.speedup_results.empty()) {
    if (a.reference.empty() || a.candidate.empty() || a.threshold <= 0.0) {
      throw InputError("--speedup-results needs --reference, --candidate and --threshold");
    }
    const auto results = read_results(a.speedup_results);
    data.speedups.push_back(
        judge_speedup_section(results, a.speedup_results, a.reference, a.candidate, a.threshold, a.target));
    if (context.empty()) context = results.context;
  }
  if (context.empty() && !data.checks.empty()) context = data.checks.front().context;
  set_identity(data, context);
  if (context_of(context, "library_build_type") == "debug") {
    data.benchmark_library_note =
        "Google Benchmark's library was built as DEBUG (its \"***WARNING*** Library was built as DEBUG\"): that is the "
        "measuring library's own build (Debian's package keeps its assertions), not the measured code's, which was "
        "built as " +
        (context_of(context, "build_type").empty() ? std::string("its project chose")
                                                   : context_of(context, "build_type")) +
        "; the timing loop itself is inlined from the library's header and compiled with the measured code's flags, "
        "and the library's own assertions run around it (start, stop, pause, resume).";
  }
  if (!a.ablation.empty()) data.ablation = load_ablation(a.ablation);
  for (const auto& folder : a.images) data.image_sets.push_back(load_images(folder));
  for (const auto& path : a.figures) data.figures.push_back(load_figure(path));
  if (!a.history.empty()) add_trends(data, a.history);
  if (!a.ab.empty()) data.ab = parse_ab_json(read_whole_file(a.ab, "A/B verdicts"), a.ab);
  if (data.checks.empty() && data.speedups.empty() && !data.ab)
    throw InputError("report: nothing to report (give --check, --speedup-results or --ab)");
  write_report_files(outputs, a.out, data, a.png);
  const auto status = overall(data);
  std::cout << "report " << to_string(status) << ": " << (std::filesystem::path(a.out) / "report.html").string()
            << '\n';
  return code_of(status == Overall::pass ? Exit::pass : status == Overall::fail ? Exit::fail : Exit::inconclusive);
}

}  // namespace perfgate
