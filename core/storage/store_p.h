#pragma once

// Private to the Store implementation files.

#include "core/storage/store.h"

#include <array>
#include <sqlite3.h>
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
