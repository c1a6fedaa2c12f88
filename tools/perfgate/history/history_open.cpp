#include "history/history_backend.h"

#include "base/error.h"
#include "history/history_git.h"
#include "history/history_postgres.h"
#include "history/history_sqlite.h"

#include <filesystem>
#include "base/one_line.h"

namespace perfgate {

std::vector<std::string> history_store_files(const std::string& spec) {
  if (spec.rfind("git:", 0) == 0) {
    const std::string rest = spec.substr(4);
    const auto remote = rest.substr(0, rest.rfind('#'));
    std::error_code error;
    return std::filesystem::exists(remote, error) ? std::vector<std::string>{remote} : std::vector<std::string>{};
  }
  if (spec.rfind("postgres", 0) == 0) return {};
  const auto file = spec.rfind("sqlite:", 0) == 0 ? spec.substr(7) : spec;
  return {file, file + "-journal", file + "-wal", file + "-shm"};
}

std::unique_ptr<HistoryBackend> open_history_backend(const std::string& spec, StoreAccess access) {
  if (spec.rfind("git:", 0) == 0) {
    const std::string rest = spec.substr(4);
    const auto hash = rest.rfind('#');
    if (hash == std::string::npos || hash == 0 || hash + 1 == rest.size()) {
      throw InputError("history '" + one_line(spec) +
                       "': a data branch is named git:REMOTE#BRANCH, e.g. git:origin#perfgate-history");
    }
    return std::make_unique<GitHistory>(rest.substr(0, hash), rest.substr(hash + 1), access);
  }
  if (spec.rfind("postgresql://", 0) == 0 || spec.rfind("postgres://", 0) == 0)
    return open_postgres_history(spec, access);
  if (spec.rfind("postgresql:", 0) == 0) return open_postgres_history(spec.substr(11), access);
  if (spec.rfind("postgres:", 0) == 0) return open_postgres_history(spec.substr(9), access);
  if (spec.rfind("sqlite:", 0) == 0) return std::make_unique<SqliteHistory>(spec.substr(7), access);
  // KIND: with a kind perfgate does not know is a mistyped specification, never a file to create under that name.
  const auto colon = spec.find(':');
  if (colon != std::string::npos && colon > 0 && spec.find('/') > colon &&
      spec.substr(0, colon).find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-") ==
          std::string::npos) {
    throw InputError("history: unknown store kind '" + one_line(spec.substr(0, colon + 1)) +
                     "' (a SQLite file, sqlite:PATH, git:REMOTE#BRANCH or postgresql://...; ./" +
                     one_line(spec.substr(0, colon + 1)) + "... for a file whose name has a colon)");
  }
  return std::make_unique<SqliteHistory>(spec, access);
}

}  // namespace perfgate
