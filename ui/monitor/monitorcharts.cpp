#include "ui/monitor/monitorcharts.h"

#include "core/model/vocabulary.h"
#include "ui/charts/chartgroup.h"
#include "ui/charts/colours.h"
#include "ui/charts/linechart.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace creditlab::ui {

namespace {

constexpr int kColumns = 3;
constexpr int kNumberColumns = 4; // name/value pairs per row of the panel
constexpr int kChartHeight = 250;

/// Learning metrics first, bookkeeping last (metricnames::rank).
bool rankedBefore(const QString& a, const QString& b)
{
    const int ra = metricnames::rank(a.toStdString()), rb = metricnames::rank(b.toStdString());
    return ra != rb ? ra < rb : a < b;
}

QString formatNumber(const QString& metric, double value)
{
    // Counts in full ("152,530 tokens", not 1.5253e+05); other values to 4 digits, as the charts' read-out.
    const bool count = std::isfinite(value) && value == std::round(value) && std::abs(value) < 1e15;
    const QString text = count ? QLocale().toString(static_cast<qint64>(value)) : QLocale().toString(value, 'g', 4);
    return metric.startsWith(QLatin1String("time/")) ? MonitorCharts::tr("%1 s").arg(text) : text;
}

/// Lays `widgets` out `columns` to a row, all of them removed from `grid` first.
void fillGrid(QGridLayout* grid, const QList<QWidget*>& all, const QList<QWidget*>& shown, int columns)
{
    for (QWidget* w : all)
        grid->removeWidget(w);
    int slot = 0;
    for (QWidget* w : shown) {
        grid->addWidget(w, slot / columns, slot % columns);
        ++slot;
    }
}

} // namespace

MonitorCharts::MonitorCharts(QWidget* parent)
    : QWidget(parent)
    , m_scroll(new QScrollArea(this))
    , m_numbersBox(new QGroupBox(tr("Single values"), this))
    , m_numbersGrid(new QGridLayout(m_numbersBox))
    , m_sftTitle(new QLabel(tr("SFT, per step"), this))
    , m_sftArea(new QWidget(this))
    , m_sftGrid(new QGridLayout(m_sftArea))
    , m_rlArea(new QWidget(this))
    , m_rlGrid(new QGridLayout(m_rlArea))
    , m_rlGroup(new charts::ChartGroup(this))
    , m_sftGroup(new charts::ChartGroup(this))
    , m_smoothing(charts::kDefaultSmoothing)
{
    m_numbersBox->setObjectName(QStringLiteral("monitorNumbers"));
    m_numbersBox->setToolTip(tr("Metrics with one value so far (written once, or only one iteration yet)"));
    QFont bold = m_sftTitle->font();
    bold.setBold(true);
    m_sftTitle->setFont(bold);
    m_sftGrid->setContentsMargins(0, 0, 0, 0);
    m_rlGrid->setContentsMargins(0, 0, 0, 0);
    auto* content = new QWidget(m_scroll);
    m_column = new QVBoxLayout(content);
    m_column->addWidget(m_numbersBox);
    m_column->addWidget(m_sftTitle);
    m_column->addWidget(m_sftArea);
    m_column->addWidget(m_rlArea);
    m_column->addStretch(1);
    m_scroll->setWidgetResizable(true);
    m_scroll->setWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_scroll);
    relayout();
}

MonitorCharts::~MonitorCharts() = default;

void MonitorCharts::clear()
{
    m_rlGroup->clear();
    m_sftGroup->clear();
    qDeleteAll(m_charts);
    qDeleteAll(m_sftCharts);
    m_charts.clear();
    m_sftCharts.clear();
    m_data.clear();
    m_sftData.clear();
    m_order.clear();
    m_lastSftStep = 0;
    relayout();
}

charts::LineChart* MonitorCharts::makeChart(const QString& metric, const QString& xTitle, bool sft)
{
    auto* chart = new charts::LineChart(sft ? m_sftArea : m_rlArea);
    chart->setObjectName((sft ? QStringLiteral("sftChart:") : QStringLiteral("chart:")) + metric);
    chart->setTitle(metric);
    chart->setAxisTitles(xTitle, QString());
    chart->addSeries(
        metric, metric.startsWith(QLatin1String("role/")) ? colours::role(metric.back().toLatin1()) : QColor());
    chart->setLegendVisible(false);
    chart->setSmoothing(m_smoothing);
    chart->setMinimumHeight(kChartHeight);
    (sft ? m_sftGroup : m_rlGroup)->add(chart);
    return chart;
}

void MonitorCharts::appendIteration(qint64 iteration, const std::vector<std::pair<QString, double>>& metrics)
{
    bool changed = false;
    for (const auto& [name, value] : metrics) {
        auto it = m_data.find(name);
        if (it == m_data.end()) {
            it = m_data.insert(name, {});
            m_order.insert(std::upper_bound(m_order.begin(), m_order.end(), name, rankedBefore), name);
            changed = true;
        }
        it->x.push_back(static_cast<double>(iteration));
        it->y.push_back(value);
        if (auto* chart = m_charts.value(name)) {
            chart->appendPoints(0, { static_cast<double>(iteration) }, { value });
        } else if (it->x.size() >= 2) { // a curve now: from the panel to a chart
            charts::LineChart* made = makeChart(name, tr("Iteration"), false);
            made->setSeriesData(0, it->x, it->y);
            m_charts.insert(name, made);
            changed = true;
        } else if (QLabel* label = m_numbers.value(name)) {
            label->setText(formatNumber(name, value));
        }
    }
    m_rlGroup->syncXBounds();
    if (changed)
        relayout();
}

