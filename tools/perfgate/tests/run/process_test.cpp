// Running another program: a descendant it leaves running in the background, its output detached, does not keep
// perfgate waiting for the program's output.
#include "run/process.h"

#include <gtest/gtest.h>

#include <chrono>

TEST(process, a_background_descendant_does_not_hold_the_output_open) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = perfgate::run_process({"/bin/sh", "-c", "sleep 20 >/dev/null 2>&1 </dev/null & echo started"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.output, "started\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}
