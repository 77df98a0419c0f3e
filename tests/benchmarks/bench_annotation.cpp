// Annotation key-to-next-turn latency: a key press labels the current turn (one store write), moves to the next turn
// of the queue and redraws the transcript. Offscreen, on 200 household-length trajectories (30 turns, long
// observations, judge labels with confidences, two methods' credits).
//
// Usage: bench_annotation [PRESSES]      (default 400)
#include "core/storage/store.h"
#include "ui/annotate/annotationpage.h"
#include "ui/shell/workspace.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace creditlab;

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int presses = argc > 1 ? std::max(10, std::atoi(argv[1])) : 400;
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.db"));
    qint64 run = 0;
    {
        Store store(path.toStdString());
        auto tx = store.begin();
        run = store.createRun(NewRun { "annotate", RunKind::Import, RunStatus::Finished, {} });
        const std::string observation(400, 'o');
        for (int i = 0; i < 200; ++i) {
            Trajectory t;
            t.id = "t" + std::to_string(i);
            t.group = "g" + std::to_string(i / 8);
            t.task.goal = "put a clean mug in the coffeemachine";
            t.reward = i % 3 == 0 ? 1.0 : 0.0;
            for (int k = 0; k < 30; ++k) {
                Turn turn;
                turn.observation = observation;
                turn.action = "go to cabinet " + std::to_string(k);
                turn.feedback = "You arrive at cabinet " + std::to_string(k) + ".";
                t.turns.push_back(turn);
            }
            const auto row = store.insertTrajectory(run, i, t);
            std::vector<double> a(30), b(30);
            for (int k = 0; k < 30; ++k) {
                store.setJudgeLabel(JudgeLabel { row, k, "oracle", Role(k % 4), 0.01 * ((k * 37 + i) % 100),
                    std::nullopt, currentTimestamp() });
                a[k] = 0.1 * ((k + i) % 7 - 3);
                b[k] = -a[k];
            }
            store.writeCredits(row, "grpo", a);
            store.writeCredits(row, "triage", b);
        }
        tx->commit();
    }
    ui::Workspace workspace;
    if (!workspace.open(path)) {
        std::fprintf(stderr, "bench_annotation: cannot open %s\n", qPrintable(path));
        return 1;
    }
    ui::AnnotationPage page(&workspace);
    page.resize(1200, 800);
    page.show();
    QElapsedTimer setup;
    setup.start();
    QSignalSpy loaded(&page, &ui::AnnotationPage::loaded);
    page.setRun(run); // read in the background: the run is shown when loaded() arrives
    if (!loaded.wait(60000)) {
        std::fprintf(stderr, "bench_annotation: the run did not load\n");
        return 1;
    }
    const double setRunMs = setup.nsecsElapsed() / 1e6;
    page.setAnnotator(QStringLiteral("bench"));
    std::vector<double> ms;
    for (int i = 0; i < presses; ++i) {
        const int before = page.queuePosition();
        QElapsedTimer timer;
        timer.start();
        QTest::keyClick(&page, i % 2 ? Qt::Key_D : Qt::Key_2);
        ms.push_back(timer.nsecsElapsed() / 1e6);
        if (page.queuePosition() != before + 1) {
            std::fprintf(stderr, "bench_annotation: press %d did not advance the queue\n", i);
            return 1;
        }
    }
    std::sort(ms.begin(), ms.end());
    std::printf("bench_annotation: 200 trajectories x 30 turns (6,000 turns), %d key presses, 1200x800 offscreen\n",
        presses);
    std::printf("  opening the run (queue + first transcript): %.1f ms\n", setRunMs);
    std::printf("  key to next turn: median %.2f ms, p90 %.2f ms, max %.2f ms\n", ms[ms.size() / 2],
        ms[ms.size() * 9 / 10], ms.back());
    return 0;
}
