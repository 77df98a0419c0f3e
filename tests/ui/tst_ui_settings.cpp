// The typed settings facade: values round-trip, the recent-database list is ordered, unique and
// bounded.
#include "ui/shell/settings.h"

#include <QTemporaryDir>
#include <QtTest>

using creditlab::ui::Settings;

class TestSettings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void roundTrip();
    void recentDatabases();

private:
    QTemporaryDir m_dir;
};

void TestSettings::roundTrip()
{
    QVERIFY(m_dir.isValid());
    const QString ini = m_dir.filePath(QStringLiteral("roundtrip.ini"));
    {
        Settings settings(ini);
        QVERIFY(settings.lastDatabasePath().isEmpty());
        QVERIFY(settings.mainWindowGeometry().isEmpty());
        settings.setLastDatabasePath(QStringLiteral("/tmp/x.db"));
        settings.setLastImportDirectory(QStringLiteral("/data"));
        settings.setMainWindowGeometry(QByteArray("geometry"));
        settings.setMainWindowState(QByteArray("state"));
        settings.setSplitterState(Settings::Splitter::Viewer, QByteArray("viewer"));
        settings.sync();
    }
    Settings settings(ini);
    QCOMPARE(settings.lastDatabasePath(), QStringLiteral("/tmp/x.db"));
    QCOMPARE(settings.lastImportDirectory(), QStringLiteral("/data"));
    QCOMPARE(settings.mainWindowGeometry(), QByteArray("geometry"));
    QCOMPARE(settings.mainWindowState(), QByteArray("state"));
    QCOMPARE(settings.splitterState(Settings::Splitter::Viewer), QByteArray("viewer"));
    QVERIFY(settings.splitterState(Settings::Splitter::Main).isEmpty());
}

void TestSettings::recentDatabases()
{
    Settings settings(m_dir.filePath(QStringLiteral("recent.ini")));
    for (int i = 0; i < 10; ++i)
        settings.addRecentDatabase(QStringLiteral("/nonexistent/db%1.db").arg(i));
    QStringList recent = settings.recentDatabases();
    QCOMPARE(recent.size(), Settings::kMaxRecentDatabases);
    QCOMPARE(recent.first(), QStringLiteral("/nonexistent/db9.db"));
    QCOMPARE(recent.last(), QStringLiteral("/nonexistent/db2.db"));

    // Opening one again moves it to the front without duplicating it.
    settings.addRecentDatabase(QStringLiteral("/nonexistent/db5.db"));
    recent = settings.recentDatabases();
    QCOMPARE(recent.size(), Settings::kMaxRecentDatabases);
    QCOMPARE(recent.first(), QStringLiteral("/nonexistent/db5.db"));
    QCOMPARE(recent.count(QStringLiteral("/nonexistent/db5.db")), 1);

    settings.removeRecentDatabase(QStringLiteral("/nonexistent/db5.db"));
    QVERIFY(!settings.recentDatabases().contains(QStringLiteral("/nonexistent/db5.db")));
    settings.clearRecentDatabases();
    QVERIFY(settings.recentDatabases().isEmpty());
}

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_ui_settings.moc"
