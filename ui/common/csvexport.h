#pragma once

#include <QString>

class QAbstractItemModel;
class QAction;
class QTableView;
class QWidget;

namespace creditlab::ui {

/// One CSV field (RFC 4180): quoted when it holds a comma, a quote, a line break or edge spaces. Any thread.
QString csvField(const QString& field);

/// A table model as CSV: the header, then every row in the model's order (for a proxy: as sorted and filtered),
/// each cell's full text (FullTextRole where the model has it, else the display text). GUI thread.
QString modelToCsv(const QAbstractItemModel& model);

/// Writes `text` to `path` atomically (a temporary file renamed at the end); false with the reason, naming the
/// path, in `error`. Any thread.
bool writeCsvFile(const QString& path, const QString& text, QString* error = nullptr);

/// Adds "Export Table as CSV…" to the view's context menu (the view shows its actions as its context menu); it asks
/// for a file and writes what the view shows. Returns the action. GUI thread.
QAction* addCsvExportAction(QTableView* view, QWidget* dialogParent);

} // namespace creditlab::ui
