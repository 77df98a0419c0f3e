#include "ui/charts/errorbarchart.h"

#include "ui/charts/chartexport.h"
#include "ui/charts/chartmath.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QLegend>
#include <QLineSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace creditlab::ui::charts {

/// The chart view of ErrorBarChart; paints the error bars (Qt Charts has none) over the plot. Internal;
/// GUI thread only.
class ErrorBarView : public QChartView {
public:
    ErrorBarView(QChart* chart, const std::vector<ErrorBarChart::Line>* lines, QWidget* parent)
        : QChartView(chart, parent)
        , m_lines(lines)
    {
        setRenderHint(QPainter::Antialiasing);
    }

protected:
    void drawForeground(QPainter* painter, const QRectF& rect) override
    {
        QChartView::drawForeground(painter, rect);
        const QRectF plot = chart()->plotArea();
        const auto series = chart()->series();
        painter->save();
        painter->setClipRect(plot);
        for (std::size_t i = 0; i < m_lines->size() && i < static_cast<std::size_t>(series.size()); ++i) {
            QAbstractSeries* s = series[static_cast<qsizetype>(i)];
            if (!s->isVisible())
                continue;
            const ErrorBarChart::Line& line = (*m_lines)[i];
            painter->setPen(QPen(line.color, 1.4));
            for (const ErrorBarChart::Point& p : line.points) {
                if (!std::isfinite(p.std) || !std::isfinite(p.mean) || p.std <= 0.0)
                    continue;
                const QPointF lo = chart()->mapToScene(chart()->mapToPosition(QPointF(p.x, p.mean - p.std), s));
                const QPointF hi = chart()->mapToScene(chart()->mapToPosition(QPointF(p.x, p.mean + p.std), s));
                constexpr qreal kCap = 4.0;
                painter->drawLine(lo, hi);
                painter->drawLine(QPointF(lo.x() - kCap, lo.y()), QPointF(lo.x() + kCap, lo.y()));
                painter->drawLine(QPointF(hi.x() - kCap, hi.y()), QPointF(hi.x() + kCap, hi.y()));
            }
        }
        painter->restore();
    }

private:
    const std::vector<ErrorBarChart::Line>* m_lines;
};

ErrorBarChart::ErrorBarChart(QWidget* parent)
    : QWidget(parent)
    , m_chart(new QChart)
{
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setBackgroundRoundness(0);
    m_chart->setMargins(QMargins(6, 6, 12, 4));
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    QFont titleFont = m_chart->titleFont();
    titleFont.setBold(true);
    m_chart->setTitleFont(titleFont);
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_view = new ErrorBarView(m_chart, &m_lines, this);
    m_view->setFrameShape(QFrame::NoFrame);
    m_view->setBackgroundBrush(m_chart->backgroundBrush());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    setMinimumSize(240, 180);
    rebuild();
}

ErrorBarChart::~ErrorBarChart() = default;

void ErrorBarChart::setTitle(const QString& title) { m_chart->setTitle(title); }

void ErrorBarChart::setAxisTitles(const QString& x, const QString& y)
{
    m_xTitle = x;
    m_yTitle = y;
    rebuild();
}

void ErrorBarChart::clear()
{
    m_lines.clear();
    rebuild();
}

