#include "ui/compare/compareaddrunsdialog.h"

#include "ui/common/itemroles.h"
#include "ui/runs/runmodel.h"
#include "ui/common/sortfilterproxymodel.h"
#include "ui/common/tableviewsetup.h"
#include "ui/common/textutil.h"
#include "ui/shell/workspace.h"

#include <QDialogButtonBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

namespace creditlab::ui {

CompareAddRunsDialog::CompareAddRunsDialog(Workspace* workspace, const QList<qint64>& alreadyCompared, QWidget* parent)
    : QDialog(parent)
    , m_model(new RunModel(this))
    , m_proxy(new SortFilterProxyModel(this))
    , m_filter(new QLineEdit(this))
    , m_view(new QTableView(this))
{
    setWindowTitle(tr("Add runs to compare"));
    resize(720, 420);

    std::vector<RunInfo> runs;
    QHash<qint64, QString> pretrained;
    QString error;
    try {
        runs = workspace->runs();
        pretrained = workspace->pretrainedModels();
    } catch (const std::exception& e) {
        error = toQString(e.what());
    }
    std::erase_if(runs, [&](const RunInfo& run) { return alreadyCompared.contains(run.id); });
    m_model->setRuns(std::move(runs), std::move(pretrained));
    m_proxy->setSourceModel(m_model);

    m_filter->setObjectName(QStringLiteral("compareAddFilter"));
    m_filter->setPlaceholderText(tr("Filter runs by name, kind, status…"));
    m_filter->setClearButtonEnabled(true);
    setUpTableView(m_view);
    m_view->setObjectName(QStringLiteral("compareAddView"));
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setModel(m_proxy);
    m_view->sortByColumn(int(RunModel::Column::Id), Qt::DescendingOrder);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Add"));
    buttons->button(QDialogButtonBox::Ok)->setEnabled(false);

    auto* layout = new QVBoxLayout(this);
    auto* hint = new QLabel(error.isEmpty() ? tr("Select one or more runs (Ctrl/Shift+click).") : error, this);
    hint->setTextFormat(Qt::PlainText);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(buttons);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &SortFilterProxyModel::setFilterText);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
        [this, buttons] { buttons->button(QDialogButtonBox::Ok)->setEnabled(!selectedRunIds().isEmpty()); });
    connect(m_view, &QTableView::doubleClicked, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QList<qint64> CompareAddRunsDialog::selectedRunIds() const
{
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    QList<qint64> ids;
    for (const QModelIndex& index : rows)
        ids << index.data(IdRole).toLongLong();
    return ids;
}

bool CompareAddRunsDialog::selectRun(qint64 runId)
{
    const int row = m_model->rowOfRun(runId);
    const QModelIndex index = row < 0 ? QModelIndex() : m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid())
        return false;
    m_view->selectionModel()->select(index, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    return true;
}

} // namespace creditlab::ui
