#include "ui/compare/comparegrid.h"

#include "ui/charts/chartgroup.h"
#include "ui/charts/linechart.h"

#include <QGridLayout>
#include <QScrollArea>
#include <QVBoxLayout>

namespace creditlab::ui {

namespace {
constexpr int kColumns = 2;
constexpr int kGridChartHeight = 260; // with more than one chart; one chart takes the whole area
} // namespace

CompareGrid::CompareGrid(QWidget* parent)
    : QWidget(parent)
    , m_grid(nullptr)
    , m_group(new charts::ChartGroup(this))
    , m_main(nullptr)
    , m_smoothing(charts::kDefaultSmoothing)
{
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* content = new QWidget(scroll);
    m_grid = new QGridLayout(content);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_main = new charts::LineChart(content);
    m_main->setObjectName(QStringLiteral("compareChart"));
    m_main->setSmoothing(m_smoothing);
    m_group->add(m_main);
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    relayout();
}

void CompareGrid::setMetrics(const QStringList& metrics)
{
    const QStringList oldExtra = m_metrics.mid(1);
    m_metrics = metrics;
    const QStringList extra = metrics.mid(1);
    QList<charts::LineChart*> charts;
    for (const QString& metric : extra) {
        const qsizetype old = oldExtra.indexOf(metric);
        charts::LineChart* chart = old >= 0 ? m_extra[old] : nullptr;
        if (!chart) {
            chart = new charts::LineChart(m_main->parentWidget());
            chart->setObjectName(QStringLiteral("compareChart:") + metric);
            chart->setSmoothing(m_smoothing);
            chart->setLegendVisible(false); // the main chart's legend names the runs
            m_group->add(chart);
        }
        charts << chart;
    }
    for (charts::LineChart* chart : std::as_const(m_extra)) {
        if (!charts.contains(chart)) {
            m_group->remove(chart);
            chart->deleteLater();
            chart->hide();
        }
    }
    m_extra = charts;
    relayout();
}

void CompareGrid::fill(const std::vector<const compare::RunSeries*>& runs, CompareChartOptions options,
    const std::function<QColor(qint64 runId)>& colorOf)
{
    const QString xTitle = options.alignment == compare::Alignment::WallTime ? tr("Wall time (s)") : tr("Iteration");
    for (int i = 0; i <= m_extra.size(); ++i) {
        charts::LineChart* chart = i == 0 ? m_main : m_extra[i - 1];
        const QString metric = m_metrics.value(i);
        chart->setTitle(metric);
        chart->setAxisTitles(xTitle, i == 0 ? metric : QString());
        options.metric = metric.toStdString();
        fillCompareChart(*chart, runs, options, colorOf);
    }
    m_group->syncXBounds();
}

void CompareGrid::setSmoothing(double weight)
{
    m_smoothing = weight;
    m_main->setSmoothing(weight);
    for (charts::LineChart* chart : std::as_const(m_extra))
        chart->setSmoothing(weight);
}

void CompareGrid::resetZoom()
{
    m_main->resetZoom();
    for (charts::LineChart* chart : std::as_const(m_extra))
        chart->resetZoom();
}

charts::LineChart* CompareGrid::chart(const QString& metric) const
{
    const qsizetype i = m_metrics.indexOf(metric);
    return i < 0 ? nullptr : i == 0 ? m_main : m_extra.value(i - 1);
}

void CompareGrid::relayout()
{
    m_grid->removeWidget(m_main);
    for (charts::LineChart* chart : std::as_const(m_extra))
        m_grid->removeWidget(chart);
    const bool single = m_extra.isEmpty();
    m_main->setMinimumHeight(single ? 180 : kGridChartHeight);
    m_grid->addWidget(m_main, 0, 0);
    for (int i = 0; i < m_extra.size(); ++i) {
        m_extra[i]->setMinimumHeight(kGridChartHeight);
        m_grid->addWidget(m_extra[i], (i + 1) / kColumns, (i + 1) % kColumns);
    }
}

} // namespace creditlab::ui
