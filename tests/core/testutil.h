#pragma once

// Small helpers shared by the core tests: file I/O, trajectory builders, store helpers. Header-only.

#include "core/interchange/jsonl.h"
#include "core/model/trajectory.h"
#include "core/storage/store.h"

#include <QRegularExpression>
#include <QtTest/QTest>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace creditlab::test {

/// Writes `bytes` exactly (binary) to `path`; fails the test when that is impossible.
inline void writeFile(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    QVERIFY2(out.good(), path.c_str());
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    QVERIFY2(out.good(), path.c_str());
}

/// The whole content of `path` (empty when it cannot be read).
inline std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// A trajectory with `turns` turns that sets only the required fields.
inline Trajectory minimalTrajectory(const std::string& id, const std::string& group, double reward, int turns)
{
    Trajectory t;
    t.id = id;
    t.group = group;
    t.reward = reward;
    for (int i = 0; i < turns; ++i) {
        Turn u;
        u.observation = "obs " + std::to_string(i);
        u.action = "act " + std::to_string(i);
        t.turns.push_back(u);
    }
    return t;
}

/// A trajectory that sets every optional field, with unknown members at both levels.
inline Trajectory fullTrajectory(const std::string& id, const std::string& group)
{
    Trajectory t;
    t.id = id;
    t.group = group;
    t.task.key = "household:seed=17";
    t.task.env = "household";
    t.task.goal = "put a clean mug in coffeemachine.";
    t.reward = 0.75;
    t.success = false;
    t.iteration = 3;
    t.extra = R"("meta":{"a":[1,2.5e+3,null]},"note":"x\ty")";
    Turn u;
    u.observation = "You are in the middle of a room.";
    u.action = "go to countertop 1";
    u.feedback = "On the countertop 1, you see a mug 1.";
    u.reward = -0.125;
    u.valid = false;
    u.state = "loc=countertop1|holding=-";
    u.progress = 0.25;
    u.role = Role::E;
    u.roleSource = "human:alice";
    u.score = 0.81;
    u.extra = R"("logprob":-1.50e+3,"tags":["a","b"])";
    t.turns.push_back(u);
    return t;
}

/// True for an ISO 8601 UTC timestamp with seconds, as the Store writes them.
inline bool isTimestamp(const std::string& s)
{
    static const QRegularExpression re(QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$"));
    return re.match(QString::fromStdString(s)).hasMatch();
}

/// The arguments of Store::createRun.
inline NewRun newRun(const std::string& name, RunKind kind = RunKind::Import, RunStatus status = RunStatus::Finished)
{
    return NewRun { name, kind, status, std::nullopt };
}

/// The JSONL text of `t`, for failure messages.
inline std::string describe(const Trajectory& t)
{
    std::string s;
    formatTrajectory(t, s);
    if (s.size() > 600)
        s = s.substr(0, 600) + "...";
    return s;
}

/// Compares two trajectories and prints both on failure.
#define CL_COMPARE_TRAJ(actual, expected)                                                                              \
    do {                                                                                                               \
        const auto& a_ = (actual);                                                                                     \
        const auto& e_ = (expected);                                                                                   \
        QVERIFY2(a_ == e_,                                                                                             \
            ("\n actual:   " + ::creditlab::test::describe(a_) + "\n expected: " + ::creditlab::test::describe(e_))    \
                .c_str());                                                                                             \
    } while (false)

} // namespace creditlab::test

namespace QTest {
/// Lets QCOMPARE print std::string values (with non-printable bytes escaped).
template <> inline char* toString(const std::string& s)
{
    return toPrettyCString(s.data(), static_cast<qsizetype>(s.size()));
}
} // namespace QTest
