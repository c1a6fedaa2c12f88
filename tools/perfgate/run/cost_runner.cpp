#include "run/cost_runner.h"

#include "base/error.h"
#include "base/json_input.h"
#include "base/number_format.h"
#include "base/read_file.h"
#include "base/temporary_folder.h"
#include "formats/gate_manifest.h"
#include "model/fix_command.h"
#include "run/process.h"
#include "run/valgrind_diagnosis.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace perfgate {
namespace {

namespace fs = std::filesystem;

// The context lines a measured program printed.
std::map<std::string, std::string> printed_context(const std::string& output) {
  std::map<std::string, std::string> context;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("context ", 0) != 0) continue;
    const auto space = line.find(' ', 8);
    if (space != std::string::npos) context[line.substr(8, space - 8)] = line.substr(space + 1);
  }
  return context;
}

std::string valgrind_version() {
  ProcessOptions quiet;
  quiet.standard_error = StandardError::discard;
  const auto r = run_process({"valgrind", "--version"}, quiet);
  if (r.status != 0) throw InputError("cost: valgrind is not installed (Debian package valgrind; tools/install-deps)");
  return output_tail(r.output, 40);
}

// The instructions instruction_emulator.c emulates.
bool emulated_by_perfgate(const UndecodedInstruction& u) { return u.name == "RDTSCP" || u.name == "RDPID"; }

// perfgate's LD_AUDIT module that emulates RDTSCP and RDPID where valgrind cannot decode them
// (instruction_emulator.c), beside this executable as the build and the install lay it out; "" when it is not there.
std::string instruction_emulator() {
  const fs::path self = own_path();
  if (!self.is_absolute()) return "";  // own_path could not read where this executable is
  const auto module =
      (self.parent_path() / PERFGATE_EMULATOR_FROM_BINDIR / "perfgate-instruction-emulator.so").lexically_normal();
  std::error_code error;
  if (!fs::is_regular_file(module, error) || module.string().find(':') != std::string::npos) return "";
  return module.string();
}

// The program's environment entries with the emulator added to LD_AUDIT (after any audit module already asked for).
std::vector<std::string> with_emulator(std::vector<std::string> env, const std::string& module) {
  if (module.empty()) return env;
  for (auto& entry : env) {
    if (entry.rfind("LD_AUDIT=", 0) == 0) {
      entry += (entry.size() > 9 ? ":" : "") + module;
      return env;
    }
  }
  const char* inherited = std::getenv("LD_AUDIT");
  env.push_back("LD_AUDIT=" + (inherited != nullptr && *inherited != '\0' ? std::string(inherited) + ":" : "") +
                module);
  return env;
}

// The one line that says why callgrind cannot run the program on this host and what to do, for a run valgrind ended
// because it met an instruction it cannot decode; "" for any other failure.
std::string unsupported_host_reason(const std::string& program, const std::string& valgrind, const std::string& output,
                                    const std::string& emulator, bool emulated) {
  if (output.find("(SIGILL)") == std::string::npos) return "";
  // With the emulator loaded, valgrind still reports each RDTSCP and RDPID it met; the one that stopped the program is
  // the first it does not emulate.
  const auto all = undecoded_instructions(output);
  const auto stopper = std::find_if(
      all.begin(), all.end(), [&](const UndecodedInstruction& u) { return !emulated || !emulated_by_perfgate(u); });
  if (stopper == all.end()) return "";
  const auto& u = *stopper;
  const bool emulable = emulated_by_perfgate(u);
  std::string reason = "cost: callgrind cannot run " + program + " on this host: " + valgrind + " cannot decode " +
                       (u.name.empty() ? "the instruction" : u.name) + " (bytes at its address: " + u.bytes + ")" +
                       (u.where.empty() ? "" : ", run by " + u.where) + "; ";
  if (emulable && emulator.empty()) {
    return reason +
           "perfgate's instruction emulator, which handles it, is missing beside the perfgate executable "
           "(perfgate-instruction-emulator.so): reinstall perfgate";
  }
  return reason +
         "measure on a CPU whose instructions valgrind decodes (docs/reference/cost-hosts.md), or keep the measured "
         "program from running it (a library it links but does not use, or code built with -march=native)";
}

// One run of `command` under callgrind with `tool_options`, its dumps in a private temporary folder (removed on every
// path): as asked first, so that a program valgrind runs is run exactly as before; again with the emulator only where
// valgrind stopped it at an instruction the emulator does (the emulator's loader namespace moves the heap's layout,
// and with it the address-dependent paths of copies and vector loops). The dumps' texts in the order callgrind wrote
// them (callgrind.out.1, .2, ...; the termination dump last).
struct CallgrindRun {
  std::string output;
  std::vector<std::pair<std::string, std::string>> dumps;  ///< (path, text)
  std::string emulated;
  double seconds = 0.0;
};

