#pragma once

#include "ui/charts/chartmath.h"

#include <QColor>
#include <QRectF>
#include <QStringList>
#include <QWidget>

#include <map>
#include <memory>
#include <vector>

class QChart;
class QLegendMarker;
class QTimer;
class QValueAxis;

namespace creditlab::ui::charts {

class LineChartView;

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
/// every horizontal pixel column (decimateMinMax), so spikes stay visible at any zoom. Interaction: wheel
/// zooms around the cursor (Ctrl: y only, Shift: x only), left drag zooms to a rectangle, right/middle or
/// Shift+left drag pans, double-click or Home resets, +/- and arrows zoom and pan, right click opens a menu
/// (Reset zoom, Export image…), clicking a legend entry toggles its series.
class LineChart : public QWidget {
    Q_OBJECT
public:
    explicit LineChart(QWidget* parent = nullptr);
    ~LineChart() override;

    void setTitle(const QString& title);
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
    /// True after the user (or setVisibleRange) zoomed or panned, until resetZoom().
    bool isZoomed() const { return m_userZoomed; }

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
    QRectF dataBounds() const;
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
    QTimer* m_redrawTimer;
    std::map<int, std::unique_ptr<Series>> m_series;
    int m_nextId = 0;
    double m_smoothing = 0.0;
    bool m_userZoomed = false;
    bool m_layersDirty = false;
    QRectF m_range { 0, 0, 1, 1 };
    QRectF m_appliedRange; ///< the range the axes were last set to
    int m_appliedColumns = 0; ///< the decimation width of the last redraw
};

} // namespace creditlab::ui::charts
