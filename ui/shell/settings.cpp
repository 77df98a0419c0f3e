#include "ui/shell/settings.h"

#include <QFileInfo>

namespace creditlab::ui {

namespace {
// All keys live here (STYLE rule 18).
const QString kMainWindowGeometry = QStringLiteral("mainWindow/geometry");
const QString kMainWindowState = QStringLiteral("mainWindow/state");
const QString kSplitterMain = QStringLiteral("splitters/main");
const QString kSplitterBrowser = QStringLiteral("splitters/browser");
const QString kSplitterViewer = QStringLiteral("splitters/viewer");
const QString kLastDatabase = QStringLiteral("database/last");
const QString kRecentDatabases = QStringLiteral("database/recent");
const QString kLastImportDirectory = QStringLiteral("import/lastDirectory");

const QString& splitterKey(Settings::Splitter splitter)
{
    switch (splitter) {
    case Settings::Splitter::Main:
        return kSplitterMain;
    case Settings::Splitter::Browser:
        return kSplitterBrowser;
    case Settings::Splitter::Viewer:
        return kSplitterViewer;
    }
    return kSplitterMain;
}

/// One spelling per file, so that "./a.db" and "a.db" are one recent entry.
QString canonical(const QString& path)
{
    const QFileInfo info(path);
    const QString resolved = info.canonicalFilePath();
    return resolved.isEmpty() ? info.absoluteFilePath() : resolved;
}
} // namespace

Settings::Settings()
    : m_settings(QStringLiteral("CreditLab"), QStringLiteral("creditlab"))
{
}

Settings::Settings(const QString& iniPath)
    : m_settings(iniPath, QSettings::IniFormat)
{
}

QByteArray Settings::mainWindowGeometry() const { return m_settings.value(kMainWindowGeometry).toByteArray(); }

void Settings::setMainWindowGeometry(const QByteArray& geometry) { m_settings.setValue(kMainWindowGeometry, geometry); }

QByteArray Settings::mainWindowState() const { return m_settings.value(kMainWindowState).toByteArray(); }

void Settings::setMainWindowState(const QByteArray& state) { m_settings.setValue(kMainWindowState, state); }

QByteArray Settings::splitterState(Splitter splitter) const
{
    return m_settings.value(splitterKey(splitter)).toByteArray();
}

void Settings::setSplitterState(Splitter splitter, const QByteArray& state)
{
    m_settings.setValue(splitterKey(splitter), state);
}

QString Settings::lastDatabasePath() const { return m_settings.value(kLastDatabase).toString(); }

void Settings::setLastDatabasePath(const QString& path) { m_settings.setValue(kLastDatabase, path); }

QString Settings::lastImportDirectory() const { return m_settings.value(kLastImportDirectory).toString(); }

void Settings::setLastImportDirectory(const QString& directory)
{
    m_settings.setValue(kLastImportDirectory, directory);
}

QStringList Settings::recentDatabases() const
{
    QStringList list = m_settings.value(kRecentDatabases).toStringList();
    list.removeAll(QString());
    if (list.size() > kMaxRecentDatabases)
        list.resize(kMaxRecentDatabases);
    return list;
}

void Settings::addRecentDatabase(const QString& path)
{
    const QString entry = canonical(path);
    QStringList list = recentDatabases();
    list.removeAll(entry);
    list.prepend(entry);
    if (list.size() > kMaxRecentDatabases)
        list.resize(kMaxRecentDatabases);
    m_settings.setValue(kRecentDatabases, list);
}

void Settings::removeRecentDatabase(const QString& path)
{
    QStringList list = recentDatabases();
    list.removeAll(path);
    list.removeAll(canonical(path));
    m_settings.setValue(kRecentDatabases, list);
}

void Settings::clearRecentDatabases() { m_settings.remove(kRecentDatabases); }

void Settings::sync() { m_settings.sync(); }

} // namespace creditlab::ui
