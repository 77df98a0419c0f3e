#pragma once

// SQLite's WAL mode needs shared memory and POSIX locks that work between every process using the file, which a
// network file system does not give (sqlite.org/wal.html: "WAL does not work over a network filesystem"). A CreditLab
// database is always WAL, so the store refuses to open one for writing on such a file system (issue 36).

#include <optional>
#include <string>

namespace creditlab {

/// The name of the network or cluster file system holding `path` ("NFS", "Lustre", ...), or nullopt for a local one.
/// `path` may not exist yet: its nearest existing ancestor folder is looked at (statfs, f_type). Test hook: the
/// environment variable CREDITLAB_TEST_NETWORK_FS, a ':'-separated list of path prefixes, makes paths under them
/// count as NFS (a simulated one; nothing else changes). Any thread.
std::optional<std::string> networkFileSystem(const std::string& path);

/// Throws StoreError, naming the file, the file system and what to do instead, when `databasePath` is on a network
/// file system (networkFileSystem()), unless CREDITLAB_ALLOW_NETWORK_FS=1 is set (for a FUSE file system that is in
/// fact local). Any thread.
void refuseWalOnNetworkFileSystem(const std::string& databasePath);

} // namespace creditlab
