#include "ui/heatmap/creditheatmapview.h"

#include "ui/charts/chartexport.h"

#include <QHelpEvent>
#include <QImage>
#include <QKeyEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace creditlab::ui::heatmap {

namespace {

constexpr int kStripWidth = 6; // success / failure marker
constexpr int kStripGap = 3;
constexpr int kBlockGap = 12;
constexpr int kBarAreaWidth = 72; // colour bar and its labels
constexpr int kBarWidth = 14;
constexpr int kMaxActionChars = 240;
const QColor kSuccessColor(46, 160, 67);
const QColor kFailureColor(207, 34, 46);

QString formatValue(double value) { return std::isnan(value) ? QStringLiteral("–") : QString::number(value, 'g', 4); }

} // namespace

CreditHeatmapView::CreditHeatmapView(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(240, 160);
}

void CreditHeatmapView::setData(HeatmapDataPtr data)
{
    m_data = std::move(data);
    rebuild();
}

void CreditHeatmapView::setShownMethods(const QStringList& methods)
{
    m_requestedMethods = methods;
    rebuild();
}

void CreditHeatmapView::setRowOrder(RowOrder order)
{
    m_order = order;
    rebuild();
}

void CreditHeatmapView::setColorLimit(std::optional<double> limit)
{
    m_limit = limit;
    rebuild();
}

void CreditHeatmapView::setCellSize(QSize size)
{
    m_cell = size.expandedTo(QSize(1, 1));
    updateScrollBars();
    viewport()->update();
}

void CreditHeatmapView::rebuild()
{
    m_shown.clear();
    m_mask.clear();
    m_rows.clear();
    if (m_data) {
        if (m_requestedMethods.isEmpty()) {
            for (std::size_t m = 0; m < m_data->methods.size(); ++m)
                m_shown.push_back(static_cast<int>(m));
        } else {
            for (const QString& name : m_requestedMethods) {
                const int index = m_data->methodIndex(name.toStdString());
                if (index >= 0 && std::find(m_shown.begin(), m_shown.end(), index) == m_shown.end())
                    m_shown.push_back(index);
            }
        }
        if (m_shown.size() >= 2)
            m_mask = signDisagreementMask(m_data->values[m_shown[0]], m_data->values[m_shown[1]]);
        m_rows = orderRows(*m_data, m_order, m_mask);
        double range = 0.0;
        for (const int m : m_shown)
            range = std::max(range, maxAbsValue({ m_data->values[m] }));
        m_colors = DivergingColorMap(m_limit.value_or(range));
    } else {
        m_colors = DivergingColorMap(m_limit.value_or(0.0));
    }
    updateScrollBars();
    viewport()->update();
}

int CreditHeatmapView::headerHeight() const { return 2 * fontMetrics().height() + 6; }

int CreditHeatmapView::blockWidth() const { return m_data ? m_data->columns * m_cell.width() : 0; }

int CreditHeatmapView::blockLeft(int block) const
{
    return kStripWidth + kStripGap + block * (blockWidth() + kBlockGap) - horizontalScrollBar()->value();
}

QRect CreditHeatmapView::cellArea() const
{
    const QSize size = viewport()->size();
    return QRect(
        0, headerHeight(), std::max(0, size.width() - kBarAreaWidth), std::max(0, size.height() - headerHeight()));
}

void CreditHeatmapView::updateScrollBars()
{
    const QRect area = cellArea();
    const int rows = static_cast<int>(m_rows.size());
    const int contentHeight = rows * m_cell.height();
    const int blocks = methodBlockCount();
    const int contentWidth
        = kStripWidth + kStripGap + (blocks > 0 ? blocks * blockWidth() + (blocks - 1) * kBlockGap : 0);
    verticalScrollBar()->setRange(0, std::max(0, contentHeight - area.height()));
    verticalScrollBar()->setPageStep(std::max(1, area.height()));
    verticalScrollBar()->setSingleStep(m_cell.height());
    horizontalScrollBar()->setRange(0, std::max(0, contentWidth - area.width()));
    horizontalScrollBar()->setPageStep(std::max(1, area.width()));
    horizontalScrollBar()->setSingleStep(m_cell.width());
}