// `limit` is what is left of settings.timeout_seconds (0: none), which the messages name.
CallgrindRun run_callgrind(const std::vector<std::string>& tool_options, const std::vector<std::string>& command,
                           const CostSettings& settings, const std::string& valgrind, double limit,
                           bool every_process = false) {
  const TemporaryFolder folder("cost");
  // every_process: the program's children are counted too, each process into a file of its own (%p: its id).
  std::vector<std::string> argv = {
      "valgrind", "--tool=callgrind", "--cache-sim=yes",
      "--callgrind-out-file=" + (folder.path() / (every_process ? "callgrind.%p.out" : "callgrind.out")).string()};
  if (every_process) argv.push_back("--trace-children=yes");
  argv.insert(argv.end(), tool_options.begin(), tool_options.end());
  for (const auto& c : settings.cache)
    argv.push_back("--" + to_text(c));  // callgrind's --LL=<bytes>,<ways>,<line bytes>
  argv.insert(argv.end(), command.begin(), command.end());
  // One run under valgrind with the given environment, into an emptied dumps folder.
  const auto attempt = [&](const std::vector<std::string>& env, double timeout_seconds) {
    for (const auto& entry : fs::directory_iterator(folder.path())) fs::remove_all(entry.path());
    ProcessOptions merged;
    merged.standard_error = StandardError::merge;
    merged.env = env;
    merged.timeout_seconds = timeout_seconds;
    auto result = run_process(argv, merged);
    if (result.timed_out) {
      throw InputError("cost: the measured program ran past its " +
                       std::to_string(static_cast<long>(settings.timeout_seconds)) +
                       " s under valgrind and was stopped");
    }
    return result;
  };
  CallgrindRun run;
  auto start = std::chrono::steady_clock::now();
  auto result = attempt(settings.env, limit);
  const auto emulator = instruction_emulator();
  if (result.status != 0 && !emulator.empty()) {
    const auto undecoded = undecoded_instruction(result.output);
    if (undecoded && emulated_by_perfgate(*undecoded) && result.output.find("(SIGILL)") != std::string::npos) {
      run.emulated = undecoded->name;
      // The retry has what is left of the time limit: the caller's limit (ctest's, a gate's) is for the whole run.
      const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double left = limit > 0 ? std::max(1.0, limit - spent) : 0.0;
      start = std::chrono::steady_clock::now();
      result = attempt(with_emulator(settings.env, emulator), left);
    }
  }
  if (result.status != 0) {
    const auto reason =
        unsupported_host_reason(command.front(), valgrind, result.output, emulator, !run.emulated.empty());
    if (!reason.empty()) throw HostUnsupported(reason);
    throw InputError("cost: the measured program failed under valgrind (exit " + std::to_string(result.status) +
                     "): " + output_tail(result.output));
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.output = result.output;
  // callgrind.out.N in dump order, then callgrind.out itself (written at termination).
  const auto number = [](const fs::path& p) {
    const auto ext = p.extension().string();
    return ext.size() > 1 && ext.find_first_not_of("0123456789", 1) == std::string::npos ? std::stoll(ext.substr(1))
                                                                                         : LLONG_MAX;
  };
  std::vector<fs::path> paths;
  for (const auto& entry : fs::directory_iterator(folder.path())) paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end(), [&](const fs::path& x, const fs::path& y) { return number(x) < number(y); });
  for (const auto& path : paths)
    run.dumps.emplace_back(path.string(), read_whole_file(path.string(), "callgrind output"));
  return run;
}

// A Google Benchmark suite's benchmark names, as --benchmark_list_tests gives them for its arguments.
std::vector<std::string> listed_benchmarks(const std::vector<std::string>& command, const CostSettings& settings) {
  auto argv = command;
  argv.push_back("--benchmark_list_tests=true");
  ProcessOptions options;
  options.standard_error = StandardError::merge;
  options.env = settings.env;
  options.timeout_seconds = settings.timeout_seconds;
  const auto result = run_process(argv, options);
  if (result.status != 0 || result.timed_out) {
    throw InputError("cost: " + command.front() + " --benchmark_list_tests=true failed (exit " +
                     std::to_string(result.status) + "); is it a Google Benchmark suite? " +
                     output_tail(result.output));
  }
  std::vector<std::string> names;
  std::istringstream in(result.output);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line.find("***WARNING***") == std::string::npos) names.push_back(line);
  }
  if (names.empty()) throw InputError("cost: " + command.front() + " lists no benchmark for these arguments");
  return names;
}

