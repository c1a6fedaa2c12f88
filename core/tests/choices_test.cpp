// Contract: every enumerated choice's names table (recon/choices.h) is complete and in enumerator order, each name
// parses back to its value (also with '_' for '-'), and an unknown name is refused with a message listing the names.
// The switches below pin the names users type: a new enumerator must get a case here (-Wswitch, an error in the ci
// preset), and then the completeness check fails until its table has it too.
#include "recon/choices.h"

#include <gtest/gtest.h>

#include <set>

namespace {

std::string spelled(recon::PatternKind v) {
  switch (v) {
    case recon::PatternKind::fermat: return "fermat";
    case recon::PatternKind::random: return "random";
    case recon::PatternKind::rings: return "rings";
    case recon::PatternKind::jittered: return "jittered";
    case recon::PatternKind::star: return "star";
  }
  return "?";
}
std::string spelled(recon::LossKind v) {
  switch (v) {
    case recon::LossKind::l1: return "l1";
    case recon::LossKind::l2: return "l2";
    case recon::LossKind::ssim: return "ssim";
    case recon::LossKind::ms_ssim: return "ms-ssim";
    case recon::LossKind::composite: return "composite";
  }
  return "?";
}
std::string spelled(recon::TargetKind v) {
  switch (v) {
    case recon::TargetKind::usaf: return "usaf";
    case recon::TargetKind::star: return "star";
    case recon::TargetKind::planet: return "planet";
    case recon::TargetKind::points: return "points";
    case recon::TargetKind::disc: return "disc";
  }
  return "?";
}
std::string spelled(recon::OutputActivation v) {
  switch (v) {
    case recon::OutputActivation::none: return "none";
    case recon::OutputActivation::relu: return "relu";
    case recon::OutputActivation::sigmoid: return "sigmoid";
    case recon::OutputActivation::softplus: return "softplus";
    case recon::OutputActivation::abs: return "abs";
  }
  return "?";
}
std::string spelled(recon::PipelineKind v) {
  switch (v) {
    case recon::PipelineKind::reference: return "reference";
    case recon::PipelineKind::optimized: return "optimized";
  }
  return "?";
}
std::string spelled(recon::ComputeDevice v) {
  switch (v) {
    case recon::ComputeDevice::cpu: return "cpu";
    case recon::ComputeDevice::cuda: return "cuda";
  }
  return "?";
}
std::string spelled(recon::SettingsPreset v) {
  switch (v) {
    case recon::SettingsPreset::robust: return "robust";
    case recon::SettingsPreset::prism_compat: return "prism-compat";
  }
  return "?";
}
std::string spelled(recon::InitTarget v) {
  switch (v) {
    case recon::InitTarget::disc: return "disc";
    case recon::InitTarget::first_measurement: return "first-measurement";
  }
  return "?";
}
std::string spelled(recon::SampleMemory v) {
  switch (v) {
    case recon::SampleMemory::previous_reconstruction: return "previous-reconstruction";
    case recon::SampleMemory::measured_data: return "measured-data";
  }
  return "?";
}
std::string spelled(recon::PieVariant v) {
  switch (v) {
    case recon::PieVariant::epie: return "epie";
    case recon::PieVariant::rpie: return "rpie";
    case recon::PieVariant::mpie: return "mpie";
  }
  return "?";
}

template <typename E>
void expect_table_is_the_vocabulary() {
  const auto& table = recon::Choices<E>::table;
  const size_t size = std::size(table);
  std::set<std::string> seen;
  for (size_t i = 0; i < size; ++i) {
    const auto value = table[i].first;
    const std::string name = table[i].second;
    EXPECT_EQ(static_cast<size_t>(value), i) << name << ": the table is in enumerator order, one entry each";
    EXPECT_TRUE(seen.insert(name).second) << name << " appears twice";
    EXPECT_EQ(recon::to_string(value), spelled(value));
    EXPECT_EQ(recon::parse_choice<E>(name), value);
    std::string underscored = name;
    for (auto& c : underscored) c = c == '-' ? '_' : c;
    EXPECT_EQ(recon::parse_choice<E>(underscored), value) << underscored;
  }
  EXPECT_EQ(spelled(static_cast<E>(size)), "?") << recon::Choices<E>::what << ": an enumerator has no table entry";
  try {
    recon::parse_choice<E>("no-such-name");
    ADD_FAILURE() << "an unknown " << recon::Choices<E>::what << " was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "unknown " + std::string(recon::Choices<E>::what) + " 'no-such-name' (expected " +
                                         recon::expected_choices<E>() + ")");
  }
  EXPECT_FALSE(recon::find_choice<E>(std::string(table[0].second) + "x").has_value());
  EXPECT_FALSE(recon::find_choice<E>("").has_value());
}

TEST(choices, every_table_is_complete_ordered_and_round_trips) {
  expect_table_is_the_vocabulary<recon::PatternKind>();
  expect_table_is_the_vocabulary<recon::LossKind>();
  expect_table_is_the_vocabulary<recon::TargetKind>();
  expect_table_is_the_vocabulary<recon::OutputActivation>();
  expect_table_is_the_vocabulary<recon::PipelineKind>();
  expect_table_is_the_vocabulary<recon::ComputeDevice>();
  expect_table_is_the_vocabulary<recon::SettingsPreset>();
  expect_table_is_the_vocabulary<recon::InitTarget>();
  expect_table_is_the_vocabulary<recon::SampleMemory>();
  expect_table_is_the_vocabulary<recon::PieVariant>();
}

TEST(choices, messages_list_the_names_as_prose) {
  EXPECT_EQ(recon::expected_choices<recon::PipelineKind>(), "reference or optimized");
  EXPECT_EQ(recon::expected_choices<recon::LossKind>(), "l1, l2, ssim, ms-ssim or composite");
}

}  // namespace
