// The searchqa environment: both experts solve every seed of both splits, games and knowledge bases are
// deterministic, answers are scored by exact match after SQuAD's normalisation, the FTS5 engine ranks an exact
// title first and then by BM25, and the state keys, oracle roles, splits, admissible commands and registry behave.
#include "core/env/environment.h"
#include "core/env/episode.h"
#include "core/env/policy.h"
#include "core/env/searchqa.h"

#include <QtTest/QTest>

#include <algorithm>
#include <set>
#include <string>
#include <thread>

using namespace creditlab;
using namespace creditlab::env;
using namespace creditlab::env::searchqa;

namespace {

std::string searchFor(const std::string& query) { return "<search>" + query + "</search>"; }
std::string answerWith(const std::string& text) { return "<answer>" + text + "</answer>"; }

bool shows(const KnowledgeBase& kb, const std::string& query, int passage)
{
    const std::vector<int> results = kb.search(query, 3);
    return std::find(results.begin(), results.end(), passage) != results.end();
}

std::string reversedWords(const std::string& name)
{
    const std::size_t space = name.rfind(' ');
    return name.substr(space + 1) + " " + name.substr(0, space);
}

/// Resets `env` to the first train seed of three hops whose chain passages each come only from their own name's
/// search, and where the start's name reversed shows only what the name shows: the scripted roles below.
void resetToCleanThreeHops(SearchQaEnv& env)
{
    const KnowledgeBase& kb = env.knowledgeBase();
    for (std::uint64_t seed = 0;; ++seed) {
        env.reset(seed, Split::Train);
        const Question& q = env.question();
        if (q.hops() != 3)
            continue;
        const std::string start = kb.entity(q.chain[0]).name;
        if (shows(kb, start, q.chain[1]) || shows(kb, start, q.chain[2])
            || shows(kb, kb.entity(q.chain[2]).name, q.chain[1]) || start.find(' ') == std::string::npos)
            continue;
        std::vector<int> a = kb.search(start, 3), b = kb.search(reversedWords(start), 3);
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        if (a == b)
            return;
    }
}

} // namespace

class TestEnvSearchQa : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void expertSolvesEverySeed_data();
    void expertSolvesEverySeed();
    void searchExpertSolvesFromWhatItRead();
    void sameSeedSameGame();
    void normalisation_data();
    void normalisation();
    void answersScoredByExactMatch();
    void ftsRanksExactTitleFirstInBm25Order();
    void stateKeysAndOracleRoles();
    void splitsHoldDisjointQuestions();
    void admissibleCommandsAreValid();
    void registryAndParams();
    void concurrentEpisodesShareOneKnowledgeBase();
};

void TestEnvSearchQa::expertSolvesEverySeed_data()
{
    QTest::addColumn<int>("split");
    QTest::addColumn<int>("seeds");
    QTest::newRow("train") << static_cast<int>(Split::Train) << 300;
    QTest::newRow("eval") << static_cast<int>(Split::Eval) << 150;
}

void TestEnvSearchQa::expertSolvesEverySeed()
{
    QFETCH(int, split);
    QFETCH(int, seeds);
    SearchQaEnv env;
    ExpertPolicy expert;
    std::set<int> hopsSeen;
    int exact = 0;
    for (int seed = 0; seed < seeds; ++seed) {
        const Trajectory t = runEpisode(env, expert, static_cast<std::uint64_t>(seed), static_cast<Split>(split));
        const std::string where = env.taskKey() + " " + env.taskSpec() + " | " + env.goal();
        QVERIFY2(t.success.value_or(false), where.c_str());
        QCOMPARE(t.reward, 1.0);
        // At most one search per hop (fewer where a search also shows a later link), then the answer; every step
        // decisive, progress rising to 1.
        QVERIFY2(static_cast<int>(t.turns.size()) <= env.question().hops() + 1, where.c_str());
        QVERIFY(t.turns.size() >= 2);
        exact += static_cast<int>(t.turns.size()) == env.question().hops() + 1;
        hopsSeen.insert(env.question().hops());
        double previous = 0.0;
        for (const Turn& u : t.turns) {
            QVERIFY2(u.valid.value_or(false), (where + ": " + u.action).c_str());
            QVERIFY2(*u.role == Role::D, (where + ": " + u.action).c_str());
            QVERIFY(*u.progress > previous);
            previous = *u.progress;
        }
        QCOMPARE(t.turns.back().action, answerWith(env.question().answer));
        QCOMPARE(t.turns.back().progress.value(), 1.0);
    }
    QCOMPARE(hopsSeen, (std::set<int> { 1, 2, 3 }));
    QVERIFY(exact > seeds * 8 / 10); // most questions need every one of their searches
}

