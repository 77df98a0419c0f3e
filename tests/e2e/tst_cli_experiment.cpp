// End-to-end tests of `creditlab-cli experiment` and `report`: a smoke experiment from the CLI (a shared SFT, then
// arms x seeds), its claims printed with verdicts, its report files; a bad experiment file refused before anything
// runs; the shipped experiments listed and parsed; a shipped experiment's database given a seed more (extend).
#include "core/storage/database.h"

#include <QDir>
#include <QFile>
#ifdef CREDITLAB_HAS_FIGURES_MODULE
#include <QImage>
#endif
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Result {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

const char* const kExperiment = R"(name: tiny-exp
paper: "a test"
base:
  seed: 0
  threads: 1
  env: {name: household, max_steps: 6}
  policy: {width: 32, layers: 1, heads: 2, context: 160, max_action_tokens: 8}
  tokenizer.episodes: 8
  sft: {expert_episodes: 12, noisy_episodes: 4, epochs: 1}
  rl: {iterations: 4, tasks: 2, group_size: 2, epochs: 1}
  eval: {episodes: 3, every: 1}
  credit: {method: triage}
  judge: {name: oracle}
arms:
  triage: {}
  grpo: {credit.method: grpo}
seeds: [0, 1, 2]
metrics: [eval/success, rollout/invalid_rate]
claims:
  - triage > grpo on eval/success
  - rollout/invalid_rate(grpo) rises faster than rollout/invalid_rate(triage)
smoke:
  set: {rl.iterations: 2}
  seeds: [0, 1]
workers: 2
threads: 1
)";

} // namespace

class TestCliExperiment : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QByteArrayList m_pairClaims; // the shipped pair experiment's claim lines at smoke scale

    static QByteArrayList claimLines(const QByteArray& out)
    {
        QByteArrayList lines;
        for (const auto& line : out.split('\n'))
            if (line.startsWith("claim  "))
                lines << line;
        return lines;
    }

    QString path(const QString& name) const { return m_dir.filePath(name); }

    Result run(const QStringList& args)
    {
        QProcess p;
        p.start(QStringLiteral(CREDITLAB_CLI_PATH), args);
        if (!p.waitForFinished(300000))
            qFatal("creditlab-cli did not finish: %s", qPrintable(args.join(' ')));
        return Result { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError() };
    }

    void write(const QString& file, const QByteArray& text)
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void helpDocumentsTheFormat()
    {
        const Result r = run({ "experiment", "--help" });
        QCOMPARE(r.exitCode, 0);
        for (const char* part : { "run", "resume", "extend", "list", "plan", "arms:", "claims:", "rises faster than",
                 "smoke:", "sft: shared", "per_seed" })
            QVERIFY2(r.out.contains(part), part);
    }

    void smokeExperimentEndToEnd()
    {
        write(path("exp.yaml"), kExperiment);
        const QString db = path("exp.db");
        const Result r = run({ "experiment", "run", path("exp.yaml"), "--scale", "smoke", "--db", db });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("experiment 'tiny-exp' (smoke scale): 2 arms x 2 seeds = 4 trials"), r.out.constData());
        QVERIFY2(r.out.contains("experiment 1 finished"), r.out.constData());
        // One verdict per claim, whatever it is: the smoke scale checks the pipeline, not the claim.
        QVERIFY2(r.out.contains("claim  triage > grpo on eval/success at end"), r.out.constData());
        QVERIFY2(r.out.contains("claim  grpo > triage on rollout/invalid_rate auc"), r.out.constData());

        // The shared SFT is one run; the four trials warm-start from it.
        const Result runs = run({ "runs", "--db", db });
        QCOMPARE(runs.exitCode, 0);
        QVERIFY2(runs.out.contains("tiny-exp-sft"), runs.out.constData());
        QCOMPARE(runs.out.count("tiny-exp-arm="), 4);

        const Result report = run({ "report", "--experiment", "1", "--db", db, "--output", path("report") });
        QVERIFY2(report.exitCode == 0, report.err.constData());
        for (const char* file : { "report/report.md", "report/eval_success.svg", "report/rollout_invalid_rate.svg" })
            QVERIFY2(QFile::exists(path(file)), file);
