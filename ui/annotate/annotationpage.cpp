#include "ui/annotate/annotationpage.h"

#include "core/atomicfile.h"
#include "core/labelfile.h"
#include "ui/annotate/annotationcommands.h"
#include "ui/common/runcombo.h"
#include "ui/common/textutil.h"
#include "ui/shell/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTextBlock>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>
#include <map>
#include <set>

namespace creditlab::ui {

namespace {

/// The annotator name of this session: a new page starts with the name last typed.
QString& sessionAnnotator()
{
    static QString name;
    return name;
}

QString roleText(Role role) { return toQString(std::string(roleName(role))); }

/// Puts `message` in `*error` when asked; returns -1, importLabels()'s failure value.
int setError(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return -1;
}

/// `what` without a leading "PATH: " (core's messages name the file; ours do too).
QString withoutPrefix(const char* what, const QString& path)
{
    const QString text = QString::fromUtf8(what);
    return text.startsWith(path + QStringLiteral(": ")) ? text.mid(path.size() + 2) : text;
}

/// A refused line of a label file in the page's (translated) words; `name` is the file name without its folder.
QString labelFileMessage(const LabelFileError& e, const QString& name)
{
    using Problem = LabelFileError::Problem;
    if (e.problem() == Problem::NotAnObject)
        return AnnotationPage::tr("%1:%2: not a JSON object (%3)").arg(name).arg(e.line()).arg(toQString(e.detail()));
    const QString why = e.problem() == Problem::UnknownTrajectory
        ? AnnotationPage::tr("no trajectory with this id in the run")
        : e.problem() == Problem::BadTurn ? AnnotationPage::tr("expected a turn index from 0 to %1").arg(e.lastTurn())
        : e.problem() == Problem::EmptyAnnotator ? AnnotationPage::tr("expected a non-empty name")
        : e.problem() == Problem::BadRole        ? AnnotationPage::tr("expected one of D, E, N, R")
                                                 : toQString(e.message());
    return AnnotationPage::tr("%1:%2: field \"%3\": %4").arg(name).arg(e.line()).arg(toQString(e.field()), why);
}

} // namespace

AnnotationPage::AnnotationPage(Workspace* workspace, QWidget* parent, QUndoStack* undo)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_undo(undo ? undo : new QUndoStack(this))
    , m_runCombo(new QComboBox(this))
    , m_annotatorEdit(new QLineEdit(sessionAnnotator(), this))
    , m_orderCombo(new QComboBox(this))
    , m_showJudge(new QCheckBox(tr("Show judge labels"), this))
    , m_progress(new QLabel(this))
    , m_status(new QLabel(this))
    , m_transcript(new QPlainTextEdit(this))
    , m_busy(new QProgressBar(this))
    , m_loader(new AnnotationLoader(this))
{
    setFocusPolicy(Qt::StrongFocus);
    m_runCombo->setObjectName(QStringLiteral("annotationRunCombo"));
    m_annotatorEdit->setObjectName(QStringLiteral("annotationAnnotatorEdit"));
    m_annotatorEdit->setPlaceholderText(tr("Annotator name"));
    m_orderCombo->setObjectName(QStringLiteral("annotationOrderCombo"));
    m_orderCombo->addItem(tr("Sequential"), int(QueueOrder::Sequential));
    m_orderCombo->addItem(tr("Judge least sure first"), int(QueueOrder::JudgeLeastSure));
    m_orderCombo->addItem(tr("Methods disagree most first"), int(QueueOrder::MethodsDisagree));
    m_orderCombo->addItem(tr("TRIAGE conflict cells first"), int(QueueOrder::TriageConflicts));
    m_showJudge->setChecked(true);
    m_progress->setTextFormat(Qt::PlainText);
    m_status->setTextFormat(Qt::PlainText);
    m_transcript->setObjectName(QStringLiteral("annotationTranscript"));
    m_transcript->setReadOnly(true);
    m_transcript->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_transcript->installEventFilter(this);
    m_busy->setObjectName(QStringLiteral("annotationBusy"));
    m_busy->setRange(0, 0); // busy indicator: the load reports no steps
    m_busy->setMaximumWidth(160);
    m_busy->setTextVisible(false);
    m_busy->hide();
    auto* exportButton = new QPushButton(tr("Export labels…"), this);
    auto* importButton = new QPushButton(tr("Import labels…"), this);
    auto* trainButton = new QPushButton(tr("Train on labels…"), this);
    trainButton->setObjectName(QStringLiteral("annotationTrainButton"));
    trainButton->setToolTip(tr("Open the launcher with a TRIAGE run whose judge is these human labels where they "
                               "match a rollout's turn (the oracle elsewhere), on the labelled tasks"));

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Run:"), this));
    controls->addWidget(m_runCombo, 1);
    controls->addWidget(new QLabel(tr("Annotator:"), this));
    controls->addWidget(m_annotatorEdit);
    controls->addWidget(new QLabel(tr("Order:"), this));
    controls->addWidget(m_orderCombo);
    controls->addWidget(m_showJudge);
    controls->addWidget(exportButton);
    controls->addWidget(importButton);
    controls->addWidget(trainButton);
    auto* footer = new QHBoxLayout;
    footer->addWidget(m_progress);
    footer->addWidget(m_busy);
    footer->addStretch(1);
    footer->addWidget(new QLabel(tr("Keys: 1–4 or D/E/N/R label · ↑/↓ move · Ctrl+Z undo"), this));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_transcript, 1);
    layout->addLayout(footer);
    layout->addWidget(m_status);

