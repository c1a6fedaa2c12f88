#pragma once
// Where a history lives: an interface every store implements the same way (append one run atomically, read every
// run back), chosen by a store specification. The queries run on what `runs()` returns, so every store answers them
// alike.
#include "history/history_run.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace perfgate {

/// A store that could not be reached or stayed locked beyond its waits (a server down, a ref that kept moving, a
/// database another process held): not bad input, and worth a retry. main() gives it exit code 5.
class StoreUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class StoreAccess { read_only, create };

class HistoryBackend {
 public:
  virtual ~HistoryBackend() = default;
  /// Appends runs in one step: afterwards they are all there, or (on an exception) none. A run is its content
  /// (run_identity): one the store holds already, or one given twice, is appended once, decided inside the step so
  /// that concurrent appends from other processes and machines add each run once and lose none. Returns how many runs
  /// were appended.
  virtual size_t append(const std::vector<HistoryRun>& runs) = 0;
  /// Every run, in the order the store keeps them (the order of appending).
  virtual std::vector<HistoryRun> runs() const = 0;
  /// The store as a user named it, for messages.
  virtual std::string name() const = 0;
};

/// Opens a store from its specification:
///   PATH or sqlite:PATH                    a SQLite file (created on first record)
///   git:REMOTE#BRANCH                      a data branch: one file per run, pushed to REMOTE (a remote's name in the
///                                          repository around the working folder, a path or a URL)
///   postgresql://..., postgres://... or postgresql:CONNINFO   a PostgreSQL database (libpq's connection string)
/// Throws InputError for a malformed specification, an unknown KIND: prefix (a mistyped kind never becomes a file of
/// that name), or a store kind this perfgate was built without.
std::unique_ptr<HistoryBackend> open_history_backend(const std::string& spec, StoreAccess access);

/// The files and folders of this machine a store specification reads: a SQLite file (and its journal files), a data
/// branch's repository when REMOTE is a path; none for a server. A command declares them as inputs (output_files.h),
/// so that no output of it replaces its own store.
std::vector<std::string> history_store_files(const std::string& spec);

}  // namespace perfgate