#ifdef CREDITLAB_HAS_FIGURES_MODULE
        // PNGs from the figures module (the CLI links no Qt): the workbench's painter, so the arms' colours are there.
        for (const char* file : { "report/eval_success.png", "report/rollout_invalid_rate.png" }) {
            const QImage png(path(file), "PNG");
            QVERIFY2(!png.isNull(), file);
            QCOMPARE(png.size(), QSize(1440, 840));
            bool firstArmColour = false;
            for (int y = 0; y < png.height() && !firstArmColour; y += 2)
                for (int x = 0; x < png.width() && !firstArmColour; x += 2)
                    firstArmColour = png.pixelColor(x, y) == QColor(0x00, 0x72, 0xB2);
            QVERIFY2(firstArmColour, file);
        }
        QVERIFY2(!report.err.contains("SVG figures only"), report.err.constData());
        QVERIFY(!QFile::exists(path("report/eval_success.png.part")));
#endif
        QFile md(path("report/report.md"));
        QVERIFY(md.open(QIODevice::ReadOnly));
        const QByteArray text = md.readAll();
        QVERIFY(text.contains("# Experiment 1: tiny-exp"));
        QVERIFY(text.contains("| `triage > grpo on eval/success at end` |"));
        QVERIFY(text.contains("scale: smoke"));
        QVERIFY(text.contains("sft: 1")); // the shared SFT run, as stored
        QVERIFY(!text.contains("Partial report"));

        // Again from the same SFT run (--sft), in a file of an earlier schema (version 4: before the probe tables,
        // the run shape, human notes, SFT curves and token segments): it is upgraded, and four new trials run, with no
        // second SFT.
        {
            creditlab::Database d(db.toStdString(), creditlab::Database::Access::ReadWrite);
            d.exec("DROP TABLE token_segment; DROP TABLE sft_metric; DROP TABLE human_note; DROP TABLE probe_result; "
                   "ALTER TABLE run DROP COLUMN method; ALTER TABLE run DROP COLUMN environment; "
                   "ALTER TABLE run DROP COLUMN seed; ALTER TABLE run DROP COLUMN policy_width; "
                   "ALTER TABLE run DROP COLUMN policy_layers; ALTER TABLE run DROP COLUMN iterations_planned; "
                   "ALTER TABLE run DROP COLUMN source_format; DROP TRIGGER run_uid; DROP TRIGGER sweep_uid; "
                   "DROP TRIGGER trial_uid; DROP INDEX run_by_uid; DROP INDEX sweep_by_uid; DROP INDEX trial_by_uid; "
                   "ALTER TABLE run DROP COLUMN uid; ALTER TABLE sweep DROP COLUMN uid; "
                   "ALTER TABLE sweep DROP COLUMN trials_planned; ALTER TABLE trial DROP COLUMN uid; "
                   "PRAGMA user_version = 4");
        }
        const Result again = run({ "experiment", "run", path("exp.yaml"), "--scale", "smoke", "--db", db, "--sft", "1", "-q" });
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QVERIFY2(again.out.contains("SFT start 1;"), again.out.constData());
        const Result runs2 = run({ "runs", "--db", db });
        QCOMPARE(runs2.out.count("tiny-exp-sft"), 1);
        QCOMPARE(runs2.out.count("tiny-exp-arm="), 8);
        const Result missing = run({ "experiment", "run", path("exp.yaml"), "--db", db, "--sft", "99" });
        QVERIFY(missing.exitCode != 0);
        QVERIFY2(missing.err.contains("--sft 99: no finished run"), missing.err.constData());
    }

    void planFromThePilotOrAskForOne()
    {
        // The smoke experiment's database: its finished seeds are the pilot, by ID or by the file's name (the latest
        // finished experiment of that name, the second run above). A fresh database has none: the command says how
        // to make one and creates nothing.
        const Result byId = run({ "experiment", "plan", "1", "--db", path("exp.db") });
        QVERIFY2(byId.exitCode == 0, byId.err.constData());
        QVERIFY2(byId.out.contains("experiment 1 'tiny-exp' (smoke scale) as the pilot"), byId.out.constData());
        QVERIFY2(byId.out.contains("\nclaim  triage > grpo on eval/success at end\n"), byId.out.constData());
        QVERIFY2(byId.out.contains("one fixed draw"), byId.out.constData());
        const Result byFile
            = run({ "experiment", "plan", path("exp.yaml"), "--db", path("exp.db"), "--effect", "0.1" });
        QVERIFY2(byFile.exitCode == 0, byFile.err.constData());
        QVERIFY2(byFile.out.startsWith("pilot: experiment 2 'tiny-exp'"), byFile.out.constData());
        QVERIFY2(byFile.out.contains("else 0.1 (--effect)"), byFile.out.constData());
        const Result none = run({ "experiment", "plan", path("exp.yaml"), "--db", path("none.db") });
        QVERIFY2(none.exitCode == 0, none.err.constData());
        QVERIFY2(none.out.contains("a plan needs a pilot"), none.out.constData());
        QVERIFY2(none.out.contains(("creditlab-cli experiment run " + path("exp.yaml") + " --scale smoke").toUtf8()),
            none.out.constData());
        QVERIFY(!QFile::exists(path("none.db")));
        QVERIFY(run({ "experiment", "plan", "99", "--db", path("exp.db") }).exitCode != 0);
    }

    void reportWithoutTheFiguresModuleIsWholeWithSvgs()
    {
        // A CLI with no figures module beside it (a build without the workbench): the report is written with its SVGs,
        // and a note says why there is no PNG. Uses the smoke experiment's database.
        const QString cli = path("bare/creditlab-cli");
        QVERIFY(QDir().mkpath(path("bare")));
        QVERIFY(QFile::copy(QStringLiteral(CREDITLAB_CLI_PATH), cli));
        // Its training commands' module beside it, as an install without the workbench has it.
        QVERIFY(QFile::copy(QStringLiteral(CREDITLAB_CLI_MODULE_PATH), path("bare/libcreditlab_cli_learn.so")));
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("CREDITLAB_FIGURES_MODULE"));
        p.setProcessEnvironment(env);
        p.start(cli, { "report", "-e", "1", "--db", path("exp.db"), "--output", path("report-bare") });
        QVERIFY(p.waitForFinished(60000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, err.constData());
        QVERIFY2(err.contains("note: SVG figures only: cannot load the figures module libcreditlab_figures.so"), err.constData());
        QVERIFY(QFile::exists(path("report-bare/report.md")));
        QVERIFY(QFile::exists(path("report-bare/eval_success.svg")));
        QVERIFY(!QFile::exists(path("report-bare/eval_success.png")));
    }

    void badExperimentIsRefusedBeforeAnythingRuns()
    {
        QByteArray text(kExperiment);
        text.replace("  - triage > grpo on eval/success\n", "  - triage > ppo on eval/success\n");
        write(path("bad.yaml"), text);
        const QString db = path("bad.db");
        const Result r = run({ "experiment", "run", path("bad.yaml"), "--db", db });
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("bad.yaml:20: claims: 'triage > ppo on eval/success': no arm named 'ppo'"), r.err.constData());
        QVERIFY(!QFile::exists(db)); // nothing ran, nothing was created
        const Result report = run({ "report", "--experiment", "9", "--db", path("exp.db") });
        QVERIFY(report.exitCode != 0);
        QVERIFY2(report.err.contains("sweep 9 does not exist"), report.err.constData());
    }

    void shippedExperimentsAreListed()
    {
        const Result r = run({ "experiment", "list" });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        for (const char* name : { "triage ", "triage-judge-noise ", "has ", "mgr ", "pair ", "rtmc ", "gigpo ", "seeds-triage-gigpo ", "long-horizon " })
            QVERIFY2(r.out.contains(name), name);
        QVERIFY(r.out.contains("claim: "));
    }

    void everyShippedExperimentRunsAtSmokeScale()
    {
        // The pipeline of each shipped experiment (its base, arms, shared SFT and claims), not its claim.
        for (const char* name : { "triage", "triage-judge-noise", "has", "mgr", "pair", "rtmc", "gigpo", "seeds-triage-gigpo", "long-horizon" }) {
            const QString db = path(QString("smoke-%1.db").arg(name));
            const Result r = run({ "experiment", "run", name, "--scale", "smoke", "--db", db, "--quiet" });
            QVERIFY2(r.exitCode == 0, qPrintable(QString("%1: %2").arg(name, QString::fromUtf8(r.err))));
            QVERIFY2(r.out.contains("experiment 1 finished"), qPrintable(QString("%1: %2").arg(name, QString::fromUtf8(r.out))));
            QVERIFY2(r.out.contains("claim  "), name);
            const Result report = run({ "report", "-e", "1", "--db", db, "--output", path(QString("report-%1").arg(name)) });
            QVERIFY2(report.exitCode == 0, name);
            QFile md(path(QString("report-%1/report.md").arg(name)));
            QVERIFY(md.open(QIODevice::ReadOnly));
            const QByteArray text = md.readAll();
            QVERIFY2(!text.contains("Partial report"), name);
            if (QByteArray(name) == "pair")
                m_pairClaims = claimLines(r.out);
            if (QByteArray(name) == "pair") {
                // PAIR's probe tables on the shared SFT policy, one per smoke seed, and its probe claims judged on them.
                QVERIFY2(r.out.contains("claim  last_token > attention on probe/auroc_drop at end"), r.out.constData());
                QVERIFY(text.contains("## Probe tables"));
                for (const char* probe : { "| last_token |", "| attention |", "| pair |", "| layerwise |" })
                    QVERIFY2(text.contains(probe), probe);
                QVERIFY2(text.contains(" (2) |"), "two smoke seeds per probe");
            }
        }
    }
    void shippedExperimentIsExtended()
    {
        // A shipped experiment's database (run by name, so its file is not at hand): extend reads the experiment from
        // the database, trains only the new seed's two trials and judges the claims over three seeds.
        const QString db = path("extend-mgr.db");
        const Result first = run({ "experiment", "run", "mgr", "--scale", "smoke", "--db", db, "--quiet" });
        QVERIFY2(first.exitCode == 0, first.err.constData());
        const Result help = run({ "experiment", "extend", "--help" });
        QVERIFY2(help.out.contains("in all (not the number to add)"), help.out.constData());
        const Result r = run({ "experiment", "extend", "1", "--seeds", "3", "--db", db });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("experiment 1: seed 2 added, 2 new trials"), r.out.constData());
        QVERIFY2(r.out.contains("experiment 1 finished"), r.out.constData());
        QVERIFY2(r.out.contains("n = 3 / 3"), r.out.constData());
        const Result runs = run({ "runs", "--db", db });
        QCOMPARE(runs.out.count("mgr-sft"), 1);
        QCOMPARE(runs.out.count("mgr-arm="), 6);
        // Refused: as many seeds as it has, and an experiment that is not there.
        const Result same = run({ "experiment", "extend", "1", "--seeds", "3", "--db", db });
        QVERIFY(same.exitCode != 0);
        QVERIFY2(same.err.contains("--seeds 3: experiment 1 has 3 seeds already (0, 1, 2)"), same.err.constData());
        const Result missing = run({ "experiment", "extend", "9", "--seeds", "4", "--db", db });
        QVERIFY(missing.exitCode != 0);
        QVERIFY2(missing.err.contains("experiment 9 does not exist"), missing.err.constData());
    }

    void probeTablesAreResumed()
    {
        // The pair smoke experiment with one probe table lost (as if stopped while computing it): resume computes
        // that one table again, and the claims come out as before (the same policy, seed and data).
        QVERIFY(!m_pairClaims.isEmpty());
        const QString db = path("smoke-pair.db");
        {
            creditlab::Database d(db.toStdString(), creditlab::Database::Access::ReadWrite);
            QCOMPARE(d.scalarInt("SELECT count(*) FROM probe_result WHERE seed = 43"), std::int64_t(9));
            d.exec("DELETE FROM probe_result WHERE seed = 43; UPDATE sweep SET status = 'cancelled'");
        }
        const Result r = run({ "experiment", "resume", "1", "--db", db });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("probe table 2/2 stored"), r.out.constData());
        QVERIFY2(!r.out.contains("probe table 1/2 stored"), r.out.constData()); // seed 42's table was kept
        QCOMPARE(claimLines(r.out), m_pairClaims);
        creditlab::Database d(db.toStdString(), creditlab::Database::Access::ReadOnly);
        QCOMPARE(d.scalarInt("SELECT count(*) FROM probe_result"), std::int64_t(18));
    }
};

QTEST_GUILESS_MAIN(TestCliExperiment)
#include "tst_cli_experiment.moc"
