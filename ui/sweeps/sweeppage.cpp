#include "ui/sweeps/sweeppage.h"

#include "core/storage/atomicfile.h"
#include "ui/charts/errorbarchart.h"
#include "ui/charts/heatmapchart.h"
#include "ui/common/filedialogs.h"
#include "ui/common/itemroles.h"
#include "ui/common/sortfilterproxymodel.h"
#include "ui/common/tableviewsetup.h"
#include "ui/common/textutil.h"
#include "ui/runs/runmodel.h"
#include "ui/shell/workspace.h"
#include "ui/sweeps/planpanel.h"
#include "ui/sweeps/reportdialog.h"
#include "ui/sweeps/trialmodel.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QKeySequence>
#include <QShortcut>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>
#include <map>
#include <set>
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

void SweepPage::loadPresets()
{
    // The shipped sweeps, then the shipped experiments (the seed papers' claims, docs/reproductions.md).
    const QDir configs(QStringLiteral(":/configs"));
    for (const QString& name : configs.entryList({ QStringLiteral("sweep-*.yaml") }, QDir::Files, QDir::Name)) {
        m_presets->addItem(QFileInfo(name).completeBaseName(), configs.filePath(name));
        m_presets->setItemData(m_presets->count() - 1, QStringLiteral("configs"), kPresetFolderRole);
    }
    const QDir experiments(QStringLiteral(":/experiments"));
    for (const QString& name : experiments.entryList({ QStringLiteral("*.yaml") }, QDir::Files, QDir::Name)) {
        m_presets->addItem(tr("experiment: %1").arg(QFileInfo(name).completeBaseName()), experiments.filePath(name));
        m_presets->setItemData(m_presets->count() - 1, QStringLiteral("experiments"), kPresetFolderRole);
    }
}

QString SweepPage::presetDir()
{
    // The engine reads files, not Qt resources: the shipped configs and experiments are copied out once, in folders
    // side by side as in resources/, so that an experiment's "base: ../configs/household-grpo.yaml" resolves.
    if (!m_presetDir) {
        m_presetDir = std::make_unique<QTemporaryDir>();
        for (const QString folder : { QStringLiteral("configs"), QStringLiteral("experiments") }) {
            const QDir dir(QStringLiteral(":/") + folder);
            QDir(m_presetDir->path()).mkpath(folder);
            for (const QString& name : dir.entryList({ QStringLiteral("*.yaml") }, QDir::Files))
                QFile::copy(dir.filePath(name), m_presetDir->filePath(folder + QLatin1Char('/') + name));
        }
    }
    return m_presetDir->filePath(m_presetFolder.isEmpty() ? QStringLiteral("configs") : m_presetFolder);
}

void SweepPage::openSweepFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        showError(tr("Cannot read %1: %2").arg(path, f.errorString()));
        return;
    }
    m_editor->setPlainText(QString::fromUtf8(f.readAll()));
    m_filePath = QFileInfo(path).absoluteFilePath();
    m_presetFolder.clear();
    m_message->clear();
}

void SweepPage::startSweep()
{
    if (!m_workspace->isOpen()) {
        showError(tr("Open a database first."));
        return;
    }
    SweepRequest request;
    request.database = m_workspace->path();
    request.sweepText = m_editor->toPlainText();
    request.source = m_filePath.isEmpty() ? QStringLiteral("sweep") : m_filePath;
    request.baseDir = m_filePath.isEmpty() ? presetDir() : QFileInfo(m_filePath).absolutePath();
    request.workers = m_workers->value();
    start(request);
}

void SweepPage::confirmAndStart()
{
    updateTrialPreview();
    if (m_workspace->isOpen() && m_previewTrials > 0
        && QMessageBox::question(this,
               m_previewSharedSft || m_previewSeedSfts > 0 ? tr("Start experiment") : tr("Start sweep"),
               (m_previewSeedSfts > 0
                       ? tr("Start this experiment: an SFT run for each of %1 seeds, then %n trial(s), each "
                            "warm-started from its seed's? Each becomes a training run in %2.",
                           nullptr, m_previewTrials)
                             .arg(m_previewSeedSfts)
                       : m_previewSharedSft
                       ? tr("Start this experiment: a shared SFT run, then %n trial(s) warm-started from it? Each "
                            "becomes a training run in %1.",
                           nullptr, m_previewTrials)
                       : tr("Start this sweep of %n trial(s)? Each trial becomes a training run in %1.", nullptr,
                           m_previewTrials))
                       .arg(m_workspace->path())
                   + (m_plan->summary().isEmpty() ? QString() : QStringLiteral("\n\n") + m_plan->summary()))
            != QMessageBox::Yes)
        return;
    startSweep(); // an invalid sweep is refused there, with the reason on the page
}

