#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace creditlab {

class Database;

/// The storage schema and its numbered migrations: the one place that defines tables.
/// Migration N takes a database from `user_version` N-1 to N and runs inside one transaction.
namespace schema {

/// The newest schema version this build knows.
inline constexpr int kVersion = 11;
/// Written into the file header (`PRAGMA application_id`), "CRLB".
inline constexpr int kApplicationId = 0x43524c42;

/// The SQL of migration `toVersion` (1..kVersion).
std::string_view migrationSql(int toVersion);

/// Reads the SQLite header of `path`, when the file exists, before any connection is opened, and refuses
/// a file from a newer CreditLab with a StoreError, so that SQLite creates no -wal/-shm files beside it.
/// Returns `path`. Any thread.
const std::string& refuseNewerFile(const std::string& path);

/// Checks that `db` is a CreditLab database this build can open, then brings it to kVersion
/// (ReadWrite) or requires that it is already there (ReadOnly). A newer or foreign file is
/// refused with a StoreError and not modified. Same thread as `db`.
void prepare(Database& db);

} // namespace schema
} // namespace creditlab