void TestEnvSearchQa::searchExpertSolvesFromWhatItRead()
{
    // The searching expert first searches the question, then names only what it has read; it solves every seed
    // within the default step limit, in at least as many steps as the expert.
    SearchQaEnv env;
    SearchExpertPolicy search;
    ExpertPolicy expert;
    int searchSteps = 0, expertSteps = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const Split split = seed % 3 == 0 ? Split::Eval : Split::Train;
        const Trajectory t = runEpisode(env, search, seed, split);
        QVERIFY2(t.successOrDefault(), (env.taskKey() + " " + env.goal()).c_str());
        QCOMPARE(t.turns.front().action, searchFor(env.goal()));
        std::string read = t.turns.front().observation;
        for (const Turn& u : t.turns) {
            QVERIFY2(u.valid.value_or(false), u.action.c_str());
            QVERIFY(*u.role != Role::R);
            const std::string content = u.action.substr(8, u.action.size() - 17);
            QVERIFY2(read.find(content) != std::string::npos, (u.action + " was never read").c_str());
            read += u.feedback.value_or("");
        }
        searchSteps += static_cast<int>(t.turns.size());
        expertSteps += static_cast<int>(runEpisode(env, expert, seed, split).turns.size());
    }
    QVERIFY(searchSteps >= expertSteps);
}

void TestEnvSearchQa::sameSeedSameGame()
{
    // Two independently generated knowledge bases of one seed are identical; another seed differs.
    const KnowledgeBase a(7, 300), b(7, 300), c(8, 300);
    QCOMPARE(a.entities().size(), std::size_t(300));
    bool differs = false;
    for (int i = 0; i < 300; ++i) {
        QCOMPARE(a.entity(i).name, b.entity(i).name);
        QCOMPARE(a.passage(i), b.passage(i));
        differs = differs || a.passage(i) != c.passage(i);
    }
    QVERIFY(differs);
    // Entity names are unique after answer normalisation, so an answer names one entity.
    std::set<std::string> names;
    for (const Entity& e : a.entities())
        QVERIFY2(names.insert(normalizeAnswer(e.name)).second, e.name.c_str());

    // The same seed replays the same question and observations under the same random policy.
    SearchQaEnv x, y;
    RandomPolicy p, q;
    for (std::uint64_t seed = 0; seed < 30; ++seed) {
        EpisodeOptions options;
        options.policySeed = seed + 5;
        const Trajectory s = runEpisode(x, p, seed, Split::Train, options);
        const Trajectory t = runEpisode(y, q, seed, Split::Train, options);
        QCOMPARE(s.task.goal, t.task.goal);
        QCOMPARE(s.turns.size(), t.turns.size());
        for (std::size_t k = 0; k < s.turns.size(); ++k) {
            QCOMPARE(s.turns[k].action, t.turns[k].action);
            QCOMPARE(s.turns[k].feedback, t.turns[k].feedback);
            QCOMPARE(s.turns[k].state, t.turns[k].state);
        }
    }
    x.reset(3, Split::Train);
    const std::string first = x.goal();
    x.reset(4, Split::Train);
    y.reset(3, Split::Train);
    QCOMPARE(y.goal(), first);
}

