// CreditHeatmapView's painting: the visible cells of each block, the disagreement marks and the selection over them,
// the header (method names, turn numbers from 1) and the colour bar with its clip marks.
#include "ui/heatmap/creditheatmapview.h"

#include "ui/charts/colours.h"

#include <QImage>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>

#include <algorithm>

namespace creditlab::ui::heatmap {

namespace {

/// The outline of a disagreement mark: black reads on every colour of the diverging map (the diagonal stroke takes
/// the colour that reads on the cell, textOn).
constexpr QRgb kMarkOutline = qRgb(0, 0, 0);

} // namespace

QColor CreditHeatmapView::outcomeColor(bool success)
{
    return QColor::fromRgb(success ? colours::kSuccess : colours::kFailure);
}

void CreditHeatmapView::paintDisagreementMark(QPainter& painter, const QRect& cell, QColor fill)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(QColor::fromRgb(kMarkOutline), 1));
    painter.drawRect(cell.adjusted(0, 0, -1, -1));
    // A diagonal stroke across the inside: seen at a glance even where the outline merges with a dark cell.
    const QRect inside = cell.adjusted(1, 1, -2, -2);
    if (inside.width() > 0 && inside.height() > 0) {
        painter.setPen(QPen(colours::textOn(fill), 1));
        painter.drawLine(inside.bottomLeft(), inside.topRight());
    }
    painter.restore();
}

QRect CreditHeatmapView::colorBarRect() const
{
    const QRect area = cellArea();
    const int half = fontMetrics().height() / 2;
    return QRect(area.right() + 10, area.top() + half + kArrowHeight, kBarWidth,
        std::max(10, area.height() - 2 * half - 2 * kArrowHeight));
}

void CreditHeatmapView::paintEvent(QPaintEvent*)
{
    QPainter painter(viewport());
    painter.fillRect(viewport()->rect(), palette().base());
    if (!m_data || m_rows.empty() || m_shown.empty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(viewport()->rect(), Qt::AlignCenter, tr("No credits to show"));
        return;
    }
    const QRect area = cellArea();
    const int scrollY = verticalScrollBar()->value();
    const std::size_t firstRow = static_cast<std::size_t>(scrollY / m_cell.height());
    const std::size_t lastRow
        = std::min(m_rows.size(), static_cast<std::size_t>((scrollY + area.height()) / m_cell.height() + 1));

    painter.save();
    painter.setClipRect(area);
    for (std::size_t d = firstRow; d < lastRow; ++d) {
        const int top = area.top() + static_cast<int>(d) * m_cell.height() - scrollY;
        painter.fillRect(0, top, kStripWidth, m_cell.height(), outcomeColor(m_data->rows[m_rows[d]].success));
    }
    for (int block = 0; block < methodBlockCount(); ++block)
        paintBlock(painter, block, firstRow, lastRow);
    paintSelection(painter, firstRow, lastRow);
    painter.restore();

    paintHeader(painter);
    paintColorBar(painter);
}

