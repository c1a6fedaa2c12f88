#pragma once
// The pull request's comment: the gate's verdicts and the A/B against the merge base in GitHub-flavoured Markdown,
// gated verdicts first. Everything that comes from results is written with markdown_text (no link, image, HTML or
// @mention can come from a benchmark's name or a reason). Pure.
#include "ab_json.h"
#include "verdicts_input.h"

#include <optional>
#include <string>

namespace perfgate {

struct CommentInput {
  std::optional<VerdictsDocument> verdicts;  ///< the report's verdicts.json
  std::optional<AbRecord> ab;                ///< perfgate ab --json
  std::string marker = "perfgate";           ///< names the hidden line by which the comment is found again
  std::string run_url, report_url;           ///< links shown at the end ("" leaves one out)
};

/// Rows listed per table at most; the rest are counted and left to the report, so that a comment stays far below
/// GitHub's 65,536 characters whatever the results hold.
constexpr size_t kCommentRowsPerTable = 40;

/// The hidden first line: `<!-- perfgate-comment:MARKER -->`.
std::string comment_marker_line(const std::string& marker);

/// Throws InputError for a marker outside [A-Za-z0-9_.-]{1,64} or a link that is not a plain http(s) URL (only
/// characters that cannot end a Markdown link or start markup).
void validate_comment_input(const CommentInput& input);

/// "PASS", "FAIL" or "INCONCLUSIVE" over both inputs.
std::string comment_overall(const CommentInput& input);

std::string render_comment(const CommentInput& input);

/// The A/B section alone (a heading, the timing table, the instruction table, the accepted regressions): in the
/// comment and in the report's summary.
std::string render_ab_markdown(const AbRecord& ab);

}  // namespace perfgate
