#pragma once

// Sending a trial to a central `creditlab-cli serve` (issue 36): the trial, its sweep and its run, with everything the
// run has, written into a small database file of their own and posted to POST /v1/merge, where the server merges it
// by uid (storemerge.h). Posting again, after a retry or with more iterations done, never duplicates a row.

#include <optional>
#include <string>
#include <string_view>

namespace creditlab {

/// SHA-256 of `bytes` as 64 lowercase hexadecimal digits.
std::string sha256Hex(std::string_view bytes);

/// Writes trial `trialUid` of database `source` (its sweep, trial and run) into a new database file `out`, replacing
/// one there. Throws StoreError naming the file. Any thread (its own connections).
void writeTrialSnapshot(const std::string& source, const std::string& trialUid, const std::string& out);

/// POSTs the database file `file` to `url`/v1/merge (url: http://host:port[/prefix], with or without its trailing
/// /v1) with "Authorization: Bearer <token>" when a token is given, and returns the reply's body. Connection failures,
/// 429 and 5xx replies are retried with backoff, `attempts` in all. Throws std::runtime_error naming the URL and the
/// server's error. Blocks the calling thread.
std::string postDatabase(
    const std::string& url, const std::string& file, const std::optional<std::string>& token, int attempts = 5);

} // namespace creditlab
