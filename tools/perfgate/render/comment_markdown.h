#pragma once
// The pull request's comment: the gate's verdicts and the A/B against the merge base in GitHub-flavoured Markdown,
// gated verdicts first. Everything that comes from results is written with markdown_text (no link, image, HTML,
// mention or reference can come from a benchmark's name or a reason), never at the start of a line, and each table
// within a budget of rows and bytes (markdown_rows.h), so that the comment stays below GitHub's 65,536 characters
// whatever the results hold. Pure.
#include "formats/ab_json.h"
#include "formats/verdicts_input.h"
#include "render/markdown_rows.h"

#include <optional>
#include <string>

namespace perfgate {

struct CommentInput {
  std::optional<VerdictsDocument> verdicts;  ///< the report's verdicts.json
  std::optional<AbRecord> ab;                ///< perfgate ab --json
  std::string ab_job;               ///< without `ab`: the A/B job's result (success, failure, cancelled, skipped)
  std::string marker = "perfgate";  ///< names the hidden line by which the comment is found again
  std::string run_url, report_url;  ///< links shown at the end ("" leaves one out)
};

/// The hidden first line: `<!-- perfgate-comment:MARKER -->`.
std::string comment_marker_line(const std::string& marker);

/// Throws InputError for a marker outside [A-Za-z0-9_.-]{1,64} or a link that is not a plain http(s) URL (only
/// characters that cannot end a Markdown link or start markup).
void validate_comment_input(const CommentInput& input);

/// "PASS", "FAIL" or "INCONCLUSIVE" over both inputs: an A/B job that failed without verdicts is FAIL, one that was
/// cancelled or whose verdicts are missing INCONCLUSIVE, a skipped one nothing.
std::string comment_overall(const CommentInput& input);

std::string render_comment(const CommentInput& input);

}  // namespace perfgate
