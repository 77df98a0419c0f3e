#pragma once

class QTableView;

namespace creditlab::ui {

/// Gives a table view the look every CreditLab list shares: whole-row single selection, sortable
/// headers, alternating rows, no vertical header, one text line per row. GUI thread.
void setUpTableView(QTableView* view);

} // namespace creditlab::ui
