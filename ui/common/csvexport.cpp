#include "ui/common/csvexport.h"

#include "core/storage/atomicfile.h"
#include "ui/common/filedialogs.h"
#include "ui/common/itemroles.h"
#include "ui/common/textutil.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QTableView>

#include <exception>

namespace creditlab::ui {

QString csvField(const QString& field)
{
    const bool needsQuotes = field.contains(QLatin1Char(',')) || field.contains(QLatin1Char('"'))
        || field.contains(QLatin1Char('\n')) || field.contains(QLatin1Char('\r')) || field.startsWith(QLatin1Char(' '))
        || field.endsWith(QLatin1Char(' '));
    if (!needsQuotes)
        return field;
    QString quoted = field;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString modelToCsv(const QAbstractItemModel& model)
{
    QString out;
    const int columns = model.columnCount();
    for (int c = 0; c < columns; ++c)
        out += (c ? QStringLiteral(",") : QString()) + csvField(model.headerData(c, Qt::Horizontal).toString());
    out += QLatin1Char('\n');
    for (int r = 0; r < model.rowCount(); ++r) {
        for (int c = 0; c < columns; ++c) {
            const QModelIndex index = model.index(r, c);
            QVariant value = index.data(FullTextRole);
            if (!value.isValid())
                value = index.data(Qt::DisplayRole);
            out += (c ? QStringLiteral(",") : QString()) + csvField(value.toString());
        }
        out += QLatin1Char('\n');
    }
    return out;
}

bool writeCsvFile(const QString& path, const QString& text, QString* error)
{
    try {
        writeFileAtomically(path.toStdString(), text.toStdString());
        return true;
    } catch (const std::exception& e) {
        if (error)
            *error = toQString(e.what());
        return false;
    }
}

QAction* addCsvExportAction(QTableView* view, QWidget* dialogParent)
{
    auto* action = new QAction(QCoreApplication::translate("creditlab::ui::CsvExport", "Export Table as CSV…"), view);
    QObject::connect(action, &QAction::triggered, view, [view, dialogParent] {
        if (!view->model())
            return;
        QString path = filedialogs::getSaveFileName(dialogParent,
            QCoreApplication::translate("creditlab::ui::CsvExport", "Export Table"), QString(),
            QCoreApplication::translate("creditlab::ui::CsvExport", "CSV files (*.csv)"));
        if (path.isEmpty())
            return;
        if (QFileInfo(path).suffix().isEmpty())
            path += QStringLiteral(".csv");
        QString error;
        if (!writeCsvFile(path, modelToCsv(*view->model()), &error))
            QMessageBox::warning(dialogParent, QCoreApplication::translate("creditlab::ui::CsvExport", "Cannot export the table"), error);
    });
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    view->addAction(action);
    return action;
}

} // namespace creditlab::ui
