#pragma once

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileIconProvider>
#include <QIcon>
#include <QString>
#include <QStringList>

class QFileInfo;
class QWidget;

namespace creditlab::ui {

/// Icons and types of a file dialog's entries from their names only: the generic folder and file icons, "Folder" or
/// "<SUFFIX> file". Qt's own provider asks QMimeDatabase, which opens files whose extension is not a unique match
/// (.db, .db-wal, .db-shm) to sniff them; closing any descriptor to a database drops all of this process's POSIX
/// locks on it, and another process may then checkpoint and delete the WAL under our open connection (see
/// refuseNewerFile in core/storage/schema.cpp). This one never opens a file. Any thread.
class NameOnlyIconProvider : public QFileIconProvider {
    Q_DECLARE_TR_FUNCTIONS(NameOnlyIconProvider)

public:
    NameOnlyIconProvider();

    using QFileIconProvider::icon;
    QIcon icon(const QFileInfo& info) const override;
    QString type(const QFileInfo& info) const override;

private:
    QIcon m_folder; // taken on the GUI thread, read-only afterwards
    QIcon m_file;
};

/// Gives `dialog` a NameOnlyIconProvider that the dialog owns. Only the Qt widget dialog asks a provider (the one in
/// use on Linux without a portal or GTK platform theme); a native dialog ignores it. Setting DontUseNativeDialog on
/// a dialog that was native gives it a model with Qt's provider: call this again after. GUI thread.
void useNameOnlyIcons(QFileDialog* dialog);

/// new QFileDialog(parent, caption, dir, filter) with useNameOnlyIcons: its model never asks Qt's provider. GUI
/// thread.
QFileDialog* createFileDialog(QWidget* parent = nullptr, const QString& caption = QString(),
    const QString& dir = QString(), const QString& filter = QString());

/// QFileDialog's static functions, with the same parameters and results, on a dialog from createFileDialog: the
/// workbench's file dialogs open no file to sniff it. GUI thread.
namespace filedialogs {

QString getOpenFileName(QWidget* parent = nullptr, const QString& caption = QString(), const QString& dir = QString(),
    const QString& filter = QString(), QString* selectedFilter = nullptr,
    QFileDialog::Options options = QFileDialog::Options());
QStringList getOpenFileNames(QWidget* parent = nullptr, const QString& caption = QString(),
    const QString& dir = QString(), const QString& filter = QString(), QString* selectedFilter = nullptr,
    QFileDialog::Options options = QFileDialog::Options());
QString getSaveFileName(QWidget* parent = nullptr, const QString& caption = QString(), const QString& dir = QString(),
    const QString& filter = QString(), QString* selectedFilter = nullptr,
    QFileDialog::Options options = QFileDialog::Options());
QString getExistingDirectory(QWidget* parent = nullptr, const QString& caption = QString(),
    const QString& dir = QString(), QFileDialog::Options options = QFileDialog::ShowDirsOnly);

} // namespace filedialogs

} // namespace creditlab::ui
