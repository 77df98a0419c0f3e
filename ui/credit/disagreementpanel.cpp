#include "ui/credit/disagreementpanel.h"

#include "ui/common/sortfilterproxymodel.h"
#include "ui/common/tableviewsetup.h"
#include "ui/credit/disagreementmodels.h"
#include "ui/heatmap/heatmapmath.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace creditlab::ui {

DisagreementPanel::DisagreementPanel(QWidget* parent)
    : QWidget(parent)
    , m_pairs(new PairDisagreementModel(this))
    , m_turns(new DisagreeingTurnModel(this))
    , m_pairProxy(new SortFilterProxyModel(this))
    , m_turnProxy(new SortFilterProxyModel(this))
    , m_pairView(new QTableView(this))
    , m_turnView(new QTableView(this))
    , m_turnTitle(new QLabel(this))
{
    setObjectName(QStringLiteral("disagreementPanel"));
    m_pairProxy->setSourceModel(m_pairs);
    m_turnProxy->setSourceModel(m_turns);
    m_pairView->setObjectName(QStringLiteral("disagreementPairs"));
    m_turnView->setObjectName(QStringLiteral("disagreementTurns"));
    for (QTableView* view : { m_pairView, m_turnView }) {
        setUpTableView(view);
        view->setMinimumHeight(3 * view->verticalHeader()->defaultSectionSize());
    }
    m_pairView->setModel(m_pairProxy);
    m_turnView->setModel(m_turnProxy);
    // The most disagreeing pair and the largest gap first.
    m_pairView->sortByColumn(int(PairDisagreementModel::Column::Share), Qt::DescendingOrder);
    m_turnView->sortByColumn(int(DisagreeingTurnModel::Column::Gap), Qt::DescendingOrder);
    m_pairView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_pairView->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch); // the method names
    m_pairView->horizontalHeader()->setStretchLastSection(false);
    m_turnView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents); // ids in full
    m_turnView->setToolTip(tr("Click a turn to find it in the heatmap; double-click to open it"));
    auto* title = new QLabel(tr("Sign disagreement per pair of methods:"), this);
    title->setToolTip(tr("Among the turns where both methods are non-zero and finite; pairs without such turns are "
                         "left out"));
    title->setWordWrap(true);
    m_turnTitle->setTextFormat(Qt::PlainText);
    m_turnTitle->setWordWrap(true);

    // Side by side: under the heatmap there is more width than height.
    auto* pairs = new QWidget(this);
    auto* pairsLayout = new QVBoxLayout(pairs);
    pairsLayout->setContentsMargins(0, 0, 0, 0);
    pairsLayout->addWidget(title);
    pairsLayout->addWidget(m_pairView, 1);
    auto* turns = new QWidget(this);
    auto* turnsLayout = new QVBoxLayout(turns);
    turnsLayout->setContentsMargins(0, 0, 0, 0);
    turnsLayout->addWidget(m_turnTitle);
    turnsLayout->addWidget(m_turnView, 1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(pairs, 2);
    layout->addWidget(turns, 3); // five columns to the pairs' three

    connect(m_pairView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) {
            showPair(current.isValid() ? m_pairProxy->mapToSource(current).row() : -1);
        });
    connect(m_turnView, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (const int row = currentTurnRow(index); row >= 0) {
            const auto& t = m_turns->turns()[static_cast<std::size_t>(row)];
            Q_EMIT turnSelected(t.row, t.turn);
        }
    });
    connect(m_turnView, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (const int row = currentTurnRow(index); row >= 0 && m_data) {
            const auto& t = m_turns->turns()[static_cast<std::size_t>(row)];
            Q_EMIT turnActivated(m_data->rows[t.row].rowId, t.turn);
        }
    });
    setData(nullptr);
}

int DisagreementPanel::currentTurnRow(const QModelIndex& proxyIndex) const
{
    const QModelIndex source = m_turnProxy->mapToSource(proxyIndex);
    return source.isValid() ? source.row() : -1;
}

void DisagreementPanel::setData(heatmap::HeatmapDataPtr data, int first, int second)
{
    m_data = std::move(data);
    std::vector<int> methods;
    if (m_data)
        for (std::size_t m = 0; m < m_data->methods.size(); ++m)
            methods.push_back(static_cast<int>(m));
    std::vector<heatmap::PairDisagreement> pairs;
    if (m_data)
        for (auto& p : heatmap::pairDisagreements(*m_data, methods))
            if (p.compared > 0) // e.g. GRPO's all-zero credits on a run without successes: nothing to compare
                pairs.push_back(p);
    m_pairs->setPairs(m_data.get(), std::move(pairs));
    m_turns->setTurns(nullptr, -1, -1, {});
    m_turnTitle->setText(m_data && m_data->methods.size() < 2 ? tr("One method: nothing to compare.") : QString());
    if (m_pairs->rowCount() == 0)
        return;
    if (m_pairs->rowOf(first, second) >= 0)
        selectPair(first, second);
    else
        m_pairView->setCurrentIndex(m_pairProxy->index(0, 0));
}

void DisagreementPanel::selectPair(int a, int b)
{
    const int row = m_pairs->rowOf(a, b);
    if (row < 0)
        return;
    const QModelIndex index = m_pairProxy->mapFromSource(m_pairs->index(row, 0));
    if (index == m_pairView->currentIndex())
        showPair(row); // the same row: refresh, since currentRowChanged will not fire
    else
        m_pairView->setCurrentIndex(index);
    m_pairView->scrollTo(index);
}

void DisagreementPanel::showPair(int pairRow)
{
    if (!m_data || pairRow < 0 || pairRow >= m_pairs->rowCount()) {
        m_turns->setTurns(nullptr, -1, -1, {});
        return;
    }
    const auto& pair = m_pairs->pairs()[static_cast<std::size_t>(pairRow)];
    auto turns = heatmap::topDisagreements(*m_data, pair.a, pair.b, kTopTurns);
    const QString a = QString::fromStdString(m_data->methods[static_cast<std::size_t>(pair.a)]);
    const QString b = QString::fromStdString(m_data->methods[static_cast<std::size_t>(pair.b)]);
    m_turnTitle->setText(turns.empty() ? tr("%1 and %2 never disagree in sign here.").arg(a, b)
                                       : tr("Where %1 and %2 disagree most:").arg(a, b));
    m_turnTitle->setToolTip(tr("Turns with opposite signs, the largest |difference| first"));
    m_turns->setTurns(m_data, pair.a, pair.b, std::move(turns));
}

} // namespace creditlab::ui
