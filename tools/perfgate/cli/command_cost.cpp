// perfgate cost: runs a program under valgrind's callgrind and writes its per-step costs as Google Benchmark JSON.
// The program marks what it measures (an example: examples/gated-suite/cost_sorting.cpp): instrumentation off at
// start, and each measured step ends with CALLGRIND_DUMP_STATS_AT(<benchmark name>). Every such dump becomes one
// repetition of that benchmark with the counters `instructions` and `estimated_cycles`, which `perfgate compare`
// judges against a baseline like any other result. Lines "context KEY VALUE" on the program's standard output are
// recorded in the results' context.
#include "base/output_files.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "run/cost_runner.h"
#include "base/error.h"
#include "formats/function_profile_file.h"
#include "base/json_input.h"
#include "base/one_line.h"
#include "base/utc_time.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <sstream>

namespace perfgate {

CLI::App* add_cost_command(CLI::App& app, CostArgs& a) {
  auto* cmd = app.add_subcommand("cost", "instruction counts and cycle estimates per measured step, under callgrind");
  cmd->footer(command_footer("perfgate cost --out cost.json -- build/cost_program",
                              {Exit::pass, Exit::unavailable}, "bad input includes a program that fails"));
  cmd->add_option("--out", a.out,
                  "Google Benchmark JSON to write (counters instructions, estimated_cycles); the steps' function profile goes beside "
                  "it as <stem>.functions.tsv")->required();
  cmd->add_option("--context", a.context, "KEY=VALUE recorded in the results' context (repeatable)");
  cmd->add_option("--cache", a.cache,
                  "LEVEL=BYTES,WAYS,LINE_BYTES: simulate this cache (LEVEL I1, D1 or LL) instead of this machine's, e.g. "
                  "LL=8388608,16,64 for an 8 MiB share of a CI runner's last-level cache (repeatable)");
  cmd->add_option("--unavailable-exit-code", a.unavailable_exit_code,
                  "exit with this code (6 to 255) when callgrind cannot run the program on this host (ctest's "
                  "SKIP_RETURN_CODE shows it as skipped, with the reason)")
      ->check(CLI::Range(6, 255));
  cmd->add_option("command", a.command, "after --: the program that marks its measured steps")->required();
  return cmd;
}

int run_cost(const CostArgs& a) {
  try {
    measure_cost_results(a);
    return 0;
  } catch (const HostUnsupported& e) {
    std::cerr << "perfgate: unavailable: " << one_line(e.what()) << '\n';
    return a.unavailable_exit_code;
  }
}

void measure_cost_results(const CostArgs& a) {
  nlohmann::json context = {{"date", utc_now()}, {"executable", a.command.front()}};
  for (const auto& pair : a.context) {  // checked before the long run under valgrind
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("cost: --context wants KEY=VALUE, got '" + pair + "'");
    context[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  {  // the output's folder is checked before the long run under valgrind, not after it
    const auto folder = std::filesystem::absolute(a.out).parent_path();
    if (!std::filesystem::is_directory(folder) || access(folder.c_str(), W_OK) != 0) {
      throw InputError("cost: cannot write --out '" + a.out + "' (its folder is missing or not writable)");
    }
  }
  Outputs outputs("cost");
  outputs.read(a.command);  // the counts never replace the program (or a file it is given)
  outputs.file(a.out, "--out");
  outputs.companion(function_profile_path(a.out), "--out's function profile");
  CostSettings settings{{}, a.env, a.timeout_seconds};
  for (const auto& spec : a.cache) settings.cache.push_back(parse_simulated_cache(spec, "cost: --cache"));
  require_distinct_levels(settings.cache, "cost: --cache");
  const auto run = measure_cost(a.command, settings);
  std::string caches;
  for (const auto& c : settings.cache) caches += " --" + to_text(c);
  context["cost_tool"] = "callgrind (" + run.valgrind + "), cache simulation" + (caches.empty() ? " of this machine's caches" : ":" + caches);
  if (!run.emulated.empty()) {
    context["cost_emulated"] = "RDTSCP and RDPID (valgrind stopped the program at " + run.emulated +
                               " on this host; docs/reference/cost-hosts.md)";
  }
  for (const auto& [key, value] : run.context) context[key] = value;
  const auto& regions = run.regions;
  const double seconds = run.seconds;

  nlohmann::json benchmarks = nlohmann::json::array();
  for (const auto& r : regions) {
    for (size_t i = 0; i < r.instructions.size(); ++i) {
      benchmarks.push_back({{"name", r.name}, {"run_name", r.name}, {"run_type", "iteration"},
                            {"repetitions", r.instructions.size()}, {"repetition_index", i}, {"iterations", 1},
                            {"instructions", r.instructions[i]}, {"estimated_cycles", r.estimated_cycles[i]}});
    }
    std::cout << r.name << ": " << r.instructions.size() << " steps, instructions per step";
    for (double v : r.instructions) std::cout << ' ' << static_cast<long long>(v);
    std::cout << '\n';
  }
  // The profile first, then the results it explains: a run stopped between the two leaves a profile beside older
  // results, which is believed only where it is of their counts (profile_is_of). A link at the profile's path (a name
  // derived from --out, not given) is replaced, never followed.
  outputs.write(function_profile_path(a.out), function_profile_text(run.profiles));
  outputs.write(a.out, json_output_text({{"context", context}, {"benchmarks", benchmarks}}));
  std::cout << "wrote " << a.out << " (" << regions.size() << " benchmarks, " << static_cast<int>(seconds)
            << " s under valgrind) and its function profile " << function_profile_path(a.out) << "\n";
}

}  // namespace perfgate
