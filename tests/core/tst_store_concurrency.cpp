// Concurrent access (DESIGN.md "Storage"): a reader never blocks the writer, is never blocked by it,
// and never sees half a write. Each thread opens its own Store; threads meet at promises, never sleeps.
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonltransfer.h"
#include "core/storage/store.h"

#include "testutil.h"

#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QTest>

#include <chrono>
#include <future>
#include <thread>

using namespace creditlab;

// Declarations first: moc mis-reads raw string literals inside a class body.
class TestStoreConcurrency : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();
    void readerNotBlockedByOpenWriteTransaction_data();
    void readerNotBlockedByOpenWriteTransaction();
    void readTransactionDoesNotBlockCommit();
    void readerNeverSeesHalfAnImport();
    void secondConnectionKeepsTheFirstsLocks();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::string m_path;
    std::int64_t m_run = 0;
};

namespace {

using Clock = std::chrono::steady_clock;
/// How long something that must happen may take before the test gives up.
constexpr auto kPatience = std::chrono::seconds(60);
/// A reader or writer that does not wait for the other finishes well within this; one that waits
/// for the other's commit would sit in SQLite's 10 s busy handler and fail or overrun.
constexpr auto kPrompt = std::chrono::seconds(5);
constexpr int kInitial = 10;
constexpr int kAdded = 5;

/// A one-shot signal between threads.
class Gate {
public:
    void open()
    {
        std::call_once(m_once, [this] { m_promise.set_value(); });
    }
    bool waitFor(std::chrono::steady_clock::duration d) const
    {
        return m_future.wait_for(d) == std::future_status::ready;
    }
    bool isOpen() const { return waitFor(std::chrono::seconds(0)); }

private:
    std::once_flag m_once;
    std::promise<void> m_promise;
    std::shared_future<void> m_future = m_promise.get_future().share();
};

/// Opens every gate and joins the thread when a test leaves early, so that no thread is left waiting.
struct Releaser {
    std::vector<Gate*> gates;
    std::thread* thread;
    ~Releaser()
    {
        for (Gate* g : gates)
            g->open();
        if (thread && thread->joinable())
            thread->join();
    }
};

struct ReadResult {
    std::int64_t rows = -1;
    std::int64_t listed = -1; ///< the run's trajectory count as Store::runs() reports it
    std::size_t runs = 0;
    Clock::duration elapsed {};
    std::string error;
};

/// Opens a fresh Store on its own thread and counts; the future is ready when it is done.
std::future<ReadResult> readOnAnotherThread(const std::string& path, std::int64_t run, Store::Access access)
{
    return std::async(std::launch::async, [path, run, access] {
        ReadResult r;
        const auto start = Clock::now();
        try {
            Store store(path, access);
            r.rows = store.database().scalarInt("SELECT count(*) FROM trajectory");
            const auto info = store.run(run);
            r.listed = info ? info->trajectoryCount : -1;
            r.runs = store.runs().size();
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        r.elapsed = Clock::now() - start;
        return r;
    });
}

/// The sqlite3 command-line shell, as a second process; empty when not installed.
QString sqliteShell()
{
    const QString shell = QStringLiteral("/usr/bin/sqlite3");
    return QFileInfo(shell).isExecutable() ? shell : QString();
}

/// Runs a count in another process; returns its output, or "error: ..." when it failed or did not finish promptly.
QString countInProcess(const QString& shell, const std::string& path)
{
    QProcess p;
    p.start(shell, { QString::fromStdString(path), QStringLiteral("SELECT count(*) FROM trajectory;") });
    if (!p.waitForFinished(static_cast<int>(std::chrono::milliseconds(kPrompt).count())))
        return QStringLiteral("error: did not finish promptly");
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("error: ") + QString::fromUtf8(p.readAllStandardError());
    return QString::fromUtf8(p.readAllStandardOutput()).trimmed();
}

void insertBatch(Store& store, std::int64_t run, int from, int n)
{
    for (int i = from; i < from + n; ++i)
        store.insertTrajectory(run, i, test::minimalTrajectory("t" + std::to_string(i), "g", 1.0, 3));
}

} // namespace

void TestStoreConcurrency::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath("runs.db").toStdString();
    Store store(m_path);
    auto tx = store.begin();
    m_run = store.createRun(NewRun { "base", RunKind::Train, RunStatus::Running, std::nullopt });
    insertBatch(store, m_run, 0, kInitial);
    tx->commit();
}

void TestStoreConcurrency::cleanup() { m_dir.reset(); }

