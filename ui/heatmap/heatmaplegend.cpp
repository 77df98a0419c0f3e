#include "ui/heatmap/heatmaplegend.h"

#include "ui/heatmap/creditheatmapview.h"
#include "ui/heatmap/heatmapmath.h"

#include <QPainter>

namespace creditlab::ui::heatmap {

namespace {

constexpr int kSwatch = 12; ///< a cell's size in the view by default
constexpr int kTextGap = 4;
constexpr int kEntryGap = 14;

} // namespace

HeatmapLegend::HeatmapLegend(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("heatmapLegend"));
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed); // a narrow window elides the line, never widens
    setToolTip(tr("The strip at each row's start is the trajectory's outcome. Cells where the first two shown methods "
                  "give opposite signs are outlined and struck through."));
}

void HeatmapLegend::setComparedMethods(const QString& first, const QString& second)
{
    m_first = first;
    m_second = second;
    updateGeometry();
    update();
}

std::vector<HeatmapLegend::Entry> HeatmapLegend::visibleEntries() const
{
    std::vector<Entry> out { { Swatch::Success, tr("success") }, { Swatch::Failure, tr("failure") } };
    if (!m_first.isEmpty() && !m_second.isEmpty())
        out.push_back({ Swatch::Disagreement, tr("signs disagree (%1 vs %2)").arg(m_first, m_second) });
    out.push_back({ Swatch::Missing, tr("no credit") });
    return out;
}

QStringList HeatmapLegend::entries() const
{
    QStringList out;
    for (const Entry& e : visibleEntries())
        out << e.text;
    return out;
}

QSize HeatmapLegend::sizeHint() const
{
    const QFontMetrics metrics = fontMetrics();
    int width = 0;
    for (const Entry& e : visibleEntries())
        width += kSwatch + kTextGap + metrics.horizontalAdvance(e.text) + kEntryGap;
    return QSize(width, std::max(kSwatch, metrics.height()) + 4);
}

QSize HeatmapLegend::minimumSizeHint() const { return QSize(0, sizeHint().height()); }

void HeatmapLegend::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QFontMetrics metrics = fontMetrics();
    const int top = (height() - kSwatch) / 2;
    int x = 0;
    for (const Entry& e : visibleEntries()) {
        const QRect swatch(x, top, kSwatch, kSwatch);
        switch (e.swatch) {
        case Swatch::Success:
        case Swatch::Failure:
            // The strip is narrower than a cell, as in the view.
            painter.fillRect(QRect(x + kSwatch / 4, top, kSwatch / 2, kSwatch),
                CreditHeatmapView::outcomeColor(e.swatch == Swatch::Success));
            break;
        case Swatch::Disagreement: {
            const QColor fill = QColor::fromRgb(DivergingColorMap(1.0).rgb(0.5));
            painter.fillRect(swatch, fill);
            CreditHeatmapView::paintDisagreementMark(painter, swatch, fill);
            break;
        }
        case Swatch::Missing:
            painter.fillRect(swatch, QColor::fromRgb(DivergingColorMap::kMissing));
            break;
        }
        x += kSwatch + kTextGap;
        painter.setPen(palette().color(QPalette::WindowText));
        const int textWidth = metrics.horizontalAdvance(e.text);
        painter.drawText(QRect(x, 0, std::max(0, width() - x), height()), Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(e.text, Qt::ElideRight, std::max(0, width() - x)));
        x += textWidth + kEntryGap;
        if (x >= width())
            break;
    }
}

} // namespace creditlab::ui::heatmap