std::optional<CreditHeatmapView::Cell> CreditHeatmapView::cellAt(QPoint pos) const
{
    if (!m_data || !cellArea().contains(pos) || blockWidth() <= 0)
        return std::nullopt;
    const int y = pos.y() - headerHeight() + verticalScrollBar()->value();
    const int displayRow = y / m_cell.height();
    if (y < 0 || displayRow >= static_cast<int>(m_rows.size()))
        return std::nullopt;
    for (int block = 0; block < methodBlockCount(); ++block) {
        const int x = pos.x() - blockLeft(block);
        if (x >= 0 && x < blockWidth()) {
            const std::size_t row = m_rows[static_cast<std::size_t>(displayRow)];
            const int turn = x / m_cell.width();
            if (turn >= m_data->rows[row].turnCount)
                return std::nullopt;
            return Cell { row, turn, m_shown[static_cast<std::size_t>(block)] };
        }
    }
    return std::nullopt;
}

QRect CreditHeatmapView::cellRect(std::size_t displayRow, int turn, int method) const
{
    const auto it = std::find(m_shown.begin(), m_shown.end(), method);
    if (it == m_shown.end())
        return {};
    const int block = static_cast<int>(it - m_shown.begin());
    const int top = headerHeight() + static_cast<int>(displayRow) * m_cell.height() - verticalScrollBar()->value();
    return QRect(blockLeft(block) + turn * m_cell.width(), top, m_cell.width(), m_cell.height());
}

QString CreditHeatmapView::toolTipText(std::size_t row, int turn) const
{
    if (!m_data || row >= m_data->rows.size() || turn < 0 || turn >= m_data->columns)
        return {};
    const HeatmapRow& info = m_data->rows[row];
    QStringList lines;
    lines << tr("Trajectory %1, turn %2").arg(QString::fromStdString(info.id)).arg(turn);
    lines << (info.success ? tr("Outcome: success") : tr("Outcome: failure"));
    if (const auto role = m_data->role(row, turn))
        lines << tr("Role: %1")
                     .arg(QString::fromLatin1(roleName(*role).data(), static_cast<qsizetype>(roleName(*role).size())));
    for (const int m : m_shown)
        lines << tr("%1: %2").arg(QString::fromStdString(m_data->methods[m]), formatValue(m_data->value(m, row, turn)));
    if (m_actionText) {
        QString action = m_actionText(info.rowId, turn);
        if (!action.isEmpty()) {
            if (action.size() > kMaxActionChars)
                action = action.left(kMaxActionChars) + QChar(0x2026);
            lines << tr("Action: %1").arg(action);
        }
    }
    return lines.join(QLatin1Char('\n'));
}

void CreditHeatmapView::scrollToDisplayRow(std::size_t displayRow)
{
    const int top = static_cast<int>(displayRow) * m_cell.height();
    QScrollBar* bar = verticalScrollBar();
    if (top < bar->value())
        bar->setValue(top);
    else if (top + m_cell.height() > bar->value() + cellArea().height())
        bar->setValue(top + m_cell.height() - cellArea().height());
}

bool CreditHeatmapView::exportImage(const QString& path, QString* error)
{
    return charts::exportWidgetImage(viewport(), path, error);
}

void CreditHeatmapView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
}

void CreditHeatmapView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Home) {
        verticalScrollBar()->setValue(verticalScrollBar()->minimum());
        return;
    }
    if (event->key() == Qt::Key_End) {
        verticalScrollBar()->setValue(verticalScrollBar()->maximum());
        return;
    }
    QAbstractScrollArea::keyPressEvent(event); // arrows and Page Up/Down step the scroll bars
}

void CreditHeatmapView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        if (const auto cell = cellAt(event->position().toPoint())) {
            Q_EMIT turnActivated(m_data->rows[cell->row].rowId, cell->turn);
            return;
        }
    }
    QAbstractScrollArea::mousePressEvent(event);
}

