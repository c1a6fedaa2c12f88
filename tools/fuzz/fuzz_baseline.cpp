// Baseline JSON: parsed or refused with InputError; whatever parses serialises to text that parses to the same.
#include "model/baseline.h"
#include "base/error.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  perfgate::Baseline first;
  try {
    first = perfgate::parse_baseline(text, "fuzz");
  } catch (const perfgate::InputError&) {
    return 0;
  }
  const auto again = perfgate::parse_baseline(perfgate::to_json_text(first), "round trip");  // must not throw
  if (perfgate::to_json_text(again) != perfgate::to_json_text(first)) std::abort();
  return 0;
}
