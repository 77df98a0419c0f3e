#include "ui/probe/probedialog.h"

#include "ui/charts/errorbarchart.h"
#include "ui/common/csvexport.h"
#include "ui/probe/probetablemodel.h"
#include "ui/common/runcombo.h"
#include "ui/common/textutil.h"
#include "ui/common/filedialogs.h"
#include "ui/shell/workspace.h"

#include <QCheckBox>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace creditlab::ui {

namespace {

constexpr int kProgressSteps = 1000;

/// Runs with a policy: training runs and sweep trials (imports have none).
std::vector<RunInfo> trainingRuns(const std::vector<RunInfo>& runs)
{
    std::vector<RunInfo> out;
    for (const auto& run : runs)
        if (run.kind != RunKind::Import)
            out.push_back(run);
    return out;
}

/// Seconds with two decimals below a minute (feature extraction of small runs takes well under one), else as a
/// duration.
QString formatSeconds(double seconds)
{
    return seconds < 60.0 ? ProbeDialog::tr("%1 s").arg(QLocale().toString(seconds, 'f', 2)) : formatDuration(seconds);
}

} // namespace

ProbeDialog::ProbeDialog(Workspace* workspace, qint64 runId, QWidget* parent)
    : QDialog(parent)
    , m_workspace(workspace)
    , m_job(new ProbeJob(this))
    , m_model(new ProbeTableModel(this))
    , m_wantedRun(runId)
    , m_run(new QComboBox)
    , m_episodes(new QSpinBox)
    , m_seed(new QSpinBox)
    , m_sft(new QCheckBox(tr("SFT policy")))
    , m_start(new QPushButton(tr("&Start")))
    , m_cancel(new QPushButton(tr("&Cancel")))
    , m_export(new QPushButton(tr("&Export CSV…")))
    , m_progress(new QProgressBar)
    , m_phase(new QLabel)
    , m_error(new QLabel)
    , m_summary(new QLabel)
    , m_view(new QTableView)
    , m_chart(new charts::ErrorBarChart)
{
    setWindowTitle(tr("PAIR probes"));
    m_run->setToolTip(tr("The training run whose policy the probes read"));
    m_episodes->setRange(2, 100000);
    m_episodes->setValue(200);
    m_episodes->setToolTip(tr("Household episodes to contaminate (split 80:20 by episode into train and test)"));
    m_seed->setRange(0, std::numeric_limits<int>::max());
    m_seed->setValue(42);
    m_seed->setToolTip(tr("Contamination seed: which turns are corrupted, and how"));
    m_sft->setToolTip(tr("Probe the run's SFT policy even when it has RL checkpoints"));
    m_start->setDefault(true);
    m_start->setToolTip(tr("Build the contaminated data, extract the features, fit and evaluate every probe (Enter)"));
    m_cancel->setAutoDefault(false);
    m_cancel->setToolTip(tr("Stop the computation (Esc)"));
    m_export->setAutoDefault(false);
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    m_phase->setTextFormat(Qt::PlainText);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    QAction* exportAction = addCsvExportAction(m_view, this);
    connect(m_export, &QPushButton::clicked, this, &ProbeDialog::chooseCsvFile);
    exportAction->setEnabled(false);
    connect(m_model, &QAbstractItemModel::modelReset, exportAction,
        [this, exportAction] { exportAction->setEnabled(m_model->rowCount() > 0); });

    m_chart->setTitle(tr("AUROC per probe"));
    m_chart->setAxisTitles(tr("Probe"), tr("AUROC"));
    m_chart->setMinimumHeight(260);
    m_chart->hide(); // until there is a table

    auto* form = new QFormLayout;
    form->addRow(tr("&Run:"), m_run);
    form->addRow(tr("E&pisodes:"), m_episodes);
    form->addRow(tr("S&eed:"), m_seed);
    form->addRow(QString(), m_sft);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_start);
    controls->addWidget(m_cancel);
    controls->addWidget(m_progress, 1);
    auto* results = new QSplitter(Qt::Vertical);
    results->addWidget(m_view);
    results->addWidget(m_chart);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    buttons->addButton(m_export, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &ProbeDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(controls);
    layout->addWidget(m_phase);
    layout->addWidget(m_error);
    layout->addWidget(results, 1);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);
    resize(760, 640);

    connect(m_start, &QPushButton::clicked, this, [this] { start(); });
    connect(m_cancel, &QPushButton::clicked, this, &ProbeDialog::cancel);
    connect(m_job, &ProbeJob::progressed, this, &ProbeDialog::showProgress);
    connect(m_job, &ProbeJob::finished, this, &ProbeDialog::showResult);
    connect(m_workspace, &Workspace::runsChanged, this, &ProbeDialog::reloadRuns);
    connect(m_workspace, &Workspace::opened, this, &ProbeDialog::reloadRuns);
    reloadRuns();
    updateControls();
}

