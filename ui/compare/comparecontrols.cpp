#include "ui/compare/comparecontrols.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>

#include "ui/charts/linechart.h"

#include <cmath>

namespace creditlab::ui {

CompareControls::CompareControls(QWidget* parent)
    : QWidget(parent)
    , m_metric(new QComboBox(this))
    , m_grid(new QToolButton(this))
    , m_align(new QComboBox(this))
    , m_group(new QCheckBox(tr("Group seeds (mean ± std)"), this))
    , m_smoothLabel(new QLabel(this))
    , m_smooth(new QSlider(Qt::Horizontal, this))
{
    m_metric->setObjectName(QStringLiteral("compareMetric"));
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_metric->setMinimumContentsLength(14);
    m_grid->setText(tr("Grid"));
    m_grid->setObjectName(QStringLiteral("compareGrid"));
    m_grid->setToolTip(tr("More metrics at once, each in its own chart: one crosshair and one x zoom for all"));
    m_grid->setPopupMode(QToolButton::InstantPopup);
    m_grid->setMenu(new QMenu(m_grid));
    m_align->addItem(tr("Iteration"));
    m_align->addItem(tr("Wall time"));
    m_group->setToolTip(tr("One line per set of runs whose configs differ only in the seed"));
    m_smooth->setRange(0, 99);
    m_smooth->setMaximumWidth(140);
    m_smooth->setMinimumWidth(70);
    m_smooth->setToolTip(tr("Debiased exponential moving average; the raw curve stays faded underneath"));
    m_smoothLabel->setTextFormat(Qt::PlainText);
    m_smooth->setValue(static_cast<int>(std::lround(charts::kDefaultSmoothing * 100.0)));
    showSmoothing(m_smooth->value());
    auto* exportChart = new QPushButton(tr("Export chart…"), this);
    exportChart->setToolTip(tr("PNG or SVG (Ctrl+E)"));
    auto* exportTable = new QPushButton(tr("Export table…"), this);
    exportTable->setToolTip(tr("The table at the chosen iteration as CSV"));

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Metric"), this));
    row->addWidget(m_metric);
    row->addWidget(m_grid);
    row->addWidget(new QLabel(tr("x axis"), this));
    row->addWidget(m_align);
    row->addWidget(m_group);
    row->addWidget(m_smoothLabel);
    row->addWidget(m_smooth);
    row->addStretch(1);
    row->addWidget(exportChart);
    row->addWidget(exportTable);

    connect(m_metric, &QComboBox::currentTextChanged, this, [this](const QString& text) {
        if (!text.isEmpty())
            Q_EMIT metricChosen(text);
    });
    connect(m_align, &QComboBox::currentIndexChanged, this, [this](int index) { Q_EMIT wallTimeChosen(index == 1); });
    connect(m_group, &QCheckBox::toggled, this, &CompareControls::groupSeedsChosen);
    connect(m_smooth, &QSlider::valueChanged, this, [this](int value) {
        showSmoothing(value);
        Q_EMIT smoothingChosen(value / 100.0);
    });
    connect(exportChart, &QPushButton::clicked, this, &CompareControls::exportChartRequested);
    connect(exportTable, &QPushButton::clicked, this, &CompareControls::exportTableRequested);
}

void CompareControls::setMetrics(const QStringList& metrics, const QString& current, const QStringList& grid)
{
    const QSignalBlocker blocker(m_metric);
    QStringList listed;
    for (int i = 0; i < m_metric->count(); ++i)
        listed << m_metric->itemText(i);
    if (listed != metrics) {
        m_metric->clear();
        m_metric->addItems(metrics);
    }
    m_metric->setCurrentIndex(int(metrics.indexOf(current)));
    // The Grid menu: every metric but the current one, checkable. Rebuilt only when the list changes: a live reload
    // must not close it under the mouse, and a tick must not delete the action that sent it.
    QMenu* menu = m_grid->menu();
    const QStringList state = QStringList { current } + metrics;
    if (state != m_gridState) {
        m_gridState = state;
        menu->clear();
        for (const QString& metric : metrics) {
            if (metric == current)
                continue;
            QAction* action = menu->addAction(metric);
            action->setData(metric); // the text may gain a mnemonic '&'
            action->setCheckable(true);
            connect(action, &QAction::toggled, this, [this] {
                QStringList ticked;
                for (QAction* a : m_grid->menu()->actions()) {
                    if (a->isChecked())
                        ticked << a->data().toString();
                }
                Q_EMIT gridMetricsChosen(ticked);
            });
        }
    }
    for (QAction* action : menu->actions()) {
        const QSignalBlocker actionBlocker(action);
        action->setChecked(grid.contains(action->data().toString()));
    }
    m_grid->setEnabled(!menu->isEmpty());
    m_grid->setText(grid.isEmpty() ? tr("Grid") : tr("Grid (%1)").arg(grid.size() + 1));
}

void CompareControls::setWallTime(bool wallTime)
{
    const QSignalBlocker blocker(m_align);
    m_align->setCurrentIndex(wallTime ? 1 : 0);
}

void CompareControls::setGroupSeeds(bool group)
{
    const QSignalBlocker blocker(m_group);
    m_group->setChecked(group);
}

void CompareControls::setSmoothing(double weight)
{
    const QSignalBlocker blocker(m_smooth);
    m_smooth->setValue(int(std::lround(weight * 100.0)));
    showSmoothing(m_smooth->value());
}

double CompareControls::smoothing() const { return m_smooth->value() / 100.0; }

void CompareControls::showSmoothing(int value)
{
    m_smoothLabel->setText(tr("Smoothing %1").arg(QLocale().toString(value / 100.0, 'f', 2)));
}

} // namespace creditlab::ui