bool CreditHeatmapView::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto cell = cellAt(help->pos());
        if (cell) {
            // Trajectory ids and actions are data: show them as plain text (escaped, pre-formatted).
            const QString html = QStringLiteral("<p style='white-space:pre'>%1</p>")
                                     .arg(toolTipText(cell->row, cell->turn).toHtmlEscaped());
            QToolTip::showText(help->globalPos(), html, viewport());
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
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
        painter.fillRect(
            0, top, kStripWidth, m_cell.height(), m_data->rows[m_rows[d]].success ? kSuccessColor : kFailureColor);
    }
    for (int block = 0; block < methodBlockCount(); ++block)
        paintBlock(painter, block, firstRow, lastRow);
    painter.restore();

    // Header: method names, then turn indices at a spacing that fits the text.
    const QFontMetrics metrics = fontMetrics();
    const int labelWidth = metrics.horizontalAdvance(QString::number(m_data->columns)) + 4;
    int step = 1;
    for (const int candidate : { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 }) {
        step = candidate;
        if (candidate * m_cell.width() >= labelWidth)
            break;
    }
    painter.setClipRect(QRect(0, 0, area.width(), headerHeight()));
    painter.setPen(palette().color(QPalette::Text));
    for (int block = 0; block < methodBlockCount(); ++block) {
        const int left = blockLeft(block);
        const QString name = QString::fromStdString(m_data->methods[m_shown[static_cast<std::size_t>(block)]]);
        painter.drawText(QRect(left, 2, blockWidth(), metrics.height()), Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(name, Qt::ElideRight, std::max(blockWidth(), metrics.height())));
        for (int turn = 0; turn < m_data->columns; turn += step)
            painter.drawText(QPoint(left + turn * m_cell.width(), 4 + 2 * metrics.height() - metrics.descent()),
                QString::number(turn));
    }
    painter.setClipping(false);
    paintColorBar(painter);
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
    // The outlines mark the sign disagreement of the first two blocks, in both. Cells under 4 px have no
    // room for an outline: the mark is the outline colour filling the cell.
    const bool outline = !m_mask.empty() && block <= 1;
    const bool tiny = m_cell.width() < 4 || m_cell.height() < 4;
    const QRgb outlineRgb = palette().color(QPalette::Text).rgb();
    // One pixel per cell, scaled up without smoothing: the cost is the visible cells, not their size.
    QImage cells(columns, rowCount, QImage::Format_RGB32);
    for (int y = 0; y < rowCount; ++y) {
        auto* line = reinterpret_cast<QRgb*>(cells.scanLine(y));
        const std::size_t base = m_rows[firstRow + static_cast<std::size_t>(y)] * columnCount;
        const double* row = values.data() + base;
        for (int x = 0; x < columns; ++x)
            line[x] = outline && tiny && m_mask[base + static_cast<std::size_t>(x)] ? outlineRgb
                                                                                    : m_colors.tableRgb(row[x]);
    }
    const int top = cellArea().top() + static_cast<int>(firstRow) * m_cell.height() - verticalScrollBar()->value();
    const QRect target(blockLeft(block), top, columns * m_cell.width(), rowCount * m_cell.height());
    painter.drawImage(target, cells);

    if (!outline || tiny)
        return;
    painter.setPen(QPen(QColor::fromRgb(outlineRgb), 1));
    painter.setBrush(Qt::NoBrush);
    for (int y = 0; y < rowCount; ++y) {
        const std::size_t base = m_rows[firstRow + static_cast<std::size_t>(y)] * columnCount;
        for (int x = 0; x < columns; ++x) {
            if (m_mask[base + static_cast<std::size_t>(x)])
                painter.drawRect(target.left() + x * m_cell.width(), top + y * m_cell.height(), m_cell.width() - 1,
                    m_cell.height() - 1);
        }
    }
}

void CreditHeatmapView::paintColorBar(QPainter& painter)
{
    const QRect area = cellArea();
    const QFontMetrics metrics = fontMetrics();
    const QRect bar(area.right() + 10, area.top() + metrics.height() / 2, kBarWidth,
        std::max(10, area.height() - metrics.height()));
    QLinearGradient gradient(bar.topLeft(), bar.bottomLeft());
    gradient.setColorAt(0.0, QColor::fromRgb(DivergingColorMap::kPositive));
    gradient.setColorAt(0.5, QColor::fromRgb(DivergingColorMap::kZero));
    gradient.setColorAt(1.0, QColor::fromRgb(DivergingColorMap::kNegative));
    painter.fillRect(bar, gradient);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawRect(bar.adjusted(0, 0, -1, -1));
    const double limit = m_colors.limit();
    const int textX = bar.right() + 4;
    const int half = metrics.ascent() / 2;
    painter.drawText(QPoint(textX, bar.top() + half), QStringLiteral("+") + QString::number(limit, 'g', 3));
    painter.drawText(QPoint(textX, bar.center().y() + half), QStringLiteral("0"));
    painter.drawText(QPoint(textX, bar.bottom() + half), QString(QChar(0x2212)) + QString::number(limit, 'g', 3));
    painter.drawText(QRect(bar.left(), 2, kBarAreaWidth - 12, metrics.height()), Qt::AlignLeft, tr("advantage"));
}

} // namespace creditlab::ui::heatmap
