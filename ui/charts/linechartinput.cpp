// LineChart: the view range, user interaction (zoom, pan, hover read-out, context menu), the legend, series
// visibility and stacking, and export.
#include "ui/charts/linechart.h"

#include "ui/charts/chartexport.h"
#include "ui/charts/linechartseries.h"
#include "ui/charts/linechartview.h"
#include "ui/common/filedialogs.h"

#include <QChart>
#include <QFileDialog>
#include <QFileInfo>
#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <QMenu>
#include <QMessageBox>
#include <QTimer>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace creditlab::ui::charts {

namespace {

QString formatValue(double v) { return std::isfinite(v) ? QString::number(v, 'g', 4) : QStringLiteral("–"); }

} // namespace

QRectF LineChart::visibleRange() const { return widenedRange(m_userZoomed ? m_range : autoRange()); }

void LineChart::setVisibleRange(const QRectF& xy) { setUserRange(xy); }

void LineChart::resetZoom()
{
    m_userZoomed = false;
    m_xZoomed = false;
    m_range = autoRange();
    scheduleRedraw();
}

void LineChart::userReset()
{
    resetZoom();
    Q_EMIT zoomReset();
}

void LineChart::userZoomed(const QRectF& xy)
{
    setUserRange(xy);
    if (m_userZoomed)
        Q_EMIT xRangeChanged(m_range.left(), m_range.right());
}

void LineChart::setXRange(double x0, double x1)
{
    if (!std::isfinite(x0) || !std::isfinite(x1))
        return;
    if (x1 < x0)
        std::swap(x0, x1);
    if (x1 - x0 < 1e-12)
        x1 = x0 + std::max(1e-12, std::abs(x0) * 1e-9);
    m_userZoomed = false;
    m_xZoomed = true;
    m_xOnly = { x0, x1 };
    scheduleRedraw();
}

void LineChart::setXBounds(double x0, double x1)
{
    const std::optional<std::pair<double, double>> bounds = std::isfinite(x0) && std::isfinite(x1)
        ? std::optional(std::pair(std::min(x0, x1), std::max(x0, x1)))
        : std::nullopt;
    if (bounds == m_xBounds)
        return;
    m_xBounds = bounds;
    scheduleRedraw();
}

void LineChart::setLogScale(bool on)
{
    if (on == m_logScale)
        return;
    m_logScale = on;
    if (m_userZoomed) { // a y range of the other scale means nothing here; keep the x zoom
        m_userZoomed = false;
        m_xZoomed = true;
        m_xOnly = { m_range.left(), m_range.right() };
    }
    m_layersDirty = true; // relayer() swaps the y axis
    m_appliedRange = QRectF();
    for (auto& [id, s] : m_series) {
        // Emptied now: values <= 0 must never reach the log axis (redrawNow refills them without).
        s->dirty = true;
        s->main->clear();
        s->raw->clear();
        s->band->upperSeries()->clear();
        s->band->lowerSeries()->clear();
    }
    scheduleRedraw();
    Q_EMIT logScaleChanged(on);
}

QAbstractAxis* LineChart::yAxis() const
{
    return m_logScale ? static_cast<QAbstractAxis*>(m_axisYLog) : static_cast<QAbstractAxis*>(m_axisY);
}

void LineChart::setUserRange(const QRectF& xy)
{
    QRectF r = xy.normalized();
    if (!std::isfinite(r.left()) || !std::isfinite(r.right()) || !std::isfinite(r.top()) || !std::isfinite(r.bottom()))
        return;
    // Keep a usable span (a zoom can't collapse the axis to a point).
    const double minSpan = 1e-12;
    if (r.width() < minSpan)
        r.setWidth(std::max(minSpan, std::abs(r.left()) * 1e-9));
    if (r.height() < minSpan)
        r.setHeight(std::max(minSpan, std::abs(r.top()) * 1e-9));
    m_range = r;
    m_userZoomed = true;
    scheduleRedraw();
}

QPointF LineChart::toValue(const QPointF& viewportPos) const
{
    const QPointF scene = m_view->mapToScene(viewportPos.toPoint());
    return m_chart->mapToValue(m_chart->mapFromScene(scene));
}

void LineChart::zoomToPixels(const QRectF& pixels)
{
    const QPointF a = toValue(pixels.topLeft());
    const QPointF b = toValue(pixels.bottomRight());
    userZoomed(QRectF(QPointF(std::min(a.x(), b.x()), std::min(a.y(), b.y())),
        QPointF(std::max(a.x(), b.x()), std::max(a.y(), b.y()))));
}

void LineChart::userZoomedX(double x0, double x1)
{
    if (!std::isfinite(x0) || !std::isfinite(x1))
        return;
    setXRange(x0, x1);
    Q_EMIT xRangeChanged(m_xOnly.first, m_xOnly.second);
}