    connect(m_runCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            setRun(m_runCombo->currentData().toLongLong());
    });
    connect(m_annotatorEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        sessionAnnotator() = text.trimmed();
        refreshProgress();
        refreshTranscript();
    });
    connect(m_orderCombo, &QComboBox::currentIndexChanged, this,
        [this] { setOrder(QueueOrder(m_orderCombo->currentData().toInt())); });
    connect(m_showJudge, &QCheckBox::toggled, this, [this] { refreshTranscript(); });
    connect(exportButton, &QPushButton::clicked, this, &AnnotationPage::exportInteractive);
    connect(importButton, &QPushButton::clicked, this, &AnnotationPage::importInteractive);
    connect(trainButton, &QPushButton::clicked, this, [this] {
        QString env;
        for (const Loaded& loaded : m_trajectories)
            if (loaded.trajectory.task.env) {
                env = QString::fromStdString(*loaded.trajectory.task.env);
                break;
            }
        Q_EMIT trainOnLabelsRequested(annotator(), env);
    });
    connect(m_loader, &AnnotationLoader::loaded, this, &AnnotationPage::onLoaded);
    connect(m_workspace, &Workspace::aboutToReplace, this, [this] {
        if (m_undo->parent() == this)
            m_undo->clear(); // its commands name turns of the old database
        m_runId = 0;
        m_loader->cancel(); // its result would name rows of the old database
        m_busy->hide();
        m_writtenWhileLoading.clear();
        m_trajectories.clear();
        m_queue.clear();
        m_position = -1;
    });
    connect(m_workspace, &Workspace::opened, this, [this] { reloadRuns(); });
    connect(m_workspace, &Workspace::runsChanged, this, [this] {
        reloadRuns();
        loadRun(true);
    });
    reloadRuns();
    if (m_runCombo->count() > 0)
        setRun(m_runCombo->itemData(0).toLongLong());
}

AnnotationPage::~AnnotationPage() = default;

void AnnotationPage::reloadRuns()
{
    m_updating = true;
    try {
        fillRunCombo(m_runCombo, m_workspace->runs(), m_runId);
    } catch (const std::exception& e) {
        m_runCombo->clear();
        fail(tr("Could not list the runs: %1").arg(QString::fromUtf8(e.what())));
    }
    m_runCombo->setCurrentIndex(m_runCombo->findData(QVariant::fromValue<qint64>(m_runId)));
    m_updating = false;
}

void AnnotationPage::setRun(qint64 runId)
{
    m_runId = runId;
    m_updating = true;
    m_runCombo->setCurrentIndex(m_runCombo->findData(runId));
    m_updating = false;
    loadRun(false);
}

bool AnnotationPage::isLoading() const { return m_loader->isBusy(); }

void AnnotationPage::loadRun(bool keepCurrent)
{
    m_writtenWhileLoading.clear(); // labels written before this request are in the database the worker reads
    if (!keepCurrent) {
        m_queue.clear();
        m_position = -1;
        m_trajectories.clear();
    }
    m_keepCurrent = keepCurrent;
    if (!m_workspace->store() || m_workspace->path().isEmpty() || m_runId <= 0) {
        m_loader->cancel();
        onLoaded(std::make_shared<const AnnotationData>(AnnotationData { m_runId, {}, {} }));
        return;
    }
    m_loader->load(m_workspace->path(), m_runId);
    m_busy->show();
    m_status->setText(tr("Loading run %1…").arg(m_runId));
    refreshTranscript();
    refreshProgress();
}

