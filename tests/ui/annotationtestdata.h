#pragma once

// The annotation tests' database (tst_ui_annotation, tst_ui_annotationblind): one run of two trajectories with judge
// labels and credits, and the helpers that read it back or show it.

#include "core/storage/humannote.h"
#include "core/storage/store.h"
#include "ui/annotate/annotationloader.h"
#include "ui/annotate/annotationpage.h"
#include "ui/annotate/annotationqueue.h"
#include "ui/charts/colours.h"
#include "ui/shell/workspace.h"
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <algorithm>

namespace creditlab::ui::testing {

/// Run: "t1" (success) and "t2" (failure), 3 turns each. judge:oracle labels t1 D R N (conf .9 .2 -),
/// t2 E N D (conf .5 .7 .1). Credits grpo/triage: spreads t1 0.1 0.0 0.9, t2 0.5 0.3 0.2.
struct Fixture {
    QTemporaryDir dir;
    QString path;
    qint64 run = 0;
    std::int64_t t1 = 0;
    std::int64_t t2 = 0;

    Fixture()
    {
        path = dir.filePath(QStringLiteral("annotate.db"));
        Store store(path.toStdString());
        const auto trajectory = [](const std::string& id, bool success) {
            Trajectory t;
            t.id = id;
            t.group = "g";
            t.task.goal = "goal of " + id;
            t.reward = success ? 1.0 : 0.0;
            t.success = success;
            for (int k = 0; k < 3; ++k) {
                Turn turn;
                turn.observation = id + "-obs" + std::to_string(k);
                turn.action = id + "-act" + std::to_string(k);
                turn.feedback = id + "-fb" + std::to_string(k);
                t.turns.push_back(turn);
            }
            return t;
        };
        run = store.createRun(NewRun { "annotate", RunKind::Import, RunStatus::Finished, {} });
        t1 = store.insertTrajectory(run, 0, trajectory("t1", true));
        t2 = store.insertTrajectory(run, 1, trajectory("t2", false));
        const auto judge = [&](std::int64_t row, int turn, Role role, std::optional<double> conf) {
            store.setJudgeLabel(JudgeLabel { row, turn, "oracle", role, conf, std::nullopt, currentTimestamp() });
        };
        judge(t1, 0, Role::D, 0.9);
        judge(t1, 1, Role::R, 0.2);
        judge(t1, 2, Role::N, std::nullopt);
        judge(t2, 0, Role::E, 0.5);
        judge(t2, 1, Role::N, 0.7);
        judge(t2, 2, Role::D, 0.1);
        const std::vector<double> g1 { 0.1, 0.0, 0.9 }, r1 { 0.0, 0.0, 0.0 };
        const std::vector<double> g2 { -0.5, 0.3, 0.2 }, r2 { 0.0, 0.0, 0.0 };
        store.writeCredits(t1, "grpo", g1);
        store.writeCredits(t1, "triage", r1);
        store.writeCredits(t2, "grpo", g2);
        store.writeCredits(t2, "triage", r2);
    }
};

/// Every human label of the fixture's run as "row:turn:annotator:role" strings.
inline QStringList dump(Store& store, const Fixture& f)
{
    QStringList out;
    for (const auto row : { f.t1, f.t2 })
        for (const HumanLabel& h : store.humanLabels(row))
            out << QStringLiteral("%1:%2:%3:%4")
                       .arg(row)
                       .arg(h.turn)
                       .arg(QString::fromStdString(h.annotator), QString::fromStdString(std::string(roleName(h.role))));
    return out;
}

using Item = QueueItem;

constexpr int kWaitMs = 10000;

/// Shows `run` and waits until its background load is shown.
inline bool showRun(AnnotationPage& page, qint64 run)
{
    QSignalSpy loaded(&page, &AnnotationPage::loaded);
    page.setRun(run);
    return loaded.wait(kWaitMs) && loaded.count() == 1 && !page.isLoading();
}

/// A second run in the fixture's database: one trajectory "u1" of 2 turns.
inline qint64 addSecondRun(const Fixture& f)
{
    Store store(f.path.toStdString());
    const qint64 run = store.createRun(NewRun { "other", RunKind::Import, RunStatus::Finished, {} });
    Trajectory t;
    t.id = "u1";
    t.group = "h";
    t.reward = 0.0;
    t.success = false;
    for (int k = 0; k < 2; ++k) {
        Turn turn;
        turn.observation = "u1-obs" + std::to_string(k);
        turn.action = "u1-act" + std::to_string(k);
        t.turns.push_back(turn);
    }
    store.insertTrajectory(run, 0, t);
    return run;
}

} // namespace creditlab::ui::testing
