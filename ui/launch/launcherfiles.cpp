// The launcher's config files: the shipped presets, and YAML files opened and saved (Ctrl+Shift+O, Ctrl+S), each
// checked whole before the form changes.
#include "ui/launch/launcherpage.h"

#include "ui/common/filedialogs.h"
#include "ui/common/textutil.h"
#include "ui/launch/paramform.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QSaveFile>

namespace creditlab::ui {

QStringList LauncherPage::presetNames()
{
    QStringList names = QDir(presetFolder()).entryList({ QStringLiteral("*.yaml") }, QDir::Files, QDir::Name);
    names.removeIf([](const QString& n) { return n.startsWith(QLatin1String("sweep")); });
    return names;
}

QString LauncherPage::configText() const { return toQString(m_doc.toYaml()); }

bool LauncherPage::loadConfigText(const QString& yamlText, const QString& source, QString* error)
{
    try {
        m_doc.load(yamlText.toStdString(), source.toStdString()); // left as it was when the file is bad
    } catch (const std::exception& e) {
        if (error)
            *error = toQString(e.what());
        return false;
    }
    rebuildForm();
    syncPolicySource(true);
    return true;
}

bool LauncherPage::loadConfigFile(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("%1: %2").arg(path, file.errorString());
        return false;
    }
    return loadConfigText(QString::fromUtf8(file.readAll()), path, error);
}

bool LauncherPage::loadPreset(const QString& name, QString* error)
{
    if (!loadConfigFile(presetFolder() + QLatin1Char('/') + name, error))
        return false;
    m_presets->setCurrentText(name);
    updatePresetNote();
    return true;
}

bool LauncherPage::saveConfigFile(const QString& path, QString* error) const
{
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly)) {
        file.write(configText().toUtf8());
        if (file.commit())
            return true;
    }
    if (error)
        *error = tr("%1: %2").arg(path, file.errorString());
    return false;
}

void LauncherPage::chooseOpen()
{
    const QString path = filedialogs::getOpenFileName(
        this, tr("Open Config"), QString(), tr("YAML configs (*.yaml *.yml);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!loadConfigFile(path, &error))
        QMessageBox::warning(this, tr("Cannot load the config"), error);
}

void LauncherPage::chooseSave()
{
    QString path = filedialogs::getSaveFileName(this, tr("Save Config"),
        m_form->value(QStringLiteral("name")) + QStringLiteral(".yaml"), tr("YAML configs (*.yaml *.yml)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".yaml");
    QString error;
    if (!saveConfigFile(path, &error))
        QMessageBox::warning(this, tr("Cannot save the config"), error);
}

} // namespace creditlab::ui
