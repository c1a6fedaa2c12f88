#include "run/suite_flags.h"

#include "base/error.h"
#include "model/machine_identity.h"
#include "run/benchmark_runner.h"
#include "run/host_context.h"

#include <unistd.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>

namespace perfgate {

namespace {

// The value of --benchmark_NAME=VALUE when `word` is that flag.
std::optional<std::string> value_of(const std::string& word, const std::string& name) {
  const std::string prefix = "--benchmark_" + name + "=";
  if (word.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  return word.substr(prefix.size());
}

// A line of a small sysfs file, "" when it cannot be read.
std::string sysfs_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// This host's processors and caches as Google Benchmark's context writes them (num_cpus, caches), from sysconf and
// the first processor's cache folders.
nlohmann::json host_shape() {
  nlohmann::json shape;
  shape["num_cpus"] = static_cast<long long>(sysconf(_SC_NPROCESSORS_ONLN));
  nlohmann::json caches = nlohmann::json::array();
  for (int index = 0; index < 16; ++index) {
    const std::string folder = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    const auto size = sysfs_line(folder + "size");
    if (size.empty()) break;
    char* end = nullptr;
    long long bytes = std::strtoll(size.c_str(), &end, 10);
    if (end != nullptr && (*end == 'K' || *end == 'k')) bytes *= 1024;
    if (end != nullptr && *end == 'M') bytes *= 1024 * 1024;
    caches.push_back({{"type", sysfs_line(folder + "type")},
                      {"level", std::atoll(sysfs_line(folder + "level").c_str())},
                      {"size", bytes}});
  }
  if (!caches.empty()) shape["caches"] = caches;
  return shape;
}

}  // namespace

NameFilter::NameFilter(const std::string& pattern) {
  if (pattern.empty()) return;
  if (pattern.size() > 1000) throw InputError("--benchmark_filter: longer than 1000 characters");
  if (regcomp(&compiled_, pattern.c_str(), REG_EXTENDED | REG_NOSUB) != 0)
    throw InputError("--benchmark_filter=" + pattern + ": not a regular expression (POSIX extended)");
  any_ = false;
}

NameFilter::~NameFilter() {
  if (!any_) regfree(&compiled_);
}

bool NameFilter::matches(const std::string& name) const {
  return any_ || (name.find('\0') == std::string::npos && regexec(&compiled_, name.c_str(), 0, nullptr, 0) == 0);
}

SuiteFlags take_suite_flags(std::vector<std::string>& words) {
  SuiteFlags flags;
  std::vector<std::string> rest;
  for (const auto& word : words) {
    if (word.compare(0, 12, "--benchmark_") != 0) {
      rest.push_back(word);
      continue;
    }
    if (const auto v = value_of(word, "out")) {
      flags.out = *v;
    } else if (const auto format = value_of(word, "out_format")) {
      if (*format != "json") throw InputError(word + ": perfgate's runners write JSON only");
    } else if (const auto context = value_of(word, "context")) {
      const auto equals = context->find('=');
      if (equals == std::string::npos || equals == 0) throw InputError(word + ": expected KEY=VALUE");
      flags.context.emplace_back(context->substr(0, equals), context->substr(equals + 1));
    } else if (const auto filter = value_of(word, "filter")) {
      (void)NameFilter(*filter);  // refused here, before anything runs
      flags.filter = *filter;
    } else if (const auto repetitions = value_of(word, "repetitions")) {
      char* end = nullptr;
      const long n = std::strtol(repetitions->c_str(), &end, 10);
      if (repetitions->empty() || *end != '\0' || n < 1 || n > kMaxRepetitions)
        throw InputError(word + ": expected a whole number from 1 to " + std::to_string(kMaxRepetitions));
      flags.repetitions = static_cast<int>(n);
    } else if (value_of(word, "enable_random_interleaving")) {
      // perfgate time alternates its commands' order round by round whatever this says; a Catch2 binary runs its
      // benchmarks in its own order in every run
    } else {
      throw InputError(word +
                       ": a Google Benchmark flag perfgate's runners do not take (they take out, out_format, "
                       "context, filter, repetitions and enable_random_interleaving)");
    }
  }
  words = rest;
  return flags;
}

void keep_filtered(Results& results, const std::string& filter) {
  if (filter.empty()) return;
  const NameFilter pattern(filter);
  auto& m = results.measurements;
  m.erase(std::remove_if(m.begin(), m.end(), [&](const Measurement& x) { return !pattern.matches(x.benchmark); }),
          m.end());
  if (m.empty()) throw InputError("no benchmark matches --benchmark_filter=" + filter);
}

void record_context(Results& results, const std::vector<std::pair<std::string, std::string>>& context) {
  for (const auto& [key, value] : context) results.context.emplace(key, value);  // emplace keeps the first
  for (const auto& [key, value] : host_context()) results.context.emplace(key, value);
  if (results.context.count("git_sha") == 0) {
    const auto commit = commit_of_tree(".");
    if (commit.commit.empty())
      note_no_commit(commit.reason);
    else
      results.context["git_sha"] = commit.commit;
  }
  if (results.context.count("machine_fingerprint") != 0) return;
  auto shape = host_shape();
  for (const char* key : {"cpu_name", "machine_name"}) {
    const auto found = results.context.find(key);
    if (found != results.context.end()) shape[key] = found->second;
  }
  if (const auto id = identity_from_benchmark_context(shape)) {
    results.context["machine_fingerprint"] = id->fingerprint;
    results.context.emplace("machine", id->description);
  }
}

}  // namespace perfgate
