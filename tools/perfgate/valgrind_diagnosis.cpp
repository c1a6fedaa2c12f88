#include "valgrind_diagnosis.h"

#include <cctype>
#include <regex>
#include <sstream>
#include <vector>

namespace perfgate {
namespace {

// The instruction a byte sequence starts with, for the few that run natively on current x86-64 CPUs and that
// valgrind 3.x refuses: the ones a cost run meets in practice. Legacy prefixes are skipped.
std::string instruction_name(const std::vector<unsigned>& b) {
  size_t i = 0;
  bool f3 = false;
  while (i < b.size() && (b[i] == 0x66 || b[i] == 0xf2 || b[i] == 0xf3)) f3 = f3 || b[i++] == 0xf3;
  if (i < b.size() && (b[i] & 0xf0) == 0x40) ++i;  // REX
  const auto at = [&](size_t k) { return i + k < b.size() ? b[i + k] : 0x100u; };
  if (at(0) == 0x62) return "an AVX-512 (EVEX-encoded) instruction";
  if (at(0) == 0x0f && at(1) == 0x01 && at(2) == 0xf9) return "RDTSCP";
  if (f3 && at(0) == 0x0f && at(1) == 0xc7 && (at(2) & 0xf8) == 0xf8) return "RDPID";
  if (at(0) == 0xc4 || at(0) == 0xc5) return "a VEX-encoded (AVX) instruction";
  return "";
}

}  // namespace

std::optional<UndecodedInstruction> undecoded_instruction(const std::string& valgrind_output) {
  static const std::regex unhandled(R"(unhandled instruction bytes:((?: 0x[0-9A-Fa-f]{1,2}){1,32}))");
  static const std::regex frame(R"(==[0-9]+==\s+at 0x[0-9A-Fa-f]+: (.{1,400}))");
  std::istringstream in(valgrind_output);
  std::optional<UndecodedInstruction> found;
  bool after_unrecognised = false;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!found && line.find("unhandled instruction bytes:") != std::string::npos && std::regex_search(line, m, unhandled)) {
      UndecodedInstruction u;
      std::vector<unsigned> bytes;
      std::istringstream words(m[1].str());
      for (std::string word; words >> word;) {
        const unsigned value = static_cast<unsigned>(std::stoul(word.substr(2), nullptr, 16));
        bytes.push_back(value);
        static const char digits[] = "0123456789ABCDEF";
        u.bytes += std::string(u.bytes.empty() ? "" : " ") + digits[value >> 4] + digits[value & 15];
      }
      u.name = instruction_name(bytes);
      found = u;
      continue;
    }
    if (found && line.find("Unrecognised instruction at address") != std::string::npos) {
      after_unrecognised = true;
      continue;
    }
    if (found && after_unrecognised && line.size() < 1000 && std::regex_search(line, m, frame)) {
      found->where = m[1].str();
      while (!found->where.empty() && std::isspace(static_cast<unsigned char>(found->where.back()))) found->where.pop_back();
      break;
    }
  }
  return found;
}

}  // namespace perfgate
