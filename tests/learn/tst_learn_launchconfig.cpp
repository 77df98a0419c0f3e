// The launcher's document without widgets (core/learn/api/launchconfig.h): one set of defaults, the keys on offer
// follow the chosen method, environment and judge, values validate against their specs, YAML round-trips through
// the trainer's own parser, and a bad file leaves the document as it was.
#include "core/credit/estimator.h"
#include "core/env/environment.h"
#include "core/judge/judge.h"
#include "core/learn/api/launchconfig.h"
#include "core/learn/api/sftreuse.h"
#include "core/learn/api/trainconfig.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <string>

using namespace creditlab;
using namespace creditlab::learn;

namespace {

std::string defaultOf(const std::string& key)
{
    for (const auto& spec : TrainConfig::specs())
        if (spec.name == key)
            return spec.defaultValue;
    return "?";
}

/// Every key of a config with its value after defaults, the sections' keys too: a key written at its default
/// and a key left out resolve alike (TrainConfig::toYaml keeps a section's keys as the file gave them).
std::string resolved(const TrainConfig& config)
{
    std::string out = config.params().canonical();
    out += "\ncredit: " + credit::findEstimator(config.method())->resolve(config.creditAssignments()).canonical();
    out += "\nenv: "
        + credit::Params::resolve(config.envName(), env::findEnvironment(config.envName())->params, config.envAssignments())
              .canonical();
    out += "\njudge: "
        + credit::Params::resolve(config.judgeName(), judge::judgeParams(config.judgeName()), config.judgeAssignments())
              .canonical();
    return out;
}

} // namespace

