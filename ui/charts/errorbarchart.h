#pragma once

#include <QColor>
#include <QStringList>
#include <QWidget>

#include <vector>

class QChart;

namespace creditlab::ui::charts {

class ErrorBarView;

/// Lines with error bars: y = mean ± std (e.g. final success vs a swept parameter), one line per series;
/// x values may be numeric or categorical (labels). Hovering a point shows its mean, std and n.
/// GUI thread only.
class ErrorBarChart : public QWidget {
    Q_OBJECT
public:
    explicit ErrorBarChart(QWidget* parent = nullptr);
    ~ErrorBarChart() override;

    void setTitle(const QString& title);
    void setAxisTitles(const QString& x, const QString& y);

    /// One x position of a series: mean and standard deviation over n samples (std may be NaN: no bar).
    struct Point {
        double x;
        double mean;
        double std;
        int n;
    };
    /// One line of the chart as given to addSeries (points sorted by x).
    struct Line {
        QString name;
        QColor color;
        std::vector<Point> points;
    };

    void clear();
    /// Adds a line; returns its index. Tableau 10 colours when `color` is invalid.
    int addSeries(const QString& name, const std::vector<Point>& points, QColor color = {});
    /// When set, x ticks show these labels at x = 0..n-1 (categorical parameter values); empty: numeric x.
    void setCategories(const QStringList& labels);
    int seriesCount() const { return static_cast<int>(m_lines.size()); }

    bool exportImage(const QString& path, QString* error = nullptr);

private:
    void rebuild();

    QChart* m_chart;
    ErrorBarView* m_view;
    std::vector<Line> m_lines;
    QStringList m_categories;
    QString m_xTitle;
    QString m_yTitle;
};

} // namespace creditlab::ui::charts
