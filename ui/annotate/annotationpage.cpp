#include "ui/annotate/annotationpage.h"

#include "core/atomicfile.h"
#include "core/labelfile.h"
#include "ui/annotate/annotationcommands.h"
#include "ui/charts/colours.h"
#include "ui/common/runcombo.h"
#include "ui/common/textutil.h"
#include "ui/shell/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTextBlock>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTextDocument>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
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

constexpr std::array<Role, 4> kChipRoles { Role::D, Role::E, Role::N, Role::R };

QColor roleColour(Role role) { return colours::role(roleName(role).front()); }

/// Text without surrounding whitespace, for comparing an observation with the feedback before it.
QStringView trimmedView(const QString& text) { return QStringView(text).trimmed(); }

/// The stylesheet of a role chip: outlined in the role's colour, filled with it when checked (the own label).
QString chipStyle(Role role)
{
    const QColor c = roleColour(role);
    return QStringLiteral("QPushButton { border: 2px solid %1; border-radius: 10px; padding: 4px 10px; "
                          "background: palette(base); color: palette(text); text-align: left; }"
                          "QPushButton:hover { background: %2; }"
                          "QPushButton:checked { background: %1; color: %3; font-weight: bold; }"
                          "QPushButton:disabled { border-color: palette(mid); color: palette(mid); }")
        .arg(c.name(), c.lighter(170).name(), colours::textOn(c).name());
}

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

QString newObservation(const Turn* previous, const Turn& turn)
{
    const QString observation = toQString(turn.observation);
    if (!previous || !previous->feedback)
        return observation;
    const QString feedback = toQString(*previous->feedback);
    const QStringView obs = trimmedView(observation);
    const QStringView fb = trimmedView(feedback);
    if (fb.isEmpty())
        return observation;
    if (obs == fb)
        return {};
    if (obs.startsWith(fb))
        return obs.mid(fb.size()).trimmed().toString();
    return observation;
}

QString roleTitle(Role role)
{
    switch (role) {
    case Role::D:
        return AnnotationPage::tr("decisive progress");
    case Role::E:
        return AnnotationPage::tr("useful exploration");
    case Role::N:
        return AnnotationPage::tr("no-progress infrastructure");
    case Role::R:
        return AnnotationPage::tr("regression");
    }
    return {};
}

QString roleDefinition(Role role)
{
    switch (role) {
    case Role::D:
        return AnnotationPage::tr("Changes the task state a verifier checks: takes the target object, selects the "
                                  "required item, does the required clean/heat/cool, places the target, submits the "
                                  "right answer.");
    case Role::E:
        return AnnotationPage::tr("Changes what the agent knows without completing a subgoal: a first look into a "
                                  "container, a first visit to a candidate place, a first or refined search.");
    case Role::N:
        return AnnotationPage::tr("Changes neither the task state nor what the agent knows: empty-handed travel, a "
                                  "command that does not affect the next decision, a harmless repeat after success.");
    case Role::R:
        return AnnotationPage::tr("Locally harmful, or redundant without new information: a wrong object, edit or "
                                  "purchase; looking again at what is already known.");
    }
    return {};
}