ProbeDialog::~ProbeDialog() = default;

void ProbeDialog::reloadRuns()
{
    const qint64 keep = m_run->count() > 0 ? runId() : m_wantedRun;
    try {
        fillRunCombo(m_run, trainingRuns(m_workspace->runs()), keep);
    } catch (const std::exception& e) {
        showError(tr("Could not read the runs: %1").arg(toQString(e.what())));
    }
    updateControls();
}

bool ProbeDialog::setRunId(qint64 runId)
{
    const int index = m_run->findData(QVariant::fromValue<qint64>(runId));
    if (index < 0)
        return false;
    m_run->setCurrentIndex(index);
    return true;
}

qint64 ProbeDialog::runId() const { return m_run->currentIndex() >= 0 ? m_run->currentData().toLongLong() : 0; }

void ProbeDialog::setEpisodes(int episodes) { m_episodes->setValue(episodes); }

void ProbeDialog::setSeed(int seed) { m_seed->setValue(seed); }

void ProbeDialog::setSftPolicy(bool sft) { m_sft->setChecked(sft); }

learn::ProbeSource ProbeDialog::source() const
{
    learn::ProbeSource source;
    source.database = m_workspace->path().toStdString();
    source.runId = runId();
    source.sftPolicy = m_sft->isChecked();
    return source;
}

learn::ProbeDataOptions ProbeDialog::options() const
{
    learn::ProbeDataOptions options;
    options.episodes = m_episodes->value();
    options.seed = static_cast<std::uint64_t>(m_seed->value());
    return options;
}

bool ProbeDialog::start(QString* error)
{
    QString reason;
    if (m_job->isRunning())
        reason = tr("A probe table is being computed; wait for it or cancel it.");
    else if (!m_workspace->isOpen())
        reason = tr("Open a database first.");
    else if (runId() == 0)
        reason = tr("The database has no training run: train one in the Launch page first.");
    if (!reason.isEmpty()) {
        showError(reason);
        if (error)
            *error = reason;
        return false;
    }
    m_error->hide();
    m_error->clear();
    m_table = {};
    m_model->clear();
    m_chart->clear();
    m_chart->hide();
    m_summary->clear();
    m_progress->setValue(0);
    m_phase->setText(tr("Loading the policy of run %1…").arg(runId()));
    m_tableRun = runId();
    m_job->start(source(), options());
    updateControls();
    return true;
}

void ProbeDialog::cancel()
{
    if (!m_job->isRunning())
        return;
    m_job->cancel();
    m_phase->setText(tr("Cancelling…"));
    m_cancel->setEnabled(false);
}

bool ProbeDialog::isRunning() const { return m_job->isRunning(); }

QString ProbeDialog::summaryText() const { return m_summary->text(); }

QString ProbeDialog::errorText() const { return m_error->isHidden() ? QString() : m_error->text(); }

bool ProbeDialog::exportCsv(const QString& path, QString* error) const
{
    return writeCsvFile(path, modelToCsv(*m_model), error);
}

void ProbeDialog::reject()
{
    if (m_job->isRunning()) {
        cancel();
        return;
    }
    QDialog::reject();
}

void ProbeDialog::closeEvent(QCloseEvent* event)
{
    // Closing the window stops the computation; the job's destructor waits for the engine's next check.
    m_job->cancel();
    QDialog::closeEvent(event);
}

void ProbeDialog::showProgress(const ProbeJobProgress& progress)
{
    if (!m_job->isRunning())
        return;
    m_progress->setValue(static_cast<int>(std::lround(progress.fraction * kProgressSteps)));
    QString phase;
    if (progress.phase == u"data")
        phase = tr("Building contaminated episodes");
    else if (progress.phase == u"features")
        phase = tr("Extracting features");
    else
        phase = tr("Fitting probes");
    QString text = tr("%1: %2 of %3 · %4 elapsed")
                       .arg(phase, QLocale().toString(progress.done), QLocale().toString(progress.total),
                           formatDuration(progress.elapsedSeconds));
    if (progress.etaSeconds >= 0.0)
        text += tr(" · about %1 left").arg(formatDuration(progress.etaSeconds));
    m_phase->setText(text);
}

