#include "run/host_context.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace perfgate {

std::string context_value(const std::string& text) {
  std::string out;
  bool space = false;
  for (const char c : text) {
    const bool separator = c == ',' || c == '=' || std::isspace(static_cast<unsigned char>(c)) != 0;
    if (separator) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > 200) {  // cut before the character that would cross 200 bytes, never inside one
    size_t cut = 200;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;
    out.resize(cut);
    while (!out.empty() && out.back() == ' ') out.pop_back();
  }
  return out;
}

std::string cpu_name_from(const std::string& cpuinfo) {
  std::istringstream in(cpuinfo);
  std::string fallback;
  for (std::string line; std::getline(in, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto key = context_value(line.substr(0, colon));
    const auto value = context_value(line.substr(colon + 1));
    if (value.empty()) continue;
    if (key == "model name") return value;
    if (fallback.empty() && (key == "Processor" || key == "cpu model")) fallback = value;
  }
  return fallback;
}

std::vector<std::pair<std::string, std::string>> host_context() {
  std::vector<std::pair<std::string, std::string>> context;
  static const std::string cpu = [] {
    // The first processor's lines come first: 64 KiB hold them on any machine, and bound the read.
    std::ifstream file("/proc/cpuinfo");
    std::string text(64 * 1024, '\0');
    file.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<size_t>(file.gcount()));
    return cpu_name_from(text);
  }();
  if (!cpu.empty()) context.emplace_back("cpu_name", cpu);
  const char* named = std::getenv("PERFGATE_MACHINE");
  const auto name = named != nullptr ? context_value(named) : std::string();
  if (!name.empty()) context.emplace_back("machine_name", name);
  return context;
}

std::vector<std::string> host_context_arguments() {
  std::vector<std::string> arguments;
  for (const auto& [key, value] : host_context()) arguments.push_back("--benchmark_context=" + key + "=" + value);
  return arguments;
}

}  // namespace perfgate
