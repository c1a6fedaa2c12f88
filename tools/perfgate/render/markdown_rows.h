#pragma once
// Table rows within a budget: at most `max_rows` rows and `max_bytes` bytes; the rest counted in one line that sends
// the reader to the report.
#include <sstream>
#include <string>
#include <vector>

namespace perfgate {

/// Rows listed per table at most.
constexpr size_t kCommentRowsPerTable = 40;

inline void append_rows(std::ostringstream& out, const std::vector<std::string>& rows, size_t max_rows,
                        size_t max_bytes) {
  size_t bytes = 0, shown = 0;
  for (const auto& row : rows) {
    if (shown == max_rows || bytes + row.size() > max_bytes) break;
    out << row;
    bytes += row.size();
    ++shown;
  }
  if (shown < rows.size()) out << "\n… and " << rows.size() - shown << " more, listed in the report.\n";
}

}  // namespace perfgate
