// perfgate: judges Google Benchmark results against committed baselines and maintains those baselines.
// Exit codes: 0 pass, 1 regression, 2 bad input or usage, 3 inconclusive, 4 an internal error (a bug in perfgate).
#include "commands.h"
#include "error.h"
#include "one_line.h"
#include "version_info.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <new>
#include <iostream>
#include <vector>

namespace {

using namespace perfgate;

// The one way an error leaves perfgate: one line on standard error, whatever the message holds.
int print_error(const std::string& kind, const std::string& message, int code) {
  std::cerr << "perfgate: " << kind << ": " << one_line(message) << '\n';
  return code;
}

// A subcommand: its parsed CLI node and how to run it from its own arguments.
struct Subcommand {
  CLI::App* cli = nullptr;
  std::function<int()> run;
};

// Each command's arguments live here for the whole run; the table binds them to their command.
struct AllArgs {
  CompareArgs compare;
  UpdateArgs update;
  SpeedupArgs speedup;
  ReportArgs report;
  HistoryArgs history;
  ProfileArgs profile;
  AbArgs ab;
  CalibrateArgs calibrate;
  CostArgs cost;
};

template <class Args>
Subcommand bind(CLI::App& app, Args& args, CLI::App* (*add)(CLI::App&, Args&), int (*run)(const Args&)) {
  return {add(app, args), [&args, run] { return run(args); }};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"perfgate: gate benchmark results against committed baselines"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("perfgate ") + kVersion + " (commit " + kCommit + ")",
                       "print perfgate's version and the commit it was built from");
  AllArgs a;
  const std::vector<Subcommand> commands = {
      bind(app, a.compare, add_compare_command, run_compare),
      bind(app, a.update, add_update_command, run_update),
      bind(app, a.speedup, add_speedup_command, run_speedup),
      bind(app, a.report, add_report_command, run_report),
      bind(app, a.history, add_history_command, run_history),
      bind(app, a.profile, add_profile_command, run_profile),
      bind(app, a.ab, add_ab_command, run_ab),
      bind(app, a.calibrate, add_calibrate_command, run_calibrate),
      bind(app, a.cost, add_cost_command, run_cost),
  };
  if (argc > 1 && argv[1][0] != '-') {  // CLI11 would only say "a subcommand is required"
    std::string known;
    bool found = false;
    for (const auto* sub : app.get_subcommands({})) {
      found = found || sub->get_name() == argv[1];
      known += (known.empty() ? "" : ", ") + sub->get_name();
    }
    if (!found) return print_error("error", std::string("unknown subcommand '") + argv[1] + "' (expected " + known + ")", 2);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << '\n';
    return 0;
  } catch (const CLI::ParseError& e) {
    return print_error("error", std::string(e.what()) + " (see perfgate --help)", 2);
  }
  try {
    for (const auto& command : commands) {
      if (command.cli->parsed()) return command.run();
    }
  } catch (const InputError& e) {
    return print_error("error", e.what(), 2);
  } catch (const std::filesystem::filesystem_error& e) {  // a path given to perfgate that cannot be used
    return print_error("error", e.what(), 2);
  } catch (const std::bad_alloc&) {
    return print_error("error", "out of memory (is an input unusually large?)", 2);
  } catch (const std::exception& e) {
    // Not bad input: something perfgate did not expect. Say so, rather than blame the input.
    return print_error("internal error", std::string(e.what()) + " (a bug in perfgate; please report it with the command)", 4);
  }
  return 2;
}