void TestEnvSearchQa::normalisation_data()
{
    // Cases of SQuAD v1.1's normalize_answer.
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("case, article, period") << "The Silent Reef."
                                           << "silent reef";
    QTest::newRow("articles only as words") << "Theodor and Anna"
                                            << "theodor and anna";
    QTest::newRow("a an the") << "a  An the apple"
                              << "apple";
    QTest::newRow("punctuation joins") << "Rock'n'Roll, (live)!"
                                       << "rocknroll live";
    QTest::newRow("whitespace") << "\t 1954 \n"
                                << "1954";
    QTest::newRow("hyphen removed") << "Vel-thish"
                                    << "velthish";
    QTest::newRow("empty") << "the"
                           << "";
}

void TestEnvSearchQa::normalisation()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(normalizeAnswer(text.toStdString())), expected);
}

void TestEnvSearchQa::answersScoredByExactMatch()
{
    SearchQaEnv env;
    env.reset(0, Split::Train);
    const std::string gold = env.question().answer;
    // Case, articles, punctuation and surrounding text do not matter; the first tag decides.
    const StepResult& r = env.step("<think>I know it.</think><ANSWER>  the " + gold + ". </ANSWER> <search>x</search>");
    QVERIFY(r.done);
    QVERIFY(r.success);
    QCOMPARE(r.reward, 1.0);
    QCOMPARE(*r.info.role, Role::D);
    QCOMPARE(env.progress(), 1.0);
    QVERIFY_THROWS_EXCEPTION(std::logic_error, env.step("<answer>x</answer>"));

    // A near miss is wrong: exact match, not containment.
    env.reset(0, Split::Train);
    const StepResult& w = env.step(answerWith(gold + " city"));
    QVERIFY(w.done);
    QVERIFY(!w.success);
    QCOMPARE(w.reward, 0.0);
    QCOMPARE(*w.info.role, Role::R);
    QCOMPARE(w.info.progress, 0.0);
    QVERIFY(w.feedback.find(gold) != std::string::npos);

    // Invalid: no tag, an unclosed tag, an empty query, an answer of articles only.
    env.reset(0, Split::Train);
    for (const char* bad : { "search[foo]", "<search>foo", "<search> ?! </search>", "<answer>the</answer>" }) {
        const StepResult& v = env.step(bad);
        QVERIFY2(!v.info.valid, bad);
        QCOMPARE(*v.info.role, Role::R);
        QVERIFY(!v.done);
    }
    QCOMPARE(env.stepCount(), 4);
}

void TestEnvSearchQa::ftsRanksExactTitleFirstInBm25Order()
{
    SearchQaEnv env;
    const KnowledgeBase& kb = env.knowledgeBase();
    for (int i = 0; i < 200; i += 7) {
        const std::string& name = kb.entity(i).name;
        const std::string content = KnowledgeBase::contentWords(name); // "The Silent Reef" ranks by "silent reef"
        const std::vector<int> results = kb.search(name, 10);
        QVERIFY(!results.empty());
        QCOMPARE(results.front(), i); // the entity's own passage, title equal to the query
        // After it, BM25 order (FTS5's rank: lower is better), and every result shares a word with the query.
        for (std::size_t k = 2; k < results.size(); ++k)
            QVERIFY(kb.index().bm25(content, results[k - 1]) <= kb.index().bm25(content, results[k]) + 1e-12);
        for (const int r : results)
            QVERIFY(kb.index().bm25(content, r) < 0.0);
    }
    // A passage naming an entity in its body is found by that name: a city's country lists it.
    const int city = [&] {
        for (int i = 0;; ++i)
            if (kb.entity(i).kind == Kind::City)
                return i;
    }();
    const int country = kb.entity(city).links[static_cast<std::size_t>(Relation::InCountry)];
    const std::vector<int> results = kb.search(kb.entity(country).name, 50);
    QCOMPARE(results.front(), country);
    QVERIFY(std::find(results.begin(), results.end(), city) != results.end());
    // Stop words do not rank: a question finds the passage of its entity, not every passage with "in".
    QCOMPARE(KnowledgeBase::contentWords("In which country was The Silent Reef born?"),
        std::string("which country silent reef born"));
    QVERIFY(kb.search("the of in", 5).empty());
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
        const Question q = kb.drawQuestion(seed, Split::Train);
        const std::vector<int> top = kb.search(q.text, 3);
        QVERIFY2(std::find(top.begin(), top.end(), q.chain.front()) != top.end(), q.text.c_str());
    }
    // A word that no passage holds finds nothing; FTS5 syntax in a query is only words.
    QVERIFY(kb.search("zzqqxx", 10).empty());
    QVERIFY(!kb.search("NEAR(\"" + kb.entity(city).name + "\" OR", 3).empty());
}

