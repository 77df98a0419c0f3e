#include "ui/common/filedialogs.h"

#include <QFileInfo>
#include <QObject>
#include <QPointer>

namespace creditlab::ui {

namespace {

/// Owns a dialog's provider. A child of the dialog created after its QFileSystemModel, so deleted after the model
/// (and its gatherer thread) that uses the provider.
class IconProviderOwner : public QObject {
public:
    using QObject::QObject;
    NameOnlyIconProvider provider;
};

/// Runs a dialog the way QFileDialog's static functions do; the selected paths, empty when cancelled.
QStringList runDialog(QWidget* parent, const QString& caption, const QString& dir, const QString& filter,
    QString* selectedFilter, QFileDialog::Options options, QFileDialog::FileMode mode, QFileDialog::AcceptMode accept)
{
    QPointer<QFileDialog> dialog(createFileDialog(parent, caption, dir, filter));
    dialog->setFileMode(mode);
    dialog->setOptions(options);
    if (options.testFlag(QFileDialog::DontUseNativeDialog))
        useNameOnlyIcons(dialog); // a dialog that was native has only now a model, with Qt's provider
    dialog->setSupportedSchemes({ QStringLiteral("file") });
    dialog->setAcceptMode(accept);
    if (selectedFilter && !selectedFilter->isEmpty())
        dialog->selectNameFilter(*selectedFilter);
    const int result = dialog->exec();
    QStringList files;
    if (dialog && result == QDialog::Accepted) { // the parent can delete the dialog while it runs
        if (selectedFilter)
            *selectedFilter = dialog->selectedNameFilter();
        files = dialog->selectedFiles();
    }
    delete dialog.data();
    return files;
}

} // namespace

NameOnlyIconProvider::NameOnlyIconProvider()
    : m_folder(QFileIconProvider::icon(Folder))
    , m_file(QFileIconProvider::icon(File))
{
}

QIcon NameOnlyIconProvider::icon(const QFileInfo& info) const { return info.isDir() ? m_folder : m_file; }

QString NameOnlyIconProvider::type(const QFileInfo& info) const
{
    if (info.isDir())
        return tr("Folder");
    const QString suffix = info.suffix();
    return suffix.isEmpty() ? tr("File") : tr("%1 file").arg(suffix.toUpper());
}

void useNameOnlyIcons(QFileDialog* dialog)
{
    auto* owner = new IconProviderOwner(dialog);
    dialog->setIconProvider(&owner->provider);
}

QFileDialog* createFileDialog(QWidget* parent, const QString& caption, const QString& dir, const QString& filter)
{
    auto* dialog = new QFileDialog(parent, caption, dir, filter);
    // In time: the model lists the folder on its own thread but asks the provider for icons and types on this one,
    // when it takes the listing from the event loop (QFileSystemModel's _q_fileSystemChanged), which has not run yet.
    useNameOnlyIcons(dialog);
    return dialog;
}

namespace filedialogs {

QString getOpenFileName(QWidget* parent, const QString& caption, const QString& dir, const QString& filter,
    QString* selectedFilter, QFileDialog::Options options)
{
    return runDialog(
        parent, caption, dir, filter, selectedFilter, options, QFileDialog::ExistingFile, QFileDialog::AcceptOpen)
        .value(0);
}

QStringList getOpenFileNames(QWidget* parent, const QString& caption, const QString& dir, const QString& filter,
    QString* selectedFilter, QFileDialog::Options options)
{
    return runDialog(
        parent, caption, dir, filter, selectedFilter, options, QFileDialog::ExistingFiles, QFileDialog::AcceptOpen);
}

QString getSaveFileName(QWidget* parent, const QString& caption, const QString& dir, const QString& filter,
    QString* selectedFilter, QFileDialog::Options options)
{
    return runDialog(
        parent, caption, dir, filter, selectedFilter, options, QFileDialog::AnyFile, QFileDialog::AcceptSave)
        .value(0);
}

QString getExistingDirectory(QWidget* parent, const QString& caption, const QString& dir, QFileDialog::Options options)
{
    return runDialog(parent, caption, dir, QString(), nullptr, options, QFileDialog::Directory, QFileDialog::AcceptOpen)
        .value(0);
}

} // namespace filedialogs

} // namespace creditlab::ui