void TestStoreConcurrency::secondConnectionKeepsTheFirstsLocks()
{
    // Opening a second Store on a file this process already has open must not drop the first connection's
    // POSIX locks (a plain open()/close() of the file would). Otherwise another process takes itself for the
    // last connection when it closes, checkpoints and deletes the WAL under the open writer: what corrupted a
    // database when `train --resume` ran beside other training runs.
    Store writer(m_path);
    {
        auto tx = writer.begin();
        insertBatch(writer, m_run, kInitial, 1);
        tx->commit();
    }
    const QString wal = QString::fromStdString(m_path + "-wal");
    QVERIFY(QFileInfo::exists(wal));
    {
        Store second(m_path); // as Trainer::resume opens a second connection beside the trainer's
        QCOMPARE(second.runs().size(), std::size_t(1));
    }
    QProcess shell;
    shell.start("sqlite3", { QString::fromStdString(m_path), "SELECT count(*) FROM run;" });
    if (!shell.waitForStarted())
        QSKIP("the sqlite3 shell is not installed (packaging/install-deps.sh installs it)");
    QVERIFY(shell.waitForFinished(30000));
    QCOMPARE(shell.readAllStandardOutput().trimmed(), QByteArray("1"));
    // The shell saw this process's shared lock, so it was not the last connection and left the WAL alone.
    QVERIFY2(QFileInfo::exists(wal), "another process deleted the WAL of an open connection");
    auto tx = writer.begin();
    insertBatch(writer, m_run, kInitial + 1, 1);
    tx->commit();
    Store check(m_path);
    auto st = check.database().prepare("PRAGMA quick_check");
    QVERIFY(st.step());
    QCOMPARE(QString::fromStdString(st.columnText(0)), QString("ok"));
}

void TestStoreConcurrency::readerNotBlockedByOpenWriteTransaction_data()
{
    QTest::addColumn<bool>("readOnly");
    QTest::newRow("read-write reader") << false;
    QTest::newRow("read-only reader") << true;
}

void TestStoreConcurrency::readerNotBlockedByOpenWriteTransaction()
{
    QFETCH(bool, readOnly);
    const auto access = readOnly ? Store::Access::ReadOnly : Store::Access::ReadWrite;
    Gate inserted, release, committed;
    std::int64_t writerSees = -1;
    std::string writerError;
    std::thread writer([&] {
        try {
            Store store(m_path);
            auto tx = store.begin();
            insertBatch(store, m_run, kInitial, kAdded);
            writerSees = store.database().scalarInt("SELECT count(*) FROM trajectory");
            inserted.open();
            if (!release.waitFor(kPatience))
                throw std::runtime_error("never released");
            tx->commit();
        } catch (const std::exception& e) {
            writerError = e.what();
        }
        inserted.open();
        committed.open();
    });
    Releaser releaser { { &inserted, &release, &committed }, &writer };

    QVERIFY(inserted.waitFor(kPatience));
    QVERIFY2(writerError.empty(), writerError.c_str());
    QCOMPARE(writerSees, std::int64_t(kInitial + kAdded)); // inserted, not committed

    // Another thread with its own connection reads while the write transaction is open.
    auto reader = readOnAnotherThread(m_path, m_run, access);
    QVERIFY2(reader.wait_for(kPrompt) == std::future_status::ready, "the reader waited for the writer");
    const ReadResult before = reader.get();
    QVERIFY2(before.error.empty(), before.error.c_str());
    QVERIFY(before.elapsed < kPrompt);
    QCOMPARE(before.rows, std::int64_t(kInitial)); // the old state
    QCOMPARE(before.listed, std::int64_t(kInitial));
    QVERIFY(!committed.isOpen()); // it really read before the commit

    // Another process reads too.
    const QString shell = sqliteShell();
    if (!shell.isEmpty())
        QCOMPARE(countInProcess(shell, m_path), QString::number(kInitial));

    release.open();
    QVERIFY(committed.waitFor(kPatience));
    writer.join();
    QVERIFY2(writerError.empty(), writerError.c_str());

    auto after = readOnAnotherThread(m_path, m_run, access);
    QVERIFY(after.wait_for(kPatience) == std::future_status::ready);
    const ReadResult now = after.get();
    QVERIFY2(now.error.empty(), now.error.c_str());
    QCOMPARE(now.rows, std::int64_t(kInitial + kAdded));
    QCOMPARE(now.listed, std::int64_t(kInitial + kAdded));
    if (shell.isEmpty())
        QSKIP("no sqlite3 shell at /usr/bin/sqlite3: the separate-process part was not run");
    QCOMPARE(countInProcess(shell, m_path), QString::number(kInitial + kAdded));
}

