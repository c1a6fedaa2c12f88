#include "cli/command_line.h"

#include "base/number_format.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace perfgate {
namespace {

// Each command's "command" option: where the words after -- go.
std::map<const CLI::App*, std::vector<std::string>*>& words_after_dashes() {
  static std::map<const CLI::App*, std::vector<std::string>*> options;
  return options;
}

// The option's text as a finite number, or nullopt (trailing characters, nan, inf and overflow alike). CLI::Range
// alone lets "nan" through (every comparison with NaN is false) and takes "inf" as the largest value in range.
std::optional<double> finite_number(const std::string& text) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

CLI::Validator finite_in(double low, double high) {
  const std::string description = "a finite number in [" + format_number(low) + ", " + format_number(high) + "]";
  return CLI::Validator(
      [low, high, description](std::string& text) -> std::string {
        const auto v = finite_number(text);
        return v && *v >= low && *v <= high ? std::string() : "'" + text + "' is not " + description;
      },
      "NUMBER in [" + format_number(low) + ", " + format_number(high) + "]");
}

}  // namespace

OptionRules& OptionRules::required() {
  option_->required();
  return *this;
}

OptionRules& OptionRules::show_default() {
  option_->capture_default_str();
  return *this;
}

OptionRules& OptionRules::in_range(double low, double high) {
  if (kind_ == Kind::floating)
    option_->check(finite_in(low, high));
  else
    option_->check(CLI::Range(static_cast<long long>(low), static_cast<long long>(high)));
  return *this;
}

OptionRules& OptionRules::positive() {
  option_->check(CLI::Validator(
      [](std::string& text) -> std::string {
        const auto v = finite_number(text);
        return v && *v > 0.0 ? std::string() : "'" + text + "' is not a finite number > 0";
      },
      "NUMBER > 0"));
  return *this;
}

OptionRules& OptionRules::zero_or_in(int low, int high) {
  option_->check(CLI::IsMember({0}) | CLI::Range(low, high));
  return *this;
}

OptionRules& OptionRules::one_of(const std::vector<std::string>& choices) {
  option_->check(CLI::IsMember(choices));
  return *this;
}

OptionRules& OptionRules::needs(const OptionRules& other) {
  option_->needs(other.option_);
  return *this;
}

OptionRules& OptionRules::excludes(const OptionRules& other) {
  option_->excludes(other.option_);
  return *this;
}

Command::Command(CLI::App& app, const std::string& name, const std::string& description)
    : app_(app.add_subcommand(name, description)) {}

void Command::footer(const std::string& text) { app_->footer(text); }

OptionRules Command::option(const std::string& names, std::string& into, const std::string& help) {
  return {app_->add_option(names, into, help), OptionRules::Kind::text};
}

OptionRules Command::option(const std::string& names, std::vector<std::string>& into, const std::string& help) {
  if (names == "command") words_after_dashes()[app_] = &into;  // parse_command_line gives it the words as written
  return {app_->add_option(names, into, help), OptionRules::Kind::text};
}

OptionRules Command::option(const std::string& names, int& into, const std::string& help) {
  return {app_->add_option(names, into, help), OptionRules::Kind::whole};
}

OptionRules Command::option(const std::string& names, double& into, const std::string& help) {
  return {app_->add_option(names, into, help), OptionRules::Kind::floating};
}

OptionRules Command::option(const std::string& names, std::optional<double>& into, const std::string& help) {
  return {app_->add_option(names, into, help), OptionRules::Kind::floating};
}

OptionRules Command::flag(const std::string& names, bool& into, const std::string& help) {
  return {app_->add_flag(names, into, help), OptionRules::Kind::text};
}

void parse_command_line(CLI::App& app, int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  std::vector<std::string> words;
  // Only a command that takes a program's words has them replaced: another refuses them, naming them as written.
  const CLI::App* named = nullptr;
  for (const auto* sub : app.get_subcommands({})) {
    if (argc > 1 && sub->get_name() == argv[1]) named = sub;
  }
  const auto dashes = std::find(args.begin(), args.end(), "--");
  if (dashes != args.end() && named != nullptr && words_after_dashes().count(named) != 0) {
    words.assign(dashes + 1, args.end());
    std::fill(dashes + 1, args.end(), std::string("word"));  // counted by the parser, never read by it
  }
  std::vector<char*> pointers;
  for (auto& a : args) pointers.push_back(a.data());
  app.parse(static_cast<int>(pointers.size()), pointers.data());
  for (const auto* chosen : app.get_subcommands()) {
    const auto found = words_after_dashes().find(chosen);
    if (found != words_after_dashes().end() && !found->second->empty()) *found->second = words;
  }
}

}  // namespace perfgate
