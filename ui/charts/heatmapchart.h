#pragma once

#include <QColor>
#include <QStringList>
#include <QWidget>

#include <vector>

namespace creditlab::ui::charts {

/// A custom-painted value grid (rows × columns) with a sequential colour map (viridis), a colour bar, row and
/// column labels and the value printed in each cell (e.g. mean success over HAS alpha × lambda). NaN cells are
/// drawn hatched/grey as "no data". Hover shows row, column, value. GUI thread only.
class HeatmapChart : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapChart(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    void setAxisTitles(const QString& x, const QString& y);
    /// Replaces the grid; `values` is row-major, rowLabels.size() × columnLabels.size() (missing cells are NaN,
    /// extra values are dropped). The colour range becomes the finite min..max unless setValueRange fixed it.
    void setData(const QStringList& rowLabels, const QStringList& columnLabels, std::vector<double> values);
    /// Fixes the colour range (e.g. 0..1 for success rates); NaN for either end returns to the data range.
    void setValueRange(double min, double max);
    double valueMin() const { return m_min; }
    double valueMax() const { return m_max; }
    /// The value at (row, column); NaN outside the grid or for "no data".
    double value(int row, int column) const;

    /// The colour of a value under the current range (tests). NaN gives the "no data" grey.
    QColor colorAt(double value) const;
    bool exportImage(const QString& path, QString* error = nullptr);

    QSize sizeHint() const override;

Q_SIGNALS:
    /// The mouse moved onto cell (row, column) holding `value` (NaN: no data).
    void cellHovered(int row, int column, double value);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct Geometry {
        QRectF title;
        QRectF grid;
        QRectF colorBar;
        qreal rowLabelWidth = 0;
        qreal cellWidth = 0;
        qreal cellHeight = 0;
    };
    Geometry geometry() const;
    void updateRange();
    QString formatValue(double v) const;

    QString m_title;
    QString m_xTitle;
    QString m_yTitle;
    QStringList m_rows;
    QStringList m_columns;
    std::vector<double> m_values;
    double m_fixedMin;
    double m_fixedMax;
    double m_min = 0.0;
    double m_max = 1.0;
    int m_hoverRow = -1;
    int m_hoverColumn = -1;
};

} // namespace creditlab::ui::charts
