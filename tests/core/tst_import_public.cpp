// Public agent logs as they are (issue 35): the shipped mappings (resources/mappings/) recognise tau-bench, FireAct's
// two layouts, SWE-agent's .traj, ReAct's transcripts, WebShop's human sessions and AgentGym's episode dumps, on
// fixtures written here in each layout (data/import/documents); what their mapping features do (references to the
// previous and next step, the outcome from text, transcripts, a row per step, a file per trajectory); round trips; and
// the errors of mapping files, which name the file, line and key.
#include "core/credit/estimator.h"
#include "core/credit/explain.h"
#include "core/interchange/importformats.h"
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonltransfer.h"
#include "core/storage/store.h"

#include "testutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest/QTest>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

using namespace creditlab;

class TestImportPublic : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }
    void importsAsItIs_data();
    void importsAsItIs();
    void sweAgentObservationIsThePreviousStepsResult();
    void agentGymOutcomeIsCountedOnce();
    void fireActOutcomeFromText();
    void fireActTrajsAreTranscripts();
    void reactTranscriptsSplitAtActionLines();
    void webShopSessionIsOneTrajectoryPerFile();
    void validStaysUnknownUnlessMapped();
    void mappingFeatures();
    void badMappings_data();
    void badMappings();
    void unrecognisedRecordNamesTheClosestFormat();
    void zeroCreditSaysWhyAndGroupByChangesIt();

private:
    std::string path(const std::string& name) const
    {
        return m_dir->filePath(QString::fromStdString(name)).toStdString();
    }
    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

std::string sample(const std::string& name) { return std::string(CREDITLAB_IMPORT_SAMPLES) + "/documents/" + name; }

std::vector<Trajectory> readAll(TrajectorySource& source)
{
    std::vector<Trajectory> out;
    Trajectory t;
    while (source.next(t))
        out.push_back(t);
    return out;
}

std::vector<Trajectory> readAll(const std::string& file, const ImportOptions& options = {})
{
    return readAll(*openTrajectorySource(file, options));
}

} // namespace

void TestImportPublic::importsAsItIs_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QStringList>("ids");
    QTest::addColumn<QList<int>>("turns");
    QTest::addColumn<QList<double>>("rewards");
    QTest::addColumn<QStringList>("groups");
    // tau-bench: trials of one task share its group.
    QTest::newRow("tau-bench") << QStringList { "tau-bench.json" } << "tau-bench" << QStringList { "line-2", "line-55" }
                               << QList<int> { 2, 1 } << QList<double> { 1, 0 } << QStringList { "7", "7" };
    QTest::newRow("FireAct trajs") << QStringList { "fireact-trajs.json" } << "FireAct trajectories"
                                   << QStringList { "hotpotqa-train-12", "hotpotqa-train-13" } << QList<int> { 2, 1 }
                                   << QList<double> { 1, 0 } << QStringList { "p0", "p1" };
    QTest::newRow("FireAct gpt_format") << QStringList { "fireact-gpt.jsonl" } << "FireAct fine-tuning chat"
                                        << QStringList { "line-1", "line-2", "line-3" } << QList<int> { 2, 1, 1 }
                                        << QList<double> { 1, 0, 0 } << QStringList { "p0", "p1", "p2" };
    QTest::newRow("SWE-agent") << QStringList { "swe-agent.traj" } << "SWE-agent trajectory"
                               << QStringList { "swe-agent" } << QList<int> { 3 } << QList<double> { 0 }
                               << QStringList { "p0" };
    QTest::newRow("ReAct") << QStringList { "react-alfworld.json" } << "ReAct transcript"
                           << QStringList { "react_put_0", "react_clean_1" } << QList<int> { 5, 2 }
                           << QList<double> { 0, 0 } << QStringList { "p0", "p1" };
    QTest::newRow("WebShop") << QStringList { "webshop-session-7.jsonl", "webshop-session-8.jsonl" }
                             << "WebShop human session" << QStringList { "webshop-session-7", "webshop-session-8" }
                             << QList<int> { 3, 4 } << QList<double> { 1.0 / 3.0, 1 }
                             << QStringList { "i need a silver synthetic wig, and price lower than 190.00 dollars",
                                    "i need a silver synthetic wig, and price lower than 190.00 dollars" };
    QTest::newRow("AgentGym") << QStringList { "agentgym-mcp.json" } << "AgentGym episodes" << QStringList { "0", "1" }
                              << QList<int> { 3, 1 } << QList<double> { 0.30000000000000004, 0 }
                              << QStringList { "0", "0" };
}

