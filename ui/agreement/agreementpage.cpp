#include "ui/agreement/agreementpage.h"

#include "ui/agreement/agreementmodel.h"
#include "ui/charts/heatmapchart.h"
#include "ui/common/csvexport.h"
#include "ui/common/filedialogs.h"
#include "ui/common/sortfilterproxymodel.h"
#include "ui/common/tableviewsetup.h"
#include "ui/common/textutil.h"
#include "ui/shell/workspace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListView>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

namespace creditlab::ui {

namespace {

QStringList roleLabels()
{
    QStringList out;
    for (const Role r : judge::kRoles)
        out << toQString(std::string(roleName(r)));
    return out;
}

} // namespace

AgreementPage::AgreementPage(Workspace* workspace, QWidget* parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_runCombo(new QComboBox(this))
    , m_referenceCombo(new QComboBox(this))
    , m_sourcesModel(new QStandardItemModel(this))
    , m_sourcesView(new QListView(this))
    , m_tableModel(new AgreementTableModel(this))
    , m_tableProxy(new SortFilterProxyModel(this))
    , m_tableView(new QTableView(this))
    , m_matrix(new charts::HeatmapChart(this))
    , m_turnsModel(new CellTurnsModel(this))
    , m_turnsView(new QTableView(this))
    , m_alphaLabel(new QLabel(this))
    , m_status(new QLabel(this))
    , m_rowShares(new QCheckBox(tr("Row shares"), this))
{
    m_sourcesView->setModel(m_sourcesModel);
    m_sourcesView->setObjectName(QStringLiteral("agreementSourcesView"));
    m_tableProxy->setSourceModel(m_tableModel);
    setUpTableView(m_tableView);
    m_tableView->setObjectName(QStringLiteral("agreementTableView"));
    m_tableView->setModel(m_tableProxy);
    m_tableView->sortByColumn(-1, Qt::AscendingOrder);
    setUpTableView(m_turnsView);
    m_turnsView->setObjectName(QStringLiteral("agreementTurnsView"));
    m_turnsView->setSortingEnabled(false); // turn order
    m_turnsView->setModel(m_turnsModel);
    m_matrix->setObjectName(QStringLiteral("agreementMatrix"));
    m_matrix->installEventFilter(this);
    m_alphaLabel->setTextFormat(Qt::PlainText);
    m_status->setTextFormat(Qt::PlainText);

    m_rowShares->setObjectName(QStringLiteral("agreementRowShares"));
    m_rowShares->setToolTip(tr("Show each reference role's row as shares of its turns (each row sums to 1) instead "
                               "of counts"));
    auto* exportTable = new QPushButton(tr("Export table…"), this);
    auto* exportMatrix = new QPushButton(tr("Export matrix…"), this);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(new QLabel(tr("Run"), left));
    leftLayout->addWidget(m_runCombo);
    leftLayout->addWidget(new QLabel(tr("Reference"), left));
    leftLayout->addWidget(m_referenceCombo);
    leftLayout->addWidget(new QLabel(tr("Compared sources"), left));
    leftLayout->addWidget(m_sourcesView, 1);
    leftLayout->addWidget(m_alphaLabel);
    leftLayout->addWidget(m_status);

    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_rowShares);
    buttons->addStretch(1);
    buttons->addWidget(exportTable);
    buttons->addWidget(exportMatrix);
    topLayout->addWidget(m_tableView, 1);
    topLayout->addLayout(buttons);
    auto* bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(m_matrix);
    bottom->addWidget(m_turnsView);
    bottom->setStretchFactor(1, 1);
    auto* centre = new QSplitter(Qt::Vertical, this);
    centre->addWidget(top);
    centre->addWidget(bottom);
    centre->setStretchFactor(1, 2);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(left);
    splitter->addWidget(centre);
    splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, &AgreementPage::onWorkerFinished);
    connect(&m_intervalWatcher, &QFutureWatcher<Intervals>::finished, this, &AgreementPage::onIntervalsFinished);
    connect(m_rowShares, &QCheckBox::toggled, this, [this] { rebuildMatrix(); });
    connect(m_runCombo, &QComboBox::activated, this, [this](int i) { setRun(m_runCombo->itemData(i).toLongLong()); });
    connect(
        m_referenceCombo, &QComboBox::activated, this, [this](int i) { setReference(m_referenceCombo->itemText(i)); });
    connect(m_sourcesModel, &QStandardItemModel::itemChanged, this, [this] {
        if (!m_updating)
            recompute();
    });
    connect(m_tableView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            if (!m_updating && current.isValid())
                showPair(m_tableProxy->index(current.row(), 0).data().toString());
        });
    connect(m_matrix, &charts::HeatmapChart::cellHovered, this, [this](int row, int column) {
        m_hoverRow = row;
        m_hoverColumn = column;
    });
    connect(m_turnsView, &QAbstractItemView::activated, this, [this](const QModelIndex& index) {
        const auto& e = m_turnsModel->entries()[std::size_t(index.row())];
        Q_EMIT turnActivated(e.turn.trajectoryRowId, e.turn.turn);
    });
    connect(exportTable, &QPushButton::clicked, this, &AgreementPage::exportTableInteractive);
    connect(exportMatrix, &QPushButton::clicked, this, &AgreementPage::exportMatrixInteractive);
    connect(m_workspace, &Workspace::aboutToReplace, this, [this] {
        ++m_generation; // a result still to come belongs to the old database
        m_pending = false;
        m_data.reset();
        refreshSourceControls();
    });
    connect(m_workspace, &Workspace::opened, this, [this] { setRun(-1); });
    connect(m_workspace, &Workspace::runsChanged, this, &AgreementPage::reload);
    // Labels this window gives (Annotate): reloaded now when the page is on screen, else when it next appears, so
    // that labelling at full speed does not start a load per key.
    connect(m_workspace, &Workspace::labelsChanged, this, [this] {
        if (isVisible())
            reload();
        else
            m_labelsStale = true;
    });
    if (m_workspace->isOpen())
        setRun(-1);
    else
        refreshSourceControls();
}

