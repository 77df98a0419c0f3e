#include "ui/annotate/annotationpage.h"

#include "core/interchange/labelfile.h"
#include "core/storage/atomicfile.h"
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
#include <QStandardItemModel>
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

QString roleText(Role role) { return toQString(std::string(roleName(role))); }

QColor roleColour(Role role) { return colours::role(roleName(role).front()); }

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
        updateOrderChoices();
        rebuildQueue(true); // blind: without the judges' view; it also refreshes the transcript and the progress
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
    if (blind() && orderReadsHidden(order))
        order = m_order; // not offered while blind (updateOrderChoices): the queue keeps its order
    m_order = order;
    {
        const QSignalBlocker block(m_orderCombo);
        m_orderCombo->setCurrentIndex(m_orderCombo->findData(int(order)));
    }
    rebuildQueue(false);
}

void AnnotationPage::updateOrderChoices()
{
    // The orders that read what blind mode hides are greyed out while it is on, and a queue in one of them goes back
    // to Sequential: "TRIAGE conflict cells first" put the turns the judge labelled against the outcome first, which
    // told the annotator what the judge thought before they labelled.
    auto* items = qobject_cast<QStandardItemModel*>(m_orderCombo->model());
    for (int i = 0; i < m_orderCombo->count(); ++i) {
        const bool hidden = orderReadsHidden(QueueOrder(m_orderCombo->itemData(i).toInt()));
        if (QStandardItem* item = items ? items->item(i) : nullptr) {
            item->setEnabled(!(blind() && hidden));
            item->setToolTip(blind() && hidden ? tr("Not while blind: this order reads the judges' labels, the "
                                                    "outcome or the credits")
                                               : QString());
        }
    }
    if (blind() && orderReadsHidden(m_order)) {
        m_order = QueueOrder::Sequential;
        const QSignalBlocker block(m_orderCombo);
        m_orderCombo->setCurrentIndex(m_orderCombo->findData(int(m_order)));
    }
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
            turns.push_back(blind() ? blinded(q) : std::move(q)); // blind: nothing hidden may order the turns
        }
    }
    m_queue = buildQueue(turns, blind() && orderReadsHidden(m_order) ? QueueOrder::Sequential : m_order);
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
    Q_EMIT errorCleared();
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
    Q_EMIT errorCleared();
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

} // namespace creditlab::ui
