// Chrome traces: summarised or refused with InputError; self time never exceeds total time.
#include "base/error.h"
#include "model/trace_summary.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    for (const auto& op : perfgate::summarise_trace(text, "fuzz").operators) {
      if (op.self_us > op.total_us * (1.0 + 1e-9) + 1e-9) std::abort();
    }
  } catch (const perfgate::InputError&) {
  }
  return 0;
}
