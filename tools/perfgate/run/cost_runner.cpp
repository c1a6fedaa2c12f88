#include "run/cost_runner.h"

#include "base/error.h"
#include "base/read_file.h"
#include "base/temporary_folder.h"
#include "model/fix_command.h"
#include "run/process.h"
#include "run/valgrind_diagnosis.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <regex>
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

}  // namespace

CostRun measure_cost(const std::vector<std::string>& command, const CostSettings& settings) {
  if (command.empty()) throw InputError("cost: no program to measure");
  CostRun run;
  run.valgrind = valgrind_version();
  const TemporaryFolder dumps("cost");
  std::vector<std::string> argv = {"valgrind", "--tool=callgrind", "--instr-atstart=no", "--cache-sim=yes",
                                   "--callgrind-out-file=" + (dumps.path() / "callgrind.out").string()};
  for (const auto& c : settings.cache)
    argv.push_back("--" + to_text(c));  // callgrind's --LL=<bytes>,<ways>,<line bytes>
  argv.insert(argv.end(), command.begin(), command.end());
  // One run under valgrind with the given environment, into an emptied dumps folder.
  const auto attempt = [&](const std::vector<std::string>& env, double timeout_seconds) {
    for (const auto& entry : fs::directory_iterator(dumps.path())) fs::remove_all(entry.path());
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
  // As asked first, so that a program valgrind runs is run exactly as before; again with the emulator only where
  // valgrind stopped it at an instruction the emulator does (the emulator's loader namespace moves the heap's layout,
  // and with it the address-dependent paths of copies and vector loops).
  auto start = std::chrono::steady_clock::now();
  auto result = attempt(settings.env, settings.timeout_seconds);
  const auto emulator = instruction_emulator();
  if (result.status != 0 && !emulator.empty()) {
    const auto undecoded = undecoded_instruction(result.output);
    if (undecoded && emulated_by_perfgate(*undecoded) && result.output.find("(SIGILL)") != std::string::npos) {
      run.emulated = undecoded->name;
      // The retry has what is left of the time limit: the caller's limit (ctest's, a gate's) is for the whole run.
      const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double left = settings.timeout_seconds > 0 ? std::max(1.0, settings.timeout_seconds - spent) : 0.0;
      start = std::chrono::steady_clock::now();
      result = attempt(with_emulator(settings.env, emulator), left);
    }
  }
  if (result.status != 0) {
    const auto reason =
        unsupported_host_reason(command.front(), run.valgrind, result.output, emulator, !run.emulated.empty());
    if (!reason.empty()) throw HostUnsupported(reason);
    throw InputError("cost: the measured program failed under valgrind (exit " + std::to_string(result.status) +
                     "): " + output_tail(result.output));
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.context = printed_context(result.output);

  struct Dump {
    std::string path;
    CallgrindDump totals;
    FunctionProfile functions;
  };
  std::vector<Dump> files;
  for (const auto& entry : fs::directory_iterator(dumps.path())) {
    const auto path = entry.path().string();
    const auto text = read_whole_file(path, "callgrind output");
    if (is_client_request_dump(text))
      files.push_back({path, parse_callgrind_dump(text, path), parse_function_profile(text, path)});
  }
  std::sort(files.begin(), files.end(), [](const Dump& x, const Dump& y) { return x.path < y.path; });
  std::vector<CallgrindDump> in_order;
  for (const auto& d : files) in_order.push_back(d.totals);
  run.regions = region_costs(in_order);
  if (run.regions.empty()) {
    throw InputError(
        "cost: the program dumped no named region (CALLGRIND_DUMP_STATS_AT); is it built with <valgrind/callgrind.h>?");
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
