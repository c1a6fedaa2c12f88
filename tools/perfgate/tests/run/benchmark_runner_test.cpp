// Contract: where perfgate runs a Google Benchmark suite, the results record the commit measured: git_sha, HEAD of the
// tree (marked -dirty with uncommitted changes to tracked files), given after the suite's own arguments (which keep
// precedence); outside git no commit is recorded. The host's processor model and owner's name go in as values Google
// Benchmark's context parsing keeps whole.
#include "run/benchmark_runner.h"
#include "run/host_context.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using perfgate::with_commit_context;
using Words = std::vector<std::string>;

TEST(perfgate_benchmark_runner, the_commit_is_one_more_context) {
  EXPECT_EQ(with_commit_context({"bench", "--benchmark_repetitions=3"}, "abc"),
            (Words{"bench", "--benchmark_repetitions=3", "--benchmark_context=git_sha=abc"}));
  // The suite's own context stays first: Google Benchmark keeps the first value of a key, so its git_sha wins.
  EXPECT_EQ(with_commit_context({"bench", "--benchmark_context=git_sha=mine"}, "abc"),
            (Words{"bench", "--benchmark_context=git_sha=mine", "--benchmark_context=git_sha=abc"}));
}

// The host's context values survive Google Benchmark's parsing: its separators and runs of white space become one
// space.
TEST(perfgate_benchmark_runner, host_context_values_hold_no_separator) {
  EXPECT_EQ(perfgate::context_value("  Intel(R) Xeon(R)   CPU E5-2690 v4 @ 2.60GHz\t"),
            "Intel(R) Xeon(R) CPU E5-2690 v4 @ 2.60GHz");
  EXPECT_EQ(perfgate::context_value("rack=3,slot 7"), "rack 3 slot 7");
  EXPECT_EQ(perfgate::context_value(std::string(300, 'x')).size(), 200u);
  // "é" is two bytes: 199 'x' and then it would cross 200, so the cut comes before it.
  EXPECT_EQ(perfgate::context_value(std::string(199, 'x') + "\xc3\xa9yz"), std::string(199, 'x'));
  EXPECT_EQ(perfgate::cpu_name_from("processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) "
                                    "Processor\nprocessor\t: 1\nmodel name\t: other\n"),
            "Intel(R) Xeon(R) Processor");
  EXPECT_EQ(perfgate::cpu_name_from("processor\t: 0\nBogoMIPS\t: 50.00\nProcessor\t: ARMv8, rev 1\n"), "ARMv8 rev 1");
  EXPECT_EQ(perfgate::cpu_name_from("processor\t: 0\n"), "");
  ::setenv("PERFGATE_MACHINE", "bench, the second", 1);
  const auto arguments = perfgate::host_context_arguments();
  ::unsetenv("PERFGATE_MACHINE");
  EXPECT_EQ(arguments.back(), "--benchmark_context=machine_name=bench the second");
  // This host's processor, where its /proc/cpuinfo names one, as the first argument.
  std::ifstream cpuinfo("/proc/cpuinfo");
  const std::string text((std::istreambuf_iterator<char>(cpuinfo)), std::istreambuf_iterator<char>());
  if (!perfgate::cpu_name_from(text).empty()) {
    EXPECT_EQ(arguments.front(), "--benchmark_context=cpu_name=" + perfgate::cpu_name_from(text));
  }
}

