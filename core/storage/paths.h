#pragma once

#include <cstdint>
#include <string>

namespace creditlab {

/// The per-user data folder of CreditLab: `$XDG_DATA_HOME/creditlab`, else `~/.local/share/creditlab`
/// (on macOS `~/Library/Application Support/creditlab`, on Windows `%APPDATA%\creditlab`).
std::string dataDirectory();

/// `dataDirectory()/runs.db`: the database every command uses unless `--db` says otherwise.
std::string defaultDatabasePath();

namespace paths {

/// The folder of a run's side files beside its database, "<database>.files/run-<id>": checkpoints, the SFT policy
/// (reference.pt), the tokenizer, TurnRD's replay and PAIR's probe. Deleting the run deletes it.
std::string runFiles(const std::string& database, std::int64_t runId);

} // namespace paths

} // namespace creditlab
