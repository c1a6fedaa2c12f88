#pragma once
// How a command states its command line: its options (names, the variable each fills, help) and their rules. Only
// command_line.cpp and main.cpp see the parser (CLI11, header-only and slow to compile: about 5 s a file), so every
// command's file compiles without it (tools/lint/perfgate-layers.sh keeps it so). A number's range is checked by the
// option's type: a floating-point option refuses NaN and infinities whatever its range, a whole number refuses
// fractions.
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace perfgate {

/// One option of a command, through which its rules are stated (each returns the option, so rules chain).
class OptionRules {
 public:
  /// The option must be given.
  OptionRules& required();
  /// Its default value is shown in the help.
  OptionRules& show_default();
  /// A number in [low, high]: finite for a floating-point option, whole for an integer one.
  OptionRules& in_range(double low, double high);
  /// A finite number > 0 (a threshold, a speedup target).
  OptionRules& positive();
  /// 0, or a whole number in [low, high] (an exit code chosen by the caller).
  OptionRules& zero_or_in(int low, int high);
  /// One of these words.
  OptionRules& one_of(const std::vector<std::string>& choices);
  /// Only together with `other`.
  OptionRules& needs(const OptionRules& other);
  /// Never together with `other`.
  OptionRules& excludes(const OptionRules& other);

 private:
  friend class Command;
  enum class Kind { text, whole, floating };
  OptionRules(CLI::Option* option, Kind kind) : option_(option), kind_(kind) {}
  CLI::Option* option_;
  Kind kind_;
};

/// One of perfgate's commands on the command line: its options, flags and help footer.
class Command {
 public:
  /// Adds the command `name` to perfgate's command line.
  Command(CLI::App& app, const std::string& name, const std::string& description);

  /// The text after the options in `perfgate help NAME` (cli_help.h: command_footer).
  void footer(const std::string& text);

  /// An option: `names` as "--long" or "--long,--alias"; a name without dashes is positional ("command": the words
  /// after --). A vector option is repeatable, one value per occurrence.
  OptionRules option(const std::string& names, std::string& into, const std::string& help);
  OptionRules option(const std::string& names, std::vector<std::string>& into, const std::string& help);
  OptionRules option(const std::string& names, int& into, const std::string& help);
  OptionRules option(const std::string& names, double& into, const std::string& help);
  OptionRules option(const std::string& names, std::optional<double>& into, const std::string& help);
  /// A flag: true when given.
  OptionRules flag(const std::string& names, bool& into, const std::string& help);

  /// The parser's node (main.cpp: was this command chosen).
  CLI::App& parser() const { return *app_; }

 private:
  CLI::App* app_;
};

/// Parses perfgate's command line into the commands' options. The words after the first "--" are a program's command
/// line and reach the chosen command's "command" option exactly as written: the parser counts them but never reads
/// them (CLI11 would take a word in brackets, such as Catch2's test spec "[tag]", for a list).
void parse_command_line(CLI::App& app, int argc, char** argv);

}  // namespace perfgate
