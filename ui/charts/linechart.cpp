// LineChart: the chart and its axes set up, and the series: added and removed, styled, their data set, appended
// and banded, and the smoothing weight. The redraw is in linechartredraw.cpp, interaction and export in
// linechartinput.cpp.
#include "ui/charts/linechart.h"

#include "ui/charts/linechartseries.h"
#include "ui/charts/linechartview.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLogValueAxis>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

namespace creditlab::ui::charts {

namespace {

constexpr int kRedrawDelayMs = 40; // STYLE rule 7: coalesce redraws at the sink
constexpr int kRawAlpha = 64; // the faded raw curve: same colour at 25% alpha

} // namespace

LineChart::LineChart(QWidget* parent)
    : QWidget(parent)
    , m_chart(new QChart)
    , m_axisX(new QValueAxis(m_chart))
    , m_axisY(new QValueAxis(m_chart))
    , m_axisYLog(new QLogValueAxis(m_chart))
    , m_redrawTimer(new QTimer(this))
{
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setBackgroundRoundness(0);
    m_chart->setMargins(QMargins(6, 6, 12, 4));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_chart->legend()->setShowToolTips(true);
    QFont titleFont = m_chart->titleFont();
    titleFont.setBold(true);
    titleFont.setPointSizeF(font().pointSizeF() * 1.1);
    m_chart->setTitleFont(titleFont);
    for (QValueAxis* axis : { m_axisX, m_axisY }) {
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(0.0);
        axis->setMinorTickCount(0);
        axis->setGridLineColor(QColor(0, 0, 0, 30));
        axis->setLinePenColor(QColor(0, 0, 0, 90));
        axis->setLabelsColor(QColor(50, 50, 50));
    }
    m_axisYLog->setBase(10.0);
    m_axisYLog->setRange(1.0, 10.0);
    m_axisYLog->setLabelFormat(QStringLiteral("%g"));
    m_axisYLog->setMinorTickCount(0);
    m_axisYLog->setGridLineColor(QColor(0, 0, 0, 30));
    m_axisYLog->setLinePenColor(QColor(0, 0, 0, 90));
    m_axisYLog->setLabelsColor(QColor(50, 50, 50));
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);

    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_view = new LineChartView(m_chart, this);
    m_view->setFrameShape(QFrame::NoFrame);
    m_view->setBackgroundBrush(m_chart->backgroundBrush());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    setMinimumSize(240, 180);

    m_redrawTimer->setSingleShot(true);
    m_redrawTimer->setInterval(kRedrawDelayMs);
    connect(m_redrawTimer, &QTimer::timeout, this, &LineChart::redrawNow);
    connect(m_view, &LineChartView::resized, this, &LineChart::scheduleRedraw);
    connect(m_view, &LineChartView::zoomRectRequested, this, &LineChart::zoomToPixels);
    connect(m_view, &LineChartView::zoomRequested, this, &LineChart::zoomAround);
    connect(m_view, &LineChartView::panRequested, this, &LineChart::panByPixels);
    connect(m_view, &LineChartView::resetRequested, this, &LineChart::userReset);
    connect(m_view, &LineChartView::hoverMoved, this, &LineChart::showHover);
    connect(m_view, &LineChartView::hoverLeft, this, [this] {
        m_cursorX.reset();
        Q_EMIT hoverLeft();
    });
    connect(m_view, &LineChartView::contextMenuRequested, this, &LineChart::showContextMenu);
    redrawNow();
}

LineChart::~LineChart()
{
    // The series' Qt Charts items belong to m_chart, which the view deletes; detach them first so that
    // ~Series owns and deletes each item exactly once.
    for (auto& [id, s] : m_series)
        deleteItems(*s);
    // The y axis that is not on the chart has no owner (QChart::removeAxis releases it).
    for (QAbstractAxis* axis : { static_cast<QAbstractAxis*>(m_axisY), static_cast<QAbstractAxis*>(m_axisYLog) }) {
        if (!m_chart->axes().contains(axis))
            delete axis;
    }
}

void LineChart::deleteItems(Series& s)
{
    QLineSeries* upper = s.band->upperSeries();
    QLineSeries* lower = s.band->lowerSeries();
    for (QAbstractSeries* item : { static_cast<QAbstractSeries*>(s.band), static_cast<QAbstractSeries*>(s.raw),
             static_cast<QAbstractSeries*>(s.main) }) {
        if (item->chart())
            m_chart->removeSeries(item);
        delete item;
    }
    delete upper;
    delete lower;
    s.band = nullptr;
    s.raw = nullptr;
    s.main = nullptr;
}

void LineChart::setTitle(const QString& title) { m_chart->setTitle(title); }

QString LineChart::title() const { return m_chart->title(); }

void LineChart::setLegendVisible(bool visible) { m_chart->legend()->setVisible(visible); }

void LineChart::setLegendAlignment(Qt::Alignment alignment) { m_chart->legend()->setAlignment(alignment); }

