#pragma once

#include "core/storage/store.h"
#include "ui/annotate/annotationloader.h"
#include "ui/annotate/annotationqueue.h"

#include <QColor>
#include <QString>
#include <QWidget>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <vector>

class QCheckBox;
class QComboBox;
class QFrame;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QUndoStack;

namespace creditlab::ui {

class Workspace;

/// What `turn`'s observation adds to what the annotator has just read, the previous turn's feedback: empty when
/// it repeats that feedback verbatim (surrounding whitespace aside), the part after it when it starts with it, else
/// the whole observation. The first turn (`previous` null) and a turn after one without feedback show it whole.
/// Environments such as household hand the last feedback back as the next observation, so without this every turn
/// printed the same text twice. Pure.
QString newObservation(const Turn* previous, const Turn& turn);

/// The long name of a role, e.g. "decisive progress" (methods/triage.md §2.4), as the role chips show it.
/// "D", "E", "N" or "R".
QString roleText(Role role);
/// The role's fixed colour (ui/charts/colours.h).
QColor roleColour(Role role);
QString roleTitle(Role role);
/// The roles of the chips, in key order (1–4).
inline constexpr std::array<Role, 4> kChipRoles { Role::D, Role::E, Role::N, Role::R };
/// The TRIAGE definition of a role with examples (methods/triage.md §2.4): the role chips' tooltip.
QString roleDefinition(Role role);

/// Role annotation (issue 7 §3, issue 20 finding 10): pick a run, type an annotator name (remembered for the
/// session), pick a queue order (annotationqueue.h), and label turns with the keyboard or the mouse.
///
/// Layout: a band heads the current trajectory (its place among the run's, id, goal, outcome and reward, and its own
/// progress: "Turn 3 of 7 · 2 labelled"), so a new trajectory is plain to see. Below, the trajectory's turns as a
/// transcript (left; the current turn highlighted and kept in view, the end of the trajectory marked) and the
/// current turn as a card (right): its observation (only what is new, newObservation()), action and feedback, the
/// judges' labels (a grey dashed box), the annotator's own label (a chip filled with the fixed role colour,
/// colours::role), the four role chips with their definitions, and Skip, Flag and a comment. Turns are numbered
/// from 1 here ("Turn 1" is turn index 0), as on every page; the JSONL label file keeps 0-based indices.
///
/// Keys: 1/2/3/4 or D/E/N/R label the current turn and move to the next in the queue; S skips it (a note, moves on);
/// F flags it; C edits its comment (Return keeps it, Escape drops it); Up/Down move; Ctrl+Z / Ctrl+Shift+Z undo and
/// redo through the QUndoStack (one command per label or note; undo moves back to the turn). Every label and note
/// is written to the store at once (notes: the human_note table, core/storage/humannote.h).
///
/// Blind mode hides everything that could steer the annotator: the judges' labels, the trajectory's outcome and its
/// reward, and the queue orders that read them or the credits (orderReadsHidden): while it is on the queue is
/// Sequential and the other orders are greyed out.
///
/// Export/import of human labels and notes: the JSONL label file of core/interchange/labelfile.h, one line per turn and
/// annotator,
///   {"annotator":"NAME","role":"D","trajectory":"<JSONL id of the trajectory>","turn":N}
/// where turn is the 0-based turn index and role one of D, E, N, R; the annotator's note rides on the line as
/// "comment", "flagged" and "skipped" (a skipped turn without a label has no role). Export writes every human label
/// and note of the current run (all annotators). Import checks the whole file first (trajectory ids of the current
/// run, turn in range, non-empty annotator, valid role and note); an error names the file, line and field and nothing
/// is imported; a valid file is written in one transaction, each label and note replacing the same annotator's of
/// that turn. The reading, writing and checks are core's (exportLabelFile, readLabelFile, storeLabels); the page words
/// the messages.
///
/// The run's turns, judge labels, human labels and notes are read in the background (AnnotationLoader, its own
/// read-only Store on Workspace::path()) when the run changes; meanwhile the page shows a busy bar and "Loading…",
/// and loaded() says when the result is shown. A result for an older request is dropped. Labels are written through
/// the workspace's store on the GUI thread; a label written while a load runs is re-read from that store when the
/// load lands, so it is never lost. Reloads on Workspace::runsChanged keep showing (and labelling) the old snapshot
/// until the new one lands, then keep the current turn. Read errors are shown in the page (and errorOccurred).
/// Lives on the GUI thread.
class AnnotationPage : public QWidget {
    Q_OBJECT
public:
    /// `undo` is the stack label commands go to; the page makes its own when null.
    explicit AnnotationPage(Workspace* workspace, QWidget* parent = nullptr, QUndoStack* undo = nullptr);
    ~AnnotationPage() override;

