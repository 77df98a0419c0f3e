// mergeDatabases (storemerge.h): runs with every row that hangs off them copied with new ids, matched by uid, so a
// second merge adds nothing; a further-along copy of a run replaces the target's; one transaction (a bad input writes
// nothing, and is named); one trial alone; the network file system refusal.
#include "core/server/ingestserver.h"
#include "core/storage/database.h"
#include "core/storage/networkfs.h"
#include "core/storage/store.h"
#include "core/storage/storemerge.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>
#include <fstream>

using namespace creditlab;

namespace {

/// A run of `turns` one-turn trajectories with a credit and a human label each, metrics up to `iterations`.
std::int64_t addRun(Store& store, const std::string& uid, RunStatus status, int iterations, int trajectories)
{
    Database& db = store.database();
    const std::int64_t run = store.createRun({ "run " + uid, RunKind::Trial, status, {}, {} });
    store.setRunUid(run, uid);
    db.exec("INSERT INTO run_config (run_id, text) VALUES (" + std::to_string(run) + ", 'seed: 1')");
    for (int it = 0; it <= iterations; ++it)
        db.exec("INSERT INTO metric (run_id, iteration, name, value) VALUES (" + std::to_string(run) + ", "
            + std::to_string(it) + ", 'eval/success', 0.5)");
    for (int t = 0; t < trajectories; ++t) {
        db.exec("INSERT INTO trajectory (run_id, ord, ext_id, group_key, reward, turn_count) VALUES ("
            + std::to_string(run) + ", " + std::to_string(t) + ", 't" + std::to_string(t) + "', 'g', 1, 1)");
        const std::string id = std::to_string(db.lastInsertId());
        db.exec("INSERT INTO turn (trajectory_id, idx, observation, action) VALUES (" + id + ", 0, 'o', 'a')");
        db.exec("INSERT INTO credit (trajectory_id, idx, method, advantage) VALUES (" + id + ", 0, 'grpo', 0.25)");
        db.exec("INSERT INTO human_label (trajectory_id, idx, annotator, role, created_at) VALUES (" + id
            + ", 0, 'me', 'D', 'now')");
    }
    return run;
}

} // namespace

class TestStoreMerge : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string path(const char* name) const { return m_dir.filePath(name).toStdString(); }

