#include "ui/heatmap/creditheatmapview.h"

#include "ui/charts/chartexport.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace creditlab::ui::heatmap {

namespace {

constexpr int kMaxActionChars = 240;

QString formatValue(double value) { return std::isnan(value) ? QStringLiteral("–") : QString::number(value, 'g', 4); }

QString formatLimit(double value) { return QString::number(value, 'g', 3); }

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

void CreditHeatmapView::selectCell(std::size_t row, int turn)
{
    if (!m_data || row >= m_data->rows.size())
        return;
    m_selected = std::make_pair(row, turn);
    scrollToDisplayRow(m_displayOf[row]);
    if (!m_shown.empty()) {
        // Bring the turn of the first block into view sideways.
        const int x = kStripWidth + kStripGap + turn * m_cellWidth;
        QScrollBar* bar = horizontalScrollBar();
        if (x < bar->value())
            bar->setValue(x);
        else if (x + m_cellWidth > bar->value() + cellArea().width())
            bar->setValue(x + m_cellWidth - cellArea().width());
    }
    viewport()->update();
}

void CreditHeatmapView::clearSelection()
{
    m_selected.reset();
    viewport()->update();
}

void CreditHeatmapView::rebuild()
{
    m_shown.clear();
    m_mask.clear();
    m_rows.clear();
    m_displayOf.clear();
    m_scale = ColorScale {};
    if (m_selected && (!m_data || m_selected->first >= m_data->rows.size()))
        m_selected.reset();
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
        m_displayOf.resize(m_rows.size());
        for (std::size_t d = 0; d < m_rows.size(); ++d)
            m_displayOf[m_rows[d]] = d;
        std::vector<const std::vector<double>*> shown;
        for (const int m : m_shown)
            shown.push_back(&m_data->values[static_cast<std::size_t>(m)]);
        m_scale = robustColorScale(shown);
    }
    if (m_limit)
        m_scale.limit = std::isfinite(*m_limit) && *m_limit > 0.0 ? *m_limit : 0.0;
    m_colors = DivergingColorMap(m_scale.limit);
    updateScrollBars();
    viewport()->update();
}

QStringList CreditHeatmapView::colorBarLabels() const
{
    const QString limit = formatLimit(m_scale.limit);
    const QChar minus(0x2212);
    if (!m_scale.clipped())
        return { QStringLiteral("+") + limit, QStringLiteral("0"), minus + limit };
    // ≥ and ≤: the end colours stand for everything beyond the limit.
    return { QString(QChar(0x2265)) + QStringLiteral(" +") + limit, QStringLiteral("0"),
        QString(QChar(0x2264)) + QLatin1Char(' ') + minus + limit };
}

QString CreditHeatmapView::colorBarToolTip() const
{
    const QString range = tr("Colours span \u00b1%1 (red negative, blue positive).").arg(formatLimit(m_scale.limit));
    if (!m_scale.clipped())
        return range;
    return range + QLatin1Char('\n')
        + tr("Clipped at the %1th percentile of |advantage| over the shown methods' non-zero turns, so that a few "
             "outliers do not wash out the rest; the largest |advantage| is %2.")
              .arg(qRound(kClipQuantile * 100))
              .arg(formatValue(m_scale.maxAbs));
}

int CreditHeatmapView::headerHeight() const { return 2 * fontMetrics().height() + 6; }

int CreditHeatmapView::blockWidth() const { return m_data ? m_data->columns * m_cellWidth : 0; }

void CreditHeatmapView::fitCells()
{
    const int blocks = methodBlockCount();
    const int columns = m_data ? m_data->columns : 0;
    if (blocks == 0 || columns == 0) {
        m_cellWidth = m_cell.width();
        return;
    }
    const int available = cellArea().width() - kStripWidth - kStripGap - (blocks - 1) * kBlockGap;
    const int fitted = std::max(kMinCellWidth, available / (blocks * columns));
    m_cellWidth = std::min(m_cell.width(), fitted);
}

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
    fitCells();
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
    horizontalScrollBar()->setSingleStep(m_cellWidth);
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
            const int turn = x / m_cellWidth;
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
    return QRect(blockLeft(block) + turn * m_cellWidth, top, m_cellWidth, m_cell.height());
}

QString CreditHeatmapView::toolTipText(std::size_t row, int turn) const
{
    if (!m_data || row >= m_data->rows.size() || turn < 0 || turn >= m_data->columns)
        return {};
    const HeatmapRow& info = m_data->rows[row];
    QStringList lines;
    lines << tr("Trajectory %1, turn %2").arg(QString::fromStdString(info.id)).arg(turn + 1); // numbered from 1
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
        } else if (colorBarRect().adjusted(-4, -16, 40, 16).contains(help->pos())) {
            QToolTip::showText(help->globalPos(), colorBarToolTip(), viewport());
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QAbstractScrollArea::viewportEvent(event);
}

} // namespace creditlab::ui::heatmap
