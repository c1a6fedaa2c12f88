#pragma once
// The history in a PostgreSQL database (libpq), for teams that run a server: many runners append at once, each run
// one transaction. Built only where libpq was found (PERFGATE_WITH_POSTGRESQL); elsewhere a postgresql: store is
// refused as bad input with that reason.
#include "history/history_backend.h"

#include <memory>

namespace perfgate {

/// True when this perfgate was built with libpq.
bool postgresql_available();

/// `conninfo`: libpq's connection string, a URI (postgresql://user@host:port/db) or key=value pairs. Throws InputError
/// for a malformed one, StoreUnavailable when the server cannot be reached, InputError (read_only) when the database
/// holds no history.
std::unique_ptr<HistoryBackend> open_postgres_history(const std::string& conninfo, StoreAccess access);

}  // namespace perfgate
