#pragma once

#include <QStringList>
#include <QWidget>

namespace creditlab::ui::heatmap {

/// The key to the heatmap's marks, in one line under it: the outcome strip at each row's start (success, failure),
/// the sign-disagreement mark of the first two shown methods, and the grey of a turn without credit. The swatches
/// are painted as the view paints them (CreditHeatmapView::outcomeColor, paintDisagreementMark). Lives on the GUI
/// thread.
class HeatmapLegend : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapLegend(QWidget* parent = nullptr);

    /// The two methods whose sign disagreement the view marks; an empty one hides that entry.
    void setComparedMethods(const QString& first, const QString& second);
    /// The entries' texts, left to right.
    QStringList entries() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    enum class Swatch { Success, Failure, Disagreement, Missing };
    struct Entry {
        Swatch swatch;
        QString text;
    };
    std::vector<Entry> visibleEntries() const;

    QString m_first;
    QString m_second;
};

} // namespace creditlab::ui::heatmap