void LineChart::setAxisTitles(const QString& x, const QString& y)
{
    m_axisX->setTitleText(x);
    m_axisY->setTitleText(y);
    m_axisYLog->setTitleText(y);
}

void LineChart::setXAlign(XAlign align)
{
    m_axisX->setTitleText(align == XAlign::Iteration ? tr("Iteration") : tr("Wall time (s)"));
}

LineChart::Series* LineChart::find(int id) const
{
    const auto it = m_series.find(id);
    return it == m_series.end() ? nullptr : it->second.get();
}

int LineChart::addSeries(const QString& name, QColor color)
{
    const int id = m_nextId++;
    auto s = std::make_unique<Series>();
    s->name = name;
    s->color = color.isValid() ? color : tableau10(id);
    s->main = new QLineSeries;
    s->main->setName(name);
    s->raw = new QLineSeries;
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    s->band = new QAreaSeries(upper, lower);
    // Not parented to the band: deleting a QAreaSeries whose line series are its QObject children crashes in
    // Qt 6.4 (~QAreaSeries touches them after they are gone). deleteItems() deletes all three in order.
    styleSeries(*s);
    m_series.emplace(id, std::move(s));
    m_layersDirty = true;
    scheduleRedraw();
    return id;
}

void LineChart::removeSeries(int id)
{
    const auto it = m_series.find(id);
    if (it == m_series.end())
        return;
    deleteItems(*it->second);
    m_series.erase(it);
    m_layersDirty = true;
    scheduleRedraw();
}

void LineChart::clear()
{
    while (!m_series.empty())
        removeSeries(m_series.begin()->first);
}

int LineChart::seriesCount() const { return static_cast<int>(m_series.size()); }

QColor LineChart::seriesColor(int id) const
{
    const Series* s = find(id);
    return s ? s->color : QColor();
}

void LineChart::setSeriesStyle(int id, const SeriesStyle& style)
{
    if (Series* s = find(id)) {
        s->style = style;
        s->dirty = true;
        styleSeries(*s);
        scheduleRedraw();
    }
}

void LineChart::styleSeries(Series& s)
{
    QPen pen(s.color, s.style.width, s.style.dashed ? Qt::DashLine : Qt::SolidLine, Qt::FlatCap, Qt::BevelJoin);
    s.main->setPen(pen);
    QColor faded = s.color;
    faded.setAlpha(kRawAlpha);
    s.raw->setPen(QPen(faded, std::max<qreal>(1.0, s.style.width * 0.6), Qt::SolidLine, Qt::FlatCap, Qt::BevelJoin));
    QColor fill = s.color;
    fill.setAlpha(45);
    s.band->setPen(Qt::NoPen);
    s.band->setBrush(fill);
}

void LineChart::setSeriesData(int id, std::vector<double> x, std::vector<double> y)
{
    Series* s = find(id);
    if (!s)
        return;
    const std::size_t n = std::min(x.size(), y.size());
    x.resize(n);
    y.resize(n);
    s->x = std::move(x);
    s->y = std::move(y);
    s->dirty = true;
    s->smoothWeight = -1.0;
    s->smoothed.clear();
    if (s->lower.size() != n) {
        s->lower.clear();
        s->upper.clear();
    }
    s->recomputeBounds();
    applyVisibility(*s);
    scheduleRedraw();
}

void LineChart::appendPoints(int id, const std::vector<double>& x, const std::vector<double>& y)
{
    Series* s = find(id);
    if (!s)
        return;
    const std::size_t n = std::min(x.size(), y.size());
    const std::size_t from = s->y.size();
    s->x.insert(s->x.end(), x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n));
    s->y.insert(s->y.end(), y.begin(), y.begin() + static_cast<std::ptrdiff_t>(n));
    s->extendBounds(s->y, from);
    s->dirty = true;
    if (!s->lower.empty()) { // a band no longer matches the data
        s->lower.clear();
        s->upper.clear();
        applyVisibility(*s);
    }
    scheduleRedraw();
}

void LineChart::setSeriesBand(int id, std::vector<double> lower, std::vector<double> upper)
{
    Series* s = find(id);
    if (!s)
        return;
    const std::size_t n = std::min({ lower.size(), upper.size(), s->x.size() });
    lower.resize(n);
    upper.resize(n);
    s->lower = std::move(lower);
    s->upper = std::move(upper);
    s->dirty = true;
    s->recomputeBounds();
    applyVisibility(*s);
    scheduleRedraw();
}

qsizetype LineChart::pointCount(int id) const
{
    const Series* s = find(id);
    return s ? static_cast<qsizetype>(s->x.size()) : 0;
}

void LineChart::setSmoothing(double weight)
{
    const double w = std::isfinite(weight) ? std::clamp(weight, 0.0, 0.999) : 0.0;
    if (w == m_smoothing)
        return;
    m_smoothing = w;
    for (auto& [id, s] : m_series) {
        s->dirty = true;
        applyVisibility(*s);
    }
    scheduleRedraw();
}

double LineChart::smoothing() const { return m_smoothing; }

} // namespace creditlab::ui::charts