void AnnotationPage::onLoaded(const std::shared_ptr<const AnnotationData>& data)
{
    m_busy->hide();
    if (m_status->text() == tr("Loading run %1…").arg(m_runId))
        m_status->clear(); // but keep a message that came meanwhile
    const auto was = m_keepCurrent ? current() : std::nullopt;
    m_queue.clear(); // it indexes the old trajectories
    m_position = -1;
    m_trajectories = data->trajectories;
    if (!data->error.isEmpty())
        fail(tr("Could not read run %1: %2").arg(data->runId).arg(data->error));
    // A label written after the request may have missed the worker's snapshot; the workspace store has it.
    for (const std::int64_t rowId : m_writtenWhileLoading)
        rereadHumanLabels(rowId);
    m_writtenWhileLoading.clear();
    rebuildQueue(false);
    if (was)
        setPosition(std::max(0, queueIndexOf(was->first, was->second)));
    Q_EMIT loaded();
}

void AnnotationPage::rereadHumanLabels(std::int64_t rowId)
{
    try {
        for (Loaded& l : m_trajectories)
            if (l.info.rowId == rowId)
                l.human = m_workspace->store()->humanLabels(rowId);
    } catch (const std::exception& e) {
        fail(tr("Could not read the labels: %1").arg(QString::fromUtf8(e.what())));
    }
}

void AnnotationPage::setAnnotator(const QString& name) { m_annotatorEdit->setText(name); }

QString AnnotationPage::annotator() const { return m_annotatorEdit->text().trimmed(); }

void AnnotationPage::setOrder(QueueOrder order)
{
    m_order = order;
    m_orderCombo->setCurrentIndex(m_orderCombo->findData(int(order)));
    rebuildQueue(false);
}

void AnnotationPage::setShowJudge(bool show) { m_showJudge->setChecked(show); }

bool AnnotationPage::showJudge() const { return m_showJudge->isChecked(); }

void AnnotationPage::rebuildQueue(bool keepCurrent)
{
    const auto was = current();
    std::vector<QueueTurn> turns;
    for (std::size_t i = 0; i < m_trajectories.size(); ++i) {
        const Loaded& l = m_trajectories[i];
        for (std::size_t k = 0; k < l.trajectory.turns.size(); ++k) {
            QueueTurn q { i, int(k), l.trajectory.successOrDefault(), {}, std::nullopt, {} };
            for (const JudgeLabel& j : l.judge) {
                if (j.turn != int(k))
                    continue;
                q.judgeRoles.push_back(j.role);
                if (j.confidence)
                    q.judgeConfidence = std::min(q.judgeConfidence.value_or(*j.confidence), *j.confidence);
            }
            for (const auto& [method, value] : l.trajectory.turns[k].credits)
                q.credits.push_back(value);
            turns.push_back(std::move(q));
        }
    }
    m_queue = buildQueue(turns, m_order);
    m_position = -1;
    setPosition(keepCurrent && was ? std::max(0, queueIndexOf(was->first, was->second)) : 0);
}

std::optional<std::pair<std::int64_t, int>> AnnotationPage::current() const
{
    if (m_position < 0 || m_position >= int(m_queue.size()))
        return std::nullopt;
    const QueueItem& item = m_queue[std::size_t(m_position)];
    return std::make_pair(m_trajectories[item.trajectory].info.rowId, item.turn);
}

int AnnotationPage::queueIndexOf(std::int64_t rowId, int turn) const
{
    for (std::size_t i = 0; i < m_queue.size(); ++i)
        if (m_queue[i].turn == turn && m_trajectories[m_queue[i].trajectory].info.rowId == rowId)
            return int(i);
    return -1;
}

void AnnotationPage::setPosition(int position)
{
    position = m_queue.empty() ? -1 : std::clamp(position, 0, int(m_queue.size()) - 1);
    const bool changed = position != m_position;
    m_position = position;
    refreshTranscript();
    refreshProgress();
    if (changed && position >= 0)
        Q_EMIT currentChanged(current()->first, current()->second);
}

void AnnotationPage::move(int delta)
{
    if (m_position >= 0)
        setPosition(m_position + delta);
}

std::optional<Role> AnnotationPage::ownLabel(const Loaded& loaded, int turn) const
{
    const std::string name = annotator().toStdString();
    for (const HumanLabel& h : loaded.human)
        if (h.turn == turn && h.annotator == name)
            return h.role;
    return std::nullopt;
}