void TestImportPublic::importsAsItIs()
{
    QFETCH(QStringList, files);
    QFETCH(QString, format);
    QFETCH(QStringList, ids);
    QFETCH(QList<int>, turns);
    QFETCH(QList<double>, rewards);
    QFETCH(QStringList, groups);
    std::vector<std::string> paths;
    for (const QString& f : files)
        paths.push_back(sample(f.toStdString()));
    // Detected with no option at all.
    QCOMPARE(detectImportFormat(paths.front()), ImportFormat::Mapped);
    const auto source = openTrajectorySources(paths);
    const auto t = readAll(*source);
    QCOMPARE(QString::fromStdString(source->formatName()), format);
    QCOMPARE(t.size(), static_cast<std::size_t>(ids.size()));
    for (std::size_t i = 0; i < t.size(); ++i) {
        const int k = static_cast<int>(i);
        QCOMPARE(QString::fromStdString(t[i].id), ids[k]);
        QCOMPARE(static_cast<int>(t[i].turns.size()), turns[k]);
        QCOMPARE(t[i].reward, rewards[k]);
        QCOMPARE(QString::fromStdString(t[i].group), groups[k]);
    }
    // Round trip through the store: import, export, import the export, export again: the same bytes, and the same
    // trajectories.
    Store store(path("runs.db"));
    const auto again = openTrajectorySources(paths);
    const ImportResult r = importTrajectories(store, *again, paths.front());
    QCOMPARE(QString::fromStdString(r.format), format);
    QCOMPARE(r.trajectories, static_cast<std::uint64_t>(ids.size()));
    const std::string first = path("first.jsonl"), second = path("second.jsonl");
    exportJsonl(store, r.runId, std::nullopt, first);
    const auto back = readAll(first, ImportOptions::as(ImportFormat::Native));
    QCOMPARE(back.size(), t.size());
    for (std::size_t i = 0; i < back.size(); ++i)
        CL_COMPARE_TRAJ(back[i], t[i]);
    Store store2(path("again.db"));
    const ImportResult r2 = importFile(store2, first, ImportOptions {});
    exportJsonl(store2, r2.runId, std::nullopt, second);
    QCOMPARE(test::readFile(second), test::readFile(first));
}

void TestImportPublic::sweAgentObservationIsThePreviousStepsResult()
{
    // A .traj step's observation is what its action returned: turn k sees step k-1's. The first turn sees the task,
    // history[1], whose content is a list of parts here.
    const auto t = readAll(sample("swe-agent.traj"));
    QCOMPARE(t.size(), std::size_t(1));
    const auto& turns = t[0].turns;
    QCOMPARE(turns[0].observation, std::string("ISSUE:\nZeroDivisionError in divide()."));
    QCOMPARE(turns[0].action, std::string("find_file util.py"));
    QCOMPARE(*turns[0].feedback, std::string("Found 1 matches for \"util.py\" in /repo:\r\n/repo/src/util.py"));
    QCOMPARE(turns[1].observation, *turns[0].feedback);
    QCOMPARE(turns[2].observation, std::string()); // step 1 returned nothing
    QCOMPARE(turns[2].action, std::string("submit"));
    QVERIFY(!t[0].success); // SWE-agent records no outcome
    // The rest is kept verbatim, renamed where it is named like ours.
    QVERIFY2(turns[0].extra.find("\"thought\":\"Let me find the file first.\"") != std::string::npos,
        turns[0].extra.c_str());
    QVERIFY(turns[0].extra.find("\"source.state\":{") != std::string::npos);
    QVERIFY(t[0].extra.find("\"info\":{\"exit_status\":\"submitted\"") != std::string::npos);
    QVERIFY(isFilePerTrajectory(sample("swe-agent.traj")));
    QVERIFY(!isFilePerTrajectory(sample("tau-bench.json")));
}