AgreementPage::~AgreementPage()
{
    m_watcher.waitForFinished();
    m_intervalWatcher.waitForFinished();
}

void AgreementPage::setRun(qint64 runId)
{
    m_requestedRun = runId;
    reload();
}

qint64 AgreementPage::run() const { return m_data ? m_data->runId : 0; }

void AgreementPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_labelsStale)
        reload();
}

void AgreementPage::reload()
{
    m_labelsStale = false;
    if (!m_workspace->isOpen())
        return;
    ++m_generation;
    m_status->setText(tr("Loading labels…"));
    if (m_watcher.isRunning())
        m_pending = true; // started when the running one ends
    else
        startWorker();
}

void AgreementPage::startWorker()
{
    m_pending = false;
    const quint64 generation = m_generation;
    const std::string path = QFile::encodeName(m_workspace->path()).toStdString();
    const qint64 runId = m_requestedRun;
    m_watcher.setFuture(QtConcurrent::run([generation, path, runId] {
        return Outcome { generation, loadAgreement(path, runId) };
    }));
}

void AgreementPage::onWorkerFinished()
{
    const Outcome outcome = m_watcher.result();
    if (outcome.generation == m_generation) {
        onLoaded(outcome.data);
        return;
    }
    if (m_pending)
        startWorker(); // a newer request came in meanwhile; this result is stale
}

void AgreementPage::onLoaded(std::shared_ptr<const AgreementLoad> data)
{
    if (!data->error.isEmpty()) {
        Q_EMIT errorOccurred(data->error);
        m_status->setText(data->error);
        Q_EMIT loaded();
        return;
    }
    m_data = std::move(data);
    m_requestedRun = m_data->runId; // a reload keeps this run
    m_alpha = judge::alphaAcrossSources(m_data->labels);
    refreshSourceControls();
    Q_EMIT loaded();
}

QStringList AgreementPage::sources() const
{
    QStringList out;
    if (m_data)
        for (const auto& s : m_data->labels.sources)
            out << toQString(s);
    return out;
}

void AgreementPage::refreshSourceControls()
{
    m_updating = true;
    m_runCombo->clear();
    m_runCombo->addItem(tr("All runs"), qint64(0));
    if (m_data)
        for (const RunInfo& r : m_data->labelledRuns)
            m_runCombo->addItem(tr("#%1 %2").arg(r.id).arg(toQString(r.name)), qint64(r.id));
    m_runCombo->setCurrentIndex(std::max(0, m_runCombo->findData(run())));

    const QStringList names = sources();
    const QStringList wasCompared = compared();
    QStringList wasListed;
    for (int r = 0; r < m_sourcesModel->rowCount(); ++r)
        wasListed << m_sourcesModel->item(r)->text();
    if (!names.contains(m_reference)) {
        // A human annotator, else an oracle, else the first source.
        const auto human = std::find_if(
            names.begin(), names.end(), [](const QString& s) { return s.startsWith(QStringLiteral("human:")); });
        const auto oracle = std::find_if(
            names.begin(), names.end(), [](const QString& s) { return s.contains(QStringLiteral("oracle")); });
        m_reference = human != names.end() ? *human : oracle != names.end() ? *oracle : names.value(0);
    }
    m_referenceCombo->clear();
    m_referenceCombo->addItems(names);
    m_referenceCombo->setCurrentIndex(int(names.indexOf(m_reference)));
    m_sourcesModel->clear();
    for (const QString& name : names) {
        auto* item = new QStandardItem(name);
        item->setCheckable(true);
        item->setEditable(false);
        // A reload keeps the choice; new sources start checked, except copies of stored labels
        // (turn:judge:X next to judge:X: comparing them says nothing).
        const bool on = wasListed.contains(name)
            ? wasCompared.contains(name)
            : !judge::mirrorsStoredSource(name.toStdString(), m_data->labels.sources);
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        m_sourcesModel->appendRow(item);
    }
    m_updating = false;
    const auto& a = m_alpha;
    m_alphaLabel->setText(!m_data || !a.result || !a.result->alpha
            ? tr("Krippendorff's α: n/a")
            : tr("Krippendorff's α across %1: %2 (%n unit(s))", nullptr, int(a.result->units))
                  .arg(a.overHumans ? tr("%1 human annotators").arg(a.coders.size())
                                    : tr("%1 label sources").arg(a.coders.size()))
                  .arg(QString::number(*a.result->alpha, 'f', 3)));
    m_status->setText(m_data ? tr("%n turn(s)", nullptr, int(m_data->labels.turns.size())) : QString());
    recompute();
}