bool AnnotationPage::labelCurrent(Role role)
{
    const auto at = current();
    if (!at) {
        fail(isLoading() ? tr("The run is still loading.") : tr("There is no turn to label."));
        return false;
    }
    if (annotator().isEmpty()) {
        fail(tr("Type an annotator name before labelling."));
        m_annotatorEdit->setFocus();
        return false;
    }
    try {
        m_undo->push(new SetHumanLabelCommand(m_workspace, at->first, at->second, annotator().toStdString(), role,
            [this](std::int64_t rowId, int turn, bool undone) { onApplied(rowId, turn, undone); }));
    } catch (const std::exception& e) {
        fail(tr("Could not store the label: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    m_status->clear();
    return true;
}

void AnnotationPage::onApplied(std::int64_t rowId, int turn, bool undone)
{
    if (isLoading())
        m_writtenWhileLoading.insert(rowId);
    rereadHumanLabels(rowId);
    const int index = queueIndexOf(rowId, turn);
    if (index >= 0)
        setPosition(undone ? index : index + 1);
    else
        refreshTranscript();
}

QString AnnotationPage::progressText() const { return m_progress->text(); }

void AnnotationPage::refreshProgress()
{
    int labelled = 0;
    int total = 0;
    for (const Loaded& l : m_trajectories)
        for (int k = 0; k < int(l.trajectory.turns.size()); ++k) {
            ++total;
            labelled += ownLabel(l, k).has_value() ? 1 : 0;
        }
    m_progress->setText(tr("%1 / %2 turns labelled by %3 · queue %4 / %5")
                            .arg(labelled)
                            .arg(total)
                            .arg(annotator().isEmpty() ? tr("(no annotator)") : annotator())
                            .arg(m_position + 1)
                            .arg(m_queue.size()));
}

void AnnotationPage::refreshTranscript()
{
    const auto at = current();
    if (!at) {
        m_transcript->setPlainText(m_runId <= 0 ? tr("No run chosen.")
                : isLoading()                   ? tr("Loading run %1…").arg(m_runId)
                                                : tr("This run has no turns."));
        return;
    }
    const Loaded& l = m_trajectories[m_queue[std::size_t(m_position)].trajectory];
    const Trajectory& t = l.trajectory;
    QString text = tr("Goal: %1\n").arg(t.task.goal ? toQString(*t.task.goal) : tr("(none)"));
    text += tr("Trajectory %1 · %2 · reward %3\n")
                .arg(toQString(t.id), t.successOrDefault() ? tr("success") : tr("failure"), formatNumber(t.reward));
    int start = 0;
    int end = 0;
    for (int k = 0; k < int(t.turns.size()); ++k) {
        const Turn& turn = t.turns[std::size_t(k)];
        text += QLatin1Char('\n');
        if (k == at->second)
            start = int(text.size());
        QString head = tr("%1 Turn %2").arg(k == at->second ? QStringLiteral("▶") : QStringLiteral(" ")).arg(k);
        const auto own = ownLabel(l, k);
        head += tr("   [you: %1]").arg(own ? roleText(*own) : QStringLiteral("–"));
        if (showJudge())
            for (const JudgeLabel& j : l.judge)
                if (j.turn == k)
                    head += tr("   [judge %1: %2%3]")
                                .arg(toQString(j.judge), roleText(j.role),
                                    j.confidence ? tr(" (%1)").arg(formatNumber(*j.confidence, 2)) : QString());
        text += head + QLatin1Char('\n');
        text += tr("Observation: %1\n").arg(toQString(turn.observation));
        text += tr("Action: %1\n").arg(toQString(turn.action));
        if (turn.feedback)
            text += tr("Feedback: %1\n").arg(toQString(*turn.feedback));
        if (k == at->second)
            end = int(text.size());
    }
    m_transcript->setPlainText(text);
    QTextEdit::ExtraSelection highlight;
    highlight.format.setBackground(palette().color(QPalette::Highlight).lighter(170));
    highlight.cursor = QTextCursor(m_transcript->document());
    highlight.cursor.setPosition(start);
    highlight.cursor.setPosition(std::max(start, end - 1), QTextCursor::KeepAnchor);
    m_transcript->setExtraSelections({ highlight });
    QTextCursor cursor(m_transcript->document());
    cursor.setPosition(std::max(start, end - 1));
    m_transcript->setTextCursor(cursor);
    m_transcript->ensureCursorVisible();
    cursor.setPosition(start);
    m_transcript->setTextCursor(cursor);
    m_transcript->ensureCursorVisible();
}

QString AnnotationPage::transcriptText() const { return m_transcript->toPlainText(); }

void AnnotationPage::fail(const QString& message)
{
    m_status->setText(message);
    Q_EMIT errorOccurred(message);
}

bool AnnotationPage::handleKey(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Undo)) {
        m_undo->undo();
        return true;
    }
    if (event->matches(QKeySequence::Redo)) {
        m_undo->redo();
        return true;
    }
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
        return false;
    static const std::map<int, Role> keys { { Qt::Key_1, Role::D }, { Qt::Key_D, Role::D }, { Qt::Key_2, Role::E },
        { Qt::Key_E, Role::E }, { Qt::Key_3, Role::N }, { Qt::Key_N, Role::N }, { Qt::Key_4, Role::R },
        { Qt::Key_R, Role::R } };
    if (const auto it = keys.find(event->key()); it != keys.end()) {
        labelCurrent(it->second);
        return true;
    }
    switch (event->key()) {
    case Qt::Key_Up:
    case Qt::Key_Left:
        move(-1);
        return true;
    case Qt::Key_Down:
    case Qt::Key_Right:
        move(1);
        return true;
    default:
        return false;
    }
}

void AnnotationPage::keyPressEvent(QKeyEvent* event)
{
    if (!handleKey(event))
        QWidget::keyPressEvent(event);
}

bool AnnotationPage::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_transcript && event->type() == QEvent::KeyPress && handleKey(static_cast<QKeyEvent*>(event)))
        return true;
    return QWidget::eventFilter(watched, event);
}