// The run Google Benchmark reported for `name` in its JSON output: its iterations and its thread count.
std::pair<int64_t, int64_t> reported_iterations(const std::string& text, const std::string& name,
                                                const std::string& source) {
  const auto doc = parse_json_input(text, source);
  if (doc.contains("benchmarks") && doc["benchmarks"].is_array()) {
    for (const auto& b : doc["benchmarks"]) {
      if (!b.is_object() || b.value("name", std::string()) != name) continue;
      if (b.contains("error_occurred") && b["error_occurred"].is_boolean() && b["error_occurred"].get<bool>())
        throw InputError("cost: " + name + " reported an error: " + b.value("error_message", std::string()));
      const bool skipped = b.contains("skipped") && !(b["skipped"].is_boolean() && !b["skipped"].get<bool>()) &&
                           !(b["skipped"].is_number_integer() && b["skipped"].get<int64_t>() == 0);
      const auto message = b.contains("error_message") && b["error_message"].is_string()
                               ? b["error_message"].get<std::string>()
                               : std::string();
      if (skipped || !message.empty())
        throw InputError("cost: " + name + " was skipped" + (message.empty() ? "" : ": " + message) +
                         "; a benchmark that did not run has no count");
      if (b.contains("iterations") && b["iterations"].is_number_integer() && b["iterations"].get<int64_t>() >= 1)
        return {b["iterations"].get<int64_t>(), b.value("threads", int64_t{1})};
    }
  }
  throw InputError("cost: " + source + " holds no run of " + name + " with its iterations");
}

// Each benchmark of an unchanged Google Benchmark suite, alone, under callgrind: collection is zeroed where its loop
// starts (State::StartKeepRunning) and dumped where the loop ends (State::FinishKeepRunning), so each dump is one call
// of the benchmark's loop. A warm-up call runs first (--benchmark_min_warmup_time), so that one-time costs (the first
// allocation, lazy initialisation) fall in it; the measured calls then start at 1 iteration and end at the N the JSON
// reports, and (last − first) / (N − 1) is the cost of one iteration exactly, whatever N the clock chose under
// valgrind. A benchmark with a fixed iteration count runs one call: its cost over N, the loop's entry included.
// settings.timeout_seconds is the whole suite's limit: each run gets what is left of it.
void measure_suite(const std::vector<std::string>& command, const CostSettings& settings, const std::string& valgrind,
                   CostRun& run) {
  const auto began = std::chrono::steady_clock::now();
  const auto left = [&] {
    if (!(settings.timeout_seconds > 0)) return 0.0;
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (spent >= settings.timeout_seconds) {
      throw InputError("cost: the suite ran past its " + std::to_string(static_cast<long>(settings.timeout_seconds)) +
                       " s under valgrind and was stopped");
    }
    return std::max(1.0, settings.timeout_seconds - spent);
  };
  const auto names = listed_benchmarks(command, settings);
  // The suite's own minimum time is kept; without one, 0.05 s of valgrind's time is enough for two calls.
  const bool own_min_time = std::any_of(command.begin(), command.end(), [](const std::string& argument) {
    return argument.rfind("--benchmark_min_time=", 0) == 0;
  });
  const TemporaryFolder scratch("cost-suite");
  const auto json_path = (scratch.path() / "run.json").string();
  for (const auto& name : names) {
    double min_time = 0.05;
    for (int attempt = 0;; ++attempt) {
      auto argv = command;
      for (const auto& flag :
           {"--benchmark_filter=^" + regex_literal(name) + "$", std::string("--benchmark_repetitions=1"),
            std::string("--benchmark_report_aggregates_only=false"),
            std::string("--benchmark_enable_random_interleaving=false"),
            std::string("--benchmark_min_warmup_time=0.000000001"), "--benchmark_out=" + json_path,
            std::string("--benchmark_out_format=json")})
        argv.push_back(flag);
      if (!own_min_time || attempt > 0) argv.push_back("--benchmark_min_time=" + format_number(min_time));
      const auto measured = run_callgrind(
          {"--zero-before=benchmark::State::StartKeepRunning*", "--dump-before=benchmark::State::FinishKeepRunning*"},
          argv, settings, valgrind, left());
      if (!measured.emulated.empty()) run.emulated = measured.emulated;
      run.seconds += measured.seconds;
      const auto [iterations, threads] = reported_iterations(read_whole_file(json_path, "results"), name, json_path);
      if (threads != 1)
        throw InputError("cost: " + name + " runs on " + std::to_string(threads) +
                         " threads; instructions are attributed per benchmark for one thread only");
      std::vector<CallgrindDump> calls;
      for (const auto& [path, text] : measured.dumps) {
        auto dump = parse_callgrind_dump(text, path);
        if (dump.trigger.rfind("--dump-before=", 0) == 0) calls.push_back(std::move(dump));
      }
      if (calls.size() < 2) {
        throw InputError("cost: " + name + " ran " + std::to_string(calls.size()) +
                         " measured loops under callgrind, and a warm-up and a measured call were expected; does "
                         "it loop with `for (auto _ : state)` or state.KeepRunning()?");
      }
      const auto& first = calls[1];  // calls[0] is the warm-up
      const auto& last = calls.back();
      if (calls.size() == 2 && iterations == 1 && attempt == 0) {
        // One iteration outlasted the minimum time: again with a longer one, so that two calls tell the loop's
        // entry from its iterations.
        min_time = std::max(min_time, 4.0 * measured.seconds);
        continue;
      }
      RegionCost cost;
      cost.name = name;
      const auto ir = [](const CallgrindDump& d) { return d.events.count("Ir") ? d.events.at("Ir") : 0.0; };
      if (calls.size() > 2 && iterations > 1) {
        const double n = static_cast<double>(iterations - 1);
        cost.instructions.push_back((ir(last) - ir(first)) / n);
        cost.estimated_cycles.push_back((estimated_cycles(last) - estimated_cycles(first)) / n);
        cost.heap_allocations.push_back((last.allocations - first.allocations) / n);
      } else {
        const double n = static_cast<double>(iterations);
        cost.instructions.push_back(ir(last) / n);
        cost.estimated_cycles.push_back(estimated_cycles(last) / n);
        cost.heap_allocations.push_back(last.allocations / n);
      }
      run.regions.push_back(cost);
      run.iterations[name] = iterations;
      break;
    }
  }
}

}  // namespace