class TestLaunchConfig : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// One set of defaults: a fresh document, an empty YAML file and TrainConfig all agree (the launcher once
    /// started on triage and loaded "{}" as grpo).
    void defaultsAreTheTrainersDefaults()
    {
        LaunchConfig fresh;
        QCOMPARE(fresh.env(), defaultOf("env.name"));
        QCOMPARE(fresh.method(), defaultOf("credit.method"));
        QCOMPARE(fresh.judge(), defaultOf("judge.name"));
        QCOMPARE(fresh.method(), std::string("grpo"));
        QVERIFY(fresh.changedValues().empty());

        LaunchConfig loaded;
        QVERIFY(loaded.set("credit.method", "triage").empty());
        loaded.load("{}", "empty.yaml");
        QCOMPARE(loaded.method(), fresh.method());
        QCOMPARE(loaded.toYaml(), fresh.toYaml());

        const TrainConfig parsed = fresh.toTrainConfig();
        const TrainConfig defaults = TrainConfig::defaults();
        QCOMPARE(parsed.toYaml(), defaults.toYaml());
    }

    /// Every trainer key but the three choices is on offer with its default, plus the method's, the
    /// environment's and the judge's keys; another method swaps the credit keys and drops the old ones' values.
    void keysFollowTheChoices()
    {
        LaunchConfig doc;
        for (const auto& spec : TrainConfig::specs()) {
            QVERIFY2(doc.hasKey(spec.name), spec.name.c_str());
            QCOMPARE(doc.defaultValue(spec.name), spec.defaultValue);
        }
        QVERIFY(doc.set("credit.method", "has").empty());
        QVERIFY(doc.hasKey("credit.alpha"));
        QVERIFY(doc.hasKey("env.max_steps"));
        QVERIFY(doc.set("credit.alpha", "0.25").empty());
        QVERIFY(!doc.isDefault("credit.alpha"));
        QVERIFY(doc.set("credit.method", "triage").empty());
        QVERIFY(!doc.hasKey("credit.alpha"));
        QVERIFY(doc.hasKey("credit.c.R"));
        for (const auto& [key, value] : doc.changedValues())
            QVERIFY2(key != "credit.alpha", "a has key outlived the switch to triage");
        QVERIFY(!doc.hasKey("judge.accuracy"));
        QVERIFY(doc.set("judge.name", "noisy").empty());
        QVERIFY(doc.hasKey("judge.accuracy"));

        // Sections come in form order, with the method's keys under "credit".
        const auto sections = doc.sections();
        std::vector<std::string> groups;
        for (const auto& s : sections)
            groups.push_back(s.group);
        const auto at = [&](const std::string& g) { return std::find(groups.begin(), groups.end(), g) - groups.begin(); };
        QVERIFY(at("policy") < at("rl"));
        QVERIFY(at("rl") < at("credit"));
        QVERIFY(at("credit") < at("env"));
        QVERIFY(at("env") < at("judge"));
        QVERIFY(at("judge") < at("eval"));
    }

    /// A bad value, an unknown key or an unknown choice is refused with a reason naming the key, and changes
    /// nothing.
    void badValuesAreRefused()
    {
        LaunchConfig doc;
        QVERIFY(doc.set("rl.iterations", "12").empty());
        const std::string before = doc.toYaml();
        const std::string range = doc.set("rl.iterations", "-3");
        QVERIFY2(range.rfind("rl.iterations: -3 is outside", 0) == 0, range.c_str()); // the key first, as the form shows it
        QVERIFY(doc.set("rl.iterations", "many").find("rl.iterations") != std::string::npos);
        QVERIFY(doc.set("credit.method", "nosuch").find("credit.method") != std::string::npos);
        QVERIFY(doc.set("rl.nosuch", "1").find("rl.nosuch") != std::string::npos);
        QVERIFY(doc.set("credit.alpha", "0.5").find("credit.alpha") != std::string::npos); // a has key, method grpo
        QCOMPARE(doc.toYaml(), before);
        QCOMPARE(doc.value("rl.iterations"), std::string("12"));
    }

    /// Setting a key back to its default removes it from the YAML; reset and resetValues do the same.
    void defaultsAreNotWritten()
    {
        LaunchConfig doc;
        QVERIFY(doc.set("rl.lr", "0.001").empty());
        QVERIFY(doc.toYaml().find("rl.lr: 0.001") != std::string::npos);
        QVERIFY(doc.set("rl.lr", doc.defaultValue("rl.lr")).empty());
        QVERIFY(doc.toYaml().find("rl.lr") == std::string::npos);
        QVERIFY(doc.set("seed", "7").empty());
        QVERIFY(doc.set("credit.method", "triage").empty());
        doc.reset("seed");
        QVERIFY(doc.isDefault("seed"));
        QVERIFY(doc.set("seed", "7").empty());
        doc.resetValues();
        QVERIFY(doc.changedValues().empty());
        QCOMPARE(doc.method(), std::string("triage")); // the choices stay
        doc.reset("credit.method");
        QCOMPARE(doc.method(), defaultOf("credit.method"));
    }

    /// Every shipped run config loads, and its YAML out parses to the same resolved config as the file.
    void shippedConfigsRoundTrip()
    {
        int seen = 0;
        for (const auto& entry : std::filesystem::directory_iterator(CREDITLAB_CONFIG_DIR)) {
            const std::string name = entry.path().filename().string();
            if (entry.path().extension() != ".yaml" || name.rfind("sweep", 0) == 0)
                continue;
            const std::string path = entry.path().string();
            std::ifstream in(path);
            QVERIFY2(in, path.c_str());
            std::stringstream text;
            text << in.rdbuf();
            LaunchConfig doc;
            doc.load(text.str(), path);
            const TrainConfig fromFile = TrainConfig::parse(text.str(), path);
            const std::string ours = resolved(doc.toTrainConfig());
            const std::string theirs = resolved(fromFile);
            if (ours != theirs) { // name the file and the first line that differs
                std::istringstream a(ours), b(theirs);
                std::string la, lb;
                while (std::getline(a, la) && std::getline(b, lb) && la == lb) {
                }
                QFAIL((name + ": launcher '" + la + "' vs file '" + lb + "'").c_str());
            }
            LaunchConfig again;
            again.load(doc.toYaml(), "out.yaml");
            QCOMPARE(again.toYaml(), doc.toYaml());
            ++seen;
        }
        QVERIFY(seen >= 10);
    }

    /// A bad file throws naming its source, line and key, and the document keeps what it had.
    void badFileLeavesTheDocument()
    {
        LaunchConfig doc;
        QVERIFY(doc.set("credit.method", "triage").empty());
        QVERIFY(doc.set("rl.iterations", "9").empty());
        const std::string before = doc.toYaml();
        try {
            doc.load("credit.method: has\nrl:\n  iterations: 0\n  nosuch: 1\n", "bad.yaml");
            QFAIL("a bad file loaded");
        } catch (const ConfigError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("bad.yaml") != std::string::npos, what.c_str());
        }
        QCOMPARE(doc.toYaml(), before);
    }

    /// Values YAML would read differently are quoted, and read back as they were.
    void scalarsAreQuotedWhenNeeded()
    {
        QCOMPARE(yamlScalar("household"), std::string("household"));
        QCOMPARE(yamlScalar("0.25"), std::string("0.25"));
        QCOMPARE(yamlScalar(""), std::string("\"\""));
        QCOMPARE(yamlScalar("a: b"), std::string("\"a: b\""));
        QCOMPARE(yamlScalar("say \"hi\""), std::string("\"say \\\"hi\\\"\""));
        LaunchConfig doc;
        QVERIFY(doc.set("name", "my run: #1").empty());
        LaunchConfig again;
        again.load(doc.toYaml(), "out.yaml");
        QCOMPARE(again.value("name"), std::string("my run: #1"));
    }

    /// Two runs of one preset get names that tell them apart (issue 20 finding 6): preset · method · seed, then
    /// what differs from the preset; a name typed in is kept.
    void runNamesTellRunsApart()
    {
        const std::string preset = "name: household-quick\nenv.name: household\ncredit.method: triage\nseed: 0\n"
                                   "rl:\n  iterations: 3\n";
        const std::string dot = " \u00b7 ";
        LaunchConfig triage;
        triage.load(preset, "household-quick.yaml");
        QCOMPARE(triage.runName(), "household-quick" + dot + "triage" + dot + "s0");
        LaunchConfig grpo;
        grpo.load(preset, "household-quick.yaml");
        QVERIFY(grpo.set("credit.method", "grpo").empty());
        QCOMPARE(grpo.runName(), "household-quick" + dot + "grpo" + dot + "s0");
        QVERIFY(grpo.set("seed", "3").empty());
        QVERIFY(grpo.set("rl.iterations", "5").empty());
        QCOMPARE(grpo.runName(), "household-quick" + dot + "grpo" + dot + "s3" + dot + "rl.iterations=5");
        QCOMPARE(grpo.toRunConfig().runName(), grpo.runName());
        QCOMPARE(grpo.toTrainConfig().runName(), std::string("household-quick")); // the document itself is unchanged
        // Four differences: the first three, then a count of the rest.
        QVERIFY(grpo.set("rl.tasks", "2").empty());
        QVERIFY(grpo.set("rl.group_size", "2").empty());
        QVERIFY(grpo.set("judge.name", "noisy").empty());
        const std::string many = grpo.runName();
        QVERIFY2(many.find("judge.name=noisy") != std::string::npos, many.c_str());
        QVERIFY2(many.size() > 3 && many.substr(many.size() - 3) == " +1", many.c_str());
        // A name typed in wins.
        QVERIFY(grpo.set("name", "ablation A").empty());
        QCOMPARE(grpo.runName(), std::string("ablation A"));
        // No file loaded: the environment stands in for the preset.
        LaunchConfig fresh;
        QCOMPARE(fresh.runName(), fresh.env() + dot + fresh.method() + dot + "s" + fresh.value("seed"));
    }

    /// A second run of the same SFT settings finds the first one's SFT policy (sft.from_run); another seed, policy
    /// or environment parameter does not, nor a run whose SFT policy is not on disk, nor an import.
    void sftSourceHasTheSameSft()
    {
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("runs.db")).toStdString();
        Store store(db);
        const std::string base = "env.name: household\ncredit.method: triage\nseed: 1\npolicy:\n  width: 64\n"
                                 "  layers: 2\n  heads: 2\n";
        const auto addRun = [&](const std::string& config, bool withPolicy, RunKind kind = RunKind::Train) {
            const std::int64_t id = store.createRun({ "r", kind, RunStatus::Finished, std::nullopt });
            store.setRunConfig(id, "yaml", config);
            if (withPolicy) {
                std::filesystem::create_directories(paths::runFiles(db, id));
                std::ofstream(paths::runFiles(db, id) + "/reference.pt") << "weights";
            }
            const std::pair<std::string, double> sft { "time/sft_s", 85.0 + id };
            store.writeMetrics(id, 0, std::span(&sft, 1));
            return id;
        };
        const auto wanted = TrainConfig::parse(base + "rl:\n  iterations: 9\n", "new"); // RL keys don't matter
        QVERIFY(!findSftSource(store, db, wanted));
        const std::int64_t first = addRun(base, true);
        addRun(base, false); // no SFT policy on disk
        addRun(base, true, RunKind::Import);
        addRun("env.name: household\nseed: 2\npolicy:\n  width: 64\n  layers: 2\n  heads: 2\n", true);
        addRun(base + "env.max_steps: 7\n", true);
        addRun(base + "sft.from_run: 1\n", true); // itself a reuse
        auto found = findSftSource(store, db, wanted);
        QVERIFY(found);
        QCOMPARE(found->runId, first);
        QCOMPARE(found->sftSeconds, 85.0 + first);
        // The method does not matter, an environment default written out neither; the newest match wins.
        const std::int64_t newest = addRun("credit.method: grpo\nenv.name: household\nenv.max_steps: 50\n" // the default
                                           "seed: 1\npolicy:\n  width: 64\n  layers: 2\n  heads: 2\n",
            true);
        found = findSftSource(store, db, wanted);
        QVERIFY(found);
        QCOMPARE(found->runId, newest);
        // Nothing to offer when the config already reuses a run or trains no SFT.
        QVERIFY(!findSftSource(store, db, TrainConfig::parse(base + "sft.from_run: 3\n", "reuse")));
        QVERIFY(!findSftSource(store, db, TrainConfig::parse(base + "sft.epochs: 0\n", "none")));
    }
};

QTEST_GUILESS_MAIN(TestLaunchConfig)
#include "tst_learn_launchconfig.moc"
