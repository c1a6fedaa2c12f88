#include "run/command_timer.h"

#include "base/error.h"
#include "base/read_file.h"
#include "base/temporary_folder.h"
#include "formats/hyperfine_json.h"
#include "run/process.h"

#include <numeric>
#include <optional>

namespace perfgate {

namespace {

std::string which_run(const TimedCommand& c, int run) {
  return "'" + c.name + "' (" + (run < 0 ? std::string("warm-up") : "run " + std::to_string(run)) + ")";
}

struct OneRun {
  double wall = 0.0;
  std::optional<double> cpu;  ///< none when hyperfine's export gives no user and system time
};

OneRun own_run(const TimedCommand& c, int run, const TimingPlan& plan, const TemporaryFolder& scratch) {
  const auto errors = (scratch.path() / "stderr").string();
  const auto r = run_timed({"/bin/sh", "-c", c.text}, plan.timeout_seconds, errors);
  if (r.timed_out) {
    throw InputError(which_run(c, run) + " did not finish within " + std::to_string(plan.timeout_seconds) +
                     " s and was stopped");
  }
  if (r.status != 0) {
    const auto tail = output_tail(read_file_tail(errors, 4096), 200);
    throw InputError(
        which_run(c, run) + " " +
        (r.status < 0 ? std::string("could not run or was killed") : "exited with " + std::to_string(r.status)) +
        (tail.empty() ? "" : ": " + tail));
  }
  return {r.wall_seconds, r.cpu_seconds};
}

OneRun hyperfine_run(const TimedCommand& c, int run, const TimingPlan& plan, const TemporaryFolder& scratch) {
  const auto exported = (scratch.path() / "hyperfine.json").string();
  // --shell=none: hyperfine splits the text into words itself (quotes respected, no pipes or redirections), since
  // the shell's start-up it would otherwise measure and subtract anew in every one-run invocation adds its own noise.
  // The name as --command-name=NAME and the command after --: neither can be read as an option of hyperfine's.
  std::vector<std::string> argv = {"hyperfine",
                                   "--shell=none",
                                   "--runs",
                                   "1",
                                   "--style",
                                   "none",
                                   "--export-json",
                                   exported,
                                   "--command-name=" + c.name};
  // Each invocation warms up anew: its first run would otherwise follow hyperfine's own start-up, every time.
  if (plan.warmup > 0) argv.insert(argv.end(), {"--warmup", std::to_string(plan.warmup)});
  argv.insert(argv.end(), {"--", c.text});
  ProcessOptions options;
  options.standard_error = StandardError::merge;
  options.timeout_seconds = plan.timeout_seconds > 0 ? plan.timeout_seconds * (1 + plan.warmup) : 0.0;
  const auto r = run_process(argv, options);
  if (r.timed_out) throw InputError(which_run(c, run) + " did not finish in time under hyperfine and was stopped");
  if (r.status != 0) {
    throw InputError(which_run(c, run) + " failed under hyperfine" +
                     (r.status < 0 ? std::string(" (is hyperfine installed? Debian: apt-get install hyperfine)")
                                   : ": " + output_tail(r.output, 200)));
  }
  const auto timed = parse_hyperfine_json(read_whole_file(exported, "hyperfine's export"), exported);
  OneRun one;
  const auto times = values_of(timed, c.name, "real_time");
  if (times.size() != 1) throw InputError(which_run(c, run) + ": hyperfine's export holds no single run");
  one.wall = times.front();
  const auto cpu = values_of(timed, c.name, "cpu_time");
  if (cpu.size() == 1) one.cpu = cpu.front();
  return one;
}

}  // namespace

std::vector<size_t> round_order(size_t commands, int round) {
  std::vector<size_t> order(commands);
  std::iota(order.begin(), order.end(), size_t{0});
  if (round % 2 == 1) std::reverse(order.begin(), order.end());
  return order;
}

Results time_commands(const std::vector<TimedCommand>& commands, const TimingPlan& plan) {
  if (commands.empty()) throw InputError("no command to time");
  TemporaryFolder scratch("time");
  Results results;
  results.source = "perfgate time";
  if (!plan.hyperfine) {
    for (int w = 0; w < plan.warmup; ++w)
      for (const auto& c : commands) (void)own_run(c, -1, plan, scratch);
  }
  for (int round = 0; round < plan.runs; ++round) {
    for (const size_t i : round_order(commands.size(), round)) {
      const auto& c = commands[i];
      const auto one = plan.hyperfine ? hyperfine_run(c, round, plan, scratch) : own_run(c, round, plan, scratch);
      results.measurements.push_back({c.name, "real_time", one.wall, "s", round, std::nullopt});
      if (one.cpu) results.measurements.push_back({c.name, "cpu_time", *one.cpu, "s", round, std::nullopt});
    }
  }
  results.context["harness"] = plan.hyperfine ? "hyperfine, interleaved by perfgate time" : "perfgate time";
  return results;
}

}  // namespace perfgate