AnnotationPage::AnnotationPage(Workspace* workspace, QWidget* parent, QUndoStack* undo)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_undo(undo ? undo : new QUndoStack(this))
    , m_runCombo(new QComboBox(this))
    , m_annotatorEdit(new QLineEdit(sessionAnnotator(), this))
    , m_orderCombo(new QComboBox(this))
    , m_blind(new QCheckBox(tr("Blind"), this))
    , m_progress(new QLabel(this))
    , m_status(new QLabel(this))
    , m_header(new QFrame(this))
    , m_trajectoryTitle(new QLabel(m_header))
    , m_goal(new QLabel(m_header))
    , m_trajectoryProgress(new QLabel(m_header))
    , m_transcript(new QPlainTextEdit(this))
    , m_card(new QFrame(this))
    , m_cardTitle(new QLabel(m_card))
    , m_ownBadge(new QLabel(m_card))
    , m_cardBody(new QPlainTextEdit(m_card))
    , m_judgeBox(new QLabel(m_card))
    , m_skipButton(new QPushButton(tr("Skip (S)"), m_card))
    , m_flagButton(new QPushButton(tr("Flag (F)"), m_card))
    , m_commentEdit(new QLineEdit(m_card))
    , m_nextHint(new QLabel(m_card))
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
    m_blind->setObjectName(QStringLiteral("annotationBlind"));
    m_blind->setToolTip(tr("Blind labelling: hide the judges' labels, the outcome and the reward"));
    m_progress->setTextFormat(Qt::PlainText);
    m_status->setTextFormat(Qt::PlainText);
    // Long run names, titles and messages wrap or elide instead of widening the window past a 1280 px screen.
    m_runCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_runCombo->setMinimumContentsLength(18);
    m_orderCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_orderCombo->setMinimumContentsLength(14);
    for (QLabel* label : { m_progress, m_status })
        label->setWordWrap(true);

    // The band that heads the current trajectory: a new trajectory is plain to see.
    m_header->setObjectName(QStringLiteral("annotationTrajectoryHeader"));
    m_header->setStyleSheet(QStringLiteral("QFrame#annotationTrajectoryHeader { background: palette(alternate-base); "
                                           "border-left: 6px solid %1; }")
                                .arg(QColor(colours::kHighlight).name()));
    for (QLabel* label : { m_trajectoryTitle, m_goal, m_trajectoryProgress }) {
        label->setTextFormat(Qt::PlainText);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_goal->setWordWrap(true);
    m_trajectoryTitle->setWordWrap(true);
    QFont bold = m_trajectoryTitle->font();
    bold.setBold(true);
    m_trajectoryTitle->setFont(bold);
    m_trajectoryProgress->setObjectName(QStringLiteral("annotationTrajectoryProgress"));
    auto* headerLayout = new QGridLayout(m_header);
    headerLayout->setContentsMargins(12, 6, 8, 6);
    headerLayout->addWidget(m_trajectoryTitle, 0, 0);
    headerLayout->addWidget(m_trajectoryProgress, 0, 1, Qt::AlignRight);
    headerLayout->addWidget(m_goal, 1, 0, 1, 2);
    headerLayout->setColumnStretch(0, 1);

    m_transcript->setObjectName(QStringLiteral("annotationTranscript"));
    m_transcript->setReadOnly(true);
    m_transcript->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_transcript->installEventFilter(this);

    // The current turn as a card.
    m_card->setObjectName(QStringLiteral("annotationCard"));
    m_card->setStyleSheet(QStringLiteral("QFrame#annotationCard { border: 2px solid %1; border-radius: 8px; "
                                         "background: palette(base); }")
                              .arg(QColor(colours::kHighlight).name()));
    m_card->setMinimumWidth(340);
    QFont title = m_cardTitle->font();
    title.setBold(true);
    title.setPointSizeF(title.pointSizeF() * 1.25);
    m_cardTitle->setFont(title);
    m_cardTitle->setTextFormat(Qt::PlainText);
    m_ownBadge->setObjectName(QStringLiteral("annotationOwnLabel"));
    m_ownBadge->setTextFormat(Qt::PlainText);
    m_ownBadge->setAutoFillBackground(true);
    m_ownBadge->setMargin(4);
    m_ownBadge->setFont(bold);
    m_ownBadge->setToolTip(tr("Your label of this turn"));
    m_cardBody->setObjectName(QStringLiteral("annotationCardBody"));
    m_cardBody->setReadOnly(true);
    m_cardBody->setFrameShape(QFrame::NoFrame);
    m_cardBody->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_cardBody->installEventFilter(this);
    m_judgeBox->setObjectName(QStringLiteral("annotationJudgeLabels"));
    m_judgeBox->setTextFormat(Qt::PlainText);
    m_judgeBox->setWordWrap(true);
    m_judgeBox->setStyleSheet(QStringLiteral("QLabel { border: 1px dashed palette(dark); padding: 3px; }"));
    m_judgeBox->setToolTip(tr("The judges' labels of this turn (hidden in blind mode)"));
    auto* chips = new QGridLayout;
    chips->setSpacing(6);
    for (std::size_t i = 0; i < kChipRoles.size(); ++i) {
        const Role role = kChipRoles[i];
        auto* chip = new QPushButton(tr("%1 · %2  %3").arg(i + 1).arg(roleText(role), roleTitle(role)), m_card);
        chip->setObjectName(QStringLiteral("annotationChip%1").arg(roleText(role)));
        chip->setCheckable(true);
        chip->setFocusPolicy(Qt::NoFocus); // the keyboard stays with the page
        chip->setStyleSheet(chipStyle(role));
        chip->setToolTip(
            tr("%1 (%2): %3\nKeys %4 or %1").arg(roleText(role), roleTitle(role), roleDefinition(role)).arg(i + 1));
        connect(chip, &QPushButton::clicked, this, [this, role] {
            labelCurrent(role);
            refreshCard(); // the store decides what the chips show, also when the label was refused
        });
        chips->addWidget(chip, int(i / 2), int(i % 2));
        m_chips.push_back(chip);
    }
    m_skipButton->setObjectName(QStringLiteral("annotationSkip"));
    m_skipButton->setFocusPolicy(Qt::NoFocus);
    m_skipButton->setToolTip(tr("Pass on this turn without a label (kept as a note) and go to the next"));
    m_flagButton->setObjectName(QStringLiteral("annotationFlag"));
    m_flagButton->setFocusPolicy(Qt::NoFocus);
    m_flagButton->setCheckable(true);
    m_flagButton->setToolTip(tr("Mark this turn to look at again"));
    m_commentEdit->setObjectName(QStringLiteral("annotationComment"));
    m_commentEdit->setPlaceholderText(tr("Comment (C); Return keeps it"));
    m_commentEdit->setClearButtonEnabled(true);
    m_commentEdit->installEventFilter(this);
    m_nextHint->setObjectName(QStringLiteral("annotationNextHint"));
    m_nextHint->setTextFormat(Qt::PlainText);
    m_nextHint->setWordWrap(true);
    auto* cardTop = new QHBoxLayout;
    cardTop->addWidget(m_cardTitle, 1);
    cardTop->addWidget(m_ownBadge);
    auto* notes = new QHBoxLayout;
    notes->addWidget(m_skipButton);
    notes->addWidget(m_flagButton);
    notes->addWidget(m_commentEdit, 1);
    auto* cardLayout = new QVBoxLayout(m_card);
    cardLayout->setContentsMargins(10, 8, 10, 8);
    cardLayout->addLayout(cardTop);
    cardLayout->addWidget(m_cardBody, 1);
    cardLayout->addWidget(m_judgeBox);
    cardLayout->addLayout(chips);
    cardLayout->addLayout(notes);
    cardLayout->addWidget(m_nextHint);
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
    controls->addWidget(m_blind);
    controls->addWidget(exportButton);
    controls->addWidget(importButton);
    controls->addWidget(trainButton);
    auto* footer = new QHBoxLayout;
    footer->addWidget(m_progress);
    footer->addWidget(m_busy);
    auto* keys = new QLabel(tr("Keys: 1–4 or D/E/N/R label · S skip · F flag · C comment · ↑/↓ move · Ctrl+Z undo"), this);
    keys->setWordWrap(true);
    footer->addWidget(keys, 1);
    auto* turns = new QSplitter(Qt::Horizontal, this);
    turns->setChildrenCollapsible(false);
    turns->addWidget(m_transcript);
    turns->addWidget(m_card);
    turns->setStretchFactor(0, 1);
    turns->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_header);
    layout->addWidget(turns, 1);
    layout->addLayout(footer);
    layout->addWidget(m_status);

    connect(m_runCombo, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            setRun(m_runCombo->currentData().toLongLong());
    });
    connect(m_annotatorEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        sessionAnnotator() = text.trimmed();
        m_transcriptStale = true;
        refreshProgress();
        refreshTranscript();
    });
    connect(m_orderCombo, &QComboBox::currentIndexChanged, this,
        [this] { setOrder(QueueOrder(m_orderCombo->currentData().toInt())); });
    connect(m_blind, &QCheckBox::toggled, this, [this] {
        m_transcriptStale = true;
        refreshTranscript();
        refreshProgress();
    });
    connect(m_skipButton, &QPushButton::clicked, this, [this] { skipCurrent(); });
    connect(m_flagButton, &QPushButton::clicked, this, [this](bool on) {
        setCurrentFlagged(on);
        refreshCard(); // the store decides, also when the flag was refused
    });
    connect(m_commentEdit, &QLineEdit::returnPressed, this, [this] {
        commitComment();
        setFocus();
    });
    connect(m_commentEdit, &QLineEdit::editingFinished, this, &AnnotationPage::commitComment);
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
        m_transcriptStale = true;
    });
    connect(m_workspace, &Workspace::opened, this, [this] {
        reloadRuns();
        if (isVisible()) // else when it shows
            if (const qint64 run = runToLoad(m_runCombo, m_runId))
                setRun(run);
    });
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
    if (m_runId != 0) // else the chooser offers the newest run, loaded when the page shows
        m_runCombo->setCurrentIndex(m_runCombo->findData(QVariant::fromValue<qint64>(m_runId)));
    m_updating = false;
}

void AnnotationPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (const qint64 run = runToLoad(m_runCombo, m_runId))
        setRun(run);
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
    m_transcriptStale = true;
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
    m_transcriptStale = true;
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
            if (l.info.rowId == rowId) {
                l.human = m_workspace->store()->humanLabels(rowId);
                l.notes = humanNotes(*m_workspace->store(), rowId);
            }
        m_transcriptStale = true;
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

void AnnotationPage::setBlind(bool blind) { m_blind->setChecked(blind); }

bool AnnotationPage::blind() const { return m_blind->isChecked(); }

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

const HumanNote* AnnotationPage::ownNote(const Loaded& loaded, int turn) const
{
    const std::string name = annotator().toStdString();
    for (const HumanNote& n : loaded.notes)
        if (n.turn == turn && n.annotator == name)
            return &n;
    return nullptr;
}

HumanNote AnnotationPage::currentNote() const
{
    const auto at = current();
    if (!at)
        return {};
    const HumanNote* note = ownNote(m_trajectories[m_queue[std::size_t(m_position)].trajectory], at->second);
    return note ? *note : HumanNote { at->first, at->second, annotator().toStdString(), false, false, {}, {} };
}

bool AnnotationPage::canEditCurrent()
{
    if (!current()) {
        fail(isLoading() ? tr("The run is still loading.") : tr("There is no turn to label."));
        return false;
    }
    if (annotator().isEmpty()) {
        fail(tr("Type an annotator name before labelling."));
        m_annotatorEdit->setFocus();
        return false;
    }
    return true;
}