QString SweepPage::describeTrials(const learn::SweepSpec& spec)
{
    // The values each swept key takes, in the order the trials first use them.
    QStringList axes;
    for (const auto& key : spec.keys) {
        QStringList values;
        for (const auto& trial : spec.trials)
            for (const auto& [k, v] : trial.point)
                if (k == key && !values.contains(toQString(v)))
                    values.append(toQString(v));
        constexpr int kShown = 6;
        QString list = values.mid(0, kShown).join(QStringLiteral(", "));
        if (values.size() > kShown)
            list += tr(", … (%1 values)").arg(values.size());
        axes.append(QStringLiteral("%1 \u2208 {%2}").arg(toQString(key), list));
    }
    QString text = spec.trials.size() == 1 ? tr("1 trial") : tr("%1 trials").arg(spec.trials.size());
    if (!axes.isEmpty())
        text += QStringLiteral(": ") + axes.join(QStringLiteral(" \u00d7 "));
    text += tr(" · %1 at a time").arg(spec.workers);
    return text;
}

void SweepPage::updateTrialPreview()
{
    m_previewTimer->stop();
    m_previewTrials = 0;
    m_previewSharedSft = false;
    m_previewSeedSfts = 0;
    const QString text = m_editor->toPlainText();
    if (text.trimmed().isEmpty()) {
        m_trialPreview->setText(tr("Write a sweep or pick a preset above."));
        m_planFor.clear();
        m_plan->showPlanFor({}, {});
        return;
    }
    try {
        const auto spec = learn::SweepSpec::parse(text.toStdString(),
            (m_filePath.isEmpty() ? QStringLiteral("sweep") : m_filePath).toStdString(),
            (m_filePath.isEmpty() ? presetDir() : QFileInfo(m_filePath).absolutePath()).toStdString());
        m_previewTrials = static_cast<int>(spec.trials.size());
        m_previewSharedSft = spec.isExperiment() && spec.sft == "shared";
        if (spec.isExperiment() && spec.sft == "per_seed")
            for (const auto& seed : spec.seeds())
                m_previewSeedSfts += spec.sftRuns.count(std::stoll(seed)) == 0; // a start the file gives is not trained
        m_trialPreview->setText(describeTrials(spec));
        // An experiment's power plan from the pilot this database holds for it, read again only when the experiment
        // or the database changes (the preview runs on every pause in typing).
        const QString planFor = spec.isExperiment() && m_workspace->isOpen()
            ? m_workspace->path() + QLatin1Char('\n') + toQString(spec.name)
            : QString();
        if (planFor != m_planFor) {
            m_planFor = planFor;
            m_plan->showPlanFor(planFor.isEmpty() ? QString() : m_workspace->path(), spec.name);
        }
    } catch (const std::exception& e) {
        m_trialPreview->setText(tr("Not a valid sweep yet: %1").arg(toQString(e.what())));
    }
}

void SweepPage::resumeSelected()
{
    const QModelIndex current = m_sweepView->currentIndex();
    if (!current.isValid() || !m_workspace->isOpen())
        return;
    SweepRequest request;
    request.database = m_workspace->path();
    request.resumeSweepId = current.data(IdRole).toLongLong();
    request.workers = m_workers->value();
    start(request);
}

void SweepPage::start(const SweepRequest& request)
{
    QString error;
    if (!m_controller->start(request, &error)) {
        showError(error);
        return;
    }
    if (request.resumeSweepId == 0) {
        // The controller has validated the text; the objective is what the result view starts from.
        const auto spec = learn::SweepSpec::parse(
            request.sweepText.toStdString(), request.source.toStdString(), request.baseDir.toStdString());
        m_objective = toQString(spec.objective);
        m_objectiveMode = toQString(spec.objectiveMode);
    }
    m_runningDatabase = request.database;
    m_message->setText(runningMessage());
    m_progress->setValue(0);
    m_eta->clear();
}

void SweepPage::requestStop()
{
    m_controller->requestStop();
    if (m_controller->isRunning())
        m_message->setText(tr("Stopping after the running trials' current iteration…"));
}

void SweepPage::showError(const QString& message) { m_message->setText(message); }

void SweepPage::onProgress(const SweepSnapshot& snapshot)
{
    m_pending = snapshot;
    if (!m_redrawTimer->isActive())
        m_redrawTimer->start();
}

