// Contract: every date perfgate accepts is written out in full, so that two of them compare in time order as text.
#include "base/utc_time.h"

#include <gtest/gtest.h>

namespace {

TEST(perfgate_utc_time, dates_are_written_out_in_full_for_comparison) {
  EXPECT_EQ(perfgate::utc_instant_text("2026-11-23"), "2026-11-23T00:00:00Z");
  EXPECT_EQ(perfgate::utc_instant_text("2026-11-23T04:00"), "2026-11-23T04:00:00Z");
  EXPECT_EQ(perfgate::utc_instant_text("2026-11-23T04:00:07"), "2026-11-23T04:00:07Z");
  EXPECT_EQ(perfgate::utc_instant_text("2026-11-23T04:00:07Z"), "2026-11-23T04:00:07Z");
  // A run recorded by day is not "before" a baseline recorded later that day by the text's length alone.
  EXPECT_LT(perfgate::utc_instant_text("2026-11-23"), perfgate::utc_instant_text("2026-11-23T10:00:00Z"));
  EXPECT_GT(perfgate::utc_instant_text("2026-11-23T10:00"), perfgate::utc_instant_text("2026-11-23T09:59:59Z"));
  EXPECT_EQ(perfgate::utc_instant_text("yesterday"), "yesterday");
  EXPECT_EQ(perfgate::utc_now().size(), 20u);
}

}  // namespace