void TestEnvSearchQa::stateKeysAndOracleRoles()
{
    SearchQaEnv env(credit::Params::resolve("searchqa", SearchQaEnv::paramSpecs(), { { "max_steps", "7" } }));
    resetToCleanThreeHops(env);
    const Question q = env.question();
    const KnowledgeBase& kb = env.knowledgeBase();
    const std::string start = kb.entity(q.chain[0]).name;
    QCOMPARE(env.stateKey(), std::string("known=0/3|read=-|answer=-"));
    QCOMPARE(env.step("hello").info.role, std::optional<Role>(Role::R));
    QCOMPARE(env.stateKey(), std::string("known=0/3|read=-|answer=-"));
    // A search that shows the first link of the chain is decisive.
    const StepResult& d = env.step(searchFor(start));
    QCOMPARE(*d.info.role, Role::D);
    QVERIFY(d.info.gainedInformation);
    QVERIFY(d.feedback.rfind("<information>Doc 1(Title: " + start + ") ", 0) == 0);
    QCOMPARE(env.lastResults().size(), std::size_t(3));
    QCOMPARE(d.info.progress, 0.3);
    QVERIFY(env.stateKey().rfind("known=1/3|read=", 0) == 0);
    // The same search again, word for word (case and spacing aside), shows nothing new: R.
    QCOMPARE(*env.step("<search>  " + start + " </search>").info.role, Role::R);
    // Another query showing only passages already read: N.
    const std::string before = env.stateKey();
    const StepResult& n = env.step(searchFor(reversedWords(start)));
    QCOMPARE(*n.info.role, Role::N);
    QVERIFY(!n.info.gainedInformation);
    QCOMPARE(env.stateKey(), before);
    // The third link before the second: new, but no progress: E.
    const StepResult& e = env.step(searchFor(kb.entity(q.chain[2]).name));
    QCOMPARE(*e.info.role, Role::E);
    QCOMPARE(e.info.progress, 0.3);
    // Now the second link: progress jumps past both.
    const StepResult& jump = env.step(searchFor(kb.entity(q.chain[1]).name));
    QCOMPARE(*jump.info.role, Role::D);
    QCOMPARE(jump.info.progress, 0.9);
    QVERIFY(!jump.done);
    // The step limit (7) ends the episode without an answer: failure, reward 0.
    const StepResult& last = env.step(searchFor("nothing"));
    QVERIFY(last.done);
    QVERIFY(!last.success);
    QCOMPARE(last.reward, 0.0);
}