void LineChart::zoomAround(const QPointF& anchor, double fx, double fy)
{
    const QRectF r = visibleRange();
    const QPointF a = toValue(anchor);
    const double x0 = a.x() - (a.x() - r.left()) * fx;
    const double x1 = a.x() + (r.right() - a.x()) * fx;
    if (fy == 1.0) {
        // x only (Ctrl+Shift+wheel): y follows the data in view, as it does on the charts linked to this one
        // (setXRange). It kept the y range of before, which new points or the data in view could leave: the line
        // ran off the plot.
        userZoomedX(x0, x1);
        return;
    }
    if (m_logScale && a.y() > 0.0 && r.top() > 0.0) { // zoom in decades: the same factor in log space
        const double ay = std::log10(a.y()), lo = std::log10(r.top()), hi = std::log10(r.bottom());
        userZoomed(
            QRectF(QPointF(x0, std::pow(10.0, ay - (ay - lo) * fy)), QPointF(x1, std::pow(10.0, ay + (hi - ay) * fy))));
        return;
    }
    const double y0 = a.y() - (a.y() - r.top()) * fy;
    const double y1 = a.y() + (r.bottom() - a.y()) * fy;
    userZoomed(QRectF(QPointF(x0, y0), QPointF(x1, y1)));
}

void LineChart::panByPixels(const QPointF& pixels)
{
    const QRectF plot = m_chart->plotArea();
    if (plot.width() <= 0 || plot.height() <= 0)
        return;
    const QRectF r = visibleRange();
    const double dx = pixels.x() / plot.width() * r.width();
    if (pixels.y() == 0.0 && !m_userZoomed) { // sideways (the arrow keys) with y not chosen by hand: y follows
        userZoomedX(r.left() - dx, r.right() - dx);
        return;
    }
    if (m_logScale && r.top() > 0.0) { // move in decades
        const double factor = std::pow(r.bottom() / r.top(), pixels.y() / plot.height()); // screen y grows downwards
        userZoomed(QRectF(QPointF(r.left() - dx, r.top() * factor), QPointF(r.right() - dx, r.bottom() * factor)));
        return;
    }
    const double dy = pixels.y() / plot.height() * r.height(); // screen y grows downwards
    userZoomed(r.translated(-dx, dy));
}

void LineChart::showHover(const QPointF& viewportPos)
{
    QStringList readout;
    const double x = placeCursor(toValue(viewportPos).x(), readout);
    Q_EMIT hovered(x, readout);
}

void LineChart::showCursorAt(double x)
{
    QStringList readout;
    placeCursor(x, readout);
}

void LineChart::hideCursor()
{
    m_cursorX.reset();
    m_view->hideCursor();
}

double LineChart::placeCursor(double mouseX, QStringList& readout)
{
    auto nearest = [](const std::vector<double>& xs, double at) {
        const auto it = std::lower_bound(xs.begin(), xs.end(), at);
        std::size_t i = static_cast<std::size_t>(it - xs.begin());
        if (i == xs.size() || (i > 0 && at - xs[i - 1] < xs[i] - at))
            i = i == 0 ? 0 : i - 1;
        return i;
    };
    // Snap the cursor to the data x nearest the mouse over all visible series, so the read-out shows values
    // that exist rather than interpolations.
    double x = mouseX;
    double best = std::numeric_limits<double>::infinity();
    for (const auto& [id, s] : m_series) {
        if (!s->visible || s->x.empty())
            continue;
        const double candidate = s->x[nearest(s->x, mouseX)];
        if (std::abs(candidate - mouseX) < best) {
            best = std::abs(candidate - mouseX);
            x = candidate;
        }
    }
    QList<LineChartView::ReadoutLine> lines;
    const QString xTitle = m_axisX->titleText();
    lines.append(
        { xTitle.isEmpty() ? tr("x = %1").arg(formatValue(x)) : tr("%1: %2").arg(xTitle, formatValue(x)), QColor() });
    const bool smoothed = m_smoothing > 0.0;
    for (auto& [id, s] : m_series) {
        if (!s->visible || s->x.empty())
            continue;
        const std::size_t i = nearest(s->x, x);
        QString text;
        if (smoothed) {
            s->ensureSmoothed(m_smoothing);
            text = tr("%1: %2 (raw %3)").arg(s->name, formatValue(s->smoothed[i]), formatValue(s->y[i]));
        } else {
            text = tr("%1: %2").arg(s->name, formatValue(s->y[i]));
        }
        readout.append(text);
        lines.append({ text, s->color });
    }
    const qreal sceneX = m_chart->mapToScene(m_chart->mapToPosition(QPointF(x, m_range.top()))).x();
    m_view->showCursor(sceneX, lines);
    m_cursorX = x;
    return x;
}