void SweepPage::applyProgress()
{
    if (!m_pending)
        return;
    const SweepSnapshot p = std::exchange(m_pending, nullptr);
    const int doneBefore = m_trialModel->sweepId() == p->sweepId
        ? static_cast<int>(std::count_if(m_trialModel->trials().begin(), m_trialModel->trials().end(),
            [](const learn::TrialProgress& t) { return t.status == TrialStatus::Finished; }))
        : -1;
    m_trialModel->setSnapshot(*p);
    if (p->sftFraction >= 0.0) {
        // An experiment's SFT starts, before its trials: the bar and the line follow them (per_seed: all of them, the
        // line naming the seed whose start trains).
        m_progress->setValue(static_cast<int>(1000.0 * p->sftFraction));
        const QString eta = p->etaSeconds >= 0 ? tr(" · ETA %1").arg(formatDuration(p->etaSeconds)) : QString();
        if (p->sftSeed.empty())
            m_eta->setText(tr("Shared SFT %1% · %2 elapsed%3 · then %4 trials")
                               .arg(static_cast<int>(100.0 * p->sftFraction))
                               .arg(formatDuration(p->elapsedSeconds))
                               .arg(eta)
                               .arg(p->total));
        else
            m_eta->setText(tr("SFT starts %1%, seed %2's training · %3 elapsed%4 · then %5 trials")
                               .arg(static_cast<int>(100.0 * p->sftFraction))
                               .arg(toQString(p->sftSeed), formatDuration(p->elapsedSeconds), eta)
                               .arg(p->total));
        return;
    }
    double fraction = 0.0;
    int finished = 0;
    for (const auto& t : p->trials) {
        fraction += hasEnded(t.status) ? 1.0 : t.fraction;
        finished += t.status == TrialStatus::Finished;
    }
    m_progress->setValue(p->total > 0 ? static_cast<int>(1000.0 * fraction / p->total) : 0);
    // While it runs: elapsed and ETA; once every trial has ended: how long it took (nothing when unknown).
    const bool ended = p->total > 0 && p->done >= p->total;
    const QString time = ended
        ? (p->elapsedSeconds >= 1.0 ? tr(" · took %1").arg(formatDuration(p->elapsedSeconds)) : QString())
        : tr(" · %1 elapsed%2")
              .arg(formatDuration(p->elapsedSeconds))
              .arg(p->etaSeconds >= 0 ? tr(" · ETA %1").arg(formatDuration(p->etaSeconds)) : QString());
    m_eta->setText(tr("%1 of %2 trials%3")
                       .arg(p->done)
                       .arg(p->total)
                       .arg(time)
        + (p->probeTablesTotal > 0 && (p->probeTablesDone > 0 || !p->probeActivity.empty())
                ? tr(" · probe tables %1 of %2%3")
                      .arg(p->probeTablesDone)
                      .arg(p->probeTablesTotal)
                      .arg(p->probeActivity.empty() ? QString() : QStringLiteral(" · ") + toQString(p->probeActivity))
                : QString()));
    if (finished != doneBefore) {
        if (doneBefore >= 0)
            m_workspace->notifyRunsChanged();
        updateChoices();
        updateResult();
    }
}

QString SweepPage::runningMessage() const
{
    if (m_runningDatabase.isEmpty() || m_runningDatabase == m_workspace->path())
        return tr("Running…");
    return tr("Running in %1, the database open when it started; the list below is this database's. Stop (Ctrl+.) "
              "stops it there.")
        .arg(QFileInfo(m_runningDatabase).fileName());
}

void SweepPage::onFinished(TrialStatus status)
{
    applyProgress();
    if (status == TrialStatus::Cancelled && m_controller->stoppedInSft())
        m_message->setText(tr("Experiment %1 stopped during its shared SFT, before any trial; Resume continues it.")
                               .arg(m_controller->sweepId()));
    else
        m_message->setText(tr("Sweep %1: %2.").arg(m_controller->sweepId()).arg(RunModel::displayStatus(status)));
    if (!m_runningDatabase.isEmpty() && m_runningDatabase != m_workspace->path())
        m_message->setText(m_message->text() + QLatin1Char(' ')
            + tr("It ran in %1, not in the database open now.").arg(QFileInfo(m_runningDatabase).fileName()));
    m_workspace->notifyRunsChanged();
    reloadSweeps();
    m_planFor.clear(); // the finished seeds are the pilot now
    updateTrialPreview();
    // The ended sweep stays selected (without a selection signal): its Resume and Report buttons follow its stored
    // status now that nothing runs.
    if (Store* store = m_workspace->store(); store && m_controller->sweepId() > 0
        && m_sweepView->currentIndex().data(IdRole).toLongLong() == m_controller->sweepId())
        if (const auto info = store->sweep(m_controller->sweepId()))
            updateStoredButtons(*info);
    updateChoices();
    updateResult();
}

