#pragma once

#include "core/store.h"
#include "ui/annotationqueue.h"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QUndoStack;

namespace creditlab::ui {

class Workspace;

/// Role annotation (issue 7 §3): pick a run, type an annotator name (remembered for the session), pick a queue
/// order (annotationqueue.h), and label turns with the keyboard: 1/2/3/4 or D/E/N/R label the current turn and move
/// to the next in the queue; Up/Down move; Ctrl+Z / Ctrl+Shift+Z undo and redo through the QUndoStack (one
/// SetHumanLabelCommand per label; undo moves back to the turn). Every label is written to the store at once.
/// The transcript (plain text) shows the goal, then each turn's observation, action and feedback, the judge labels
/// beside each turn (hidden in blind mode) and the annotator's own label; the current turn is highlighted and
/// scrolled into view.
///
/// Export/import of human labels: a JSONL file, one label per line,
///   {"trajectory":"<JSONL id of the trajectory>","turn":N,"annotator":"NAME","role":"D"}
/// where turn is the 0-based turn index and role one of D, E, N, R. Export writes every human label of the current
/// run (all annotators). Import checks the whole file first (trajectory ids of the current run, turn in range,
/// non-empty annotator, valid role); an error names the file, line and field and nothing is imported; a valid file
/// is written in one transaction.
///
/// The run's turns, judge labels and credits are read synchronously from the workspace's store when the run
/// changes (the page writes labels through that same store). Reloads on Workspace::runsChanged keep the current
/// turn. Lives on the GUI thread.
class AnnotationPage : public QWidget {
    Q_OBJECT
public:
    /// `undo` is the stack label commands go to; the page makes its own when null.
    explicit AnnotationPage(Workspace* workspace, QWidget* parent = nullptr, QUndoStack* undo = nullptr);
    ~AnnotationPage() override;

    /// Shows run `runId` (0 = none); the queue starts at its first item.
    void setRun(qint64 runId);
    qint64 run() const { return m_runId; }
    void setAnnotator(const QString& name);
    QString annotator() const;
    void setOrder(QueueOrder order);
    QueueOrder order() const { return m_order; }
    /// Show the judge labels in the transcript (false = blind labelling).
    void setShowJudge(bool show);
    bool showJudge() const;

    /// Labels the current turn with `role` for the annotator (undoable) and moves to the next in the queue.
    /// False (and errorOccurred) without an annotator name, a current turn, or when the store refuses.
    bool labelCurrent(Role role);
    /// Moves `delta` positions along the queue (clamped).
    void move(int delta);

    /// The current turn: (trajectory row id, turn index); nullopt when the queue is empty.
    std::optional<std::pair<std::int64_t, int>> current() const;
    int queuePosition() const { return m_position; }
    const std::vector<QueueItem>& queue() const { return m_queue; }
    /// The labelled/total text shown for the annotator.
    QString progressText() const;
    /// The transcript exactly as shown.
    QString transcriptText() const;
    QUndoStack* undoStack() const { return m_undo; }

    /// Writes every human label of the current run as JSONL (format above); false with a message on failure.
    bool exportLabels(const QString& path, QString* error = nullptr);
    /// Imports a JSONL file of labels (format above) into the current run; nothing is written on error.
    /// Returns the number imported, or -1 with the message in `error`.
    int importLabels(const QString& path, QString* error = nullptr);

Q_SIGNALS:
    /// The current turn changed.
    void currentChanged(qint64 trajectoryRowId, int turn);
    /// Reading or writing the store failed, or a label was refused; the message says why.
    void errorOccurred(const QString& message);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Loaded {
        TrajectoryInfo info;
        Trajectory trajectory;
        std::vector<JudgeLabel> judge;
        std::vector<HumanLabel> human; ///< every annotator's
    };
    bool handleKey(QKeyEvent* event);
    void reloadRuns();
    void loadRun(bool keepCurrent);
    void rebuildQueue(bool keepCurrent);
    void setPosition(int position);
    void refreshTranscript();
    void refreshProgress();
    void onApplied(std::int64_t rowId, int turn, bool undone);
    int queueIndexOf(std::int64_t rowId, int turn) const;
    std::optional<Role> ownLabel(const Loaded& loaded, int turn) const;
    void fail(const QString& message);
    void exportInteractive();
    void importInteractive();

    Workspace* m_workspace;
    QUndoStack* m_undo;
    QComboBox* m_runCombo;
    QLineEdit* m_annotatorEdit;
    QComboBox* m_orderCombo;
    QCheckBox* m_showJudge;
    QLabel* m_progress;
    QLabel* m_status;
    QPlainTextEdit* m_transcript;

    qint64 m_runId = 0;
    QueueOrder m_order = QueueOrder::Sequential;
    std::vector<Loaded> m_trajectories;
    std::vector<QueueItem> m_queue;
    int m_position = -1;
    bool m_updating = false;
};

} // namespace creditlab::ui
