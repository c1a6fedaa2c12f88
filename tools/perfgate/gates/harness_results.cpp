#include "gates/harness_results.h"

#include "base/error.h"
#include "base/output_files.h"
#include "formats/perfgate_results_json.h"
#include "run/catch2_runner.h"
#include "run/suite_flags.h"

#include <iostream>
#include <set>

namespace perfgate {

namespace {

std::string output_of(const std::string& out, const SuiteFlags& flags) {
  if (!out.empty() && !flags.out.empty() && out != flags.out)
    throw InputError("--out " + out + " and --benchmark_out=" + flags.out + " name two files; give one");
  const auto path = out.empty() ? flags.out : out;
  if (path.empty()) throw InputError("no file to write the results to: give --out FILE (or --benchmark_out=FILE)");
  return path;
}

void write_results(Outputs& outputs, const std::string& path, Results results, const SuiteFlags& flags) {
  record_context(results, flags.context);
  outputs.write(path, perfgate_results_json_text(results));
  std::cout << outputs.command() << ": " << path << " holds ";
  std::set<std::string> names;
  for (const auto& m : results.measurements) names.insert(m.benchmark);
  std::cout << names.size() << " benchmark" << (names.size() == 1 ? "" : "s") << '\n';
}

}  // namespace

void time_commands_into(const TimeRequest& request) {
  auto words = request.words;
  const auto flags = take_suite_flags(words);
  const auto path = output_of(request.out, flags);
  std::vector<TimedCommand> commands;
  std::set<std::string> names;
  const NameFilter filter(flags.filter);
  for (const auto& word : words) {
    const auto equals = word.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == word.size())
      throw InputError("'" + word + "' is not NAME=COMMAND (each command to time is named: fast='./tool --fast')");
    TimedCommand c{word.substr(0, equals), word.substr(equals + 1)};
    if (!names.insert(c.name).second) throw InputError("two commands are named '" + c.name + "'");
    if (!filter.matches(c.name)) continue;
    commands.push_back(c);
  }
  if (names.empty()) throw InputError("no command to time: give NAME=COMMAND after --");
  if (commands.empty()) throw InputError("no command's name matches --benchmark_filter=" + flags.filter);
  Outputs outputs("time");
  outputs.file(path, "--out");
  auto plan = request.plan;
  if (flags.repetitions) plan.runs = *flags.repetitions;
  write_results(outputs, path, time_commands(commands, plan), flags);
}

void run_catch2_into(const Catch2Request& request) {
  auto words = request.words;
  const auto flags = take_suite_flags(words);
  const auto path = output_of(request.out, flags);
  if (words.empty()) throw InputError("no Catch2 test binary given after --");
  Outputs outputs("catch2");
  outputs.read(words.front());
  outputs.file(path, "--out");
  auto results = run_catch2(words, flags.repetitions.value_or(request.runs), request.timeout_seconds);
  keep_filtered(results, flags.filter);
  write_results(outputs, path, std::move(results), flags);
}

}  // namespace perfgate
