#pragma once

#include "core/store.h"
#include "ui/annotate/annotationloader.h"
#include "ui/annotate/annotationqueue.h"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
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
/// Export/import of human labels: the JSONL label file of core/labelfile.h, one label per line,
///   {"annotator":"NAME","role":"D","trajectory":"<JSONL id of the trajectory>","turn":N}
/// where turn is the 0-based turn index and role one of D, E, N, R. Export writes every human label of the current
/// run (all annotators). Import checks the whole file first (trajectory ids of the current run, turn in range,
/// non-empty annotator, valid role); an error names the file, line and field and nothing is imported; a valid file
/// is written in one transaction, each label replacing the same annotator's label of that turn. The reading, writing
/// and checks are core's (exportLabelFile, readLabelFile, storeLabels); the page words the messages.
///
/// The run's turns, judge labels and credits are read in the background (AnnotationLoader, its own read-only Store on
/// Workspace::path()) when the run changes; meanwhile the page shows a busy bar and "Loading…", and loaded() says
/// when the result is shown. A result for an older request is dropped. Labels are written through the workspace's
/// store on the GUI thread; a label written while a load runs is re-read from that store when the load lands, so it
/// is never lost. Reloads on Workspace::runsChanged keep showing (and labelling) the old snapshot until the new one
/// lands, then keep the current turn. Read errors are shown in the page (and errorOccurred). Lives on the GUI thread.
class AnnotationPage : public QWidget {
    Q_OBJECT
public:
    /// `undo` is the stack label commands go to; the page makes its own when null.
    explicit AnnotationPage(Workspace* workspace, QWidget* parent = nullptr, QUndoStack* undo = nullptr);
    ~AnnotationPage() override;

    /// Shows run `runId` (0 = none) once its background load lands (loaded()); the queue starts at its first item.
    /// Until then the page is empty and says it is loading. Run 0 (or no database) is shown at once.
    void setRun(qint64 runId);
    /// True while a requested run has not been shown yet.
    bool isLoading() const;
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
    /// The newest requested run is shown (also after a read error, which errorOccurred reported).
    void loaded();
    /// "Train on labels…": launch a run that learns from `annotator`'s labels (empty: everyone's) on the
    /// environment `env` of the shown run (empty when its trajectories name none).
    void trainOnLabelsRequested(const QString& annotator, const QString& env);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using Loaded = AnnotationTrajectory;
    bool handleKey(QKeyEvent* event);
    void reloadRuns();
    void loadRun(bool keepCurrent);
    void onLoaded(const std::shared_ptr<const AnnotationData>& data);
    void rereadHumanLabels(std::int64_t rowId);
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
    QProgressBar* m_busy;
    AnnotationLoader* m_loader;

    qint64 m_runId = 0;
    QueueOrder m_order = QueueOrder::Sequential;
    std::vector<Loaded> m_trajectories;
    std::vector<QueueItem> m_queue;
    int m_position = -1;
    bool m_updating = false;
    bool m_keepCurrent = false; ///< of the load in flight
    std::set<std::int64_t> m_writtenWhileLoading; ///< trajectories labelled since the load in flight was requested
};

} // namespace creditlab::ui