    /// Shows run `runId` (0 = none) once its background load lands (loaded()); the queue starts at its first item.
    /// Until then the page is empty and says it is loading. Run 0 (or no database) is shown at once.
    void setRun(qint64 runId);
    /// The run shown (or being loaded); 0 when none.
    qint64 runId() const { return m_runId; }
    /// True while a requested run has not been shown yet.
    bool isLoading() const;
    qint64 run() const { return m_runId; }
    void setAnnotator(const QString& name);
    QString annotator() const;
    /// Orders the queue (from its first item). While blind, an order that reads hidden data (orderReadsHidden) is
    /// refused: the queue keeps its order.
    void setOrder(QueueOrder order);
    QueueOrder order() const { return m_order; }
    /// Blind labelling: hides the judges' labels, the outcome and the reward, and orders the queue without them
    /// (Sequential, keeping the current turn).
    void setBlind(bool blind);
    bool blind() const;

    /// Labels the current turn with `role` for the annotator (undoable) and moves to the next in the queue.
    /// False (and errorOccurred) without an annotator name, a current turn, or when the store refuses.
    bool labelCurrent(Role role);
    /// Marks the current turn skipped for the annotator (undoable note) and moves to the next; false as labelCurrent.
    bool skipCurrent();
    /// Flags or unflags the current turn for the annotator (undoable note); false as labelCurrent.
    bool setCurrentFlagged(bool flagged);
    /// Sets the annotator's comment on the current turn (undoable note; empty removes it); false as labelCurrent.
    bool setCurrentComment(const QString& comment);
    /// The annotator's note on the current turn (empty when none).
    HumanNote currentNote() const;
    /// Moves `delta` positions along the queue (clamped).
    void move(int delta);

    /// The current turn: (trajectory row id, turn index); nullopt when the queue is empty.
    std::optional<std::pair<std::int64_t, int>> current() const;
    int queuePosition() const { return m_position; }
    const std::vector<QueueItem>& queue() const { return m_queue; }
    /// The labelled/total text shown for the annotator.
    QString progressText() const;
    /// The band above the turns, as shown: trajectory, goal, outcome and reward, and its own progress.
    QString trajectoryText() const;
    /// The current trajectory's progress, e.g. "Turn 3 of 7 · 2 labelled".
    QString trajectoryProgressText() const;
    /// The transcript of the current trajectory exactly as shown.
    QString transcriptText() const;
    /// The current turn's card as text: its heading, observation, action, feedback, judge labels and own label.
    QString cardText() const;
    /// The role chip of `role` (a checkable button, checked for the annotator's label of the current turn).
    QPushButton* roleChip(Role role) const;
    QUndoStack* undoStack() const { return m_undo; }

