#include "ui/runs/tokenview.h"

#include "ui/common/csvexport.h"
#include "ui/common/sortfilterproxymodel.h"
#include "ui/common/tableviewsetup.h"
#include "ui/runs/tokenmodel.h"

#include <QAction>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace creditlab::ui {

TokenView::TokenView(QWidget* parent)
    : QWidget(parent)
    , m_model(new TokenModel(this))
    , m_proxy(new SortFilterProxyModel(this))
    , m_summary(new QLabel(this))
    , m_trainedOnly(new QCheckBox(tr("Trained tokens only"), this))
    , m_largest(new QPushButton(tr("Largest drift"), this))
    , m_table(new QTableView(this))
{
    m_proxy->setSourceModel(m_model);
    m_summary->setObjectName(QStringLiteral("tokenSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_trainedOnly->setObjectName(QStringLiteral("tokenTrainedOnly"));
    m_trainedOnly->setToolTip(tr("Hide the context tokens (goal, observations, template) and show the loss tokens"));
    m_largest->setObjectName(QStringLiteral("tokenLargestDrift"));
    m_largest->setToolTip(tr("Select the trained token whose current log-prob is furthest from its behaviour "
                             "log-prob (Ctrl+D)"));
    auto* largestShortcut = new QAction(this);
    largestShortcut->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    largestShortcut->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(largestShortcut);
    connect(largestShortcut, &QAction::triggered, this, &TokenView::showLargestDrift);

    setUpTableView(m_table);
    m_table->setObjectName(QStringLiteral("tokenView"));
    m_table->setModel(m_proxy);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // stream order until the user sorts
    addCsvExportAction(m_table, this);
    QHeaderView* header = m_table->horizontalHeader();
    header->setStretchLastSection(false);
    header->setMinimumSectionSize(36);
    for (int c = 0; c < int(TokenModel::Column::Count); ++c)
        header->setSectionResizeMode(
            c, c == int(TokenModel::Column::Text) ? QHeaderView::Stretch : QHeaderView::ResizeToContents);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_summary, 1);
    bar->addWidget(m_trainedOnly);
    bar->addWidget(m_largest);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);

    connect(m_trainedOnly, &QCheckBox::toggled, m_model, &TokenModel::setTrainedOnly);
    connect(m_largest, &QPushButton::clicked, this, &TokenView::showLargestDrift);
    clear();
}

void TokenView::setSegments(std::vector<TokenSegment> segments)
{
    m_model->setSegments(std::move(segments));
    updateSummary();
}

void TokenView::clear() { setSegments({}); }

void TokenView::updateSummary()
{
    const bool any = m_model->tokenCount() > 0;
    m_table->setVisible(any);
    m_trainedOnly->setEnabled(any);
    m_largest->setEnabled(m_model->trainedCount() > 0);
    if (!any) {
        m_summary->setText(tr("No tokens stored for this trajectory. A training run stores the sequences of the first "
                              "rl.store_tokens rollouts of each iteration (8 by default; -1 stores every one); "
                              "imported trajectories, evaluation episodes and runs from before this version have "
                              "none."));
        return;
    }
    QString text = tr("%n token(s)", nullptr, static_cast<int>(m_model->tokenCount()));
    if (m_model->segmentCount() > 1)
        text += tr(" in %n segment(s) (the stream restarted at the context)", nullptr,
            static_cast<int>(m_model->segmentCount()));
    text += tr(" · %n in the loss", nullptr, static_cast<int>(m_model->trainedCount()));
    if (m_model->trainedCount() > 0) {
        text += tr(" · behaviour vs current log-prob: mean |Δ| %1, largest %2")
                    .arg(QString::number(m_model->meanDrift(), 'g', 3), QString::number(m_model->maxDrift(), 'g', 3));
        const auto drifted = m_model->driftedCount();
        text += drifted > 0 ? tr(" · %n token(s) past %1 nats (marked red): the trainer does not see what the "
                                 "sampler saw",
                    nullptr, static_cast<int>(drifted))
                                  .arg(m_model->driftThreshold())
                            : tr(" · no drift past %1 nats").arg(m_model->driftThreshold());
    } else {
        text += tr(" · not trained (its group was filtered out, or the rollout failed)");
    }
    m_summary->setText(text);
}

bool TokenView::selectSourceRow(int row)
{
    if (row < 0)
        return false;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid())
        return false;
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    return true;
}

bool TokenView::showTurn(int turn) { return selectSourceRow(m_model->firstRowOfTurn(turn)); }

bool TokenView::showLargestDrift()
{
    if (m_model->trainedCount() == 0)
        return false;
    if (m_model->rowOfMaxDrift() < 0)
        m_trainedOnly->setChecked(false);
    return selectSourceRow(m_model->rowOfMaxDrift());
}

} // namespace creditlab::ui
