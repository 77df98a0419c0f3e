#include "ui/compare/comparecontrols.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>

#include <cmath>

namespace creditlab::ui {

CompareControls::CompareControls(QWidget* parent)
    : QWidget(parent)
    , m_metric(new QComboBox(this))
    , m_align(new QComboBox(this))
    , m_group(new QCheckBox(tr("Group seeds (mean ± std)"), this))
    , m_smoothLabel(new QLabel(this))
    , m_smooth(new QSlider(Qt::Horizontal, this))
{
    m_metric->setObjectName(QStringLiteral("compareMetric"));
    m_metric->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_metric->setMinimumContentsLength(14);
    m_align->addItem(tr("Iteration"));
    m_align->addItem(tr("Wall time"));
    m_group->setToolTip(tr("One line per set of runs whose configs differ only in the seed"));
    m_smooth->setRange(0, 99);
    m_smooth->setMaximumWidth(140);
    m_smooth->setToolTip(tr("Debiased exponential moving average; the raw curve stays faded underneath"));
    m_smoothLabel->setTextFormat(Qt::PlainText);
    showSmoothing(0);
    auto* exportChart = new QPushButton(tr("Export chart…"), this);
    exportChart->setToolTip(tr("PNG or SVG (Ctrl+E)"));
    auto* exportTable = new QPushButton(tr("Export table…"), this);
    exportTable->setToolTip(tr("The table at the chosen iteration as CSV"));

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Metric"), this));
    row->addWidget(m_metric);
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

void CompareControls::setMetrics(const QStringList& metrics, const QString& current)
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
