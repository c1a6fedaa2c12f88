// perfgate comment: the pull request's comment as Markdown, rendered from a report's verdicts.json and perfgate ab's
// JSON. Both are read as untrusted input, so that a job holding a write token can render what a pull request's own
// run produced. Exit 0 written, 2 bad input; the comment's verdict is in its text, not in the exit code.
#include "base/output_files.h"
#include "base/read_file.h"
#include "cli/cli_help.h"
#include "cli/commands.h"
#include "formats/ab_json.h"
#include "formats/verdicts_input.h"
#include "render/comment_markdown.h"

#include <iostream>

namespace perfgate {

Command add_comment_command(CLI::App& app, CommentArgs& a) {
  Command cmd(app, "comment", "the pull request's comment (Markdown) from verdicts.json and perfgate ab --json");
  cmd.footer(
      command_footer("perfgate comment --verdicts build/report/verdicts.json --ab build/ab/ab.json --run-url "
                     "\"$RUN_URL\" --out comment.md",
                     {Exit::pass}, "0 whatever the verdict it shows"));
  cmd.option("--verdicts", a.verdicts, "verdicts.json of perfgate report");
  cmd.option("--ab", a.ab, "the A/B's verdicts (perfgate ab --json)");
  cmd.option("--ab-job", a.ab_job,
             "instead of --ab when the A/B job wrote no verdicts: its result (success, failure, cancelled, "
             "skipped), shown as such");
  cmd.option("--marker", a.marker, "names the hidden line by which the comment is found and updated").show_default();
  cmd.option("--run-url", a.run_url, "link to the CI run");
  cmd.option("--report-url", a.report_url, "link to the report (e.g. the run's artifacts)");
  cmd.option("--out", a.out, "file to write (default: standard output)");
  return cmd;
}

int run_comment(const CommentArgs& a) {
  CommentInput input;
  input.marker = a.marker;
  input.run_url = a.run_url;
  input.report_url = a.report_url;
  input.ab_job = a.ab_job;
  if (!a.verdicts.empty()) input.verdicts = parse_verdicts_json(read_whole_file(a.verdicts, "verdicts"), a.verdicts);
  if (!a.ab.empty()) input.ab = parse_ab_json(read_whole_file(a.ab, "A/B verdicts"), a.ab);
  validate_comment_input(input);
  Outputs outputs("comment");
  outputs.read({a.verdicts, a.ab});
  if (!a.out.empty()) outputs.file(a.out, "--out");
  const std::string text = render_comment(input);
  if (a.out.empty()) {
    std::cout << text;
    return code_of(Exit::pass);
  }
  outputs.write(a.out, text);
  std::cout << "perfgate comment: " << comment_overall(input) << ", written to " << a.out << std::endl;
  return code_of(Exit::pass);
}

}  // namespace perfgate
