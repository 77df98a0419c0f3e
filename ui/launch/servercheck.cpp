#include "ui/launch/servercheck.h"

#include "core/env/environment.h"
#include "core/judge/httpjudge.h"
#include "core/model/trajectory.h"
#include "ui/common/textutil.h"

#include <QCoreApplication>

#include <chrono>
#include <exception>

namespace creditlab::ui {

namespace {

using Clock = std::chrono::steady_clock;

// "creditlab::ui": the context lupdate gives a free tr() in this namespace.
QString tr(const char* text) { return QCoreApplication::translate("creditlab::ui", text); }

qint64 msSince(Clock::time_point start)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

/// The first line of `text`, at most 80 characters.
QString firstLine(const std::string& text)
{
    QString line = toQString(text.substr(0, text.find('\n')));
    return line.size() > 80 ? line.left(79) + QChar(0x2026) : line;
}

} // namespace

ServerCheckResult checkServers(const ServerCheckRequest& request)
{
    ServerCheckResult out;
    Trajectory probe; // the judge's made-up turn: the environment's first task when it answered
    probe.id = "check";
    probe.group = "check";
    probe.task.goal = "check that the judge answers";
    Turn turn;
    turn.observation = "You are in a room.";
    turn.action = "look";
    turn.feedback = "You are in a room.";
    if (request.remoteEnv) {
        const auto start = Clock::now();
        try {
            auto environment = env::makeEnvironment("remote", request.envAssignments);
            const std::string& first = environment->reset(0, env::Split::Train);
            out.lines << tr("Environment server: reset task 0 in %1 ms; it begins “%2”.")
                             .arg(msSince(start))
                             .arg(firstLine(first));
            probe.task.goal = environment->goal();
            turn.observation = first;
        } catch (const std::exception& e) {
            out.ok = false;
            out.lines << tr("Environment server: %1").arg(toQString(e.what()));
        }
    }
    if (request.httpJudge) {
        const auto start = Clock::now();
        try {
            // Without a store: nothing is cached, and the key is sent when its variable is set.
            const auto judge = judge::HttpJudge::create(request.judgeAssignments, nullptr);
            probe.turns = { turn };
            const auto verdicts = judge->judge(probe, {});
            if (!verdicts.empty() && verdicts.front().role) {
                out.lines << tr("Judge %1: answered %2 in %3 ms.")
                                 .arg(toQString(judge->tag()), toQString(std::string(roleName(*verdicts.front().role))))
                                 .arg(msSince(start));
            } else {
                out.ok = false;
                out.lines << tr("Judge: no usable answer: %1")
                                 .arg(judge->failures().empty() ? tr("no role")
                                                                : toQString(judge->failures().front().reason));
            }
        } catch (const std::exception& e) {
            out.ok = false;
            out.lines << tr("Judge: %1").arg(toQString(e.what()));
        }
    }
    return out;
}

} // namespace creditlab::ui
