// perfgate compare: results against a baseline, one row per metric; the failing ones with the command that would
// accept them. Exit 0 pass, 1 regression (or a baselined metric that vanished).
#include "baseline.h"
#include "commands.h"
#include "compare.h"
#include "one_line.h"
#include "results.h"
#include "table.h"

#include <iostream>

namespace perfgate {

CLI::App* add_compare_command(CLI::App& app, CompareArgs& a) {
  auto* cmd = app.add_subcommand("compare", "judge results against a baseline; exit 0 pass, 1 regression, 2 bad input");
  cmd->add_option("--results", a.results, "Google Benchmark JSON")->required();
  cmd->add_option("--baseline", a.baseline, "baseline JSON")->required();
  return cmd;
}

int run_compare(const CompareArgs& a) {
  const auto results = read_results(a.results);
  const auto baseline = read_baseline(a.baseline);
  const auto rows = compare(results, baseline);
  print_table(std::cout, rows);
  print_failures(std::cout, rows,
                 "perfgate update --results " + shell_quote(a.results) + " --baseline " + shell_quote(a.baseline) + " --reason '...'");
  return exit_code_of(rows);
}

}  // namespace perfgate
