#pragma once

// The launcher's "Check servers": whether the remote environment server and the http judge endpoint of a config
// answer, before a run depends on them. Torch-free; blocking (run it off the GUI thread).

#include <QString>
#include <QStringList>

#include <string>
#include <utility>
#include <vector>

namespace creditlab::ui {

struct ServerCheckRequest {
    bool remoteEnv = false; ///< env.name is remote: reset task 0 there
    std::vector<std::pair<std::string, std::string>> envAssignments;
    bool httpJudge = false; ///< judge.name is http: ask it about one made-up turn
    std::vector<std::pair<std::string, std::string>> judgeAssignments;
};

struct ServerCheckResult {
    QStringList lines; ///< one per server: what answered, how fast, or why not
    bool ok = true; ///< every server answered
};

/// Checks each server the request names; never throws (failures are lines of the result).
ServerCheckResult checkServers(const ServerCheckRequest& request);

} // namespace creditlab::ui
