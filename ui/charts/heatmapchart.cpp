#include "ui/charts/heatmapchart.h"

#include "ui/charts/chartexport.h"
#include "ui/charts/chartmath.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>

namespace creditlab::ui::charts {

namespace {
constexpr qreal kMargin = 8;
constexpr qreal kBarWidth = 14;
const QColor kNoData(205, 205, 205);
} // namespace

HeatmapChart::HeatmapChart(QWidget* parent)
    : QWidget(parent)
    , m_fixedMin(std::numeric_limits<double>::quiet_NaN())
    , m_fixedMax(std::numeric_limits<double>::quiet_NaN())
{
    setMouseTracking(true);
    setMinimumSize(200, 150);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

QSize HeatmapChart::sizeHint() const { return QSize(520, 380); }

void HeatmapChart::setTitle(const QString& title)
{
    m_title = title;
    update();
}

void HeatmapChart::setAxisTitles(const QString& x, const QString& y)
{
    m_xTitle = x;
    m_yTitle = y;
    update();
}

void HeatmapChart::setData(const QStringList& rowLabels, const QStringList& columnLabels, std::vector<double> values)
{
    m_rows = rowLabels;
    m_columns = columnLabels;
    values.resize(static_cast<std::size_t>(m_rows.size() * m_columns.size()), std::numeric_limits<double>::quiet_NaN());
    m_values = std::move(values);
    m_hoverRow = m_hoverColumn = -1;
    updateRange();
    update();
}

void HeatmapChart::setValueRange(double min, double max)
{
    m_fixedMin = min;
    m_fixedMax = max;
    updateRange();
    update();
}

void HeatmapChart::updateRange()
{
    if (std::isfinite(m_fixedMin) && std::isfinite(m_fixedMax) && m_fixedMax >= m_fixedMin) {
        m_min = m_fixedMin;
        m_max = m_fixedMax;
        return;
    }
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double v : m_values) {
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    }
    m_min = std::isfinite(lo) ? lo : 0.0;
    m_max = std::isfinite(hi) ? hi : 1.0;
}

double HeatmapChart::value(int row, int column) const
{
    if (row < 0 || column < 0 || row >= m_rows.size() || column >= m_columns.size())
        return std::numeric_limits<double>::quiet_NaN();
    return m_values[static_cast<std::size_t>(row * m_columns.size() + column)];
}

QColor HeatmapChart::colorAt(double value) const
{
    if (!std::isfinite(value))
        return kNoData;
    const double t = m_max > m_min ? (value - m_min) / (m_max - m_min) : 0.5;
    return viridis(t);
}

QString HeatmapChart::formatValue(double v) const
{
    return std::isfinite(v) ? QString::number(v, 'g', 3) : tr("no data");
}

HeatmapChart::Geometry HeatmapChart::geometry() const
{
    Geometry g;
    const QFontMetricsF fm(font());
    const qreal line = fm.height();
    qreal top = kMargin;
    if (!m_title.isEmpty()) {
        g.title = QRectF(0, top, width(), line * 1.3);
        top += line * 1.3 + kMargin;
    }
    for (const QString& r : m_rows)
        g.rowLabelWidth = std::max(g.rowLabelWidth, fm.horizontalAdvance(r));
    const qreal left = kMargin + (m_yTitle.isEmpty() ? 0 : line + kMargin) + g.rowLabelWidth + 6;
    const qreal barLabels
        = std::max(fm.horizontalAdvance(formatValue(m_min)), fm.horizontalAdvance(formatValue(m_max)));
    const qreal right = width() - kMargin - barLabels - 6 - kBarWidth - 2 * kMargin;
    const qreal bottom = height() - kMargin - line - 4 - (m_xTitle.isEmpty() ? 0 : line + 4);
    g.grid = QRectF(QPointF(left, top), QPointF(std::max(left + 1, right), std::max(top + 1, bottom)));
    g.colorBar = QRectF(g.grid.right() + 2 * kMargin, g.grid.top(), kBarWidth, g.grid.height());
    g.cellWidth = m_columns.isEmpty() ? 0 : g.grid.width() / m_columns.size();
    g.cellHeight = m_rows.isEmpty() ? 0 : g.grid.height() / m_rows.size();
    return g;
}

void HeatmapChart::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.fillRect(rect(), palette().color(QPalette::Base));
    const Geometry g = geometry();
    const QFontMetricsF fm(font());
    const QColor textColor = palette().color(QPalette::Text);
    if (!m_title.isEmpty()) {
        QFont f = font();
        f.setBold(true);
        p.setFont(f);
        p.setPen(textColor);
        p.drawText(g.title, Qt::AlignCenter, m_title);
        p.setFont(font());
    }
    if (m_rows.isEmpty() || m_columns.isEmpty()) {
        p.setPen(palette().color(QPalette::Disabled, QPalette::Text));
        p.drawText(g.grid, Qt::AlignCenter, tr("No data"));
        return;
    }
    // Only the cells that intersect the repainted rectangle (STYLE rule 16: large grids stay cheap; hover
    // repaints are small, render() for export passes the whole widget).
    const QRectF dirty = QRectF(event->rect()).intersected(g.grid);
    const int r0 = std::max(0, static_cast<int>((dirty.top() - g.grid.top()) / g.cellHeight));
    const int r1 = std::min(int(m_rows.size()) - 1, static_cast<int>((dirty.bottom() - g.grid.top()) / g.cellHeight));
    const int c0 = std::max(0, static_cast<int>((dirty.left() - g.grid.left()) / g.cellWidth));
    const int c1 = std::min(int(m_columns.size()) - 1, static_cast<int>((dirty.right() - g.grid.left()) / g.cellWidth));
    for (int r = r0; r <= r1 && !dirty.isEmpty(); ++r) {
        for (int c = c0; c <= c1; ++c) {
            const QRectF cell(
                g.grid.left() + c * g.cellWidth, g.grid.top() + r * g.cellHeight, g.cellWidth, g.cellHeight);
            const double v = value(r, c);
            if (std::isfinite(v)) {
                p.fillRect(cell, colorAt(v));
            } else {
                p.fillRect(cell, kNoData.lighter(110));
                p.fillRect(cell, QBrush(kNoData.darker(130), Qt::BDiagPattern));
            }
            const QString text = formatValue(v);
            if (fm.horizontalAdvance(text) + 4 <= cell.width() && fm.height() <= cell.height()) {
                const QColor bg = colorAt(v);
                const bool dark
                    = std::isfinite(v) && (0.299 * bg.redF() + 0.587 * bg.greenF() + 0.114 * bg.blueF()) < 0.55;
                p.setPen(dark ? Qt::white : QColor(30, 30, 30));
                p.drawText(cell, Qt::AlignCenter, text);
            }
        }
    }
    p.setPen(QPen(palette().color(QPalette::Base), 1));
    for (int c = 1; c < m_columns.size(); ++c)
        p.drawLine(QPointF(g.grid.left() + c * g.cellWidth, g.grid.top()),
            QPointF(g.grid.left() + c * g.cellWidth, g.grid.bottom()));
    for (int r = 1; r < m_rows.size(); ++r)
        p.drawLine(QPointF(g.grid.left(), g.grid.top() + r * g.cellHeight),
            QPointF(g.grid.right(), g.grid.top() + r * g.cellHeight));
    if (m_hoverRow >= 0) {
        p.setPen(QPen(textColor, 2));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(g.grid.left() + m_hoverColumn * g.cellWidth, g.grid.top() + m_hoverRow * g.cellHeight,
            g.cellWidth, g.cellHeight)
                       .adjusted(1, 1, -1, -1));
    }
    // Labels (elided to their cell) and axis titles.
    p.setPen(textColor);
    for (int r = 0; r < m_rows.size(); ++r) {
        const QRectF cell(
            g.grid.left() - g.rowLabelWidth - 6, g.grid.top() + r * g.cellHeight, g.rowLabelWidth, g.cellHeight);
        p.drawText(cell, Qt::AlignRight | Qt::AlignVCenter, m_rows[r]);
    }
    for (int c = 0; c < m_columns.size(); ++c) {
        const QRectF cell(g.grid.left() + c * g.cellWidth, g.grid.bottom() + 4, g.cellWidth, fm.height());
        p.drawText(cell, Qt::AlignHCenter | Qt::AlignTop, fm.elidedText(m_columns[c], Qt::ElideRight, g.cellWidth));
    }
    if (!m_xTitle.isEmpty())
        p.drawText(QRectF(g.grid.left(), g.grid.bottom() + 4 + fm.height() + 4, g.grid.width(), fm.height()),
            Qt::AlignCenter, m_xTitle);
    if (!m_yTitle.isEmpty()) {
        p.save();
        p.translate(kMargin, g.grid.center().y());
        p.rotate(-90);
        p.drawText(QRectF(-g.grid.height() / 2, 0, g.grid.height(), fm.height()), Qt::AlignCenter, m_yTitle);
        p.restore();
    }
    // Colour bar: max at the top.
    const int steps = std::max(1, static_cast<int>(g.colorBar.height()));
    for (int i = 0; i < steps; ++i) {
        const double t = 1.0 - (i + 0.5) / steps;
        p.fillRect(QRectF(g.colorBar.left(), g.colorBar.top() + i, g.colorBar.width(), 1.0), viridis(t));
    }
    p.setPen(QColor(0, 0, 0, 90));
    p.drawRect(g.colorBar);
    p.setPen(textColor);
    const qreal lx = g.colorBar.right() + 6;
    p.drawText(
        QRectF(lx, g.colorBar.top(), width() - lx, fm.height()), Qt::AlignLeft | Qt::AlignTop, formatValue(m_max));
    p.drawText(QRectF(lx, g.colorBar.bottom() - fm.height(), width() - lx, fm.height()),
        Qt::AlignLeft | Qt::AlignBottom, formatValue(m_min));
}