void LineChart::showContextMenu(const QPoint& globalPos)
{
    QMenu menu(this);
    QAction* reset = menu.addAction(tr("Reset zoom"));
    reset->setShortcut(QKeySequence(Qt::Key_Home));
    connect(reset, &QAction::triggered, this, &LineChart::userReset);
    QAction* log = menu.addAction(tr("Log scale"));
    log->setCheckable(true);
    log->setChecked(m_logScale);
    log->setToolTip(tr("Logarithmic y axis; values at or below 0 are left out"));
    connect(log, &QAction::toggled, this, &LineChart::setLogScale);
    QAction* exportAction = menu.addAction(tr("Export image…"));
    connect(exportAction, &QAction::triggered, this, [this] {
        const QString pngFilter = tr("PNG image (*.png)");
        const QString svgFilter = tr("SVG image (*.svg)");
        QString selected = pngFilter;
        QString path = filedialogs::getSaveFileName(
            this, tr("Export chart"), QString(), pngFilter + QStringLiteral(";;") + svgFilter, &selected);
        if (path.isEmpty())
            return;
        if (QFileInfo(path).suffix().isEmpty())
            path += selected == svgFilter ? QStringLiteral(".svg") : QStringLiteral(".png");
        QString error;
        if (!exportImage(path, &error))
            QMessageBox::warning(this, tr("Export chart"), error);
    });
    menu.exec(globalPos);
}

void LineChart::setSeriesVisible(int id, bool visible)
{
    if (Series* s = find(id)) {
        s->visible = visible;
        s->dirty = true;
        applyVisibility(*s);
        scheduleRedraw();
    }
}

bool LineChart::isSeriesVisible(int id) const
{
    const Series* s = find(id);
    return s && s->visible;
}

void LineChart::applyVisibility(Series& s)
{
    s.main->setVisible(s.visible);
    s.raw->setVisible(s.visible && m_smoothing > 0.0 && s.style.showRaw);
    s.band->setVisible(s.visible && !s.lower.empty());
    if (!s.main->chart())
        return;
    // Hiding a series hides its legend marker too; keep the marker (dimmed) so it can be clicked back on.
    const auto markers = m_chart->legend()->markers(s.main);
    for (QLegendMarker* marker : markers) {
        marker->setVisible(true);
        QColor label = palette().color(QPalette::WindowText);
        label.setAlpha(s.visible ? 255 : 90);
        marker->setLabelBrush(label);
        QColor swatch = s.color;
        swatch.setAlpha(s.visible ? 255 : 60);
        marker->setBrush(swatch);
        marker->setPen(Qt::NoPen);
    }
}

void LineChart::relayer()
{
    // Qt Charts stacks series in the order they were added: re-add all so that every band lies under every
    // raw curve, which lies under every main line, whatever order series and bands were created in.
    for (const QAbstractSeries* item : m_chart->series())
        m_chart->removeSeries(const_cast<QAbstractSeries*>(item));
    // The y axis of the scale (setLogScale): the other one comes off the chart (and is deleted with the LineChart).
    QAbstractAxis* unused = m_logScale ? static_cast<QAbstractAxis*>(m_axisY) : static_cast<QAbstractAxis*>(m_axisYLog);
    if (m_chart->axes().contains(unused))
        m_chart->removeAxis(unused);
    if (!m_chart->axes().contains(yAxis()))
        m_chart->addAxis(yAxis(), Qt::AlignLeft);
    for (int layer = 0; layer < 3; ++layer) {
        for (auto& [id, s] : m_series) {
            QAbstractSeries* item = layer == 0 ? static_cast<QAbstractSeries*>(s->band)
                : layer == 1                   ? static_cast<QAbstractSeries*>(s->raw)
                                               : static_cast<QAbstractSeries*>(s->main);
            m_chart->addSeries(item);
            item->attachAxis(m_axisX);
            item->attachAxis(yAxis());
            if (layer < 2) {
                for (QLegendMarker* marker : m_chart->legend()->markers(item))
                    marker->setVisible(false);
            }
        }
    }
    for (auto& [id, s] : m_series) {
        for (QLegendMarker* marker : m_chart->legend()->markers(s->main))
            connect(marker, &QLegendMarker::clicked, this, [this, marker] { legendMarkerClicked(marker); });
        applyVisibility(*s);
    }
    m_layersDirty = false;
}

void LineChart::legendMarkerClicked(QLegendMarker* marker)
{
    for (auto& [id, s] : m_series) {
        if (marker->series() == s->main) {
            setSeriesVisible(id, !s->visible);
            return;
        }
    }
}

bool LineChart::exportImage(const QString& path, QString* error)
{
    m_view->hideCursor();
    if (m_redrawTimer->isActive() || m_layersDirty)
        redrawNow();
    return exportWidgetImage(this, path, error);
}

} // namespace creditlab::ui::charts