void TestImportPublic::agentGymOutcomeIsCountedOnce()
{
    // The transitions' rewards (0.1 each) sum to total_reward, so they include the outcome: it is taken off the last
    // step, and the return (outcome + step rewards) is total_reward, not twice it. Observations are what the previous
    // action returned; the first turn's is empty.
    const auto t = readAll(sample("agentgym-mcp.json"));
    QCOMPARE(t.size(), std::size_t(2));
    QCOMPARE(*t[0].success, true);
    double steps = 0.0;
    for (const Turn& u : t[0].turns)
        steps += u.rewardOrDefault();
    QVERIFY(std::abs(steps) < 1e-12);
    QCOMPARE(*t[0].turns[0].reward, 0.1);
    QCOMPARE(t[0].turns[0].observation, std::string());
    QCOMPARE(t[0].turns[1].observation, std::string("Moved right. Current position: (1, 0). Steps taken: 1"));
    QCOMPARE(*t[0].turns[2].feedback, std::string("Moved up. Current position: (1, 2). Steps taken: 3"));
    QCOMPARE(*t[1].success, false);
    QVERIFY(t[0].extra.find("\"total_steps\":3") != std::string::npos);
}

void TestImportPublic::fireActOutcomeFromText()
{
    // The outcome is only text, "Episode finished, reward = True": the mapping's outcome pattern reads it. A record
    // without that text has no outcome: reward 0, success unknown.
    const auto t = readAll(sample("fireact-gpt.jsonl"));
    QCOMPARE(t.size(), std::size_t(3));
    QCOMPARE(t[0].reward, 1.0);
    QCOMPARE(*t[0].success, true);
    QCOMPARE(t[1].reward, 0.0);
    QCOMPARE(*t[1].success, false);
    QVERIFY(!t[2].success);
    QCOMPARE(*t[0].turns.back().feedback, std::string("Observation: Episode finished, reward = True"));
}

void TestImportPublic::fireActTrajsAreTranscripts()
{
    // FireAct's trajs hold each episode as one text: "Thought: …" and "Action: …" lines (one turn, as the agent wrote
    // them together), each followed by an "Observation: …" line; the instruction before them is the first observation.
    const auto t = readAll(sample("fireact-trajs.json"));
    QCOMPARE(t.size(), std::size_t(2));
    const auto& turns = t[0].turns;
    QVERIFY(turns[0].observation.ends_with("### Instruction:\nWhich magazine was started first, Arthur's Magazine or "
                                           "First for Women?\n\n### Response:"));
    QCOMPARE(turns[0].action, std::string("Thought: I need to search both magazines.\nAction: search[Arthur's Magazine]"));
    QCOMPARE(turns[1].observation,
        std::string("Observation: Arthur's Magazine (1844-1846) was an American literary periodical."));
    QCOMPARE(*turns[1].feedback, std::string("Observation: Episode finished, reward = True"));
    QCOMPARE(t[1].turns[0].action, std::string("Action: finish[]")); // no thought
    QCOMPARE(t[1].reward, 0.0); // `reward: false`
    QVERIFY(!t[1].successOrDefault());
    QVERIFY(t[0].extra.find("\"gt\":\"arthur's magazine\"") != std::string::npos);
}

void TestImportPublic::reactTranscriptsSplitAtActionLines()
{
    const auto t = readAll(sample("react-alfworld.json"));
    QCOMPARE(t.size(), std::size_t(2));
    const auto& turns = t[0].turns;
    QVERIFY(turns[0].observation.starts_with("You are in the middle of a room."));
    QVERIFY(turns[0].observation.ends_with("Your task is to: put some spraybottle on toilet."));
    QCOMPARE(turns[0].action,
        std::string("think: To solve the task, I need to find a spraybottle, then put it on the toilet."));
    QCOMPARE(turns[1].observation, std::string("OK."));
    QCOMPARE(turns[4].observation, std::string()); // "go to toilet 1" returned an empty line
    QCOMPARE(*turns[4].feedback, std::string("You put the spraybottle 2 in/on the toilet 1."));
    QVERIFY(!turns[3].feedback);
    QVERIFY(t[0].extra.empty()); // the text became the turns
}

