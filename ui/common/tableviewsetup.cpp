#include "ui/common/tableviewsetup.h"

#include <QHeaderView>
#include <QProxyStyle>
#include <QStyleOptionHeader>
#include <QTableView>

namespace creditlab::ui {

namespace {

/// QHeaderView asks the style for SortDown when the order is ascending, and Fusion draws SortDown as ▼: a table
/// sorted by descending id showed ▲. This style swaps the two, so ▲ means ascending (smallest first) and ▼
/// descending, whatever the platform style; everything else goes to the application's style.
class SortArrowStyle : public QProxyStyle {
public:
    using QProxyStyle::QProxyStyle;

    void drawPrimitive(
        PrimitiveElement element, const QStyleOption* option, QPainter* painter, const QWidget* widget) const override
    {
        if (element == PE_IndicatorHeaderArrow)
            if (const auto* header = qstyleoption_cast<const QStyleOptionHeader*>(option)) {
                QStyleOptionHeader flipped(*header);
                if (header->sortIndicator == QStyleOptionHeader::SortUp)
                    flipped.sortIndicator = QStyleOptionHeader::SortDown;
                else if (header->sortIndicator == QStyleOptionHeader::SortDown)
                    flipped.sortIndicator = QStyleOptionHeader::SortUp;
                QProxyStyle::drawPrimitive(element, &flipped, painter, widget);
                return;
            }
        QProxyStyle::drawPrimitive(element, option, painter, widget);
    }
};

} // namespace

void setUpTableView(QTableView* view)
{
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setSortingEnabled(true);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideRight);
    view->setCornerButtonEnabled(false);
    view->verticalHeader()->setVisible(false);
    // One line of text per row, however long the data is.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 8);
    view->horizontalHeader()->setHighlightSections(false);
    view->horizontalHeader()->setStretchLastSection(true);
    view->horizontalHeader()->setSortIndicatorShown(true);
    auto* arrows = new SortArrowStyle(); // a proxy of the application's style; owned by the header
    arrows->setParent(view->horizontalHeader());
    view->horizontalHeader()->setStyle(arrows);
}

} // namespace creditlab::ui