int ErrorBarChart::addSeries(const QString& name, const std::vector<Point>& points, QColor color)
{
    Line line { name, color.isValid() ? color : tableau10(static_cast<int>(m_lines.size())), points };
    std::sort(line.points.begin(), line.points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
    m_lines.push_back(std::move(line));
    rebuild();
    return static_cast<int>(m_lines.size()) - 1;
}

void ErrorBarChart::setCategories(const QStringList& labels)
{
    m_categories = labels;
    rebuild();
}

void ErrorBarChart::rebuild()
{
    m_chart->removeAllSeries();
    for (QAbstractAxis* axis : m_chart->axes()) {
        m_chart->removeAxis(axis);
        delete axis;
    }
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (const Line& line : m_lines) {
        for (const Point& p : line.points) {
            x0 = std::min(x0, p.x);
            x1 = std::max(x1, p.x);
            const double s = std::isfinite(p.std) ? std::abs(p.std) : 0.0;
            if (std::isfinite(p.mean)) {
                y0 = std::min(y0, p.mean - s);
                y1 = std::max(y1, p.mean + s);
            }
        }
    }
    if (!std::isfinite(y0))
        y0 = 0, y1 = 1;
    const double yPad = y1 > y0 ? (y1 - y0) * 0.08 : 0.5;
    y0 -= yPad;
    y1 += yPad;

    QAbstractAxis* axisX = nullptr;
    if (!m_categories.isEmpty()) {
        auto* axis = new QCategoryAxis;
        axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        axis->setStartValue(-0.5);
        for (qsizetype i = 0; i < m_categories.size(); ++i)
            axis->append(m_categories[i], static_cast<double>(i));
        axis->setRange(-0.5, static_cast<double>(m_categories.size()) - 0.5);
        axis->setGridLineVisible(false);
        axisX = axis;
    } else {
        if (!std::isfinite(x0))
            x0 = 0, x1 = 1;
        const double xPad = x1 > x0 ? (x1 - x0) * 0.05 : 0.5;
        auto* axis = new QValueAxis;
        axis->setRange(x0 - xPad, x1 + xPad);
        const double step = niceTickStep(x1 - x0 + 2 * xPad, 6);
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(0.0);
        axis->setTickInterval(step);
        axis->setLabelFormat(axisLabelFormat(step, x0, x1));
        axisX = axis;
    }
    auto* axisY = new QValueAxis;
    axisY->setRange(y0, y1);
    const double stepY = niceTickStep(y1 - y0, 6);
    axisY->setTickType(QValueAxis::TicksDynamic);
    axisY->setTickAnchor(0.0);
    axisY->setTickInterval(stepY);
    axisY->setLabelFormat(axisLabelFormat(stepY, y0, y1));
    axisX->setTitleText(m_xTitle);
    axisY->setTitleText(m_yTitle);
    for (QAbstractAxis* axis : { axisX, static_cast<QAbstractAxis*>(axisY) }) {
        axis->setGridLineColor(QColor(0, 0, 0, 30));
        axis->setLinePenColor(QColor(0, 0, 0, 90));
    }
    m_chart->addAxis(axisX, Qt::AlignBottom);
    m_chart->addAxis(axisY, Qt::AlignLeft);

    for (const Line& line : m_lines) {
        auto* series = new QLineSeries;
        series->setName(line.name);
        series->setPen(QPen(line.color, 2.0));
        series->setPointsVisible(true);
        series->setMarkerSize(6.0);
        QList<QPointF> pts;
        for (const Point& p : line.points) {
            if (std::isfinite(p.mean))
                pts.append(QPointF(p.x, p.mean));
        }
        series->replace(pts);
        m_chart->addSeries(series);
        series->attachAxis(axisX);
        series->attachAxis(axisY);
        const std::vector<Point>* points = &line.points;
        const QString name = line.name;
        connect(series, &QLineSeries::hovered, this, [this, points, name](const QPointF& at, bool state) {
            if (!state || points->empty()) {
                QToolTip::hideText();
                return;
            }
            const auto nearest = std::min_element(points->begin(), points->end(),
                [&at](const Point& a, const Point& b) { return std::abs(a.x - at.x()) < std::abs(b.x - at.x()); });
            const qsizetype ci = static_cast<qsizetype>(std::llround(nearest->x));
            const QString xText = !m_categories.isEmpty() && ci >= 0 && ci < m_categories.size()
                ? m_categories[ci]
                : QString::number(nearest->x, 'g', 6);
            QToolTip::showText(QCursor::pos(),
                tr("%1 at %2: %3 ± %4 (n = %5)")
                    .arg(name, xText, QString::number(nearest->mean, 'g', 4), QString::number(nearest->std, 'g', 3))
                    .arg(nearest->n),
                m_view);
        });
    }
    m_view->viewport()->update();
}

bool ErrorBarChart::exportImage(const QString& path, QString* error) { return exportWidgetImage(this, path, error); }

} // namespace creditlab::ui::charts