void TestImportPublic::webShopSessionIsOneTrajectoryPerFile()
{
    // A row per page: the action is the next page's URL; the final "done" row holds the reward and is kept whole.
    const auto t = readAll(sample("webshop-session-8.jsonl"));
    QCOMPARE(t.size(), std::size_t(1));
    QCOMPARE(
        t[0].turns[0].observation, std::string("i need a silver synthetic wig, and price lower than 190.00 dollars"));
    QCOMPARE(t[0].turns[0].action, std::string("http://host:3000/search_results/s8/%5B%27silver%27%5D/1"));
    QCOMPARE(t[0].turns[1].observation,
        std::string(R"({"keywords": ["silver", "synthetic"], "search_result_asins": ["B0001"], "page": 1})"));
    QVERIFY(t[0].turns[3].action.starts_with("http://host:3000/done/s8/"));
    QVERIFY(t[0].extra.find("\"final_step\":{\"page\": \"done\"") != std::string::npos);
    QCOMPARE(t[0].reward, 1.0);
    QVERIFY(isFilePerTrajectory(sample("webshop-session-8.jsonl")));
    // Two files with one id (a copied session) are refused, naming the second file.
    const std::string copy = path("webshop-session-8.jsonl");
    QVERIFY(QFile::copy(QString::fromStdString(sample("webshop-session-8.jsonl")), QString::fromStdString(copy)));
    try {
        readAll(*openTrajectorySources({ sample("webshop-session-8.jsonl"), copy }));
        QFAIL("no error");
    } catch (const JsonlError& e) {
        QCOMPARE(e.file(), copy);
        QCOMPARE(e.field(), std::string("id"));
    }
}

void TestImportPublic::validStaysUnknownUnlessMapped()
{
    // No source above says whether an action was valid: it stays unknown, not "yes".
    for (const char* f : { "swe-agent.traj", "agentgym-mcp.json", "react-alfworld.json", "tau-bench.json" })
        for (const Trajectory& t : readAll(sample(f)))
            for (const Turn& u : t.turns)
                QVERIFY2(!u.valid, f);
    // A mapping's valid: reads a boolean (or a number).
    const std::string data = path("v.jsonl"), map = path("v.map.yaml");
    test::writeFile(data,
        R"({"steps":[{"o":"a","a":"x","ok":false},{"o":"b","a":"y","ok":1}]})"
        "\n");
    test::writeFile(map, "turns: steps\nobservation: o\naction: a\nvalid: ok\n");
    ImportOptions options;
    options.mapPath = map;
    const auto t = readAll(data, options);
    QCOMPARE(*t[0].turns[0].valid, false);
    QCOMPARE(*t[0].turns[1].valid, true);
}

void TestImportPublic::mappingFeatures()
{
    // Alternatives (the first present wins), @next. and @record., negative indices, an outcome by pattern over a
    // number, a group key, and steps grouped by a trajectory key.
    const std::string data = path("m.jsonl"), map = path("m.map.yaml");
    test::writeFile(data,
        R"({"task":{"name":"T1"},"log":"score: 0.75","s":[{"obs":"o1","act":"a1"},{"text":"o2","act":"a2"}]})"
        "\n");
    test::writeFile(map,
        "name: My logs\nid: [uid, task.name]\ngroup: task.name\noutcome:\n  from: log\n  match: \"score: ([0-9.]+)\"\n"
        "turns: s\nobservation: [obs, text]\naction: act\nfeedback: \"@next.obs\"\nscore: \"@record.task.missing\"\n");
    ImportOptions options;
    options.mapPath = map;
    const auto source = openTrajectorySource(data, options);
    QCOMPARE(source->formatName(), std::string("My logs"));
    const auto t = readAll(*source);
    QCOMPARE(t[0].id, std::string("T1"));
    QCOMPARE(t[0].group, std::string("T1"));
    QCOMPARE(t[0].reward, 0.75);
    QCOMPARE(*t[0].success, true);
    QCOMPARE(t[0].turns[1].observation, std::string("o2"));
    QVERIFY(!t[0].turns[0].feedback); // the next element has no obs
    QVERIFY(t[0].extra.find("\"log\":") != std::string::npos); // the outcome's text is kept

    const std::string rows = path("rows.jsonl"), stepsMap = path("rows.map.yaml");
    test::writeFile(rows,
        "{\"ep\":\"a\",\"o\":\"a0\",\"x\":\"go\"}\n{\"ep\":\"a\",\"o\":\"a1\",\"x\":\"stop\",\"R\":1}\n"
        "{\"ep\":\"b\",\"o\":\"b0\",\"x\":\"stop\",\"R\":false}\n");
    test::writeFile(stepsMap, "layout: steps\ntrajectory: ep\nobservation: o\naction: x\nreward: R\n");
    options.mapPath = stepsMap;
    const auto s = readAll(rows, options);
    QCOMPARE(s.size(), std::size_t(2));
    QCOMPARE(s[0].id, std::string("a"));
    QCOMPARE(s[0].turns.size(), std::size_t(2));
    QCOMPARE(s[0].reward, 1.0);
    QCOMPARE(s[1].id, std::string("b"));
    QCOMPARE(s[1].reward, 0.0); // a boolean reward reads as 0 / 1, as in every importer
    QCOMPARE(s[1].turns[0].observation, std::string("b0"));

    // A shipped mapping by name, when no file of that name exists.
    options.mapPath = "swe-agent";
    QCOMPARE(readAll(sample("swe-agent.traj"), options).size(), std::size_t(1));
}