CostRun measure_cost(const std::vector<std::string>& command, const CostSettings& settings) {
  if (command.empty()) throw InputError("cost: no program to measure");
  CostRun run;
  run.valgrind = valgrind_version();
  if (settings.google_benchmark_suite) {
    measure_suite(command, settings, run.valgrind, run);
    return run;
  }
  if (!settings.whole_program.empty()) {
    const auto measured = run_callgrind({}, command, settings, run.valgrind, settings.timeout_seconds, true);
    run.emulated = measured.emulated;
    run.seconds = measured.seconds;
    run.context = printed_context(measured.output);
    if (measured.dumps.empty()) throw InputError("cost: callgrind wrote no profile of the program");
    // One file per process, each its whole run: the program's count is their sum, its profile their functions'.
    double instructions = 0.0, cycles = 0.0;
    FunctionProfile profile;
    for (const auto& [path, text] : measured.dumps) {
      if (is_client_request_dump(text)) {
        throw InputError(
            "cost: --whole counts a program that marks nothing, and this one dumped counts of its own "
            "(CALLGRIND_DUMP_STATS): measure its marked steps without --whole");
      }
      const auto totals = parse_callgrind_dump(text, path);
      const auto ir = totals.events.find("Ir");
      if (ir == totals.events.end()) throw InputError("cost: " + path + " counts no instructions (Ir)");
      instructions += ir->second;
      cycles += estimated_cycles(totals);
      const auto part = parse_function_profile(text, path);
      profile.total += part.total;
      for (const auto& [name, cost] : part.functions) {
        profile.functions[name].self += cost.self;
        profile.functions[name].inclusive += cost.inclusive;
      }
      for (const auto& [edge, cost] : part.calls) profile.calls[edge] += cost;
    }
    run.regions.push_back({settings.whole_program, {instructions}, {cycles}, {}});
    run.profiles[settings.whole_program] = profile;
    return run;
  }
  const auto measured =
      run_callgrind({"--instr-atstart=no"}, command, settings, run.valgrind, settings.timeout_seconds);
  run.emulated = measured.emulated;
  run.seconds = measured.seconds;
  run.context = printed_context(measured.output);

  struct Dump {
    std::string path;
    CallgrindDump totals;
    FunctionProfile functions;
  };
  std::vector<Dump> files;
  for (const auto& [path, text] : measured.dumps) {
    if (is_client_request_dump(text))
      files.push_back({path, parse_callgrind_dump(text, path), parse_function_profile(text, path)});
  }
  std::vector<CallgrindDump> in_order;
  for (const auto& d : files) in_order.push_back(d.totals);
  run.regions = region_costs(in_order);
  if (run.regions.empty()) {
    throw InputError(
        "cost: the program dumped no named region (CALLGRIND_DUMP_STATS_AT); is it built with <valgrind/callgrind.h>? "
        "(an unchanged Google Benchmark suite: perfgate cost --suite)");
  }
  for (const auto& region : run.regions) {
    std::vector<const Dump*> steps;
    for (const auto& d : files) {
      if (client_request_name(d.totals) == region.name) steps.push_back(&d);
    }
    std::stable_sort(steps.begin(), steps.end(),
                     [](const Dump* x, const Dump* y) { return x->functions.total < y->functions.total; });
    run.profiles[region.name] = steps[(steps.size() - 1) / 2]->functions;
  }
  return run;
}

}  // namespace perfgate
