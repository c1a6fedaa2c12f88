// The output discipline (base/output_files.h) on its own: what a command declares it reads is never written, a folder
// it fills is its own or refused, links are replaced or followed as declared, and nothing undeclared is written.
#include "base/output_files.h"
#include "base/error.h"
#include "base/temporary_folder.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace {

namespace fs = std::filesystem;
using perfgate::InputError;
using perfgate::Outputs;

std::string put(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
  return path.string();
}

std::string text_of(const fs::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(output_files, an_input_is_never_an_output_however_it_is_reached) {
  const perfgate::TemporaryFolder t("outputs");
  const auto input = put(t.path() / "store.db", "store");
  fs::create_hard_link(input, t.path() / "hard.json");
  fs::create_symlink(input, t.path() / "soft.json");
  for (const auto& spelling : {input, (t.path() / "." / "store.db").string(), (t.path() / "hard.json").string(),
                               (t.path() / "soft.json").string()}) {
    Outputs outputs("test");
    outputs.read(input);
    EXPECT_THROW(outputs.file(spelling, "--out"), InputError) << spelling;
  }
  Outputs later("test");  // an output declared before the input it turns out to be is still refused when written
  later.file((t.path() / "hard.json").string(), "--out");
  later.read(input);
  EXPECT_THROW(later.write((t.path() / "hard.json").string(), "x"), InputError);
  EXPECT_EQ(text_of(input), "store");
}

TEST(output_files, a_file_read_and_replaced_in_place_is_replaced_but_no_other_input_at_it) {
  const perfgate::TemporaryFolder t("outputs");
  const auto baseline = put(t.path() / "baseline.json", "old");
  const auto results = put(t.path() / "results.json", "results");
  Outputs outputs("test");
  outputs.read(results);
  outputs.in_place(baseline, "--baseline");
  outputs.write(baseline, "new");
  EXPECT_EQ(text_of(baseline), "new");
  Outputs same("test");
  same.read(results);
  EXPECT_THROW(same.in_place(results, "--baseline"), InputError);  // the results named as the baseline too
}

TEST(output_files, two_outputs_are_never_one_file) {
  const perfgate::TemporaryFolder t("outputs");
  Outputs outputs("test");
  outputs.file((t.path() / "a.json").string(), "--out");
  EXPECT_THROW(outputs.file((t.path() / "." / "a.json").string(), "--json"), InputError);
}

TEST(output_files, a_folder_holding_files_perfgate_did_not_write_is_refused_whole) {
  const perfgate::TemporaryFolder t("outputs");
  const auto page = put(t.path() / "site" / "index.html", "the user's page");
  Outputs outputs("dashboard");
  EXPECT_THROW(outputs.folder((t.path() / "site").string(), "--out"), InputError);
  EXPECT_EQ(text_of(page), "the user's page");
  put(t.path() / "site" / ".perfgate-report", "");  // another perfgate command's folder is perfgate's
  Outputs marked("dashboard");
  EXPECT_NO_THROW(marked.folder((t.path() / "site").string(), "--out"));
}

TEST(output_files, a_file_another_perfgate_is_staging_is_not_the_users) {
  const perfgate::TemporaryFolder t("outputs");
  put(t.path() / "results" / ".perfgate-gate.perfgate-Ab12Cd", "");  // two gates started at once: the other's marker
  Outputs outputs("gate");
  EXPECT_NO_THROW(outputs.folder((t.path() / "results").string(), "--results-dir"));
  put(t.path() / "results" / "notes.txt", "the user's");
  Outputs again("gate");
  EXPECT_THROW(again.folder((t.path() / "results").string(), "--results-dir"), InputError);
}

TEST(output_files, a_new_folder_is_created_and_marked_at_the_first_write) {
  const perfgate::TemporaryFolder t("outputs");
  const auto folder = (t.path() / "new" / "report").string();
  Outputs outputs("report");
  outputs.folder(folder, "--out-dir");
  EXPECT_FALSE(fs::exists(folder));  // declaring checks; only a write creates
  outputs.write((fs::path(folder) / "plots" / "1.svg").string(), "<svg/>");
  EXPECT_TRUE(fs::is_regular_file(fs::path(folder) / ".perfgate-report"));
  EXPECT_TRUE(outputs.marked(folder));
  EXPECT_EQ(text_of(fs::path(folder) / "plots" / "1.svg"), "<svg/>");
}

TEST(output_files, in_a_folder_a_link_is_replaced_and_a_linked_sub_folder_refused) {
  const perfgate::TemporaryFolder t("outputs");
  const auto outside = put(t.path() / "outside.html", "outside");
  fs::create_directories(t.path() / "elsewhere");
  const auto folder = t.path() / "site";
  put(folder / ".perfgate-dashboard", "");
  fs::create_symlink(outside, folder / "index.html");
  fs::create_symlink(t.path() / "elsewhere", folder / "plots");
  Outputs outputs("dashboard");
  outputs.folder(folder.string(), "--out");
  outputs.write((folder / "index.html").string(), "page");
  EXPECT_FALSE(fs::is_symlink(folder / "index.html"));
  EXPECT_EQ(text_of(outside), "outside");
  EXPECT_THROW(outputs.write((folder / "plots" / "1.svg").string(), "<svg/>"), InputError);
  EXPECT_TRUE(fs::is_empty(t.path() / "elsewhere"));
  EXPECT_THROW(outputs.remove((folder / "plots" / "1.svg").string()), InputError);
}

TEST(output_files, a_folder_that_is_a_link_or_a_file_is_refused) {
  const perfgate::TemporaryFolder t("outputs");
  fs::create_directories(t.path() / "real");
  fs::create_symlink(t.path() / "real", t.path() / "link");
  const auto file = put(t.path() / "file", "x");
  Outputs outputs("report");
  EXPECT_THROW(outputs.folder((t.path() / "link").string(), "--out-dir"), InputError);
  EXPECT_THROW(outputs.folder(file, "--out-dir"), InputError);
}

TEST(output_files, a_derived_file_replaces_a_link_and_a_named_file_follows_one) {
  const perfgate::TemporaryFolder t("outputs");
  const auto target = put(t.path() / "kept" / "baseline.json", "old");
  fs::create_symlink(target, t.path() / "baseline.json");
  const auto elsewhere = put(t.path() / "elsewhere.tsv", "elsewhere");
  fs::create_symlink(elsewhere, t.path() / "baseline.functions.tsv");
  Outputs outputs("update");
  outputs.in_place((t.path() / "baseline.json").string(), "--baseline");
  outputs.companion((t.path() / "baseline.functions.tsv").string(), "--baseline's function profile");
  outputs.write((t.path() / "baseline.functions.tsv").string(), "profile");
  outputs.write((t.path() / "baseline.json").string(), "new");
  EXPECT_EQ(text_of(target), "new");  // the link the user named is followed
  EXPECT_TRUE(fs::is_symlink(t.path() / "baseline.json"));
  EXPECT_EQ(text_of(elsewhere), "elsewhere");  // the derived name's link is replaced, not written through
  EXPECT_FALSE(fs::is_symlink(t.path() / "baseline.functions.tsv"));
}

TEST(output_files, writing_what_was_never_declared_is_a_mistake_in_perfgate) {
  const perfgate::TemporaryFolder t("outputs");
  Outputs outputs("test");
  outputs.file((t.path() / "a.json").string(), "--out");
  EXPECT_THROW(outputs.write((t.path() / "b.json").string(), "x"), std::logic_error);
  EXPECT_FALSE(fs::exists(t.path() / "b.json"));
}

}  // namespace
