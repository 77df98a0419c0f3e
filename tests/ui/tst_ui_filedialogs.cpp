// The workbench's file dialogs list a folder by names only: Qt's own icon provider opens files to sniff their type
// (QMimeDatabase), and closing any descriptor to a database drops all of this process's POSIX locks on it, so
// another process may checkpoint and delete the WAL under the open connection. Seen with inotify (Linux).
#include "ui/common/filedialogs.h"

#include <QFileDialog>
#include <QFileSystemModel>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <memory>

using namespace creditlab::ui;

namespace {

const QStringList kDatabaseFiles
    = { QStringLiteral("runs.db"), QStringLiteral("runs.db-wal"), QStringLiteral("runs.db-shm") };

/// The names of the files in one folder that were opened (IN_OPEN) since the last read().
class OpenWatch {
public:
    explicit OpenWatch(const QString& folder)
        : m_fd(inotify_init1(IN_NONBLOCK | IN_CLOEXEC))
    {
        if (m_fd >= 0)
            m_watch = inotify_add_watch(m_fd, QFile::encodeName(folder).constData(), IN_OPEN);
    }
    ~OpenWatch()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    OpenWatch(const OpenWatch&) = delete;
    OpenWatch& operator=(const OpenWatch&) = delete;

    bool isValid() const { return m_fd >= 0 && m_watch >= 0; }

    /// The files opened since the last call (names in the folder).
    QSet<QString> read()
    {
        QSet<QString> names;
        alignas(inotify_event) char buffer[8192];
        for (;;) {
            const ssize_t n = ::read(m_fd, buffer, sizeof buffer);
            if (n <= 0)
                break;
            for (ssize_t at = 0; at < n;) {
                const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
                if (event->len > 0 && (event->mask & IN_OPEN))
                    names.insert(QFile::decodeName(event->name));
                at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
            }
        }
        return names;
    }

private:
    int m_fd = -1;
    int m_watch = -1;
};

/// Shows `dialog` on `folder` and waits until its model has listed the folder and has every database file's icon
/// and type (the model asks the provider for both on its own thread while it lists). False if it never does.
bool listFolder(QFileDialog* dialog, const QString& folder)
{
    auto* model = dialog->findChild<QFileSystemModel*>();
    if (!model)
        return false;
    QSignalSpy loaded(model, &QFileSystemModel::directoryLoaded);
    dialog->show();
    const QString root = QDir(folder).canonicalPath();
    if (!QTest::qWaitFor([&] { return loaded.contains({ root }) || model->rowCount(model->index(root)) >= 3; }, 10000))
        return false;
    return QTest::qWaitFor(
        [&] {
            const QModelIndex parent = model->index(root);
            int seen = 0;
            for (int row = 0; row < model->rowCount(parent); ++row) {
                const QModelIndex name = model->index(row, 0, parent);
                if (!kDatabaseFiles.contains(name.data().toString()))
                    continue;
                const QString type = model->index(row, 2, parent).data().toString();
                if (!name.data(Qt::DecorationRole).value<QIcon>().isNull() && !type.isEmpty())
                    ++seen;
            }
            return seen == kDatabaseFiles.size();
        },
        10000);
}

} // namespace

class TestFileDialogs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void namesOnly();
    void qtProviderOpensFiles();
    void sameStartAsQt();

private:
    QTemporaryDir m_dir;
    sqlite3* m_db = nullptr;
};

/// A database in WAL mode, open (as the workbench keeps it) with a write in its WAL: runs.db, -wal and -shm.
void TestFileDialogs::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QByteArray path = QFile::encodeName(m_dir.filePath(QStringLiteral("runs.db")));
    QCOMPARE(sqlite3_open(path.constData(), &m_db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(m_db,
                 "PRAGMA journal_mode=WAL; CREATE TABLE runs(id INTEGER PRIMARY KEY, name TEXT);"
                 "INSERT INTO runs(name) VALUES('a');",
                 nullptr, nullptr, nullptr),
        SQLITE_OK);
    for (const QString& name : kDatabaseFiles)
        QVERIFY2(QFileInfo::exists(m_dir.filePath(name)), qPrintable(name));
    QFile other(m_dir.filePath(QStringLiteral("notes.txt")));
    QVERIFY(other.open(QIODevice::WriteOnly));
}

void TestFileDialogs::cleanupTestCase() { sqlite3_close(m_db); }

/// A dialog from createFileDialog lists the folder, icons and types included, without opening a database file.
void TestFileDialogs::namesOnly()
{
    OpenWatch watch(m_dir.path());
    QVERIFY(watch.isValid());
    const std::unique_ptr<QFileDialog> dialog(createFileDialog(nullptr, QStringLiteral("Open"), m_dir.path()));
    if (!dialog->findChild<QFileSystemModel*>())
        QSKIP("a native file dialog: no Qt model lists the folder");
    QVERIFY(listFolder(dialog.get(), m_dir.path()));
    QTest::qWait(300); // anything the model's thread still does
    const QSet<QString> opened = watch.read();
    for (const QString& name : kDatabaseFiles)
        QVERIFY2(!opened.contains(name), qPrintable(name + QStringLiteral(" was opened")));
    QVERIFY(dynamic_cast<NameOnlyIconProvider*>(dialog->iconProvider()));
    NameOnlyIconProvider provider;
    QCOMPARE(provider.type(QFileInfo(m_dir.filePath(QStringLiteral("runs.db")))), QStringLiteral("DB file"));
    QCOMPARE(provider.type(QFileInfo(m_dir.path())), QStringLiteral("Folder"));
    QVERIFY(watch.read().isEmpty());
}

/// The negative control: the same folder in a dialog with Qt's provider opens the database files.
void TestFileDialogs::qtProviderOpensFiles()
{
    OpenWatch watch(m_dir.path());
    QVERIFY(watch.isValid());
    QFileDialog dialog(nullptr, QStringLiteral("Open"), m_dir.path());
    if (!dialog.findChild<QFileSystemModel*>())
        QSKIP("a native file dialog: no Qt model lists the folder");
    QVERIFY(listFolder(&dialog, m_dir.path()));
    QSet<QString> opened;
    QTRY_VERIFY_WITH_TIMEOUT((opened.unite(watch.read()), opened.contains(QStringLiteral("runs.db"))), 5000);
}

/// The dialog starts where QFileDialog would: the folder, or a file's folder with the file selected.
void TestFileDialogs::sameStartAsQt()
{
    const QString file = m_dir.filePath(QStringLiteral("export.csv"));
    const std::unique_ptr<QFileDialog> dialog(
        createFileDialog(nullptr, QString(), file, QStringLiteral("CSV (*.csv)")));
    QCOMPARE(dialog->directory().canonicalPath(), QDir(m_dir.path()).canonicalPath());
    QCOMPARE(QFileInfo(dialog->selectedFiles().value(0)).fileName(), QStringLiteral("export.csv"));
    QCOMPARE(dialog->nameFilters(), QStringList { QStringLiteral("CSV (*.csv)") });
    const std::unique_ptr<QFileDialog> folder(createFileDialog(nullptr, QString(), m_dir.path()));
    QCOMPARE(folder->directory().canonicalPath(), QDir(m_dir.path()).canonicalPath());
}

QTEST_MAIN(TestFileDialogs)
#include "tst_ui_filedialogs.moc"
