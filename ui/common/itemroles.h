#pragma once

#include <Qt>

namespace creditlab::ui {

/// Custom item data roles shared by the CreditLab models. A plain enum on purpose: Qt passes
/// roles as int, and these must compare with Qt::ItemDataRole values.
enum ItemRole : int {
    /// The store key of the row's object (run id, trajectory row id, turn index); qint64.
    IdRole = Qt::UserRole,
    /// The value proxies sort by: numbers as numbers, text as text.
    SortRole = Qt::UserRole + 1,
    /// The full, unshortened text of a text cell.
    FullTextRole = Qt::UserRole + 2,
};

} // namespace creditlab::ui