void TestImportPublic::badMappings_data()
{
    QTest::addColumn<QString>("map");
    QTest::addColumn<QString>("expected");
    QTest::newRow("layout") << "layout: tree\n"
                            << ":1: layout: unknown \"tree\"";
    QTest::newRow("regex") << "turns: s\nobservation: o\naction: a\noutcome:\n  from: t\n  match: \"(a\"\n"
                           << ":6: outcome.match: not a regular expression";
    QTest::newRow("outcome without match") << "turns: s\nobservation: o\naction: a\noutcome:\n  from: t\n"
                                           << ":5: outcome: expected `from:`";
    QTest::newRow("relative at record level") << "turns: s\nobservation: o\naction: a\nreward: \"@prev.r\"\n"
                                              << ":4: reward: @prev. refers to another turn";
    QTest::newRow("unknown reference") << "turns: s\nobservation: \"@previous.o\"\naction: a\n"
                                       << ":2: observation: unknown reference \"@previous.o\"";
    QTest::newRow("transcript without actions") << "layout: transcript\ntext: t\n"
                                                << ": layout: transcript needs action_prefix";
    QTest::newRow("steps without action") << "layout: steps\nobservation: o\n"
                                          << ": \"action\" is required";
    // Found by fuzz_import_map (crash-516eebe8…): a back-reference of 72 digits overflowed inside libstdc++'s regex
    // compiler; counts above 1000 are refused before it runs.
    QTest::newRow("huge back-reference")
        << "layout: transcript\ntext: t\naction_pattern: \"(a)\\\\99999999999999999999\"\n"
        << ":3: action_pattern: a repeat count or back-reference above 1000";
    QTest::newRow("huge repeat") << "layout: transcript\ntext: t\naction_pattern: \"a{2,5000}\"\n"
                                 << ":3: action_pattern: a repeat count or back-reference above 1000";
    QTest::newRow("empty alternative") << "turns: s\nobservation: [o, \"\"]\naction: a\n"
                                       << ":2: observation: each alternative is a field path";
}

void TestImportPublic::badMappings()
{
    QFETCH(QString, map);
    QFETCH(QString, expected);
    const std::string mapFile = path("bad.map.yaml");
    test::writeFile(mapFile, map.toStdString());
    ImportOptions options;
    options.mapPath = mapFile;
    try {
        openTrajectorySource(sample("agentgym-mcp.json"), options);
        QFAIL("no error");
    } catch (const std::runtime_error& e) {
        const std::string want = mapFile + expected.toStdString();
        QVERIFY2(std::string(e.what()).starts_with(want), (std::string(e.what()) + "\n want: " + want).c_str());
    }
}

void TestImportPublic::unrecognisedRecordNamesTheClosestFormat()
{
    const std::string file = path("odd.jsonl");
    test::writeFile(file,
        R"({"dialog":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}],"score":1})"
        "\n");
    try {
        detectImportFormat(file);
        QFAIL("no error");
    } catch (const std::runtime_error& e) {
        QVERIFY2(std::string(e.what()).find("messages are under `dialog`: try a mapping file with `layout: chat` and "
                                            "`messages: dialog`")
                != std::string::npos,
            e.what());
    }
    // ... and the suggestion works.
    const std::string map = path("odd.map.yaml");
    test::writeFile(map, "layout: chat\nmessages: dialog\n");
    ImportOptions options;
    options.mapPath = map;
    QCOMPARE(readAll(file, options).front().reward, 1.0);
    test::writeFile(file,
        R"({"trajectory":[{"action":"ls","observation":""}],"info":{}})"
        "\n");
    try {
        detectImportFormat(file);
        QFAIL("no error");
    } catch (const std::runtime_error& e) {
        QVERIFY2(
            std::string(e.what()).find("closest: SWE-agent trajectory (shipped mapping swe-agent), which also needs "
                                       "history: if it is that format, try --map swe-agent")
                != std::string::npos,
            e.what());
    }
}