void TestEnvSearchQa::splitsHoldDisjointQuestions()
{
    SearchQaEnv env;
    std::set<std::string> train, eval, trainStarts;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        env.reset(seed, Split::Train);
        train.insert(env.taskSpec());
        trainStarts.insert(env.knowledgeBase().entity(env.question().chain.front()).name);
        QVERIFY(env.taskKey() == "searchqa:seed=" + std::to_string(seed));
        env.reset(seed, Split::Eval);
        eval.insert(env.taskSpec());
        QVERIFY(env.taskKey().find(":split=eval") != std::string::npos);
        // No eval question starts from an entity a train question asks about.
        QCOMPARE(env.knowledgeBase().entity(env.question().chain.front()).split, Split::Eval);
    }
    QVERIFY(train.size() > 300);
    QVERIFY(eval.size() > 200);
    for (const std::string& spec : eval)
        QVERIFY2(!train.count(spec), spec.c_str());
}

void TestEnvSearchQa::admissibleCommandsAreValid()
{
    // The random policy draws only admissible commands; each must be valid.
    SearchQaEnv env;
    RandomPolicy random;
    int answers = 0, solved = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        EpisodeOptions options;
        options.policySeed = seed;
        const Trajectory t = runEpisode(env, random, seed, Split::Train, options);
        for (const Turn& u : t.turns)
            QVERIFY2(u.valid.value_or(false), u.action.c_str());
        answers += env.answered();
        solved += t.successOrDefault();
    }
    QVERIFY(answers > 50);
    QVERIFY(solved > 0);
    QVERIFY(solved < answers);
    env.reset(1, Split::Train);
    const auto& commands = env.admissibleCommands();
    QCOMPARE(commands.front(), searchFor(env.goal()));
}

void TestEnvSearchQa::registryAndParams()
{
    QVERIFY(findEnvironment("searchqa"));
    auto env = makeEnvironment(
        "searchqa", { { "top_k", "5" }, { "kb_size", "300" }, { "kb_seed", "4" }, { "max_steps", "2" } });
    env->reset(9, Split::Eval);
    QCOMPARE(env->taskKey(), std::string("searchqa:seed=9:split=eval:kb=4/300"));
    QCOMPARE(env->maxSteps(), 2);
    const auto& qa = static_cast<const SearchQaEnv&>(*env);
    env->step(searchFor("born")); // every person
    QCOMPARE(qa.lastResults().size(), std::size_t(5));
    QVERIFY(!env->done());
    env->step(searchFor(qa.knowledgeBase().entity(0).name));
    QVERIFY(env->done());
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, makeEnvironment("searchqa", { { "kb_size", "10" } }));
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, makeEnvironment("searchqa", { { "top_k", "0" } }));
    // One knowledge base per (seed, size), shared.
    SearchQaEnv a, b;
    QCOMPARE(&a.knowledgeBase(), &b.knowledgeBase());
}

void TestEnvSearchQa::concurrentEpisodesShareOneKnowledgeBase()
{
    // Four threads, one environment each over one shared knowledge base (its index and query cache take a lock):
    // every thread replays exactly what one thread plays alone.
    const auto play = [](std::uint64_t first, std::vector<std::string>& out) {
        SearchQaEnv env;
        SearchExpertPolicy policy;
        for (std::uint64_t seed = first; seed < first + 60; ++seed) {
            const Trajectory t = runEpisode(env, policy, seed, Split::Train);
            std::string record = t.successOrDefault() ? "1" : "0";
            for (const Turn& u : t.turns)
                record += "|" + u.feedback.value_or("");
            out.push_back(record);
        }
    };
    std::vector<std::vector<std::string>> parallel(4), serial(4);
    {
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < 4; ++i)
            threads.emplace_back(play, 5000 + 60 * i, std::ref(parallel[i]));
        for (std::thread& t : threads)
            t.join();
    }
    for (std::size_t i = 0; i < 4; ++i) {
        play(5000 + 60 * i, serial[i]);
        QCOMPARE(parallel[i], serial[i]);
        for (const std::string& record : parallel[i])
            QCOMPARE(record.front(), '1');
    }
}

QTEST_GUILESS_MAIN(TestEnvSearchQa)
#include "tst_env_searchqa.moc"
