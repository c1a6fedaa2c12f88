#include "run/valgrind_diagnosis.h"

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
  for (; i < b.size() && (b[i] == 0x66 || b[i] == 0xf2 || b[i] == 0xf3); ++i) {
    if (b[i] == 0xf3) f3 = true;
  }
  if (i < b.size() && (b[i] & 0xf0) == 0x40) ++i;  // REX
  const auto at = [&](size_t k) { return i + k < b.size() ? b[i + k] : 0x100u; };
  if (at(0) == 0x62) return "an AVX-512 (EVEX-encoded) instruction";
  if (at(0) == 0x0f && at(1) == 0x01 && at(2) == 0xf9) return "RDTSCP";
  if (f3 && at(0) == 0x0f && at(1) == 0xc7 && (at(2) & 0xf8) == 0xf8) return "RDPID";
  if (at(0) == 0xc4 || at(0) == 0xc5) return "a VEX-encoded (AVX) instruction";
  return "";
}

}  // namespace

std::vector<UndecodedInstruction> undecoded_instructions(const std::string& valgrind_output) {
  static const std::regex unhandled(R"(unhandled instruction bytes:((?: 0x[0-9A-Fa-f]{1,2}){1,32}))");
  static const std::regex frame(R"(==[0-9]+==\s+at 0x[0-9A-Fa-f]+: (.{1,400}))");
  constexpr size_t kAtMost =
      64;  // each is one line valgrind printed; a program stopped at many is stopped at the first
  std::istringstream in(valgrind_output);
  std::vector<UndecodedInstruction> found;
  bool awaiting_frame = false;  // after "Unrecognised instruction at address", the next "at" line names who ran it
  for (std::string line; std::getline(in, line) && found.size() <= kAtMost;) {
    std::smatch m;
    if (line.find("unhandled instruction bytes:") != std::string::npos && std::regex_search(line, m, unhandled)) {
      if (found.size() == kAtMost) break;
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
      found.push_back(u);
      awaiting_frame = false;
      continue;
    }
    if (!found.empty() && line.find("Unrecognised instruction at address") != std::string::npos) {
      awaiting_frame = found.back().where.empty();
      continue;
    }
    if (awaiting_frame && line.size() < 1000 && std::regex_search(line, m, frame)) {
      auto where = m[1].str();
      while (!where.empty() && std::isspace(static_cast<unsigned char>(where.back()))) where.pop_back();
      found.back().where = where;
      awaiting_frame = false;
    }
  }
  return found;
}

std::optional<UndecodedInstruction> undecoded_instruction(const std::string& valgrind_output) {
  auto all = undecoded_instructions(valgrind_output);
  if (all.empty()) return std::nullopt;
  return all.front();
}

}  // namespace perfgate