void AgreementPage::setReference(const QString& source)
{
    if (!sources().contains(source))
        return;
    m_reference = source;
    m_referenceCombo->setCurrentIndex(int(sources().indexOf(source)));
    recompute();
}

QString AgreementPage::reference() const { return m_reference; }

void AgreementPage::setCompared(const QStringList& wanted)
{
    m_updating = true;
    for (int r = 0; r < m_sourcesModel->rowCount(); ++r) {
        QStandardItem* item = m_sourcesModel->item(r);
        item->setCheckState(wanted.contains(item->text()) ? Qt::Checked : Qt::Unchecked);
    }
    m_updating = false;
    recompute();
}

QStringList AgreementPage::compared() const
{
    QStringList out;
    for (int r = 0; r < m_sourcesModel->rowCount(); ++r)
        if (m_sourcesModel->item(r)->checkState() == Qt::Checked)
            out << m_sourcesModel->item(r)->text();
    return out;
}

void AgreementPage::recompute()
{
    std::vector<AgreementRow> rows;
    if (m_data) {
        std::vector<std::string> others;
        for (const QString& s : compared())
            others.push_back(s.toStdString());
        rows = computeAgreement(m_data->labels, m_reference.toStdString(), others);
    }
    m_tableModel->setRows(std::move(rows));
    startIntervals();
    const auto& r = m_tableModel->rows();
    const bool keep
        = std::any_of(r.begin(), r.end(), [this](const AgreementRow& x) { return toQString(x.source) == m_shown; });
    showPair(keep ? m_shown : r.empty() ? QString() : toQString(r.front().source));
}

