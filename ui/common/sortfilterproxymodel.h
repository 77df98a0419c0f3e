#pragma once

#include <QSortFilterProxyModel>

namespace creditlab::ui {

/// The proxy every CreditLab table sorts and filters through: sorts by SortRole (numbers by value,
/// text in natural order so "r2" comes before "r10"), filters case-insensitively on FullTextRole
/// across all columns. Lives on the GUI thread.
class SortFilterProxyModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit SortFilterProxyModel(QObject* parent = nullptr);

    /// Shows only rows where some column contains `text` (case-insensitive); empty shows all.
    void setFilterText(const QString& text);

protected:
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

} // namespace creditlab::ui
