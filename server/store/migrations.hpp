#pragma once
// The migration runner: numbered plain SQL files (migrations/0001_initial.sql, ...) applied in
// order, each in its own transaction, each recorded in schema_migrations with its SHA-256.
// The whole run holds a PostgreSQL advisory lock (one per database and schema), so two servers
// starting together never apply one file twice: the second waits, then finds nothing to do.
// A file changed after it was applied is refused (before anything is applied), and so is a
// database that has a migration this directory does not know (it is newer than this code).

#include <filesystem>
#include <string>
#include <vector>

#include "server/store/result.hpp"

namespace store {

/// What a migration run did.
struct MigrationReport {
    std::vector<std::string> applied;  ///< file names applied by this run, in order
    std::vector<std::string> present;  ///< file names that were applied before
};

/// Applies the pending migrations of `directory` to the database at `url` (a libpq connection
/// string or URI; the tables go into the first schema of its search_path). Files are named
/// `<number>_<name>.sql`; other files are ignored. Errors: Invalid for a bad directory, a
/// duplicate number, a modified or unknown applied migration, or a file whose SQL fails (that
/// file's changes are rolled back; the ones before it stay); Unavailable without a database.
Result<MigrationReport> migrate(const std::string& url, const std::filesystem::path& directory);

}  // namespace store
