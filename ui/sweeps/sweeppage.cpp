// SweepPage: the page built and wired, its widgets to the controller, the workspace and the page's own parts (the
// editor in sweepeditor.cpp, running and stored sweeps in sweepruns.cpp, the result view in sweepresults.cpp).
#include "ui/sweeps/sweeppage.h"

#include "ui/charts/errorbarchart.h"
#include "ui/charts/heatmapchart.h"
#include "ui/common/itemroles.h"
#include "ui/common/sortfilterproxymodel.h"
#include "ui/common/tableviewsetup.h"
#include "ui/shell/workspace.h"
#include "ui/sweeps/planpanel.h"
#include "ui/sweeps/trialmodel.h"

#include <QComboBox>
#include <QFile>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QListView>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <thread>

namespace creditlab::ui {

namespace {

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

SweepPage::SweepPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_controller(new SweepController(this))
    , m_trialModel(new TrialModel(this))
    , m_trialProxy(new SortFilterProxyModel(this))
    , m_sweepList(new QStandardItemModel(this))
    , m_redrawTimer(new QTimer(this))
{
    m_trialProxy->setSourceModel(m_trialModel);
    m_redrawTimer->setSingleShot(true);
    m_redrawTimer->setInterval(40); // coalesce snapshots into one redraw (STYLE rule 7)
    buildUi();
    loadPresets();
    // Start from a real sweep rather than an empty editor: the HAS alpha × seed preset when it is shipped.
    for (int i = 1; i < m_presets->count(); ++i)
        if (m_presets->itemText(i) == QLatin1String("sweep-has-alpha"))
            m_editor->setPlainText(readText(m_presets->itemData(i).toString()));

    connect(m_redrawTimer, &QTimer::timeout, this, &SweepPage::applyProgress);
    connect(m_controller, &SweepController::progressed, this, &SweepPage::onProgress);
    connect(m_controller, &SweepController::sweepStarted, this, &SweepPage::reloadSweeps);
    connect(m_controller, &SweepController::sweepFinished, this, &SweepPage::onFinished);
    connect(m_controller, &SweepController::sweepFailed, this, &SweepPage::showError);
    connect(m_controller, &SweepController::runningChanged, this, [this](bool running) {
        m_startButton->setEnabled(!running);
        m_stopButton->setEnabled(running);
        m_resumeButton->setEnabled(false);
    });
    connect(m_workspace, &Workspace::opened, this, [this] {
        m_reportButton->setEnabled(false); // until a stored experiment of this database is shown
        if (!m_controller->isRunning())
            m_trialModel->clear();
        else
            m_message->setText(runningMessage()); // the sweep goes on in the database it started in
        reloadSweeps();
        // A database opens on its newest sweep's results (the list is newest first).
        if (!m_controller->isRunning() && m_sweepList->rowCount() > 0)
            m_sweepView->setCurrentIndex(m_sweepList->index(0, 0));
        updateChoices();
        updateResult();
        m_planFor.clear(); // another database holds other pilots
        updateTrialPreview();
    });
    // Sweeps run by another process (creditlab-cli sweep) appear as their runs are written.
    connect(m_workspace, &Workspace::runsChanged, this, &SweepPage::reloadSweeps);
    reloadSweeps();
}

SweepPage::~SweepPage() = default;

void SweepPage::buildUi()
{
    m_presets = new QComboBox;
    m_presets->addItem(tr("Presets…"));
    auto* open = new QPushButton(tr("Open…"));
    auto* save = new QPushButton(tr("Save…"));
    m_workers = new QSpinBox;
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    m_workers->setRange(0, cores);
    m_workers->setSpecialValueText(tr("as in file"));
    m_workers->setToolTip(tr("Parallel trials; this machine has %n core(s). Workers × threads must fit.", "", cores));
    m_startButton = new QPushButton(tr("Start"));
    m_stopButton = new QPushButton(tr("Stop"));
    m_stopButton->setEnabled(false);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_presets, 1);
    fileRow->addWidget(open);
    fileRow->addWidget(save);
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(new QLabel(tr("Workers:")));
    runRow->addWidget(m_workers);
    runRow->addWidget(new QLabel(tr("of %n core(s)", "", cores)));
    runRow->addStretch(1);
    runRow->addWidget(m_startButton);
    runRow->addWidget(m_stopButton);
    m_editor = new QPlainTextEdit;
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setFont(QFont(QStringLiteral("monospace")));
    m_editor->setMinimumWidth(QFontMetrics(m_editor->font()).horizontalAdvance(QLatin1Char('x')) * 62);
    m_trialPreview = new QLabel;
    m_trialPreview->setObjectName(QStringLiteral("trialPreview"));
    m_trialPreview->setTextFormat(Qt::PlainText);
    m_trialPreview->setWordWrap(true);
    m_trialPreview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_previewTimer = new QTimer(this);
    m_previewTimer->setSingleShot(true);
    m_previewTimer->setInterval(250); // parse after typing pauses
    connect(m_previewTimer, &QTimer::timeout, this, &SweepPage::updateTrialPreview);
    connect(m_editor, &QPlainTextEdit::textChanged, m_previewTimer, qOverload<>(&QTimer::start));
    m_message = new QLabel;
    m_message->setTextFormat(Qt::PlainText);
    m_message->setWordWrap(true);
    m_sweepView = new QListView;
    m_sweepView->setModel(m_sweepList);
    m_sweepView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_resumeButton = new QPushButton(tr("Resume"));
    m_resumeButton->setEnabled(false);
    m_reportButton = new QPushButton(tr("Report…"));
    m_reportButton->setEnabled(false);
    m_reportButton->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_reportButton->setToolTip(tr("The experiment's report: claims with their intervals and verdicts, curves with "
                                  "seed bands, export as report.md with SVG and PNG figures (Ctrl+R)"));
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addLayout(fileRow);
    leftLayout->addWidget(m_editor, 3);
    leftLayout->addWidget(m_trialPreview);
    m_plan = new PlanPanel;
    leftLayout->addWidget(m_plan);
    leftLayout->addLayout(runRow);
    leftLayout->addWidget(m_message);
    leftLayout->addWidget(new QLabel(tr("Sweeps in this database:")));
    leftLayout->addWidget(m_sweepView, 1);
    auto* storedRow = new QHBoxLayout;
    storedRow->addStretch(1);
    storedRow->addWidget(m_reportButton);
    storedRow->addWidget(m_resumeButton);
    leftLayout->addLayout(storedRow);

    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_eta = new QLabel;
    m_trialView = new QTableView;
    m_trialView->setModel(m_trialProxy);
    setUpTableView(m_trialView);
    m_metric = new QComboBox;
    m_mode = new QComboBox;
    m_mode->addItem(tr("best"), QStringLiteral("best"));
    m_mode->addItem(tr("last"), QStringLiteral("last"));
    m_xKey = new QComboBox;
    m_yKey = new QComboBox;
    auto* exportChartButton = new QPushButton(tr("Export chart…"));
    auto* exportCsvButton = new QPushButton(tr("Export CSV…"));
    auto* resultRow = new QHBoxLayout;
    for (auto* w : std::initializer_list<QWidget*> { new QLabel(tr("Objective:")), m_metric, m_mode,
             new QLabel(tr("x:")), m_xKey, new QLabel(tr("y:")), m_yKey })
        resultRow->addWidget(w);
    resultRow->addStretch(1);
    resultRow->addWidget(exportChartButton);
    resultRow->addWidget(exportCsvButton);
    m_errorBars = new charts::ErrorBarChart;
    m_heatmap = new charts::HeatmapChart;
    auto* empty = new QLabel(tr("Results appear here when trials finish."));
    empty->setAlignment(Qt::AlignCenter);
    m_charts = new QStackedWidget;
    m_charts->addWidget(empty);
    m_charts->addWidget(m_errorBars);
    m_charts->addWidget(m_heatmap);
    auto* right = new QSplitter(Qt::Vertical);
    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto* progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_eta);
    topLayout->addLayout(progressRow);
    topLayout->addWidget(m_trialView);
    auto* bottom = new QWidget;
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addLayout(resultRow);
    bottomLayout->addWidget(m_charts, 1);
    right->addWidget(top);
    right->addWidget(bottom);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(left);
    splitter->addWidget(right);
    // The editor gets room for a sweep file's lines; the trials and charts the rest.
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    connect(open, &QPushButton::clicked, this, &SweepPage::openFileDialog);
    connect(save, &QPushButton::clicked, this, &SweepPage::saveFileDialog);
    connect(m_startButton, &QPushButton::clicked, this, &SweepPage::confirmAndStart);
    connect(m_stopButton, &QPushButton::clicked, this, &SweepPage::requestStop);
    connect(m_resumeButton, &QPushButton::clicked, this, &SweepPage::resumeSelected);
    // The Launch and Monitor pages' keys: Ctrl+Return starts, Ctrl+. stops, Ctrl+Shift+O opens a file.
    m_startButton->setToolTip(tr("Start the sweep or experiment in the editor (Ctrl+Return)"));
    m_stopButton->setToolTip(tr("Stop after the running trials' current iteration; Resume continues (Ctrl+.)"));
    open->setToolTip(tr("Open a sweep or experiment file (Ctrl+Shift+O)"));
    auto* startShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return), this);
    connect(startShortcut, &QShortcut::activated, m_startButton, &QPushButton::click);
    auto* stopShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period), this);
    connect(stopShortcut, &QShortcut::activated, m_stopButton, &QPushButton::click);
    auto* openShortcut = new QShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this);
    connect(openShortcut, &QShortcut::activated, open, &QPushButton::click);
    connect(m_reportButton, &QPushButton::clicked, this, [this] { openReport(); });
    connect(exportChartButton, &QPushButton::clicked, this, &SweepPage::exportChart);
    connect(exportCsvButton, &QPushButton::clicked, this, &SweepPage::exportCsv);
    connect(m_presets, &QComboBox::activated, this, [this](int index) {
        if (index <= 0)
            return;
        m_editor->setPlainText(readText(m_presets->itemData(index).toString()));
        m_filePath.clear(); // a relative base is looked for among the presets
        m_presetFolder = m_presets->itemData(index, kPresetFolderRole).toString();
        m_presets->setCurrentIndex(0);
    });
    connect(
        m_sweepView->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& current) {
            if (current.isValid())
                showStoredSweep(current.data(IdRole).toLongLong());
        });
    for (auto* box : { m_metric, m_mode, m_yKey })
        connect(box, &QComboBox::currentIndexChanged, this, &SweepPage::updateResult);
    connect(m_xKey, &QComboBox::currentIndexChanged, this, [this] {
        updateChoices();
        updateResult();
    });
}

} // namespace creditlab::ui
