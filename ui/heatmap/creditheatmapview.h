#pragma once

#include "ui/heatmap/heatmapdata.h"
#include "ui/heatmap/heatmapmath.h"

#include <QAbstractScrollArea>
#include <QStringList>

class QPainter;

#include <functional>
#include <optional>
#include <utility>

namespace creditlab::ui::heatmap {

/// The per-turn credit heatmap (issue 7 §2): one row per trajectory, one column per turn (numbered from 1, as on
/// every page), a column block per shown method with its header, a success / failure strip at the row start, cells
/// where the first two shown methods disagree in sign outlined and struck through, and a colour bar with the range.
/// The colour scale is robust: it clips at the 98th percentile of |value| and the colour bar says so. Cells narrow
/// (down to kMinCellWidth) so that every shown block fits the width; only then does the view scroll sideways.
/// Custom-painted: only the visible rows are drawn. Hover shows a tooltip, a click emits turnActivated, the keyboard
/// scrolls (arrows, Page Up/Down, Home/End). Lives on the GUI thread.
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
    /// Symmetric colour range: `limit` when given, else the robust scale of the shown methods (robustColorScale:
    /// the 98th percentile of their non-zero |value|).
    void setColorLimit(std::optional<double> limit);
    const DivergingColorMap& colorMap() const { return m_colors; }
    /// The colour range in use and the largest |value| it may clip.
    const ColorScale& colorScale() const { return m_scale; }
    /// The colour bar's labels, top to bottom: "+limit", "0", "−limit"; "≥ +limit" and "≤ −limit" when clipped.
    QStringList colorBarLabels() const;
    /// The colour bar's tooltip: the range, and when clipped the percentile and the true largest |value|.
    QString colorBarToolTip() const;
    /// The viewport rectangle of the colour bar (its gradient, with the clip arrows when clipped).
    QRect colorBarRect() const;

    /// The narrowest cell the view fits blocks with before it scrolls sideways.
    static constexpr int kMinCellWidth = 4;
    /// The largest cell size in pixels (at least 1×1); the default is 12×12. Cells narrow below this width (to
    /// kMinCellWidth, or this width when smaller) so that every shown block fits the viewport.
    void setCellSize(QSize size);
    /// The cell size in use: the width fitted to the viewport, the height as set.
    QSize cellSize() const { return QSize(m_cellWidth, m_cell.height()); }

    /// Selects the cell of data row `row`, turn `turn` (0-based): outlined in the highlight colour in every block,
    /// and scrolled into view. GUI thread.
    void selectCell(std::size_t row, int turn);
    void clearSelection();
    /// The selected (data row, turn), if any.
    std::optional<std::pair<std::size_t, int>> selectedCell() const { return m_selected; }

    /// The colour of the outcome strip at the row start.
    static QColor outcomeColor(bool success);
    /// Paints the sign-disagreement mark over a cell of colour `fill`: a dark outline and a diagonal stroke in the
    /// colour that reads on `fill`. Shared with the legend.
    static void paintDisagreementMark(QPainter& painter, const QRect& cell, QColor fill);
    void setActionTextProvider(ActionTextProvider provider) { m_actionText = std::move(provider); }
    /// The sign-disagreement mask (rows × columns, data order) of the first two shown methods; empty when
    /// fewer than two are shown.
    const std::vector<std::uint8_t>& disagreementMask() const { return m_mask; }

    /// The cell at `pos` (viewport coordinates), if any.
    std::optional<Cell> cellAt(QPoint pos) const;
    /// The viewport rectangle of a cell (display row = position in displayedRows()).
    QRect cellRect(std::size_t displayRow, int turn, int method) const;
    /// Tooltip text of a data row's turn: trajectory id, turn number (from 1), each shown method's value, the action.
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
    // Layout in pixels (the painting lives in creditheatmapviewpaint.cpp).
    static constexpr int kStripWidth = 6; ///< the success / failure strip
    static constexpr int kStripGap = 3;
    static constexpr int kBlockGap = 12;
    static constexpr int kBarAreaWidth = 84; ///< the colour bar and its labels
    static constexpr int kBarWidth = 14;
    static constexpr int kArrowHeight = 8; ///< the clip arrows at the colour bar's ends

    void rebuild();
    void updateScrollBars();
    void fitCells(); ///< sets m_cellWidth so that the shown blocks fit the viewport
    int headerHeight() const;
    int blockWidth() const;
    int blockLeft(int block) const; ///< viewport x of a block's first cell
    QRect cellArea() const; ///< the scrolled part of the viewport
    void paintBlock(QPainter& painter, int block, std::size_t firstRow, std::size_t lastRow);
    void paintColorBar(QPainter& painter);
    void paintHeader(QPainter& painter);
    void paintSelection(QPainter& painter, std::size_t firstRow, std::size_t lastRow);

    HeatmapDataPtr m_data;
    QStringList m_requestedMethods;
    std::vector<int> m_shown;
    RowOrder m_order = RowOrder::Stored;
    std::vector<std::size_t> m_rows;
    std::vector<std::size_t> m_displayOf; ///< data row → display row
    std::vector<std::uint8_t> m_mask;
    std::optional<double> m_limit;
    DivergingColorMap m_colors;
    ColorScale m_scale;
    QSize m_cell { 12, 12 };
    int m_cellWidth = 12;
    std::optional<std::pair<std::size_t, int>> m_selected;
    ActionTextProvider m_actionText;
};

} // namespace creditlab::ui::heatmap