private Q_SLOTS:
    void mergesOnceAndReplacesWhatIsFurtherAlong()
    {
        {
            Store a(path("a.db"));
            addRun(a, "r1", RunStatus::Finished, 3, 4);
            addRun(a, "r2", RunStatus::Running, 1, 2); // killed midway here...
            const auto sweep = a.ensureSweep("s", "sweep", "config", 2);
            const auto t = a.ensureTrial("s/trial-1", sweep, "x=1");
            a.finishTrial(t.id, 2, TrialStatus::Running, std::nullopt);
            Store b(path("b.db"));
            addRun(b, "r0", RunStatus::Finished, 1, 1); // b's ids differ from a's
            addRun(b, "r2", RunStatus::Finished, 3, 5); // ...and finished there
            const auto sweepB = b.ensureSweep("s", "sweep", "config", 2);
            const auto tb = b.ensureTrial("s/trial-1", sweepB, "x=1");
            b.finishTrial(tb.id, 2, TrialStatus::Finished, 0.75);
        }
        Store c(path("c.db"));
        auto counts = mergeDatabases(c.database(), { path("a.db"), path("b.db") });
        QCOMPARE(counts.runsAdded, 3);
        QCOMPARE(counts.runsReplaced, 1);
        QCOMPARE(counts.runsKept, 0);
        QCOMPARE(counts.trialsAdded, 1);
        QCOMPARE(counts.trialsUpdated, 1);
        Database& db = c.database();
        QCOMPARE(db.scalarInt("SELECT count(*) FROM run"), 3);
        QCOMPARE(db.scalarInt("SELECT count(*) FROM trajectory"), 4 + 1 + 5);
        QCOMPARE(db.scalarInt("SELECT count(*) FROM turn"), 10);
        QCOMPARE(db.scalarInt("SELECT count(*) FROM credit"), 10);
        QCOMPARE(db.scalarInt("SELECT count(*) FROM human_label"), 10);
        QCOMPARE(db.scalarInt("SELECT count(*) FROM trajectory t JOIN run r ON r.id = t.run_id WHERE r.uid = 'r2'"), 5);
        QCOMPARE(db.scalarInt("SELECT count(*) FROM trial t JOIN run r ON r.id = t.run_id WHERE r.uid = 'r2' AND "
                              "t.status = 'finished' AND t.objective = 0.75"),
            1);
        QCOMPARE(db.scalarInt("SELECT count(*) FROM pragma_foreign_key_check"), 0);
        QCOMPARE(db.scalarInt("SELECT status = 'running' FROM sweep"), 1); // 1 of its 2 trials

        // Again, in either order: nothing changes.
        counts = mergeDatabases(c.database(), { path("b.db"), path("a.db") });
        QCOMPARE(
            counts.runsAdded + counts.runsReplaced + counts.trialsAdded + counts.trialsUpdated + counts.sweepsAdded, 0);
        QCOMPARE(counts.runsKept, 4);
        QCOMPARE(db.scalarInt("SELECT count(*) FROM trajectory"), 10);
        QCOMPARE(db.scalarInt("SELECT count(*) FROM run"), 3);
    }

    void badInputWritesNothingAndIsNamed()
    {
        {
            std::ofstream junk(path("junk.db"));
            junk << "not a database";
        }
        Store d(path("d.db"));
        try {
            mergeDatabases(d.database(), { path("a.db"), path("junk.db") });
            QFAIL("merged a file that is not a database");
        } catch (const StoreError& e) {
            QVERIFY2(std::string(e.what()).find("junk.db") != std::string::npos, e.what());
        }
        QCOMPARE(d.database().scalarInt("SELECT count(*) FROM run"), 0);
        QVERIFY_THROWS_EXCEPTION(StoreError, mergeDatabases(d.database(), { path("d.db") }));
        // Cancelled halfway: nothing written either.
        QVERIFY_THROWS_EXCEPTION(Cancelled,
            mergeDatabases(d.database(), { path("a.db") }, {}, [](const Progress& p) { return p.done < 1; }));
        QCOMPARE(d.database().scalarInt("SELECT count(*) FROM run"), 0);
    }

    void oneTrialAlone()
    {
        Store e(path("e.db"));
        const auto counts = mergeDatabases(e.database(), { path("b.db") }, MergeOptions { std::string("s/trial-1") });
        QCOMPARE(counts.runsAdded, 1);
        QCOMPARE(e.database().scalarInt("SELECT count(*) FROM run WHERE uid = 'r2'"), 1);
        QCOMPARE(e.database().scalarInt("SELECT count(*) FROM run"), 1);
        QCOMPARE(e.database().scalarInt("SELECT count(*) FROM trial"), 1);
    }

    void serverMergesPostedDatabasesOnce()
    {
        // POST /v1/merge without HTTP: a database file's bytes, twice; a body that is not one is 422.
        QFile file(QString::fromStdString(path("b.db")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray body = file.readAll();
        server::Api api(path("served.db"));
        auto reply = api.mergeDatabase(std::string_view(body.constData(), static_cast<std::size_t>(body.size())));
        QCOMPARE(reply.status, 200);
        QVERIFY2(reply.body.find("\"runs_added\":2,") != std::string::npos, reply.body.c_str());
        reply = api.mergeDatabase(std::string_view(body.constData(), static_cast<std::size_t>(body.size())));
        QCOMPARE(reply.status, 200);
        QVERIFY2(reply.body.find("\"runs_added\":0,\"runs_replaced\":0,\"runs_kept\":2") != std::string::npos,
            reply.body.c_str());
        reply = api.mergeDatabase("not a database");
        QCOMPARE(reply.status, 422);
        QVERIFY2(reply.body.find("not an SQLite database") != std::string::npos, reply.body.c_str());
    }

    void networkFileSystemIsRefusedForWriting()
    {
        const std::string nfs = path("nfs");
        QVERIFY(QDir().mkpath(QString::fromStdString(nfs)));
        qputenv("CREDITLAB_TEST_NETWORK_FS", QByteArray::fromStdString(nfs));
        QVERIFY(networkFileSystem(nfs + "/x/y.db"));
        QVERIFY(!networkFileSystem(path("nfsx.db"))); // a prefix of the name, not of the folder
        QVERIFY(!networkFileSystem(path("local.db")));
        try {
            Store s(nfs + "/y.db");
            QFAIL("opened a WAL database on a network file system");
        } catch (const StoreError& e) {
            QVERIFY2(std::string(e.what()).find("network file system") != std::string::npos, e.what());
        }
        QVERIFY(!QFile::exists(QString::fromStdString(nfs + "/y.db")));
        qputenv("CREDITLAB_ALLOW_NETWORK_FS", "1");
        {
            Store allowed(nfs + "/y.db");
        }
        qunsetenv("CREDITLAB_ALLOW_NETWORK_FS");
        // Reading is allowed: nobody writes it there.
        {
            Store reader(nfs + "/y.db", Store::Access::ReadOnly);
        }
        qunsetenv("CREDITLAB_TEST_NETWORK_FS");
        QVERIFY(!networkFileSystem(nfs + "/y.db"));
    }
};

QTEST_GUILESS_MAIN(TestStoreMerge)
#include "tst_store_merge.moc"
