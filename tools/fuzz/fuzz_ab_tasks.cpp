// The ab task list (CSV): parsed or refused with InputError, and every accepted task passes validation again.
#include "model/ab_tasks.h"
#include "base/error.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto tasks = perfgate::parse_ab_tasks(text, "fuzz");
    for (const auto& t : tasks) perfgate::validate_ab_task(t, "fuzz");  // must not throw
    (void)perfgate::group_ab_tasks(tasks);
  } catch (const perfgate::InputError&) {
  }
  return 0;
}