void AgreementPage::showPair(const QString& source)
{
    m_shown = source;
    m_updating = true;
    for (int row = 0; row < m_tableProxy->rowCount(); ++row)
        if (m_tableProxy->index(row, 0).data().toString() == source)
            m_tableView->selectionModel()->setCurrentIndex(
                m_tableProxy->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_updating = false;
    rebuildMatrix();
    m_turnsModel->setEntries({}, m_reference, m_shown);
}

void AgreementPage::rebuildMatrix()
{
    const auto& rows = m_tableModel->rows();
    const auto it = std::find_if(
        rows.begin(), rows.end(), [this](const AgreementRow& x) { return toQString(x.source) == m_shown; });
    if (it == rows.end()) {
        m_matrix->setTitle(matrixTitle());
        m_matrix->setData({}, {}, {});
        return;
    }
    std::vector<double> values;
    if (rowShares()) {
        values = ui::rowShares(it->result.confusion);
        m_matrix->setValueRange(0.0, 1.0);
    } else {
        for (const auto& row : it->result.confusion)
            for (const std::int64_t count : row)
                values.push_back(double(count));
        const double nan = std::numeric_limits<double>::quiet_NaN();
        m_matrix->setValueRange(nan, nan);
    }
    m_matrix->setTitle(matrixTitle());
    m_matrix->setAxisTitles(m_shown, m_reference);
    m_matrix->setData(roleLabels(), roleLabels(), std::move(values));
}

QString AgreementPage::matrixTitle() const
{
    const auto& rows = m_tableModel->rows();
    const auto it = std::find_if(
        rows.begin(), rows.end(), [this](const AgreementRow& x) { return toQString(x.source) == m_shown; });
    if (it == rows.end())
        return tr("No pair to compare");
    const auto number = [](std::optional<double> v) { return v ? QString::number(*v, 'f', 3) : tr("n/a"); };
    QString kappa = tr("κ %1").arg(number(it->result.kappa));
    if (it->kappaInterval && it->kappaInterval->low)
        kappa += tr(" [%1, %2]").arg(number(it->kappaInterval->low), number(it->kappaInterval->high));
    else if (!it->kappaInterval)
        kappa += tr(" […]");
    return tr("%1 (rows) vs %2 (columns) · %3%4")
        .arg(m_reference, m_shown, kappa, rowShares() ? tr(" · row shares") : QString());
}

void AgreementPage::setRowShares(bool shares) { m_rowShares->setChecked(shares); }

bool AgreementPage::rowShares() const { return m_rowShares->isChecked(); }

void AgreementPage::startIntervals()
{
    ++m_intervalGeneration;
    if (m_tableModel->rows().empty() || !m_data) {
        m_intervalPending = false;
        return;
    }
    if (m_intervalWatcher.isRunning()) {
        m_intervalPending = true; // started when the running one ends
        return;
    }
    m_intervalPending = false;
    std::vector<std::string> sources;
    for (const AgreementRow& r : m_tableModel->rows())
        sources.push_back(r.source);
    // Values only: the immutable load, the names. The rows are exactly computeAgreement's, so the order matches.
    m_intervalWatcher.setFuture(QtConcurrent::run(
        [generation = m_intervalGeneration, data = m_data, reference = m_reference.toStdString(), sources] {
            return Intervals { generation, computeKappaIntervals(data->labels, reference, sources) };
        }));
}

void AgreementPage::onIntervalsFinished()
{
    const Intervals result = m_intervalWatcher.result();
    if (result.generation == m_intervalGeneration) {
        m_tableModel->setKappaIntervals(result.intervals);
        m_matrix->setTitle(matrixTitle());
        Q_EMIT kappaIntervalsReady();
        return;
    }
    if (m_intervalPending)
        startIntervals(); // the table changed meanwhile; this result is stale
}

void AgreementPage::selectCell(Role reference, Role other)
{
    if (!m_data || m_shown.isEmpty())
        return;
    const std::vector<std::size_t> indices
        = cellTurns(m_data->labels, m_reference.toStdString(), m_shown.toStdString(), reference, other);
    std::vector<judge::TurnRef> refs;
    for (const std::size_t i : indices)
        refs.push_back(m_data->labels.turns[i]);
    std::vector<judge::TurnText> texts(refs.size());
    try {
        if (m_workspace->store())
            texts = judge::turnTexts(*m_workspace->store(), refs);
    } catch (const std::exception& e) {
        Q_EMIT errorOccurred(tr("Cannot read the turns: %1").arg(toQString(e.what())));
    }
    std::vector<CellTurnsModel::Entry> entries;
    for (std::size_t k = 0; k < refs.size(); ++k)
        entries.push_back({ refs[k], toQString(texts[k].trajectoryId), toQString(texts[k].action), reference, other });
    m_turnsModel->setEntries(std::move(entries), m_reference, m_shown);
}

bool AgreementPage::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_matrix && event->type() == QEvent::MouseButtonRelease) {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        if (mouse->button() == Qt::LeftButton) {
            // The chart reports cells on hover only: forget its hover, then let it place this position.
            m_hoverRow = m_hoverColumn = -1;
            QEvent leave(QEvent::Leave);
            QCoreApplication::sendEvent(m_matrix, &leave);
            QMouseEvent move(QEvent::MouseMove, mouse->position(), mouse->globalPosition(), Qt::NoButton, Qt::NoButton,
                mouse->modifiers());
            QCoreApplication::sendEvent(m_matrix, &move);
            if (m_hoverRow >= 0 && m_hoverColumn >= 0)
                selectCell(judge::kRoles[std::size_t(m_hoverRow)], judge::kRoles[std::size_t(m_hoverColumn)]);
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool AgreementPage::exportTableCsv(const QString& path, QString* error)
{
    return writeCsvFile(path, modelToCsv(*m_tableProxy), error);
}

bool AgreementPage::exportMatrix(const QString& path, QString* error) { return m_matrix->exportImage(path, error); }

void AgreementPage::exportTableInteractive()
{
    const QString path
        = filedialogs::getSaveFileName(this, tr("Export Agreement Table"), QString(), tr("CSV files (*.csv)"));
    QString error;
    if (!path.isEmpty() && !exportTableCsv(path, &error))
        QMessageBox::warning(this, tr("Export Failed"), error);
}

void AgreementPage::exportMatrixInteractive()
{
    const QString path = filedialogs::getSaveFileName(
        this, tr("Export Confusion Matrix"), QString(), tr("PNG images (*.png);;SVG images (*.svg)"));
    QString error;
    if (!path.isEmpty() && !exportMatrix(path, &error))
        QMessageBox::warning(this, tr("Export Failed"), error);
}

} // namespace creditlab::ui