void SweepPage::reloadSweeps()
{
    // The running sweep stays selected while it runs; otherwise the user's choice is kept.
    const qint64 selected = m_controller->isRunning() && m_controller->sweepId() > 0
        ? m_controller->sweepId()
        : m_sweepView->currentIndex().data(IdRole).toLongLong();
    m_sweepList->clear();
    Store* store = m_workspace->store();
    if (!store)
        return;
    const auto sweeps = store->sweeps();
    for (auto it = sweeps.rbegin(); it != sweeps.rend(); ++it) {
        auto* item = new QStandardItem(tr("#%1 %2 — %3")
                .arg(it->id)
                .arg(toQString(it->name), RunModel::displayStatus(it->status)));
        item->setData(static_cast<qlonglong>(it->id), IdRole);
        item->setToolTip(toQString(it->createdAt));
        m_sweepList->appendRow(item);
        if (it->id == selected) {
            const QSignalBlocker block(m_sweepView->selectionModel());
            m_sweepView->setCurrentIndex(item->index());
        }
    }
}

void SweepPage::updateStoredButtons(const SweepInfo& info)
{
    m_resumeButton->setEnabled(
        !m_controller->isRunning() && (info.status == TrialStatus::Cancelled || info.status == TrialStatus::Running));
    m_reportButton->setEnabled(info.config.find("\narms:") != std::string::npos); // an experiment (partial or whole)
}

void SweepPage::showStoredSweep(qint64 sweepId)
{
    Store* store = m_workspace->store();
    const auto info = store ? store->sweep(sweepId) : std::nullopt;
    if (!info)
        return;
    if (m_controller->isRunning() && sweepId == m_controller->sweepId()) {
        updateStoredButtons(*info); // Resume off while it runs; Report gives a partial report
        return; // the live snapshots show it
    }
    updateStoredButtons(*info);
    m_reportButton->setEnabled(false); // until its stored text reads as an experiment (below)
    try {
        const auto spec = learn::SweepSpec::parse(info->config, "sweep", {});
        m_objective = toQString(spec.objective);
        m_objectiveMode = toQString(spec.objectiveMode);
        m_reportButton->setEnabled(spec.isExperiment());
    } catch (const std::exception&) {
        // A sweep written by another version: its trials still show, with the default objective.
    }
    const auto trials = store->trials(sweepId);
    std::map<std::int64_t, RunInfo> runs; // for the iterations of trials that another process is running
    for (const auto& trial : trials)
        if (trial.runId && trial.status == TrialStatus::Running)
            if (auto run = store->run(*trial.runId))
                runs.emplace(*trial.runId, std::move(*run));
    m_trialModel->setStoredTrials(sweepId, trials, runs);
    m_progress->setValue(info->status == TrialStatus::Finished ? 1000 : 0);
    m_eta->clear();
    updateChoices();
    updateResult();
}

void SweepPage::openFileDialog()
{
    const QString path = filedialogs::getOpenFileName(
        this, tr("Open sweep"), QFileInfo(m_filePath).absolutePath(), tr("Sweep files (*.yaml *.yml);;All files (*)"));
    if (!path.isEmpty())
        openSweepFile(path);
}

void SweepPage::saveFileDialog()
{
    const QString path
        = filedialogs::getSaveFileName(this, tr("Save sweep"), m_filePath, tr("Sweep files (*.yaml *.yml)"));
    if (path.isEmpty())
        return;
    try {
        writeFileAtomically(path.toStdString(), m_editor->toPlainText().toStdString());
        m_filePath = QFileInfo(path).absoluteFilePath();
    } catch (const std::exception& e) {
        showError(QString::fromStdString(e.what()));
    }
}

void SweepPage::exportChart()
{
    if (m_charts->currentIndex() == 0)
        return;
    const QString path
        = filedialogs::getSaveFileName(this, tr("Export chart"), QString(), tr("PNG image (*.png);;SVG image (*.svg)"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = m_charts->currentWidget() == m_heatmap ? m_heatmap->exportImage(path, &error)
                                                           : m_errorBars->exportImage(path, &error);
    if (!ok)
        showError(error);
}

void SweepPage::exportCsv()
{
    const QString path = filedialogs::getSaveFileName(this, tr("Export trials"), QString(), tr("CSV (*.csv)"));
    QString error;
    if (!path.isEmpty() && !m_trialModel->writeCsv(path, &error))
        showError(error);
}

ReportDialog* SweepPage::openReport()
{
    Store* store = m_workspace->store();
    const qint64 sweepId = m_sweepView->currentIndex().data(IdRole).toLongLong();
    if (!store || sweepId <= 0)
        return nullptr;
    const auto info = store->sweep(sweepId);
    if (!info || info->config.find("arms:") == std::string::npos)
        return nullptr;
    auto* dialog = new ReportDialog(store, m_workspace->path(), sweepId, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The dialog reads the store of the database open now: close it when another one opens.
    connect(m_workspace, &Workspace::aboutToReplace, dialog, &QDialog::close);
    dialog->show();
    return dialog;
}

} // namespace creditlab::ui