void ProbeDialog::showResult(const ProbeJobResult& result)
{
    const QString status = probeJobStatusName(result.status);
    m_error->hide(); // e.g. a refused second start meanwhile
    switch (result.status) {
    case ProbeJobResult::Status::Finished: {
        m_table = result.table;
        m_model->setRows(m_table.rows);
        const auto& c = m_table.counts;
        // The test split holds the clean-prefix records and their contaminated-prefix twins; `testContaminated`
        // counts the twins after a corrupted turn (as `creditlab-cli probe table` prints it).
        const qint64 testRecords = m_table.records - c.trainRecords;
        m_summary->setText(
            tr("Policy: %1 · %2 records: train %3; test %4 clean-prefix + %5 contaminated-prefix (%6 "
               "after a corrupted turn), %7 negatives · features %8, data %9")
                .arg(toQString(m_table.policy), QLocale().toString(m_table.records), QLocale().toString(c.trainRecords),
                    QLocale().toString(c.testClean), QLocale().toString(testRecords - c.testClean),
                    QLocale().toString(c.testContaminated), QLocale().toString(c.testNegatives),
                    formatSeconds(m_table.featureSeconds), formatSeconds(m_table.dataSeconds)));
        showChart();
        m_progress->setValue(kProgressSteps);
        m_phase->setText(tr("Done: %n probe(s).", nullptr, static_cast<int>(m_table.rows.size())));
        break;
    }
    case ProbeJobResult::Status::Cancelled:
        m_progress->setValue(0);
        m_phase->setText(tr("Cancelled."));
        break;
    case ProbeJobResult::Status::Failed:
        m_progress->setValue(0);
        m_phase->clear();
        showError(tr("Could not compute the probe table of run %1: %2").arg(m_tableRun).arg(result.error));
        break;
    }
    updateControls();
    Q_EMIT computationFinished(status, result.error);
}

void ProbeDialog::showError(const QString& message)
{
    m_error->setText(message);
    m_error->show();
}

void ProbeDialog::showChart()
{
    m_chart->clear();
    QStringList names;
    std::vector<charts::ErrorBarChart::Point> clean;
    std::vector<charts::ErrorBarChart::Point> contaminated;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const qint64 contaminatedRecords = m_table.records - m_table.counts.trainRecords - m_table.counts.testClean;
    for (std::size_t i = 0; i < m_table.rows.size(); ++i) {
        const auto& row = m_table.rows[i];
        names.append(toQString(row.name));
        const double x = static_cast<double>(i);
        // AUROC is undefined where a split has one class only: leave that point out.
        if (std::isfinite(row.aurocClean))
            clean.push_back({ x, row.aurocClean, nan, static_cast<int>(m_table.counts.testClean) });
        if (std::isfinite(row.aurocContaminated))
            contaminated.push_back({ x, row.aurocContaminated, nan, static_cast<int>(contaminatedRecords) });
    }
    m_chart->setVisible(!m_table.rows.empty());
    m_chart->setCategories(names);
    m_chart->addSeries(tr("AUROC clean"), clean);
    m_chart->addSeries(tr("AUROC contaminated"), contaminated);
}

void ProbeDialog::updateControls()
{
    const bool running = m_job->isRunning();
    const bool haveRun = m_run->count() > 0;
    m_start->setEnabled(!running && haveRun);
    m_cancel->setEnabled(running);
    m_run->setEnabled(!running);
    m_episodes->setEnabled(!running);
    m_seed->setEnabled(!running);
    m_sft->setEnabled(!running);
    m_export->setEnabled(!running && m_model->rowCount() > 0);
    if (!haveRun && !running)
        m_phase->setText(tr("The database has no training run: train one in the Launch page first."));
}

void ProbeDialog::chooseCsvFile()
{
    QString path = filedialogs::getSaveFileName(
        this, tr("Export Probe Table"), tr("probe-table-run-%1.csv").arg(m_tableRun), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".csv");
    QString error;
    if (!exportCsv(path, &error))
        QMessageBox::warning(this, tr("Cannot export the table"), error);
}

} // namespace creditlab::ui
