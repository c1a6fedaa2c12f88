#pragma once
// What perfgate records about the host where it runs a suite, so that two hosts of the same shape (the CPUs and caches
// Google Benchmark records) are told apart by the machine identity (model/machine_identity.h).
#include <string>
#include <utility>
#include <vector>

namespace perfgate {

/// The host's context entries: cpu_name, the processor's model as the kernel names it (/proc/cpuinfo; none where
/// it cannot be read), and machine_name, the PERFGATE_MACHINE environment variable when set (a name the owner gives a
/// host, e.g. a self-hosted runner's). Each value with Google Benchmark's separators (',' and '=') and every run of
/// white space made one space, at most 200 bytes (context_value).
std::vector<std::pair<std::string, std::string>> host_context();

/// host_context() as --benchmark_context=KEY=VALUE arguments, for a Google Benchmark suite.
std::vector<std::string> host_context_arguments();

/// The processor's model in the text of /proc/cpuinfo: its first "model name" (x86), else its "Processor" or
/// "cpu model" line (other architectures); "" when it names none.
std::string cpu_name_from(const std::string& cpuinfo);

/// `text` as a value of a --benchmark_context argument: ',' and '=' and every run of white space made one space, the
/// ends trimmed, at most 200 bytes, cut between characters.
std::string context_value(const std::string& text);

}  // namespace perfgate