void HeatmapChart::mouseMoveEvent(QMouseEvent* event)
{
    const Geometry g = geometry();
    const QPointF pos = event->position();
    int row = -1, column = -1;
    if (g.grid.contains(pos) && g.cellWidth > 0 && g.cellHeight > 0) {
        column = std::clamp(static_cast<int>((pos.x() - g.grid.left()) / g.cellWidth), 0, int(m_columns.size()) - 1);
        row = std::clamp(static_cast<int>((pos.y() - g.grid.top()) / g.cellHeight), 0, int(m_rows.size()) - 1);
    }
    if (row == m_hoverRow && column == m_hoverColumn)
        return;
    const auto cellRect = [&g](int r, int c) {
        return QRectF(g.grid.left() + c * g.cellWidth, g.grid.top() + r * g.cellHeight, g.cellWidth, g.cellHeight)
            .toAlignedRect()
            .adjusted(-2, -2, 2, 2);
    };
    if (m_hoverRow >= 0)
        update(cellRect(m_hoverRow, m_hoverColumn));
    m_hoverRow = row;
    m_hoverColumn = column;
    if (row >= 0)
        update(cellRect(row, column));
    if (row < 0) {
        QToolTip::hideText();
        return;
    }
    const double v = value(row, column);
    const QString rowName = m_yTitle.isEmpty() ? tr("Row") : m_yTitle;
    const QString columnName = m_xTitle.isEmpty() ? tr("Column") : m_xTitle;
    QToolTip::showText(event->globalPosition().toPoint(),
        tr("%1: %2\n%3: %4\nValue: %5").arg(rowName, m_rows[row], columnName, m_columns[column], formatValue(v)), this);
    Q_EMIT cellHovered(row, column, v);
}

void HeatmapChart::leaveEvent(QEvent* event)
{
    m_hoverRow = m_hoverColumn = -1;
    update();
    QWidget::leaveEvent(event);
}

bool HeatmapChart::exportImage(const QString& path, QString* error) { return exportWidgetImage(this, path, error); }

} // namespace creditlab::ui::charts