void MonitorCharts::appendSftPoints(const std::vector<MetricPoint>& points)
{
    bool changed = false;
    QHash<QString, Curve> added;
    for (const MetricPoint& point : points) {
        const QString name = QString::fromStdString(point.name);
        Curve& curve = m_sftData[name];
        if (!curve.x.empty() && static_cast<double>(point.iteration) <= curve.x.back())
            continue; // read again (a poll from the last step on)
        curve.x.push_back(static_cast<double>(point.iteration));
        curve.y.push_back(point.value);
        added[name].x.push_back(static_cast<double>(point.iteration));
        added[name].y.push_back(point.value);
        m_lastSftStep = std::max(m_lastSftStep, static_cast<qint64>(point.iteration));
    }
    for (auto it = added.cbegin(); it != added.cend(); ++it) {
        if (auto* chart = m_sftCharts.value(it.key())) {
            chart->appendPoints(0, it->x, it->y);
        } else if (m_sftData[it.key()].x.size() >= 2) {
            charts::LineChart* made = makeChart(it.key(), tr("SFT step"), true);
            made->setSeriesData(0, m_sftData[it.key()].x, m_sftData[it.key()].y);
            m_sftCharts.insert(it.key(), made);
            changed = true;
        }
    }
    m_sftGroup->syncXBounds();
    if (changed)
        relayout();
}

void MonitorCharts::setFilter(const QString& text)
{
    m_filter = text.trimmed();
    relayout();
}

void MonitorCharts::setSmoothing(double weight)
{
    m_smoothing = weight;
    for (auto* chart : std::as_const(m_charts))
        chart->setSmoothing(weight);
    for (auto* chart : std::as_const(m_sftCharts))
        chart->setSmoothing(weight);
}

void MonitorCharts::relayout()
{
    const auto passes
        = [this](const QString& name) { return m_filter.isEmpty() || name.contains(m_filter, Qt::CaseInsensitive); };
    // The panel: rebuilt (a few labels) in the charts' order.
    qDeleteAll(m_numbersBox->findChildren<QLabel*>(Qt::FindDirectChildrenOnly));
    m_numbers.clear();
    int slot = 0;
    for (const QString& name : std::as_const(m_order)) {
        const Curve& curve = m_data[name];
        if (curve.x.size() != 1 || !passes(name))
            continue;
        auto* key = new QLabel(name, m_numbersBox);
        key->setTextFormat(Qt::PlainText);
        key->setToolTip(tr("Iteration %1").arg(curve.x.front()));
        auto* value = new QLabel(formatNumber(name, curve.y.front()), m_numbersBox);
        value->setTextFormat(Qt::PlainText);
        value->setObjectName(QStringLiteral("number:") + name);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        QFont bold = value->font();
        bold.setBold(true);
        value->setFont(bold);
        m_numbersGrid->addWidget(key, slot / kNumberColumns, 2 * (slot % kNumberColumns));
        m_numbersGrid->addWidget(value, slot / kNumberColumns, 2 * (slot % kNumberColumns) + 1);
        m_numbers.insert(name, value);
        ++slot;
    }
    m_numbersBox->setVisible(slot > 0);

    QList<QWidget*> all;
    QList<QWidget*> shown;
    QStringList sftNames = m_sftCharts.keys();
    std::sort(sftNames.begin(), sftNames.end(), rankedBefore);
    for (const QString& name : std::as_const(sftNames)) {
        all << m_sftCharts[name];
        m_sftCharts[name]->setVisible(passes(name));
        if (passes(name))
            shown << m_sftCharts[name];
    }
    fillGrid(m_sftGrid, all, shown, kColumns);
    m_sftTitle->setVisible(!shown.isEmpty());
    m_sftArea->setVisible(!shown.isEmpty());
    // SFT's curves on top while SFT trains; below the iterations' once RL has begun.
    const bool rlFirst = !m_charts.isEmpty();
    m_column->removeWidget(m_sftTitle);
    m_column->removeWidget(m_sftArea);
    m_column->insertWidget(rlFirst ? 2 : 1, m_sftTitle);
    m_column->insertWidget(rlFirst ? 3 : 2, m_sftArea);

    all.clear();
    shown.clear();
    for (const QString& name : std::as_const(m_order)) {
        auto* chart = m_charts.value(name);
        if (!chart)
            continue;
        all << chart;
        chart->setVisible(passes(name));
        if (passes(name))
            shown << chart;
    }
    fillGrid(m_rlGrid, all, shown, kColumns);
}

charts::LineChart* MonitorCharts::chart(const QString& metric) const { return m_charts.value(metric); }

charts::LineChart* MonitorCharts::sftChart(const QString& metric) const { return m_sftCharts.value(metric); }

QStringList MonitorCharts::metricNames() const { return m_order; }

qsizetype MonitorCharts::pointCount(const QString& metric) const
{
    const auto it = m_data.constFind(metric);
    return it == m_data.cend() ? 0 : static_cast<qsizetype>(it->x.size());
}

qsizetype MonitorCharts::sftPointCount(const QString& metric) const
{
    const auto it = m_sftData.constFind(metric);
    return it == m_sftData.cend() ? 0 : static_cast<qsizetype>(it->x.size());
}

QString MonitorCharts::numberText(const QString& metric) const
{
    const QLabel* label = m_numbers.value(metric);
    return label ? label->text() : QString();
}

} // namespace creditlab::ui