// A folder with a stand-in suite that writes a valid results file and lists the arguments it was given.
class perfgate_suite_in_a_tree : public ::testing::Test {
 protected:
  void SetUp() override {
    work_ = fs::temp_directory_path() / ("perfgate_runner_" + std::to_string(::getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(work_);
    fs::create_directories(work_ / "tree");
    // git never looks above the work folder, wherever the temporary folder lies.
    ::setenv("GIT_CEILING_DIRECTORIES", work_.c_str(), 1);
    suite_ = (work_ / "suite.sh").string();
    std::ofstream(suite_) << "#!/bin/sh\nout=\nfor a in \"$@\"; do case $a in --benchmark_out=*) out=${a#*=};; "
                             "esac; done\nprintf '%s\\n' \"$@\" > \"$ARGS_FILE\"\ncp \"$INPUT\" \"$out\"\n";
    fs::permissions(suite_, fs::perms::owner_all);
  }
  void TearDown() override {
    ::unsetenv("GIT_CEILING_DIRECTORIES");
    fs::remove_all(work_);
  }

  int git(const std::string& tree, const std::string& arguments) const {
    return std::system(("git -C '" + (work_ / tree).string() + "' -c user.email=t@example.org -c user.name=t " +
                        arguments + " >/dev/null 2>&1")
                           .c_str());
  }

  // A repository in work_/TREE with one commit of a.txt.
  void committed_tree(const std::string& tree) {
    fs::create_directories(work_ / tree);
    ASSERT_EQ(git(tree, "init -q"), 0);
    std::ofstream((work_ / tree / "a.txt").string()) << "one\n";
    ASSERT_EQ(git(tree, "add a.txt"), 0);
    ASSERT_EQ(git(tree, "commit -q -m one"), 0);
  }

  // The arguments the suite was given when run_benchmark ran it for work_/TREE (each tree asked of git once).
  Words arguments_given(const std::string& tree) const {
    const auto args = (work_ / "args.txt").string();
    perfgate::run_benchmark({suite_}, (work_ / "out.json").string(),
                            {"ARGS_FILE=" + args, std::string("INPUT=") + PERFGATE_TEST_INPUTS + "/results_ok.json"},
                            60.0, (work_ / tree).string());
    std::ifstream in(args);
    Words words;
    for (std::string line; std::getline(in, line);) words.push_back(line);
    return words;
  }

  std::string head(const std::string& tree) const {
    const auto file = (work_ / "head.txt").string();
    std::system(("git -C '" + (work_ / tree).string() + "' rev-parse HEAD > '" + file + "'").c_str());
    std::string sha;
    std::ifstream(file) >> sha;
    return sha;
  }

  fs::path work_;
  std::string suite_;
};

TEST_F(perfgate_suite_in_a_tree, a_suite_in_git_records_head) {
  committed_tree("clean");
  const auto words = arguments_given("clean");
  const auto sha = head("clean");
  ASSERT_EQ(sha.size(), 40u);
  EXPECT_EQ(std::count(words.begin(), words.end(), "--benchmark_context=git_sha=" + sha), 1);
}

TEST_F(perfgate_suite_in_a_tree, a_changed_tracked_file_marks_the_commit_dirty) {
  committed_tree("changed");
  std::ofstream((work_ / "changed" / "a.txt").string()) << "two\n";
  const auto words = arguments_given("changed");
  EXPECT_EQ(std::count(words.begin(), words.end(), "--benchmark_context=git_sha=" + head("changed") + "-dirty"), 1);
}

// git is asked once per tree in a run of perfgate: each tree keeps its own answer.
TEST_F(perfgate_suite_in_a_tree, each_tree_records_its_own_commit) {
  committed_tree("first");
  committed_tree("second");
  std::ofstream((work_ / "second" / "b.txt").string()) << "b\n";
  ASSERT_EQ(git("second", "add b.txt"), 0);
  ASSERT_EQ(git("second", "commit -q -m two"), 0);
  ASSERT_NE(head("first"), head("second"));
  for (int round = 0; round < 2; ++round) {
    const auto first = arguments_given("first");
    const auto second = arguments_given("second");
    const auto outside = arguments_given("tree");
    EXPECT_EQ(std::count(first.begin(), first.end(), "--benchmark_context=git_sha=" + head("first")), 1);
    EXPECT_EQ(std::count(second.begin(), second.end(), "--benchmark_context=git_sha=" + head("second")), 1);
    for (const auto& w : outside) EXPECT_EQ(w.find("--benchmark_context=git_sha"), std::string::npos) << w;
  }
}

TEST_F(perfgate_suite_in_a_tree, outside_git_no_commit_is_recorded) {
  const auto words = arguments_given("tree");
  for (const auto& w : words) EXPECT_EQ(w.find("--benchmark_context=git_sha"), std::string::npos) << w;
  EXPECT_FALSE(words.empty());
}

}  // namespace
