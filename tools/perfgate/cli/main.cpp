// perfgate: judges benchmark results (Google Benchmark, Catch2, hyperfine, perfgate's own format) against committed
// baselines and maintains those baselines. Exit codes: exit_codes.h.
#include "base/error.h"
#include "base/exit_codes.h"
#include "base/one_line.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "cli/version_info.h"
#include "history/history_backend.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <iostream>
#include <new>
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
  CommentArgs comment;
  DashboardArgs dashboard;
  CalibrateArgs calibrate;
  CostArgs cost;
  GateArgs gate;
  SelftestArgs selftest;
  BisectArgs bisect;
  TimeArgs time;
  Catch2Args catch2;
};

template <class Args>
Subcommand bind(CLI::App& app, Args& args, Command (*add)(CLI::App&, Args&), int (*run)(const Args&)) {
  return {&add(app, args).parser(), [&args, run] { return run(args); }};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"perfgate: gate benchmark results against committed baselines"};
  app.require_subcommand(1);
  app.set_help_flag("--help,-h", "print this command's help, its example and exit codes");
  app.set_version_flag("--version", std::string("perfgate ") + kVersion + " (commit " + kCommit + ")",
                       "print perfgate's version and the commit it was built from");
  AllArgs a;
  const std::vector<Subcommand> commands = {
      bind(app, a.gate, add_gate_command, run_gate),
      bind(app, a.compare, add_compare_command, run_compare),
      bind(app, a.update, add_update_command, run_update),
      bind(app, a.speedup, add_speedup_command, run_speedup),
      bind(app, a.report, add_report_command, run_report),
      bind(app, a.history, add_history_command, run_history),
      bind(app, a.profile, add_profile_command, run_profile),
      bind(app, a.ab, add_ab_command, run_ab),
      bind(app, a.comment, add_comment_command, run_comment),
      bind(app, a.dashboard, add_dashboard_command, run_dashboard),
      bind(app, a.calibrate, add_calibrate_command, run_calibrate),
      bind(app, a.cost, add_cost_command, run_cost),
      bind(app, a.selftest, add_selftest_command, run_selftest),
      bind(app, a.bisect, add_bisect_command, run_bisect),
      bind(app, a.time, add_time_command, run_time),
      bind(app, a.catch2, add_catch2_command, run_catch2_command),
  };
  // One value per occurrence for every repeatable option (--results A --results B, never --results A B): otherwise
  // the last one would swallow the words after it, and the command after -- would be lost.
  for (auto* sub : app.get_subcommands({})) {
    for (auto* option : sub->get_options()) {
      if (!option->get_positional() && option->get_items_expected_max() > 1) option->allow_extra_args(false);
    }
  }
  std::vector<std::string> names;
  std::vector<std::pair<std::string, std::string>> listing;
  for (const auto* sub : app.get_subcommands({})) {
    names.push_back(sub->get_name());
    listing.emplace_back(sub->get_name(), sub->get_description());
  }
  const auto unknown_command = [&](const std::string& word) {
    const auto near = closest_name(word, names);
    return print_error("error",
                       "unknown command '" + word + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?") +
                           " (see perfgate help)",
                       code_of(Exit::bad_input));
  };
  if (argc == 1) {
    std::cout << overview(listing);
    return print_error("error", "a command is required (see perfgate help)", code_of(Exit::bad_input));
  }
  const std::string first = argv[1];
  if (first == "help") {  // perfgate help [COMMAND]
    if (argc == 2) {
      std::cout << overview(listing);
      return code_of(Exit::pass);
    }
    for (const auto* sub : app.get_subcommands({})) {
      if (sub->get_name() == argv[2]) {
        std::cout << sub->help("perfgate");
        return code_of(Exit::pass);
      }
    }
    return unknown_command(argv[2]);
  }
  if (first.empty() || first[0] != '-') {
    if (std::find(names.begin(), names.end(), first) == names.end()) return unknown_command(first);
  }
  try {
    parse_command_line(app, argc, argv);
  } catch (const CLI::CallForHelp&) {
    for (const auto* sub : app.get_subcommands()) {
      std::cout << sub->help("perfgate");
      return code_of(Exit::pass);
    }
    std::cout << overview(listing);
    return code_of(Exit::pass);
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << '\n';
    return code_of(Exit::pass);
  } catch (const CLI::ParseError& e) {
    const auto parsed = app.get_subcommands();
    if (parsed.empty())
      return print_error("error", std::string(e.what()) + " (see perfgate help)", code_of(Exit::bad_input));
    const auto* command = parsed.front();
    std::vector<std::string> options;  // the command's --long names
    for (const auto* option : command->get_options()) {
      for (const auto& name : option->get_lnames()) options.push_back("--" + name);
    }
    const std::string help = " (see perfgate help " + command->get_name() + ")";
    for (int i = 2; i < argc; ++i) {  // an unknown option is named first: it is the likely cause of whatever CLI11 saw
      std::string word = argv[i];
      if (word == "--") break;
      word = word.substr(0, word.find('='));
      if (word.rfind("--", 0) != 0 || std::find(options.begin(), options.end(), word) != options.end()) continue;
      const auto near = closest_name(word, options);
      return print_error("error",
                         "unknown option " + word + " for " + command->get_name() +
                             (near.empty() ? "" : "; did you mean " + near + "?") + help,
                         code_of(Exit::bad_input));
    }
    return print_error("error", std::string(e.what()) + help, code_of(Exit::bad_input));
  }
  // A command to run goes after --: a stray word among the options is a mistake, never a program to start.
  const bool separator =
      std::find_if(argv + 1, argv + argc, [](const char* w) { return std::string(w) == "--"; }) != argv + argc;
  for (const auto* sub : app.get_subcommands()) {
    const auto* positional = sub->get_option_no_throw("command");
    if (positional != nullptr && positional->count() > 0 && !separator) {
      return print_error("error",
                         "unexpected '" + positional->results().front() +
                             "' among the options; a command to run goes after -- (see perfgate help " +
                             sub->get_name() + ")",
                         code_of(Exit::bad_input));
    }
  }
  try {
    for (const auto& command : commands) {
      if (command.cli->parsed()) return command.run();
    }
  } catch (const InputErrorWithFix& e) {
    std::cerr << "perfgate: error: " << one_line(e.what()) << e.command() << '\n';
    return code_of(Exit::bad_input);
  } catch (const InputError& e) {
    return print_error("error", e.what(), code_of(Exit::bad_input));
  } catch (const HostUnsupported& e) {  // not the input's fault: another host may measure it
    return print_error("unavailable", e.what(), code_of(Exit::unavailable));
  } catch (const StoreUnavailable& e) {  // not the input's fault, and worth running again
    return print_error("error", e.what(), code_of(Exit::store_unavailable));
  } catch (const std::filesystem::filesystem_error& e) {  // a path given to perfgate that cannot be used
    return print_error("error", e.what(), code_of(Exit::bad_input));
  } catch (const std::bad_alloc&) {
    return print_error("error", "out of memory (is an input unusually large?)", code_of(Exit::bad_input));
  } catch (const std::exception& e) {
    // Not bad input: something perfgate did not expect. Say so, rather than blame the input.
    return print_error("internal error",
                       std::string(e.what()) + " (a bug in perfgate; please report it with the command)",
                       code_of(Exit::internal));
  }
  return code_of(Exit::bad_input);
}
