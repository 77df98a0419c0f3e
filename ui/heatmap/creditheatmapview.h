#pragma once

#include "ui/heatmap/heatmapdata.h"
#include "ui/heatmap/heatmapmath.h"

#include <QAbstractScrollArea>
#include <QStringList>

#include <functional>
#include <optional>

namespace creditlab::ui::heatmap {

/// The per-turn credit heatmap (issue 7 §2): one row per trajectory, one column per turn, a column block
/// per shown method with its header, a success (green) / failure (red) strip at the row start, cells
/// where the first two shown methods disagree in sign outlined, and a colour bar with the range.
/// Custom-painted: only the visible rows are drawn. Hover shows a tooltip, a click emits turnActivated,
/// the keyboard scrolls (arrows, Page Up/Down, Home/End). Lives on the GUI thread.
class CreditHeatmapView : public QAbstractScrollArea {
    Q_OBJECT
public:
    /// A cell under a point: the data row (not the display position), the turn and the method index.
    struct Cell {
        std::size_t row = 0;
        int turn = 0;
        int method = 0;
    };
    /// Returns the action text of a turn for the tooltip (may be empty); called on the GUI thread.
    using ActionTextProvider = std::function<QString(qint64 rowId, int turn)>;

    explicit CreditHeatmapView(QWidget* parent = nullptr);

    /// Shows `data` with all its methods (nullptr clears the view).
    void setData(HeatmapDataPtr data);
    HeatmapDataPtr data() const { return m_data; }
    /// Shows only these methods, in this order; unknown names are skipped. Empty shows all.
    void setShownMethods(const QStringList& methods);
    /// The method indices (into data()->methods) drawn as blocks, left to right.
    const std::vector<int>& shownMethods() const { return m_shown; }
    int methodBlockCount() const { return static_cast<int>(m_shown.size()); }

    void setRowOrder(RowOrder order);
    RowOrder rowOrder() const { return m_order; }
    /// Data row indices from top to bottom.
    const std::vector<std::size_t>& displayedRows() const { return m_rows; }
    /// Symmetric colour range: `limit` when given, else max |value| over the shown methods.
    void setColorLimit(std::optional<double> limit);
    const DivergingColorMap& colorMap() const { return m_colors; }
    /// Cell size in pixels (at least 1×1); the default is 12×12.
    void setCellSize(QSize size);
    QSize cellSize() const { return m_cell; }
    void setActionTextProvider(ActionTextProvider provider) { m_actionText = std::move(provider); }
    /// The sign-disagreement mask (rows × columns, data order) of the first two shown methods; empty when
    /// fewer than two are shown.
    const std::vector<std::uint8_t>& disagreementMask() const { return m_mask; }

    /// The cell at `pos` (viewport coordinates), if any.
    std::optional<Cell> cellAt(QPoint pos) const;
    /// The viewport rectangle of a cell (display row = position in displayedRows()).
    QRect cellRect(std::size_t displayRow, int turn, int method) const;
    /// Tooltip text of a data row's turn: trajectory id, turn index, each shown method's value, the action.
    QString toolTipText(std::size_t row, int turn) const;
    /// Scrolls so that a display row is visible.
    void scrollToDisplayRow(std::size_t displayRow);
    /// Writes the visible area as PNG (or SVG when `path` ends in .svg); false and `error` on failure.
    bool exportImage(const QString& path, QString* error = nullptr);

Q_SIGNALS:
    /// A cell was clicked: the trajectory's store row id and the turn index.
    void turnActivated(qint64 rowId, int turn);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    void rebuild();
    void updateScrollBars();
    int headerHeight() const;
    int blockWidth() const;
    int blockLeft(int block) const; ///< viewport x of a block's first cell
    QRect cellArea() const; ///< the scrolled part of the viewport
    void paintBlock(QPainter& painter, int block, std::size_t firstRow, std::size_t lastRow);
    void paintColorBar(QPainter& painter);

    HeatmapDataPtr m_data;
    QStringList m_requestedMethods;
    std::vector<int> m_shown;
    RowOrder m_order = RowOrder::Stored;
    std::vector<std::size_t> m_rows;
    std::vector<std::uint8_t> m_mask;
    std::optional<double> m_limit;
    DivergingColorMap m_colors;
    QSize m_cell { 12, 12 };
    ActionTextProvider m_actionText;
};

} // namespace creditlab::ui::heatmap