bool AnnotationPage::changeCurrentNote(const std::function<void(HumanNote&)>& edit, const QString& text, bool advance)
{
    if (!canEditCurrent())
        return false;
    HumanNote note = currentNote();
    edit(note);
    try {
        m_undo->push(new SetHumanNoteCommand(m_workspace, note, text,
            [this, advance](std::int64_t rowId, int turn, bool undone) { onApplied(rowId, turn, undone, advance); }));
    } catch (const std::exception& e) {
        fail(tr("Could not store the note: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    m_status->clear();
    return true;
}

bool AnnotationPage::skipCurrent()
{
    if (!canEditCurrent())
        return false;
    if (currentNote().skipped) {
        move(1); // nothing to write
        return true;
    }
    return changeCurrentNote(
        [](HumanNote& n) { n.skipped = true; }, tr("Skip turn %1").arg(current()->second + 1), true);
}

bool AnnotationPage::setCurrentFlagged(bool flagged)
{
    if (canEditCurrent() && currentNote().flagged == flagged)
        return true;
    return changeCurrentNote([flagged](HumanNote& n) { n.flagged = flagged; },
        (flagged ? tr("Flag turn %1") : tr("Unflag turn %1")).arg(current() ? current()->second + 1 : 0), false);
}

bool AnnotationPage::setCurrentComment(const QString& comment)
{
    const std::string text = comment.trimmed().toStdString();
    if (canEditCurrent() && currentNote().comment == text)
        return true;
    return changeCurrentNote([&text](HumanNote& n) { n.comment = text; },
        tr("Comment on turn %1").arg(current() ? current()->second + 1 : 0), false);
}

void AnnotationPage::commitComment()
{
    // Only a comment typed here, on the turn it was typed for (the card refreshes its text when the turn changes).
    if (!m_commentEdit->isModified())
        return;
    m_commentEdit->setModified(false);
    if (current() && annotator().size() > 0 && currentNote().comment != m_commentEdit->text().trimmed().toStdString())
        setCurrentComment(m_commentEdit->text());
}

bool AnnotationPage::labelCurrent(Role role)
{
    if (!canEditCurrent())
        return false;
    const auto at = current();
    try {
        m_undo->push(new SetHumanLabelCommand(m_workspace, at->first, at->second, annotator().toStdString(), role,
            [this](std::int64_t rowId, int turn, bool undone) { onApplied(rowId, turn, undone, true); }));
    } catch (const std::exception& e) {
        fail(tr("Could not store the label: %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
    m_status->clear();
    return true;
}

void AnnotationPage::onApplied(std::int64_t rowId, int turn, bool undone, bool advance)
{
    if (isLoading())
        m_writtenWhileLoading.insert(rowId);
    rereadHumanLabels(rowId);
    const int index = queueIndexOf(rowId, turn);
    if (index >= 0 && (undone || !advance))
        setPosition(index);
    else if (index >= 0)
        setPosition(index + 1);
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

    // The band over the current trajectory: where it is, what it is, and how far this annotator got in it.
    const auto at = current();
    m_header->setVisible(at.has_value());
    if (!at)
        return;
    const std::size_t index = m_queue[std::size_t(m_position)].trajectory;
    const Loaded& l = m_trajectories[index];
    const Trajectory& t = l.trajectory;
    QString title = tr("Trajectory %1 of %2 · %3").arg(index + 1).arg(m_trajectories.size()).arg(toQString(t.id));
    if (!blind())
        title += tr(" · %1 · reward %2")
                     .arg(t.successOrDefault() ? tr("success") : tr("failure"), formatNumber(t.reward));
    m_trajectoryTitle->setText(title);
    m_goal->setText(tr("Goal: %1").arg(t.task.goal ? toQString(*t.task.goal) : tr("(none)")));
    const int turns = int(t.turns.size());
    int own = 0;
    int skipped = 0;
    int flagged = 0;
    for (int k = 0; k < turns; ++k) {
        const bool hasLabel = ownLabel(l, k).has_value();
        own += hasLabel ? 1 : 0;
        if (const HumanNote* n = ownNote(l, k)) {
            skipped += n->skipped && !hasLabel ? 1 : 0;
            flagged += n->flagged ? 1 : 0;
        }
    }
    QString progress = tr("Turn %1 of %2 · %3 labelled").arg(at->second + 1).arg(turns).arg(own);
    if (skipped > 0)
        progress += tr(" · %1 skipped").arg(skipped);
    if (flagged > 0)
        progress += tr(" · %1 flagged").arg(flagged);
    m_trajectoryProgress->setText(progress);
}

QString AnnotationPage::trajectoryText() const
{
    if (m_header->isHidden())
        return {};
    return m_trajectoryTitle->text() + QLatin1Char('\n') + m_goal->text() + QLatin1Char('\n')
        + m_trajectoryProgress->text();
}

QString AnnotationPage::trajectoryProgressText() const
{
    return m_header->isHidden() ? QString() : m_trajectoryProgress->text();
}

QPushButton* AnnotationPage::roleChip(Role role) const
{
    const auto it = std::find(kChipRoles.begin(), kChipRoles.end(), role);
    return m_chips[std::size_t(it - kChipRoles.begin())];
}

void AnnotationPage::refreshTranscript()
{
    const auto at = current();
    if (!at) {
        m_shownTrajectory = -1;
        m_transcript->setPlainText(m_runId <= 0 ? tr("No run chosen.")
                : isLoading()                   ? tr("Loading run %1…").arg(m_runId)
                                                : tr("This run has no turns."));
        m_transcript->setExtraSelections({});
        refreshCard();
        return;
    }
    const std::size_t index = m_queue[std::size_t(m_position)].trajectory;
    const Loaded& l = m_trajectories[index];
    const Trajectory& t = l.trajectory;
    if (int(index) != m_shownTrajectory || m_transcriptStale) {
        // Rebuilt when the trajectory or its labels and notes change; a move inside it only moves the highlight.
        m_shownTrajectory = int(index);
        m_transcriptStale = false;
        m_turnSpans.assign(t.turns.size(), {});
        QTextCharFormat plain;
        QTextCharFormat head;
        head.setFontWeight(QFont::Bold);
        QTextCharFormat dim;
        dim.setForeground(palette().color(QPalette::PlaceholderText));
        QTextCharFormat judge = dim;
        judge.setFontItalic(true);
        m_transcript->clear();
        QTextCursor c(m_transcript->document());
        c.beginEditBlock();
        for (int k = 0; k < int(t.turns.size()); ++k) {
            const Turn& turn = t.turns[std::size_t(k)];
            if (k > 0)
                c.insertText(QStringLiteral("\n\n"), plain);
            m_turnSpans[std::size_t(k)].first = c.position();
            c.insertText(tr("Turn %1").arg(k + 1), head);
            c.insertText(QStringLiteral("   "), plain);
            const auto own = ownLabel(l, k);
            QTextCharFormat ownFormat = head;
            if (own) {
                const QColor colour = roleColour(*own);
                ownFormat.setBackground(colour);
                ownFormat.setForeground(colours::textOn(colour));
            }
            c.insertText(tr("[you: %1]").arg(own ? roleText(*own) : QStringLiteral("–")), ownFormat);
            if (!blind())
                for (const JudgeLabel& j : l.judge)
                    if (j.turn == k)
                        c.insertText(QStringLiteral("   ")
                                + tr("[judge %1: %2%3]")
                                      .arg(toQString(j.judge), roleText(j.role),
                                          j.confidence ? tr(" (%1)").arg(formatNumber(*j.confidence, 2)) : QString())
                                      .replace(QLatin1Char(' '), QChar::Nbsp), // a tag wraps as a whole
                            judge);
            if (const HumanNote* n = ownNote(l, k)) {
                if (n->skipped && !own)
                    c.insertText(tr("   skipped"), dim);
                if (n->flagged)
                    c.insertText(tr("   ⚑ flagged"), head);
                if (!n->comment.empty())
                    c.insertText(tr("   “%1”").arg(previewText(toQString(n->comment), 60)), dim);
            }
            const QString observation = newObservation(k > 0 ? &t.turns[std::size_t(k) - 1] : nullptr, turn);
            if (!observation.isEmpty())
                c.insertText(tr("\nObservation: %1").arg(observation), plain);
            c.insertText(tr("\nAction: %1").arg(toQString(turn.action)), plain);
            if (turn.feedback)
                c.insertText(tr("\nFeedback: %1").arg(toQString(*turn.feedback)), plain);
            m_turnSpans[std::size_t(k)].second = c.position();
        }
        c.insertText(QStringLiteral("\n\n"), plain);
        c.insertText(tr("— end of trajectory %1 of %2 —").arg(index + 1).arg(m_trajectories.size()), dim);
        c.endEditBlock();
    }
    const auto [start, end] = m_turnSpans[std::size_t(at->second)];
    QTextEdit::ExtraSelection highlight;
    highlight.format.setBackground(QColor(colours::kHighlight).lighter(185));
    highlight.cursor = QTextCursor(m_transcript->document());
    highlight.cursor.setPosition(start);
    highlight.cursor.setPosition(end, QTextCursor::KeepAnchor);
    m_transcript->setExtraSelections({ highlight });
    QTextCursor cursor(m_transcript->document());
    cursor.setPosition(end);
    m_transcript->setTextCursor(cursor);
    m_transcript->ensureCursorVisible();
    cursor.setPosition(start);
    m_transcript->setTextCursor(cursor);
    m_transcript->ensureCursorVisible();
    refreshCard();
}

void AnnotationPage::refreshCard()
{
    const auto at = current();
    m_card->setEnabled(at.has_value());
    if (!at) {
        m_cardTitle->setText(tr("No turn"));
        m_ownBadge->clear();
        m_ownBadge->setPalette(palette());
        m_cardBody->clear();
        m_judgeBox->clear();
        m_nextHint->clear();
        for (QPushButton* chip : m_chips)
            chip->setChecked(false);
        m_flagButton->setChecked(false);
        m_commentEdit->clear();
        return;
    }
    const std::size_t index = m_queue[std::size_t(m_position)].trajectory;
    const Loaded& l = m_trajectories[index];
    const Trajectory& t = l.trajectory;
    const int k = at->second;
    const Turn& turn = t.turns[std::size_t(k)];
    m_cardTitle->setText(tr("Turn %1 of %2").arg(k + 1).arg(t.turns.size()));

    const auto own = ownLabel(l, k);
    const HumanNote* note = ownNote(l, k);
    QPalette badge = palette();
    if (own) {
        const QColor colour = roleColour(*own);
        badge.setColor(QPalette::Window, colour);
        badge.setColor(QPalette::WindowText, colours::textOn(colour));
        m_ownBadge->setText(tr("You: %1 · %2").arg(roleText(*own), roleTitle(*own)));
    } else {
        m_ownBadge->setText(note && note->skipped ? tr("You: skipped") : tr("You: not labelled"));
    }
    m_ownBadge->setPalette(badge);
    for (std::size_t i = 0; i < m_chips.size(); ++i)
        m_chips[i]->setChecked(own == kChipRoles[i]);

    // The turn: what is new in its observation, the action, the feedback.
    QTextCharFormat plain;
    QTextCharFormat heading;
    heading.setFontWeight(QFont::Bold);
    heading.setForeground(palette().color(QPalette::PlaceholderText));
    QTextCharFormat action;
    action.setFontWeight(QFont::Bold);
    m_cardBody->clear();
    QTextCursor c(m_cardBody->document());
    c.beginEditBlock();
    const QString observation = newObservation(k > 0 ? &t.turns[std::size_t(k) - 1] : nullptr, turn);
    if (!observation.isEmpty()) {
        c.insertText(tr("Observation") + QLatin1Char('\n'), heading);
        c.insertText(observation + QStringLiteral("\n\n"), plain);
    }
    c.insertText(tr("Action") + QLatin1Char('\n'), heading);
    c.insertText(toQString(turn.action), action);
    if (turn.feedback) {
        c.insertText(QStringLiteral("\n\n") + tr("Feedback") + QLatin1Char('\n'), heading);
        c.insertText(toQString(*turn.feedback), plain);
    }
    c.endEditBlock();
    m_cardBody->moveCursor(QTextCursor::Start);

    if (blind()) {
        m_judgeBox->setText(tr("Judge labels hidden (blind)"));
    } else {
        QStringList judges;
        for (const JudgeLabel& j : l.judge)
            if (j.turn == k)
                judges << tr("%1: %2%3")
                              .arg(toQString(j.judge), roleText(j.role),
                                  j.confidence ? tr(" (%1)").arg(formatNumber(*j.confidence, 2)) : QString());
        m_judgeBox->setText(
            judges.isEmpty() ? tr("Judge: no label") : tr("Judge  %1").arg(judges.join(QStringLiteral("   "))));
    }

    m_flagButton->setChecked(note && note->flagged);
    const QString comment = note ? toQString(note->comment) : QString();
    if (!m_commentEdit->hasFocus() || !m_commentEdit->isModified()) {
        m_commentEdit->setText(comment);
        m_commentEdit->setModified(false);
    }

    // Where the queue goes next: say so when it leaves this trajectory.
    if (m_position + 1 >= int(m_queue.size())) {
        m_nextHint->setText(tr("Last turn in the queue."));
    } else {
        const QueueItem& next = m_queue[std::size_t(m_position) + 1];
        m_nextHint->setText(next.trajectory == index
                ? (next.turn == k + 1 ? QString()
                                      : tr("Next in the queue: turn %1 of this trajectory.").arg(next.turn + 1))
                : tr("Last turn here: the queue moves on to trajectory %1 of %2 (turn %3).")
                      .arg(next.trajectory + 1)
                      .arg(m_trajectories.size())
                      .arg(next.turn + 1));
    }
}

QString AnnotationPage::transcriptText() const { return m_transcript->toPlainText(); }

QString AnnotationPage::cardText() const
{
    return m_cardTitle->text() + QLatin1Char('\n') + m_ownBadge->text() + QLatin1Char('\n') + m_cardBody->toPlainText()
        + QLatin1Char('\n') + m_judgeBox->text() + QLatin1Char('\n') + m_nextHint->text();
}

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
    switch (event->key()) {
    case Qt::Key_S:
        skipCurrent();
        return true;
    case Qt::Key_F:
        setCurrentFlagged(!currentNote().flagged);
        return true;
    case Qt::Key_C:
        if (current()) {
            m_commentEdit->setFocus(Qt::ShortcutFocusReason);
            m_commentEdit->selectAll();
        }
        return true;
    default:
        break;
    }
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
    if (watched == m_commentEdit && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Escape) {
            m_commentEdit->setModified(false); // drop what was typed
            setFocus();
            refreshCard();
            return true;
        }
        if (key == Qt::Key_Up || key == Qt::Key_Down) { // keep the comment on its turn, then move
            commitComment();
            setFocus();
            return handleKey(static_cast<QKeyEvent*>(event));
        }
    }
    if ((watched == m_transcript || watched == m_cardBody) && event->type() == QEvent::KeyPress
        && handleKey(static_cast<QKeyEvent*>(event)))
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
