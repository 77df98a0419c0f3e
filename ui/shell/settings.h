#pragma once

#include <QByteArray>
#include <QSettings>
#include <QString>
#include <QStringList>

namespace creditlab::ui {

/// The one typed facade over QSettings (organization "CreditLab", application "creditlab").
/// Every key the GUI stores is defined in settings.cpp and nowhere else. GUI thread only.
class Settings {
public:
    /// The splitters whose sizes are remembered.
    enum class Splitter { Main, Browser, Viewer };

    /// The most recent databases kept in the File menu.
    static constexpr int kMaxRecentDatabases = 8;

    /// The per-user settings of CreditLab.
    Settings();
    /// Settings in an INI file at `iniPath` (tests).
    explicit Settings(const QString& iniPath);

    QByteArray mainWindowGeometry() const;
    void setMainWindowGeometry(const QByteArray& geometry);
    QByteArray mainWindowState() const;
    void setMainWindowState(const QByteArray& state);

    QByteArray splitterState(Splitter splitter) const;
    void setSplitterState(Splitter splitter, const QByteArray& state);

    /// The database opened last; empty when none.
    QString lastDatabasePath() const;
    void setLastDatabasePath(const QString& path);

    /// The folder the last JSONL import came from; empty when none.
    QString lastImportDirectory() const;
    void setLastImportDirectory(const QString& directory);

    /// Recently opened databases, most recent first, at most kMaxRecentDatabases.
    QStringList recentDatabases() const;
    /// Moves `path` to the front of the recent list (adding it when new) and trims the list.
    void addRecentDatabase(const QString& path);
    void removeRecentDatabase(const QString& path);
    void clearRecentDatabases();

    /// Writes pending changes to storage.
    void sync();

private:
    QSettings m_settings;
};

} // namespace creditlab::ui
