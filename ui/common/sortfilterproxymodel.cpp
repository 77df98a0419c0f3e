#include "ui/common/sortfilterproxymodel.h"

#include "ui/common/itemroles.h"
#include "ui/common/textutil.h"

namespace creditlab::ui {

SortFilterProxyModel::SortFilterProxyModel(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(SortRole);
    setFilterRole(FullTextRole);
    setFilterKeyColumn(-1);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void SortFilterProxyModel::setFilterText(const QString& text) { setFilterFixedString(text.trimmed()); }

bool SortFilterProxyModel::lessThan(const QModelIndex& left, const QModelIndex& right) const
{
    const QVariant a = left.data(sortRole());
    const QVariant b = right.data(sortRole());
    const bool aText = a.typeId() == QMetaType::QString;
    const bool bText = b.typeId() == QMetaType::QString;
    if (aText && bText)
        return naturalCompare(a.toString(), b.toString()) < 0;
    if (!aText && !bText && a.isValid() && b.isValid()) {
        // Numbers of any width compare as numbers.
        return a.toDouble() < b.toDouble();
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace creditlab::ui