void TestImportPublic::zeroCreditSaysWhyAndGroupByChangesIt()
{
    // Two attempts at one task, imported one group each (their prompts differ): GRPO gives 0 everywhere, and says
    // why, naming the source field that would group them. --group-by that field gives them credit.
    const std::string file = path("trials.jsonl");
    test::writeFile(file,
        R"({"task_id":"t1","trial":0,"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}],"reward":1})"
        "\n"
        R"({"task_id":"t1","trial":1,"messages":[{"role":"user","content":"q, again"},{"role":"assistant","content":"b"}],"reward":0})"
        "\n");
    const credit::Estimator& grpo = credit::requireEstimator("grpo");
    const auto creditOf = [&](const ImportOptions& options, std::optional<std::string>& why) {
        const Batch batch = Batch::fromTrajectories(readAll(file, options));
        const credit::Params params = grpo.resolve({});
        const credit::CreditResult r = grpo.compute(batch, params);
        why = credit::zeroCreditReason(batch, r, grpo.name());
        return r.advantages;
    };
    // The chat importer groups by task_id by itself: rename it so that it is only kept.
    test::writeFile(file, [&] {
        std::string text = test::readFile(file);
        for (std::size_t at; (at = text.find("task_id")) != std::string::npos;)
            text.replace(at, 7, "problem");
        return text;
    }());
    std::optional<std::string> why;
    const auto zero = creditOf(ImportOptions {}, why);
    QVERIFY(std::all_of(zero.begin(), zero.end(), [](double a) { return a == 0.0; }));
    QVERIFY(why);
    QVERIFY2(why->find("every group holds one rollout") != std::string::npos, why->c_str());
    QVERIFY2(why->find("`--group-by problem` would compare rollouts with different rewards") != std::string::npos,
        why->c_str());
    QVERIFY2(why->find("trial") == std::string::npos, why->c_str()); // trial 0 and 1 never share a value
    // An empty text (FireAct's "prompt": "") names no task: it is not suggested.
    test::writeFile(file, [&] {
        std::string text = test::readFile(file);
        const std::string blank = "\"blank\":\"\",";
        for (std::size_t at = 0; (at = text.find("\"trial\":", at)) != std::string::npos; at += blank.size() + 8)
            text.insert(at, blank);
        return text;
    }());
    creditOf(ImportOptions {}, why);
    QVERIFY2(why && why->find("blank") == std::string::npos, why ? why->c_str() : "");
    QVERIFY2(why->find("`--group-by problem`") != std::string::npos, why->c_str());
    ImportOptions byProblem;
    byProblem.groupBy = "problem";
    const auto credit = creditOf(byProblem, why);
    QVERIFY(!why);
    QVERIFY(credit.front() > 0.0);
    QVERIFY(credit.back() < 0.0);
    // Identical rewards in every group: said so.
    test::writeFile(file,
        R"({"problem":"t1","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}],"reward":1})"
        "\n"
        R"({"problem":"t1","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"b"}],"reward":1})"
        "\n");
    creditOf(ImportOptions {}, why);
    QVERIFY(why);
    QVERIFY2(why->find("all rollouts have the same reward") != std::string::npos, why->c_str());
    // A field that is not there names the trajectory and what it has.
    byProblem.groupBy = "task";
    try {
        readAll(file, byProblem);
        QFAIL("no error");
    } catch (const std::runtime_error& e) {
        QVERIFY2(std::string(e.what()).find("trajectory \"line-1\": --group-by: no field \"task\" (its source fields: "
                                            "problem)")
                != std::string::npos,
            e.what());
    }
}

QTEST_GUILESS_MAIN(TestImportPublic)
#include "tst_import_public.moc"
