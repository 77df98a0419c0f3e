// The Annotate page's set-up (annotationpage.h): its widgets, their layout and wiring, and its status line. The run
// and its queue are in annotationrun.cpp, labelling and keys in annotationlabelling.cpp, the views in
// annotationview.cpp, the role words in annotationroles.cpp and the label files in annotationfiles.cpp.
#include "ui/annotate/annotationpage.h"

#include "ui/charts/colours.h"
#include "ui/common/runcombo.h"
#include "ui/shell/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QUndoStack>
#include <QVBoxLayout>

namespace creditlab::ui {

namespace {

/// The annotator name of this session: a new page starts with the name last typed.
QString& sessionAnnotator()
{
    static QString name;
    return name;
}

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

void AnnotationPage::fail(const QString& message)
{
    m_status->setText(message);
    Q_EMIT errorOccurred(message);
}

} // namespace creditlab::ui
