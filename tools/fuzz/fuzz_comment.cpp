// The pull request comment's inputs (a verdicts.json and ab's JSON, from a run whose code is untrusted) and the
// accepting rules of commit trailers: each parsed or refused with InputError; a comment rendered from whatever
// parsed starts with its marker line, stays below GitHub's 65,536 characters, holds no '<' but the marker's (no
// HTML) and no '@' without the zero-width space that keeps it from mentioning anyone.
#include "formats/ab_json.h"
#include "model/accept_rules.h"
#include "render/comment_markdown.h"
#include "base/error.h"
#include "formats/verdicts_input.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

void check(const std::string& comment) {
  const std::string marker = perfgate::comment_marker_line("perfgate");
  if (comment.rfind(marker, 0) != 0 || comment.size() >= 65536) std::abort();
  if (comment.find('<', marker.size()) != std::string::npos) std::abort();
  for (size_t at = comment.find('@'); at != std::string::npos; at = comment.find('@', at + 1)) {
    if (comment.compare(at + 1, 3, "\u200B") != 0) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // The first line is an accepting rule; the rest is tried as either document.
  const auto newline = text.find('\n');
  const std::string rule = text.substr(0, newline);
  const std::string document = newline == std::string::npos ? std::string() : text.substr(newline + 1);
  try {
    (void)perfgate::parse_accept_rule(rule, "fuzz");
  } catch (const perfgate::InputError&) {
  }
  perfgate::CommentInput input;
  try {
    input.ab = perfgate::parse_ab_json(document, "fuzz");
  } catch (const perfgate::InputError&) {
  }
  try {
    input.verdicts = perfgate::parse_verdicts_json(document, "fuzz");
  } catch (const perfgate::InputError&) {
  }
  if (input.ab || input.verdicts) check(perfgate::render_comment(input));
  return 0;
}
