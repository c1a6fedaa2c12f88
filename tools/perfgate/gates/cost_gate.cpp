#include "gates/cost_gate.h"

#include "base/error.h"
#include "base/json_input.h"
#include "base/number_format.h"
#include "base/output_files.h"
#include "base/utc_time.h"
#include "formats/function_profile_file.h"
#include "run/benchmark_runner.h"
#include "run/cost_runner.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <sstream>

namespace perfgate {

void measure_cost_into(const CostRequest& a) {
  nlohmann::json context = {{"date", utc_now()}, {"executable", a.command.front()}};
  for (const auto& pair : a.context) {  // checked before the long run under valgrind
    const auto eq = pair.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError("cost: --context wants KEY=VALUE, got '" + pair + "'");
    context[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  if (!context.contains("git_sha")) {  // the commit measured, as run_benchmark records it for a suite
    const auto commit = commit_of_tree(a.tree.empty() ? std::string(".") : a.tree);
    if (!commit.commit.empty())
      context["git_sha"] = commit.commit;
    else
      note_no_commit(commit.reason);
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
  require_distinct_levels(a.cache, "cost: --cache");
  if (a.suite && !a.whole.empty()) throw InputError("cost: --suite and --whole measure two different things; give one");
  const CostSettings settings{a.cache, a.env, a.timeout_seconds, a.suite, a.whole};
  const auto run = measure_cost(a.command, settings);
  std::string caches;
  for (const auto& c : settings.cache) caches += " --" + to_text(c);
  context["cost_tool"] = "callgrind (" + run.valgrind + "), cache simulation" +
                         (caches.empty() ? " of this machine's caches" : ":" + caches);
  if (a.suite) {
    context["cost_attribution"] =
        "per iteration of each benchmark's loop, each benchmark run alone: (last call - first measured call) / "
        "(iterations - 1), after a warm-up call; heap_allocations: calls of malloc, calloc, realloc and the aligned "
        "allocators";
  }
  if (!a.whole.empty()) {
    context["cost_attribution"] = "the whole program, from its first instruction to its exit, as one step";
  }
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
      benchmarks.push_back({{"name", r.name},
                            {"run_name", r.name},
                            {"run_type", "iteration"},
                            {"repetitions", r.instructions.size()},
                            {"repetition_index", i},
                            {"iterations", 1},
                            {"instructions", r.instructions[i]},
                            {"estimated_cycles", r.estimated_cycles[i]}});
      if (i < r.heap_allocations.size()) benchmarks.back()["heap_allocations"] = r.heap_allocations[i];
    }
    if (a.suite) {
      const auto n = run.iterations.find(r.name);
      std::cout << r.name << ": " << format_number(r.instructions.front()) << " instructions"
                << (r.heap_allocations.empty()
                        ? ""
                        : " and " + format_number(r.heap_allocations.front()) + " heap allocations")
                << " per iteration"
                << (n != run.iterations.end() ? " (its last call ran " + std::to_string(n->second) + " iterations)"
                                              : "")
                << "\n";
      continue;
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
            << " s under valgrind) and its function profile " << function_profile_path(a.out)
            << (a.suite ? " (empty: a suite's counts are per iteration, not profiled)" : "") << "\n";
}

}  // namespace perfgate
