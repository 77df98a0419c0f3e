#pragma once

#include <string>

namespace creditlab {

/// The per-user data folder of CreditLab: `$XDG_DATA_HOME/creditlab`, else `~/.local/share/creditlab`
/// (on macOS `~/Library/Application Support/creditlab`, on Windows `%APPDATA%\creditlab`).
std::string dataDirectory();

/// `dataDirectory()/runs.db`: the database every command uses unless `--db` says otherwise.
std::string defaultDatabasePath();

} // namespace creditlab