void TestStoreConcurrency::readTransactionDoesNotBlockCommit()
{
    Gate reading, finishReading;
    std::size_t visited = 0;
    std::string readerError;
    std::thread reader([&] {
        try {
            Store store(m_path);
            store.forEachTrajectory(m_run, std::nullopt, [&](const Trajectory&) {
                if (visited++ == 0) {
                    reading.open();
                    if (!finishReading.waitFor(kPatience))
                        throw std::runtime_error("never released");
                }
                return true;
            });
        } catch (const std::exception& e) {
            readerError = e.what();
        }
        reading.open();
    });
    Releaser releaser { { &reading, &finishReading }, &reader };
    QVERIFY(reading.waitFor(kPatience));
    QVERIFY2(readerError.empty(), readerError.c_str());

    // While the reader sits inside its read transaction, a writer on another connection commits.
    auto writer = std::async(std::launch::async, [this] {
        ReadResult r;
        const auto start = Clock::now();
        try {
            Store store(m_path);
            auto tx = store.begin();
            insertBatch(store, m_run, kInitial, kAdded);
            tx->commit();
            r.rows = store.database().scalarInt("SELECT count(*) FROM trajectory");
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        r.elapsed = Clock::now() - start;
        return r;
    });
    QVERIFY2(writer.wait_for(kPrompt) == std::future_status::ready, "the writer waited for the reader");
    const ReadResult w = writer.get();
    QVERIFY2(w.error.empty(), w.error.c_str());
    QVERIFY(w.elapsed < kPrompt);
    QCOMPARE(w.rows, std::int64_t(kInitial + kAdded));

    // The reader finishes in the state it started from.
    finishReading.open();
    reader.join();
    QVERIFY2(readerError.empty(), readerError.c_str());
    QCOMPARE(visited, std::size_t(kInitial));

    auto after = readOnAnotherThread(m_path, m_run, Store::Access::ReadOnly);
    QVERIFY(after.wait_for(kPatience) == std::future_status::ready);
    QCOMPARE(after.get().rows, std::int64_t(kInitial + kAdded));
}

void TestStoreConcurrency::readerNeverSeesHalfAnImport()
{
    const int n = 600; // more than one import chunk
    std::string content;
    for (int i = 0; i < n; ++i) {
        std::string line;
        formatTrajectory(test::minimalTrajectory("imp" + std::to_string(i), "g", 0.5, 2), line);
        content += line + "\n";
    }
    const std::string file = m_dir->filePath("import.jsonl").toStdString();
    test::writeFile(file, content);

    // The importer's progress callback holds it after every row is written but before the commit.
    Gate allWritten, release;
    ImportResult result;
    std::string importError;
    std::thread importer([&] {
        try {
            Store store(m_path);
            result = importJsonl(store, file, [&](const Progress& p) {
                if (p.items == std::uint64_t(n) && !allWritten.isOpen()) {
                    allWritten.open();
                    if (!release.waitFor(kPatience))
                        return false;
                }
                return true;
            });
        } catch (const std::exception& e) {
            importError = e.what();
        }
        allWritten.open();
    });
    Releaser releaser { { &allWritten, &release }, &importer };
    QVERIFY(allWritten.waitFor(kPatience));
    QVERIFY2(importError.empty(), importError.c_str());

    auto reader = readOnAnotherThread(m_path, m_run, Store::Access::ReadWrite);
    QVERIFY2(reader.wait_for(kPrompt) == std::future_status::ready, "the reader waited for the importer");
    const ReadResult mid = reader.get();
    QVERIFY2(mid.error.empty(), mid.error.c_str());
    QCOMPARE(mid.runs, std::size_t(1)); // the import's run is not visible yet
    QCOMPARE(mid.rows, std::int64_t(kInitial)); // nor any of its rows
    const QString shell = sqliteShell();
    if (!shell.isEmpty())
        QCOMPARE(countInProcess(shell, m_path), QString::number(kInitial));

    release.open();
    importer.join();
    QVERIFY2(importError.empty(), importError.c_str());
    QCOMPARE(result.trajectories, std::uint64_t(n));
    auto after = readOnAnotherThread(m_path, result.runId, Store::Access::ReadOnly);
    QVERIFY(after.wait_for(kPatience) == std::future_status::ready);
    const ReadResult done = after.get();
    QVERIFY2(done.error.empty(), done.error.c_str());
    QCOMPARE(done.runs, std::size_t(2));
    QCOMPARE(done.rows, std::int64_t(kInitial + n));
    QCOMPARE(done.listed, std::int64_t(n));
}

QTEST_GUILESS_MAIN(TestStoreConcurrency)
#include "tst_store_concurrency.moc"
