#pragma once

#include "ui/charts/chartmath.h"

#include <QColor>
#include <QRectF>
#include <QStringList>
#include <QWidget>

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QAbstractAxis;
class QChart;
class QLegendMarker;
class QLogValueAxis;
class QTimer;
class QValueAxis;

namespace creditlab::ui::charts {

class LineChartView;

/// The EMA smoothing weight every page's charts start with (TensorBoard's default), so that the Monitor and Compare
/// draw the same curve from the same numbers.
inline constexpr double kDefaultSmoothing = 0.6;

/// What the x values mean; only a label helper (the data x is whatever the caller gives).
enum class XAlign { Iteration, WallTime };

/// How one series is drawn.
struct SeriesStyle {
    bool dashed = false;
    qreal width = 1.6;
    bool showRaw = true; ///< the faded raw curve under the smoothed one (when smoothing > 0)
};

/// A 2-D line chart widget over Qt Charts with min/max decimation, debiased EMA smoothing with the faded raw
/// curve underneath, optional mean±std bands, hover read-out, zoom and pan. GUI thread only.
///
/// No point is ever dropped: each redraw decimates the visible x range to the first, last, min and max of
/// every horizontal pixel column (decimateMinMax), so spikes stay visible at any zoom. Interaction: the plain wheel
/// is left to the page (it scrolls a page of charts); Ctrl+wheel zooms around the cursor (Ctrl+Shift: x only, with y
/// fitted to the data in view, also as points arrive), left drag zooms to a rectangle, right/middle or Shift+left drag
/// pans, double-click or Home resets, +/- and arrows zoom and pan (left/right keep y fitted unless y was zoomed by
/// hand), right click opens a menu (Reset zoom, Log scale, Export image…), clicking a legend entry toggles its
/// series. ChartGroup links charts: one crosshair, one x zoom, one x range.
class LineChart : public QWidget {
    Q_OBJECT
public:
    explicit LineChart(QWidget* parent = nullptr);
    ~LineChart() override;

    void setTitle(const QString& title);
    QString title() const;
    void setAxisTitles(const QString& x, const QString& y);
    /// Sets the x axis title from `align` ("Iteration" or "Wall time (s)").
    void setXAlign(XAlign align);

    /// Adds an empty series; returns its id (>= 0). A default colour from a 10-colour qualitative palette
    /// (Tableau 10) when `color` is invalid.
    int addSeries(const QString& name, QColor color = {});
    void removeSeries(int id);
    void clear(); ///< removes all series
    int seriesCount() const;
    QColor seriesColor(int id) const;
    void setSeriesStyle(int id, const SeriesStyle& style);
    /// Shows or hides the legend (a chart of one metric of one run needs none: its title names it).
    void setLegendVisible(bool visible);
    /// Where the legend sits: Qt::AlignBottom (the default: one row) or Qt::AlignRight (one entry per line, for a
    /// narrow chart of several series whose names would be cut in one row).
    void setLegendAlignment(Qt::Alignment alignment);
    /// Shows or hides a series (what clicking its legend entry does).
    void setSeriesVisible(int id, bool visible);
    bool isSeriesVisible(int id) const;
    /// Replaces the data; x must be ascending (not checked). Extra values of the longer vector are dropped.
    void setSeriesData(int id, std::vector<double> x, std::vector<double> y);
    /// Appends points (batched); the redraw is coalesced on a ~40 ms single-shot timer (STYLE rule 7).
    void appendPoints(int id, const std::vector<double>& x, const std::vector<double>& y);
    /// A shaded band (e.g. mean ± std over seeds) drawn under the series; same length as the series' x.
    /// Empty vectors remove the band.
    void setSeriesBand(int id, std::vector<double> lower, std::vector<double> upper);
    qsizetype pointCount(int id) const; ///< raw points stored (never fewer than given)

    /// EMA weight in [0, 0.999]; 0 = no smoothing (then no faded raw curve).
    void setSmoothing(double weight);
    double smoothing() const;

    /// Fits the axes to all data (also: double-click, Home key, "Reset zoom" in the context menu).
    void resetZoom();
    /// The visible ranges: left()/right() are x min/max, top()/bottom() are y min/max (data units).
    QRectF visibleRange() const;
    /// Shows `xy` (same convention as visibleRange()); the view then stays put when data is appended.
    void setVisibleRange(const QRectF& xy);
    /// True after the user (or setVisibleRange or setXRange) zoomed or panned, until resetZoom().
    bool isZoomed() const { return m_userZoomed || m_xZoomed; }
    /// Shows x in [x0, x1] with y fitted to the data there (what a ChartGroup does with another chart's zoom).
    void setXRange(double x0, double x1);
    /// The x range shown when not zoomed is at least [x0, x1] (charts of one page share one x axis); NaN clears it.
    void setXBounds(double x0, double x1);
    /// The x extent of the visible series' data; nullopt when there is none.
    std::optional<std::pair<double, double>> dataXRange() const;