    /// Writes every human label and note of the current run as JSONL (format above); false with a message on failure.
    bool exportLabels(const QString& path, QString* error = nullptr);
    /// Imports a JSONL file of labels and notes (format above) into the current run; nothing is written on error.
    /// Returns the number of labels imported (`notes`, when given, gets the number of notes), or -1 with the message
    /// in `error`.
    int importLabels(const QString& path, QString* error = nullptr, int* notes = nullptr);

Q_SIGNALS:
    /// The current turn changed.
    void currentChanged(qint64 trajectoryRowId, int turn);
    /// Reading or writing the store failed, or a label was refused; the message says why.
    void errorOccurred(const QString& message);
    /// A label or note was stored: an earlier errorOccurred() message ("Type an annotator name before labelling.")
    /// no longer holds, and whoever shows it should take it down (the page clears its own status line).
    void errorCleared();
    /// The newest requested run is shown (also after a read error, which errorOccurred reported).
    void loaded();
    /// "Train on labels…": launch a run that learns from `annotator`'s labels (empty: everyone's) on the
    /// environment `env` of the shown run (empty when its trajectories name none).
    void trainOnLabelsRequested(const QString& annotator, const QString& env);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    /// Loads the chooser's run when the page first shows one (after start and after a database change).
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using Loaded = AnnotationTrajectory;
    bool handleKey(QKeyEvent* event);
    void reloadRuns();
    void loadRun(bool keepCurrent);
    void onLoaded(const std::shared_ptr<const AnnotationData>& data);
    void rereadHumanLabels(std::int64_t rowId);
    void rebuildQueue(bool keepCurrent);
    /// Greys out the orders blind mode does not allow and leaves one of them for Sequential.
    void updateOrderChoices();
    void setPosition(int position);
    void refreshTranscript();
    void refreshCard();
    void refreshProgress();
    /// After a label or note command: re-reads the turn's trajectory and goes to the turn (undo, or `advance`
    /// false) or past it.
    void onApplied(std::int64_t rowId, int turn, bool undone, bool advance);
    int queueIndexOf(std::int64_t rowId, int turn) const;
    std::optional<Role> ownLabel(const Loaded& loaded, int turn) const;
    const HumanNote* ownNote(const Loaded& loaded, int turn) const;
    /// Pushes a SetHumanNoteCommand for the current turn with `edit` applied to its note; `advance` moves on.
    bool changeCurrentNote(const std::function<void(HumanNote&)>& edit, const QString& text, bool advance);
    /// True when there is a current turn and an annotator; otherwise says why (errorOccurred).
    bool canEditCurrent();
    void commitComment();
    void fail(const QString& message);
    void exportInteractive();
    void importInteractive();

    Workspace* m_workspace;
    QUndoStack* m_undo;
    QComboBox* m_runCombo;
    QLineEdit* m_annotatorEdit;
    QComboBox* m_orderCombo;
    QCheckBox* m_blind;
    QLabel* m_progress;
    QLabel* m_status;
    QFrame* m_header;
    QLabel* m_trajectoryTitle;
    QLabel* m_goal;
    QLabel* m_trajectoryProgress;
    QPlainTextEdit* m_transcript;
    QFrame* m_card;
    QLabel* m_cardTitle;
    QLabel* m_ownBadge;
    QPlainTextEdit* m_cardBody;
    QLabel* m_judgeBox;
    std::vector<QPushButton*> m_chips; ///< D, E, N, R
    QPushButton* m_skipButton;
    QPushButton* m_flagButton;
    QLineEdit* m_commentEdit;
    QLabel* m_nextHint;
    QProgressBar* m_busy;
    AnnotationLoader* m_loader;

    qint64 m_runId = 0;
    QueueOrder m_order = QueueOrder::Sequential;
    std::vector<Loaded> m_trajectories;
    std::vector<QueueItem> m_queue;
    int m_position = -1;
    bool m_updating = false;
    int m_shownTrajectory = -1; ///< the trajectory the transcript holds (index into m_trajectories)
    bool m_transcriptStale = true; ///< its labels or notes changed since it was built
    std::vector<std::pair<int, int>> m_turnSpans; ///< each turn's (start, end) position in the transcript
    bool m_keepCurrent = false; ///< of the load in flight
    std::set<std::int64_t> m_writtenWhileLoading; ///< trajectories labelled since the load in flight was requested
};

} // namespace creditlab::ui
