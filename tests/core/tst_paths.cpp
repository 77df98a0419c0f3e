// The per-user data folder and the default database path (XDG Base Directory on Linux).
#include "core/storage/paths.h"

#include <QtTest/QTest>

#include <filesystem>

using namespace creditlab;

class TestPaths : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void defaultDatabasePath_data();
    void defaultDatabasePath();
    void runFilesBesideTheDatabase();

private:
    QByteArray m_xdg, m_home;
    bool m_hadXdg = false, m_hadHome = false;
};

void TestPaths::initTestCase()
{
#if defined(_WIN32) || defined(__APPLE__)
    QSKIP("the XDG rules apply on Linux and other Unix systems only");
#endif
    m_hadXdg = qEnvironmentVariableIsSet("XDG_DATA_HOME");
    m_hadHome = qEnvironmentVariableIsSet("HOME");
    m_xdg = qgetenv("XDG_DATA_HOME");
    m_home = qgetenv("HOME");
}

void TestPaths::cleanup()
{
    if (m_hadXdg)
        qputenv("XDG_DATA_HOME", m_xdg);
    else
        qunsetenv("XDG_DATA_HOME");
    if (m_hadHome)
        qputenv("HOME", m_home);
    else
        qunsetenv("HOME");
}

void TestPaths::defaultDatabasePath_data()
{
    QTest::addColumn<QByteArray>("xdg"); // "<unset>" to unset
    QTest::addColumn<QByteArray>("home"); // "<unset>" to unset
    QTest::addColumn<QString>("expectedDir"); // "<cwd>" stands for the current directory

    QTest::newRow("absolute XDG_DATA_HOME")
        << QByteArray("/srv/data") << QByteArray("/home/tester") << "/srv/data/creditlab";
    QTest::newRow("absolute XDG_DATA_HOME, trailing slash")
        << QByteArray("/srv/data/") << QByteArray("/home/tester") << "/srv/data/creditlab";
    QTest::newRow("relative XDG_DATA_HOME is ignored")
        << QByteArray("relative/data") << QByteArray("/home/tester") << "/home/tester/.local/share/creditlab";
    QTest::newRow("dot-relative XDG_DATA_HOME is ignored")
        << QByteArray("./data") << QByteArray("/home/tester") << "/home/tester/.local/share/creditlab";
    QTest::newRow("empty XDG_DATA_HOME") << QByteArray("") << QByteArray("/home/tester")
                                         << "/home/tester/.local/share/creditlab";
    QTest::newRow("unset XDG_DATA_HOME") << QByteArray("<unset>") << QByteArray("/home/tester")
                                         << "/home/tester/.local/share/creditlab";
    QTest::newRow("no HOME either") << QByteArray("<unset>") << QByteArray("<unset>") << "<cwd>/.local/share/creditlab";
}

void TestPaths::defaultDatabasePath()
{
    QFETCH(QByteArray, xdg);
    QFETCH(QByteArray, home);
    QFETCH(QString, expectedDir);
    if (xdg == "<unset>")
        qunsetenv("XDG_DATA_HOME");
    else
        qputenv("XDG_DATA_HOME", xdg);
    if (home == "<unset>")
        qunsetenv("HOME");
    else
        qputenv("HOME", home);
    std::string dir = expectedDir.toStdString();
    if (dir.rfind("<cwd>", 0) == 0)
        dir = std::filesystem::current_path().string() + dir.substr(5);

    QCOMPARE(QString::fromStdString(dataDirectory()), QString::fromStdString(dir));
    const std::string db = creditlab::defaultDatabasePath();
    QCOMPARE(QString::fromStdString(db), QString::fromStdString(dir + "/runs.db"));
    QVERIFY(QString::fromStdString(db).endsWith("creditlab/runs.db"));
    QVERIFY(std::filesystem::path(db).is_absolute());
}

void TestPaths::runFilesBesideTheDatabase()
{
    QCOMPARE(creditlab::paths::runFiles("/data/runs.db", 12), std::string("/data/runs.db.files/run-12"));
    QCOMPARE(creditlab::paths::runFiles("runs.db", 1), std::string("runs.db.files/run-1"));
}

QTEST_GUILESS_MAIN(TestPaths)
#include "tst_paths.moc"