    /// A base-10 logarithmic y axis. Values ≤ 0 cannot be drawn on it: they are left out of the lines and the y
    /// range (a gap), and a chart with no positive value says so. Also in the context menu.
    void setLogScale(bool on);
    bool isLogScale() const { return m_logScale; }

    /// Shows the vertical cursor and the read-out at the data x nearest `x` (another chart's crosshair), without
    /// emitting hovered().
    void showCursorAt(double x);
    void hideCursor();
    /// The data x of the cursor shown (hover or showCursorAt); nullopt when none.
    std::optional<double> cursorX() const { return m_cursorX; }

    /// Redraws now (what the timer does); used by tests and the benchmark.
    void redrawNow();
    /// Number of points currently handed to Qt Charts for series `id`'s main (smoothed or raw) line, after
    /// decimation; for tests.
    qsizetype drawnPointCount(int id) const;

    /// Writes the chart as PNG (raster, device-pixel ratio 2) or SVG (QSvgGenerator) chosen by the suffix;
    /// false with a message naming the path on failure.
    bool exportImage(const QString& path, QString* error = nullptr);

Q_SIGNALS:
    /// The mouse is over the plot at data x; one "name: y" entry per visible series with y at the nearest x
    /// (smoothed, followed by " (raw r)" when smoothing is on). Also shown as an in-chart read-out box.
    void hovered(double x, const QStringList& readout);
    /// The mouse left the plot.
    void hoverLeft();
    /// The user zoomed or panned (wheel, drag, keys): the x range now shown.
    void xRangeChanged(double x0, double x1);
    /// The user reset the zoom (double-click, Home, the menu).
    void zoomReset();
    /// The log scale was switched (setLogScale or the menu).
    void logScaleChanged(bool on);
    /// A redraw finished (timer or redrawNow()).
    void redrawn();

private:
    struct Series;

    Series* find(int id) const;
    /// Detaches and deletes the Qt Charts items of a series (the band's line series after the band).
    void deleteItems(Series& s);
    void scheduleRedraw();
    void relayer();
    void styleSeries(Series& s);
    void applyVisibility(Series& s);
    /// The y extent of the visible series over x in [x0, x1] (positive values only on a log scale); nullopt when
    /// there is none.
    std::optional<std::pair<double, double>> yExtent(double x0, double x1) const;
    /// Where the axes go when the user has not zoomed both: the data (with the x bounds), or the x-only zoom.
    QRectF autoRange() const;
    void userZoomed(const QRectF& xy);
    /// The user zoomed or panned the x axis only: x shows [x0, x1], y is fitted to the data there (setXRange).
    void userZoomedX(double x0, double x1);
    void userReset();
    /// Shows the cursor at the data x nearest `x` and returns that x; `readout` gets the lines for hovered().
    double placeCursor(double x, QStringList& readout);
    QAbstractAxis* yAxis() const;
    void applyAxes();
    int plotColumns() const;
    QPointF toValue(const QPointF& viewportPos) const;
    void setUserRange(const QRectF& xy);
    void zoomToPixels(const QRectF& pixels);
    void zoomAround(const QPointF& anchor, double fx, double fy);
    void panByPixels(const QPointF& pixels);
    void showHover(const QPointF& viewportPos);
    void showContextMenu(const QPoint& globalPos);
    void legendMarkerClicked(QLegendMarker* marker);

    QChart* m_chart;
    LineChartView* m_view;
    QValueAxis* m_axisX;
    QValueAxis* m_axisY;
    QLogValueAxis* m_axisYLog; ///< replaces m_axisY on the chart while m_logScale
    QTimer* m_redrawTimer;
    std::map<int, std::unique_ptr<Series>> m_series;
    int m_nextId = 0;
    double m_smoothing = 0.0;
    bool m_userZoomed = false;
    bool m_xZoomed = false; ///< setXRange: x fixed to m_xOnly, y fitted
    std::pair<double, double> m_xOnly { 0.0, 1.0 };
    std::optional<std::pair<double, double>> m_xBounds;
    bool m_logScale = false;
    std::optional<double> m_cursorX;
    bool m_layersDirty = false;
    QRectF m_range { 0, 0, 1, 1 };
    QRectF m_appliedRange; ///< the range the axes were last set to
    int m_appliedColumns = 0; ///< the decimation width of the last redraw
};

} // namespace creditlab::ui::charts