bool AnnotationPage::exportLabels(const QString& path, QString* error)
{
    try {
        if (m_workspace->store() && m_runId > 0)
            exportLabelFile(*m_workspace->store(), m_runId, path.toStdString());
        else
            writeFileAtomically(path.toStdString(), {}); // no run: an empty file, as before
    } catch (const StoreError& e) {
        setError(error, tr("Could not read the labels: %1").arg(QString::fromUtf8(e.what())));
        return false;
    } catch (const std::exception& e) {
        setError(error, tr("Could not write %1: %2").arg(path, withoutPrefix(e.what(), path)));
        return false;
    }
    return true;
}

int AnnotationPage::importLabels(const QString& path, QString* error)
{
    if (!m_workspace->store() || m_runId <= 0)
        return setError(error, tr("Choose a run to import labels into."));
    std::vector<LabelLine> rows;
    try {
        rows = readLabelFile(*m_workspace->store(), m_runId, path.toStdString());
    } catch (const LabelFileError& e) {
        return setError(error, labelFileMessage(e, QFileInfo(path).fileName()));
    } catch (const StoreError& e) {
        return setError(error, tr("Could not read the labels: %1").arg(QString::fromUtf8(e.what())));
    } catch (const std::exception& e) {
        return setError(error, tr("Could not read %1: %2").arg(path, withoutPrefix(e.what(), path)));
    }
    try {
        storeLabels(*m_workspace->store(), rows); // all or nothing
    } catch (const std::exception& e) {
        return setError(error, tr("Could not store the labels: %1").arg(QString::fromUtf8(e.what())));
    }
    m_workspace->notifyLabelsChanged();
    // Only human labels changed: re-read those of the imported trajectories instead of reloading the run.
    std::set<std::int64_t> touched;
    for (const LabelLine& r : rows)
        touched.insert(r.trajectoryRowId);
    for (const std::int64_t rowId : touched) {
        if (isLoading())
            m_writtenWhileLoading.insert(rowId);
        rereadHumanLabels(rowId);
    }
    refreshTranscript();
    refreshProgress();
    return int(rows.size());
}

void AnnotationPage::exportInteractive()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export human labels"), QString(), tr("JSON Lines (*.jsonl);;All files (*)"));
    QString error;
    if (!path.isEmpty() && !exportLabels(path, &error))
        fail(error);
    else if (!path.isEmpty())
        m_status->setText(tr("Exported the labels to %1.").arg(path));
}

void AnnotationPage::importInteractive()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Import human labels"), QString(), tr("JSON Lines (*.jsonl);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    const int count = importLabels(path, &error);
    if (count < 0)
        fail(error);
    else
        m_status->setText(tr("Imported %n label(s).", nullptr, count));
}

} // namespace creditlab::ui
