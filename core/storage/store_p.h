#pragma once

// Private to the Store implementation files.

#include "core/storage/store.h"

#include <array>
#include <optional>
#include <sqlite3.h>
#include <string>
#include <string_view>
#include <type_traits>

namespace creditlab {

/// Turn rows per INSERT statement on the import path.
inline constexpr std::size_t kTurnsPerInsert = 8;

/// Prepared statements reused by the hot write paths; created on first use.
struct Store::Cache {
    Statement insertTrajectory;
    std::array<Statement, kTurnsPerInsert + 1> insertTurns; ///< [n]: inserts n turn rows
    Statement insertCredit;
    Statement selectTurns;
    Statement selectCredits;
    bool ready = false;
    bool readReady = false;
};

namespace detail {
/// A stored name read back as its enum; a name this build does not know is an error naming the row and field.
template <typename Enum>
Enum readName(std::optional<Enum> (*parse)(std::string_view), const std::string& text, const char* table,
    std::int64_t id, const char* field)
{
    if (const auto value = parse(text))
        return *value;
    throw StoreError(std::string(table) + " " + std::to_string(id) + ": unknown " + field + " '" + text + "'");
}

/// Runs `fn` in its own transaction unless the connection is already inside one.
template <typename Fn> auto inTransaction(Database& db, Fn&& fn)
{
    if (!sqlite3_get_autocommit(db.handle()))
        return fn();
    Transaction tx(db);
    if constexpr (std::is_void_v<decltype(fn())>) {
        fn();
        tx.commit();
    } else {
        auto result = fn();
        tx.commit();
        return result;
    }
}

} // namespace detail

} // namespace creditlab
