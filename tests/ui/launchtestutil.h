#pragma once

// What the launcher and monitor tests share: the tiny run config, a window's settings file, and runs written to a
// database as another process would.

#include "core/storage/store.h"
#include "tests/learn/tinyconfig.h"
#include "ui/shell/settings.h"

#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::ui::testing {

inline constexpr int kRunWaitMs = 120000;

/// The learn tests' tiny run (a few seconds) with `iterations` RL iterations.
inline QString tinyConfig(int iterations)
{
    return QString::fromUtf8(creditlab::testing::kTinyConfig)
        .replace(QStringLiteral("  iterations: 3\n"), QStringLiteral("  iterations: %1\n").arg(iterations));
}

inline std::unique_ptr<Settings> testSettings(const QTemporaryDir& dir)
{
    return std::make_unique<Settings>(dir.filePath(QStringLiteral("settings.ini")));
}

using Values = std::vector<std::pair<std::string, double>>;

/// A run of another process (as `creditlab-cli train` makes) with `iterations` planned.
inline qint64 createRunningRun(const QString& db, std::int64_t iterations)
{
    Store store(db.toStdString());
    const qint64 id = store.createRun({ "cli run", RunKind::Train, RunStatus::Running, {} });
    store.setRunShape(id, { "grpo", "household", 1, 32, 1, iterations });
    return id;
}

inline qint64 metricIterations(const QString& db, qint64 runId)
{
    Store store(db.toStdString());
    qint64 count = 0;
    for (const auto& m : store.metrics(runId))
        if (m.name == "time/total_s")
            ++count;
    return count;
}


} // namespace creditlab::ui::testing