void CreditHeatmapView::paintHeader(QPainter& painter)
{
    // Method names, then turn numbers (from 1, as every page numbers turns) at a spacing that fits the text.
    const QRect area = cellArea();
    const QFontMetrics metrics = fontMetrics();
    const int labelWidth = metrics.horizontalAdvance(QString::number(m_data->columns)) + 4;
    int step = 1;
    for (const int candidate : { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 }) {
        step = candidate;
        if (candidate * m_cellWidth >= labelWidth)
            break;
    }
    // Labels sit on the turns numbered 1, step, 2·step, …; "1" only when it leaves room for the next label.
    const bool labelFirst = step == 1 || (step - 1) * m_cellWidth >= labelWidth;
    painter.save();
    painter.setClipRect(QRect(0, 0, area.width(), headerHeight()));
    painter.setPen(palette().color(QPalette::Text));
    for (int block = 0; block < methodBlockCount(); ++block) {
        const int left = blockLeft(block);
        const QString name = QString::fromStdString(m_data->methods[m_shown[static_cast<std::size_t>(block)]]);
        painter.drawText(QRect(left, 2, blockWidth(), metrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(name, Qt::ElideRight, std::max(blockWidth(), metrics.height())));
        const int baseline = 4 + 2 * metrics.height() - metrics.descent();
        if (labelFirst)
            painter.drawText(QPoint(left, baseline), QStringLiteral("1"));
        for (int number = step; number <= m_data->columns; number += step)
            if (number > 1)
                painter.drawText(QPoint(left + (number - 1) * m_cellWidth, baseline), QString::number(number));
    }
    painter.restore();
}

void CreditHeatmapView::paintBlock(QPainter& painter, int block, std::size_t firstRow, std::size_t lastRow)
{
    if (lastRow <= firstRow)
        return;
    const int method = m_shown[static_cast<std::size_t>(block)];
    const std::vector<double>& values = m_data->values[static_cast<std::size_t>(method)];
    const int columns = m_data->columns;
    const std::size_t columnCount = static_cast<std::size_t>(columns);
    const int rowCount = static_cast<int>(lastRow - firstRow);
    // The marks show the sign disagreement of the first two blocks, in both. Cells under 4 px have no room for
    // a mark: the mark is the outline colour filling the cell.
    const bool mark = !m_mask.empty() && block <= 1;
    const bool tiny = m_cellWidth < 4 || m_cell.height() < 4;
    // One pixel per cell, scaled up without smoothing: the cost is the visible cells, not their size.
    QImage cells(columns, rowCount, QImage::Format_RGB32);
    for (int y = 0; y < rowCount; ++y) {
        auto* line = reinterpret_cast<QRgb*>(cells.scanLine(y));
        const std::size_t base = m_rows[firstRow + static_cast<std::size_t>(y)] * columnCount;
        const double* row = values.data() + base;
        for (int x = 0; x < columns; ++x)
            line[x]
                = mark && tiny && m_mask[base + static_cast<std::size_t>(x)] ? kMarkOutline : m_colors.tableRgb(row[x]);
    }
    const int top = cellArea().top() + static_cast<int>(firstRow) * m_cell.height() - verticalScrollBar()->value();
    const QRect target(blockLeft(block), top, columns * m_cellWidth, rowCount * m_cell.height());
    painter.drawImage(target, cells);

    if (!mark || tiny)
        return;
    for (int y = 0; y < rowCount; ++y) {
        const std::size_t base = m_rows[firstRow + static_cast<std::size_t>(y)] * columnCount;
        for (int x = 0; x < columns; ++x) {
            if (m_mask[base + static_cast<std::size_t>(x)])
                paintDisagreementMark(painter,
                    QRect(target.left() + x * m_cellWidth, top + y * m_cell.height(), m_cellWidth, m_cell.height()),
                    QColor::fromRgb(cells.pixel(x, y)));
        }
    }
}

void CreditHeatmapView::paintSelection(QPainter& painter, std::size_t firstRow, std::size_t lastRow)
{
    if (!m_selected || m_selected->first >= m_displayOf.size())
        return;
    const std::size_t display = m_displayOf[m_selected->first];
    if (display < firstRow || display >= lastRow)
        return;
    // A 2 px frame over the cell's edge, filled rather than stroked so that it lands on the same pixels everywhere.
    const QColor highlight = QColor::fromRgb(colours::kHighlight);
    for (const int method : m_shown) {
        const QRect r = cellRect(display, m_selected->second, method).adjusted(-1, -1, 1, 1);
        painter.fillRect(QRect(r.left(), r.top(), r.width(), 2), highlight);
        painter.fillRect(QRect(r.left(), r.bottom() - 1, r.width(), 2), highlight);
        painter.fillRect(QRect(r.left(), r.top(), 2, r.height()), highlight);
        painter.fillRect(QRect(r.right() - 1, r.top(), 2, r.height()), highlight);
    }
}

void CreditHeatmapView::paintColorBar(QPainter& painter)
{
    const QFontMetrics metrics = fontMetrics();
    const QRect bar = colorBarRect();
    QLinearGradient gradient(bar.topLeft(), bar.bottomLeft());
    gradient.setColorAt(0.0, QColor::fromRgb(DivergingColorMap::kPositive));
    gradient.setColorAt(0.5, QColor::fromRgb(DivergingColorMap::kZero));
    gradient.setColorAt(1.0, QColor::fromRgb(DivergingColorMap::kNegative));
    painter.fillRect(bar, gradient);
    const QColor text = palette().color(QPalette::Text);
    painter.setPen(text);
    painter.drawRect(bar.adjusted(0, 0, -1, -1));
    const bool clipped = m_scale.clipped();
    if (clipped) {
        // Arrows at both ends, in the end colours: values beyond the limit are drawn in them (matplotlib's
        // "extend" colour bars).
        painter.save();
        painter.setRenderHint(QPainter::Antialiasing, true);
        const double left = bar.left(), right = bar.left() + bar.width() - 1, middle = (left + right) / 2.0;
        QPainterPath up;
        up.moveTo(left, bar.top());
        up.lineTo(right, bar.top());
        up.lineTo(middle, bar.top() - kArrowHeight);
        up.closeSubpath();
        QPainterPath down;
        down.moveTo(left, bar.bottom());
        down.lineTo(right, bar.bottom());
        down.lineTo(middle, bar.bottom() + kArrowHeight);
        down.closeSubpath();
        painter.setPen(QPen(text, 1));
        painter.setBrush(QColor::fromRgb(DivergingColorMap::kPositive));
        painter.drawPath(up);
        painter.setBrush(QColor::fromRgb(DivergingColorMap::kNegative));
        painter.drawPath(down);
        painter.restore();
    }
    const QStringList labels = colorBarLabels();
    const int textX = bar.right() + 4;
    const int half = metrics.ascent() / 2;
    painter.drawText(QPoint(textX, bar.top() + half), labels.at(0));
    painter.drawText(QPoint(textX, bar.center().y() + half), labels.at(1));
    painter.drawText(QPoint(textX, bar.bottom() + half), labels.at(2));
    const int titleWidth = kBarAreaWidth - 12;
    painter.drawText(QRect(bar.left(), 2, titleWidth, metrics.height()), Qt::AlignLeft,
        metrics.elidedText(tr("advantage"), Qt::ElideRight, titleWidth));
    if (clipped)
        painter.drawText(QRect(bar.left(), 2 + metrics.height(), titleWidth, metrics.height()), Qt::AlignLeft,
            metrics.elidedText(tr("clipped"), Qt::ElideRight, titleWidth));
}

} // namespace creditlab::ui::heatmap
