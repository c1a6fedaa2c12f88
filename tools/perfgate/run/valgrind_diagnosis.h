#pragma once
// What valgrind's own output says about a run it could not carry out: an instruction its decoder does not know
// (valgrind then raises SIGILL in the program, which usually ends it). Pure: text in, a finding out.
#include <optional>
#include <string>
#include <vector>

namespace perfgate {

/// An instruction valgrind could not decode, as its output reports it.
struct UndecodedInstruction {
  std::string bytes;  ///< the bytes valgrind printed, as hexadecimal pairs ("0F 01 F9 ...")
  std::string name;   ///< what they are where known ("RDTSCP", "RDPID", "an AVX-512 instruction"), else ""
  std::string
      where;  ///< the function and object that ran it ("hwy::platform::TimerResolution() (in libhwy.so.1)"), else ""
};

/// Every instruction valgrind reports it could not decode, in the order it reports them (at most 64), each with the
/// function that ran it where valgrind printed a stack for it. valgrind reports an instruction each time it meets it
/// untranslated, so a run that went past one (the program handled the SIGILL) reports it before the one that stopped
/// it.
std::vector<UndecodedInstruction> undecoded_instructions(const std::string& valgrind_output);

/// The first instruction valgrind reports it could not decode ("vex amd64->IR: unhandled instruction bytes: ..."),
/// with the function that ran it from the stack valgrind printed after it; nullopt when the output reports none.
std::optional<UndecodedInstruction> undecoded_instruction(const std::string& valgrind_output);

}  // namespace perfgate
