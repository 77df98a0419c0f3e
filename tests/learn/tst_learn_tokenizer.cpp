// The tokenizer and the prompt builder: pieces give the text back, the household vocabulary encodes every text
// of its episodes exactly, unknown pieces become <unk>, the vocabulary is deterministic and survives a file round
// trip, bad files name their line, and prompts follow their layout, history window and budget.
#include "core/env/environment.h"
#include "core/env/episode.h"
#include "core/env/policy.h"
#include "core/learn/torch/lm/prompt.h"
#include "core/learn/torch/lm/tokenizer.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest/QTest>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

using namespace creditlab;
using namespace creditlab::learn;

namespace {

using Ids = std::vector<std::int32_t>;

/// Concatenates id lists.
Ids join(std::initializer_list<Ids> parts)
{
    Ids out;
    for (const Ids& p : parts)
        out.insert(out.end(), p.begin(), p.end());
    return out;
}

/// A tokenizer for the prompt tests: every word they use is known.
Tokenizer promptTokenizer()
{
    const std::vector<std::string> corpus { "put a clean mug in coffeemachine.",
        "You are in a kitchen 0 1 2 3 4 5 6 7 8 9", "go to sink 1", "open fridge 1", "take mug 1 from sink 1",
        "Nothing happens.", "You see a mug" };
    return Tokenizer::fromCorpus(corpus);
}

std::vector<Turn> makeTurns(int count)
{
    std::vector<Turn> turns;
    for (int k = 0; k < count; ++k) {
        Turn t;
        t.observation = k == 0 ? "You are in a kitchen" : "You see a mug " + std::to_string(k);
        t.action = "go to sink " + std::to_string(k);
        turns.push_back(t);
    }
    return turns;
}

/// <obs> o <act> a </act>
Ids turnIds(const Tokenizer& tok, const Turn& t)
{
    return join({ { Tokenizer::kObs }, tok.encode(t.observation), { Tokenizer::kAct }, tok.encode(t.action),
        { Tokenizer::kEnd } });
}

} // namespace

class TestLearnTokenizer : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void piecesConcatenateBack_data();
    void piecesConcatenateBack();
    void piecesSplitLikeGpt2_data();
    void piecesSplitLikeGpt2();
    void specialTokens();
    void unknownWordsMapToUnk();
    void copiesKeepTheirLookup();
    void householdRoundTripIsExact();
    void forEnvironmentIsDeterministic();
    void forEnvironmentRejectsUnknownEnv();
    void serializeRoundTrip();
    void badFilesNameTheLine_data();
    void badFilesNameTheLine();
    void promptLayout_data();
    void promptLayout();
    void promptBudgetTruncates();
    void promptBudgetTooSmallThrows();
};

void TestLearnTokenizer::piecesConcatenateBack_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("empty") << QByteArray("");
    QTest::newRow("space") << QByteArray(" ");
    QTest::newRow("spaces") << QByteArray("    ");
    QTest::newRow("newline") << QByteArray("\n");
    QTest::newRow("mixed-ws") << QByteArray(" \n \n\n  a  \n");
    QTest::newRow("tabs-cr") << QByteArray("a\tb\r\nc \t \r");
    QTest::newRow("sentence") << QByteArray("You arrive at countertop 1. On it, you see a mug 2, and a 3rd apple.");
    QTest::newRow("digits") << QByteArray("x12y 345 6a7 0.5");
    QTest::newRow("utf8") << QByteArray("caf\xc3\xa9 \xe2\x98\x95 na\xc3\xafve");
    QTest::newRow("punct") << QByteArray("<goal>\"'\\{}[] ~!@#$%^&*()");
    QTest::newRow("control") << QByteArray("a\x01\x7f b\x00 c", 8);
    QTest::newRow("trailing") << QByteArray("hello   ");
}

void TestLearnTokenizer::piecesConcatenateBack()
{
    QFETCH(QByteArray, text);
    const std::string_view view(text.constData(), static_cast<std::size_t>(text.size()));
    std::string back;
    for (const std::string_view piece : Tokenizer::pieces(view)) {
        QVERIFY(!piece.empty());
        back += piece;
    }
    QCOMPARE(QByteArray::fromStdString(back), text);
}

void TestLearnTokenizer::piecesSplitLikeGpt2_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("words") << "go to sink 1" << QStringList { "go", " to", " sink", " 1" };
    QTest::newRow("punct") << "mug 12, cup." << QStringList { "mug", " 12", ",", " cup", "." };
    // A word mixing letters and digits (an item id) goes one character per piece, a leading space on the first.
    QTest::newRow("mixed") << "ab12cd" << QStringList { "a", "b", "1", "2", "c", "d" };
    QTest::newRow("item-id") << "click[B02V40CNJX] 3rd x"
                             << QStringList { "click", "[", "B", "0", "2", "V", "4", "0", "C", "N", "J", "X", "]", " 3",
                                    "r", "d", " x" };
    QTest::newRow("spaced-id") << "a B0X" << QStringList { "a", " B", "0", "X" };
    QTest::newRow("spaces") << "a  b" << QStringList { "a", " ", " b" };
    QTest::newRow("lead") << "  x" << QStringList { " ", " x" };
    QTest::newRow("newline") << "a \nb\n\n" << QStringList { "a", " ", "\n", "b", "\n", "\n" };
    QTest::newRow("tab") << "a \tb" << QStringList { "a", " \t", "b" };
    QTest::newRow("other") << " ->" << QStringList { " -", ">" };
}

void TestLearnTokenizer::piecesSplitLikeGpt2()
{
    QFETCH(QString, text);
    QFETCH(QStringList, expected);
    QStringList actual;
    const std::string utf8 = text.toStdString();
    for (const std::string_view piece : Tokenizer::pieces(utf8))
        actual << QString::fromStdString(std::string(piece));
    QCOMPARE(actual, expected);
}

void TestLearnTokenizer::specialTokens()
{
    const Tokenizer tok;
    QCOMPARE(tok.size(), Tokenizer::kSpecialCount);
    const char* names[] = { "<pad>", "<unk>", "<goal>", "<obs>", "<act>", "</act>" };
    for (std::int32_t i = 0; i < Tokenizer::kSpecialCount; ++i)
        QCOMPARE(tok.token(i), std::string(names[i]));
    const Ids specials { Tokenizer::kPad, Tokenizer::kGoal, Tokenizer::kObs, Tokenizer::kAct, Tokenizer::kEnd };
    QCOMPARE(tok.decode(specials), std::string());
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, tok.token(Tokenizer::kSpecialCount));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, tok.token(-1));
}

void TestLearnTokenizer::unknownWordsMapToUnk()
{
    const std::vector<std::string> corpus { "go to sink 1" };
    const Tokenizer tok = Tokenizer::fromCorpus(corpus);
    QCOMPARE(tok.size(), Tokenizer::kSpecialCount + 4);
    QCOMPARE(tok.encode("go to xylophone 1"), (Ids { tok.id("go"), tok.id(" to"), Tokenizer::kUnk, tok.id(" 1") }));
    QCOMPARE(tok.decode(tok.encode("go to xylophone 1")), std::string("go to<unk> 1"));
    // "sink" without its space is another piece; text that spells a special token is not one.
    QCOMPARE(tok.id("sink"), Tokenizer::kUnk);
    QVERIFY(tok.id(" sink") >= Tokenizer::kSpecialCount);
    QCOMPARE(tok.id("<goal>"), Tokenizer::kUnk);
    QCOMPARE(tok.encode("<goal>"), (Ids { Tokenizer::kUnk, Tokenizer::kUnk, Tokenizer::kUnk }));
}

void TestLearnTokenizer::copiesKeepTheirLookup()
{
    const std::vector<std::string> corpus { "a fairly long word list: refrigerator countertop coffeemachine" };
    auto original = std::make_unique<Tokenizer>(Tokenizer::fromCorpus(corpus));
    const Ids expected = original->encode(corpus.front());
    Tokenizer copy(*original);
    Tokenizer assigned;
    assigned = *original;
    Tokenizer moved { Tokenizer(*original) };
    Tokenizer moveAssigned;
    moveAssigned = Tokenizer(*original);
    original.reset(); // the copies must not look up through the original's strings...
    std::vector<std::vector<char>> scribble; // ...so overwrite the heap blocks it freed
    for (std::size_t bytes = 8; bytes <= 4096; bytes += 8)
        for (int copies = 0; copies < 4; ++copies)
            scribble.emplace_back(bytes, '\x7f');
    for (const Tokenizer* t : { &copy, &assigned, &moved, &moveAssigned }) {
        QCOMPARE(t->encode(corpus.front()), expected);
        QCOMPARE(t->decode(expected), corpus.front());
    }
}

void TestLearnTokenizer::householdRoundTripIsExact()
{
    const Tokenizer tok = Tokenizer::forEnvironment("household", {}, 50);
    qInfo("household vocabulary (50 episodes): %d tokens", tok.size());
    QVERIFY(tok.size() > Tokenizer::kSpecialCount);
    QVERIFY(tok.size() < 1024);
    const auto env = env::makeEnvironment("household");
    int texts = 0;
    for (const char* policyName : { "expert", "random" }) {
        const auto policy = env::makePolicy(policyName);
        for (const env::Split split : { env::Split::Train, env::Split::Eval }) {
            for (std::uint64_t seed = 0; seed < 20; ++seed) {
                const Trajectory t = env::runEpisode(*env, *policy, seed, split);
                std::vector<std::string> all { t.task.goal.value_or("") };
                for (const Turn& u : t.turns) {
                    all.push_back(u.observation);
                    all.push_back(u.action);
                    all.push_back(u.feedback.value_or(""));
                }
                for (const std::string& text : all) {
                    const Ids ids = tok.encode(text);
                    QVERIFY2(std::find(ids.begin(), ids.end(), Tokenizer::kUnk) == ids.end(), text.c_str());
                    QCOMPARE(tok.decode(ids), text);
                    ++texts;
                }
            }
        }
    }
    QVERIFY(texts > 1000);
}

void TestLearnTokenizer::forEnvironmentIsDeterministic()
{
    QElapsedTimer timer;
    timer.start();
    const Tokenizer a = Tokenizer::forEnvironment("household", {}, 200);
    const qint64 elapsed = timer.elapsed();
    qInfo("forEnvironment(household, 200 episodes): %lld ms, %d tokens", elapsed, a.size());
    const Tokenizer b = Tokenizer::forEnvironment("household", {}, 200);
    QVERIFY(a == b);
    QCOMPARE(a.serialize(), b.serialize());
    QVERIFY(elapsed < 10000); // about 1 s; generous for a loaded machine
    // Pieces are in byte order after the specials.
    for (std::int32_t i = Tokenizer::kSpecialCount + 1; i < a.size(); ++i)
        QVERIFY(a.token(i - 1) < a.token(i));
    // Fewer episodes see no more pieces.
    QVERIFY(Tokenizer::forEnvironment("household", {}, 5).size() <= a.size());
}

void TestLearnTokenizer::forEnvironmentRejectsUnknownEnv()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Tokenizer::forEnvironment("no-such-env", {}, 1));
}

void TestLearnTokenizer::serializeRoundTrip()
{
    const std::vector<std::string> corpus {
        "quote\" back\\slash tab\there cr\rx bell\x07 del\x7f caf\xc3\xa9 \xe2\x98\x95", "plain words and 42 numbers\n"
    };
    const Tokenizer tok = Tokenizer::fromCorpus(corpus);
    const std::string text = tok.serialize();
    QVERIFY(text.starts_with("creditlab-tokenizer 2 " + std::to_string(tok.size()) + "\n"));
    QVERIFY(text.find("\"\\\"\"\n") != std::string::npos); // the piece `"` as "\""
    QVERIFY(text.find("\"\\\\\"\n") != std::string::npos); // the piece `\` as "\\"
    QVERIFY(text.find("\"\\u0007\"\n") != std::string::npos);
    const Tokenizer back = Tokenizer::deserialize(text);
    QVERIFY(back == tok);
    for (const std::string& line : corpus)
        QCOMPARE(back.encode(line), tok.encode(line));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("tok.txt").toStdString();
    tok.save(path);
    const Tokenizer loaded = Tokenizer::load(path);
    QVERIFY(loaded == tok);
    QCOMPARE(loaded.decode(loaded.encode(corpus.front())), corpus.front());
    // Escapes the writer does not use still parse.
    const Tokenizer escaped
        = Tokenizer::deserialize("creditlab-tokenizer 1 8\n\"<pad>\"\n\"<unk>\"\n\"<goal>\"\n"
                                 "\"<obs>\"\n\"<act>\"\n\"<\\/act>\"\n\"\\u00e9\"\n\"\\ud83d\\ude00\"\n");
    QCOMPARE(escaped.token(6), std::string("\xc3\xa9"));
    QCOMPARE(escaped.token(7), std::string("\xf0\x9f\x98\x80"));

    // A format-1 vocabulary (a run trained before item ids went by character) keeps its own split, also after a
    // save and load: "ab12" is the pieces "ab" and "12" there.
    const Tokenizer v1 = Tokenizer::deserialize("creditlab-tokenizer 1 8\n\"<pad>\"\n\"<unk>\"\n\"<goal>\"\n"
                                                "\"<obs>\"\n\"<act>\"\n\"</act>\"\n\"12\"\n\"ab\"\n");
    QCOMPARE(v1.formatVersion(), 1);
    QCOMPARE(v1.encode("ab12"), (std::vector<std::int32_t> { 7, 6 }));
    v1.save(path);
    QCOMPARE(Tokenizer::load(path).encode("ab12"), (std::vector<std::int32_t> { 7, 6 }));
    QCOMPARE(tok.formatVersion(), 2);
    QVERIFY(!(Tokenizer::deserialize(v1.serialize()) == tok));
}

void TestLearnTokenizer::badFilesNameTheLine_data()
{
    const QByteArray specials = "\"<pad>\"\n\"<unk>\"\n\"<goal>\"\n\"<obs>\"\n\"<act>\"\n\"</act>\"\n";
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("where");
    QTest::newRow("empty") << QByteArray() << "bad.tok:1:";
    QTest::newRow("wrong-magic") << "tokenizer 1 7\n" + specials + "\"a\"\n"
                                 << "bad.tok:1:";
    QTest::newRow("wrong-version") << "creditlab-tokenizer 3 7\n" + specials + "\"a\"\n"
                                   << "bad.tok:1:";
    QTest::newRow("bad-size") << "creditlab-tokenizer 1 x7\n" + specials + "\"a\"\n"
                              << "bad.tok:1:";
    QTest::newRow("too-small") << QByteArray("creditlab-tokenizer 1 3\n\"<pad>\"\n\"<unk>\"\n\"<goal>\"\n")
                               << "bad.tok:1:";
    QTest::newRow("unquoted") << "creditlab-tokenizer 1 8\n" + specials + "\"a\"\nb\n"
                              << "bad.tok:9:";
    QTest::newRow("unterminated") << "creditlab-tokenizer 1 7\n" + specials + "\"a\n"
                                  << "bad.tok:8:";
    QTest::newRow("bad-escape") << "creditlab-tokenizer 1 7\n" + specials + "\"a\\q\"\n"
                                << "bad.tok:8:";
    QTest::newRow("bad-unicode") << "creditlab-tokenizer 1 7\n" + specials + "\"\\u12\"\n"
                                 << "bad.tok:8:";
    QTest::newRow("lone-surrogate") << "creditlab-tokenizer 1 7\n" + specials + "\"\\ud800\"\n"
                                    << "bad.tok:8:";
    QTest::newRow("raw-control") << "creditlab-tokenizer 1 7\n" + specials + "\"a\tb\"\n"
                                 << "bad.tok:8:";
    QTest::newRow("trailing-text") << "creditlab-tokenizer 1 7\n" + specials + "\"a\" x\n"
                                   << "bad.tok:8:";
    QTest::newRow("missing-specials") << QByteArray("creditlab-tokenizer 1 7\n\"<pad>\"\n\"<unk>\"\n\"a\"\n\"<goal>\"\n"
                                                    "\"<obs>\"\n\"<act>\"\n\"</act>\"\n")
                                      << "bad.tok:4:";
    QTest::newRow("specials-swapped") << QByteArray("creditlab-tokenizer 1 6\n\"<pad>\"\n\"<unk>\"\n\"<goal>\"\n"
                                                    "\"<obs>\"\n\"</act>\"\n\"<act>\"\n")
                                      << "bad.tok:6:";
    QTest::newRow("truncated") << "creditlab-tokenizer 1 9\n" + specials + "\"a\"\n"
                               << "bad.tok:9:";
    QTest::newRow("cut-mid-line") << "creditlab-tokenizer 1 8\n" + specials + "\"a\"\n\"b"
                                  << "bad.tok:9:";
    QTest::newRow("extra-line") << "creditlab-tokenizer 1 7\n" + specials + "\"a\"\n\"b\"\n"
                                << "bad.tok:9:";
    QTest::newRow("empty-token") << "creditlab-tokenizer 1 7\n" + specials + "\"\"\n"
                                 << "bad.tok:8:";
    QTest::newRow("duplicate") << "creditlab-tokenizer 1 8\n" + specials + "\"a\"\n\"a\"\n"
                               << "bad.tok:9:";
    // Found with fuzz_tokenizer (tests/fuzz/corpus/fuzz_tokenizer/oom-header-count): the header's count was reserved
    // before any token was read, 999999999 strings (32 GB); now it is truncated like any short file.
    QTest::newRow("huge-count") << "creditlab-tokenizer 2 999999999\n" + specials
                                << "bad.tok:8: truncated: expected 999999999 tokens, found 6";
}

void TestLearnTokenizer::badFilesNameTheLine()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, where);
    try {
        Tokenizer::deserialize(text.toStdString(), "bad.tok");
        QFAIL("no TokenizerError");
    } catch (const TokenizerError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(where), e.what());
    }
    // The same through a file: the error names the path.
    QTemporaryDir dir;
    const std::string path = dir.filePath("bad.tok").toStdString();
    std::ofstream(path, std::ios::binary) << text.toStdString();
    try {
        Tokenizer::load(path);
        QFAIL("no TokenizerError from load");
    } catch (const TokenizerError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).startsWith(QString::fromStdString(path) + where.mid(7)), e.what());
    }
    QVERIFY_THROWS_EXCEPTION(TokenizerError, Tokenizer::load(dir.filePath("missing.tok").toStdString()));
}

void TestLearnTokenizer::promptLayout_data()
{
    QTest::addColumn<int>("turnCount");
    QTest::addColumn<int>("history");
    QTest::addColumn<bool>("initial");
    QTest::addColumn<int>("first"); // first turn in the window
    QTest::addColumn<bool>("scene"); // initial observation shown after the goal
    QTest::newRow("0 turns") << 0 << 4 << true << 0 << false;
    QTest::newRow("1 turn") << 1 << 4 << true << 0 << false;
    QTest::newRow("4 turns, H=4") << 4 << 4 << true << 0 << false;
    QTest::newRow("5 turns, H=4") << 5 << 4 << true << 1 << true;
    QTest::newRow("7 turns, H=2") << 7 << 2 << true << 5 << true;
    QTest::newRow("7 turns, H=2, no scene") << 7 << 2 << false << 5 << false;
    QTest::newRow("3 turns, H=0") << 3 << 0 << true << 3 << true;
    QTest::newRow("3 turns, H=-1") << 3 << -1 << true << 3 << true;
    QTest::newRow("1 turn, H=0, no scene") << 1 << 0 << false << 1 << false;
}

void TestLearnTokenizer::promptLayout()
{
    QFETCH(int, turnCount);
    QFETCH(int, history);
    QFETCH(bool, initial);
    QFETCH(int, first);
    QFETCH(bool, scene);
    const Tokenizer tok = promptTokenizer();
    const std::vector<Turn> turns = makeTurns(turnCount);
    const std::string goal = "put a clean mug in coffeemachine.";
    const std::string observation = turnCount == 0 ? "You are in a kitchen" : "Nothing happens.";
    PromptOptions options;
    options.history = history;
    options.initialObservation = initial;
    options.budget = 10000;
    const Ids prompt = buildPrompt(tok, options, goal, turns, observation);

    Ids expected = join({ { Tokenizer::kGoal }, tok.encode(goal) });
    if (scene)
        expected = join({ expected, { Tokenizer::kObs }, tok.encode(turns.front().observation) });
    for (int k = first; k < turnCount; ++k)
        expected = join({ expected, turnIds(tok, turns[static_cast<std::size_t>(k)]) });
    expected = join({ expected, { Tokenizer::kObs }, tok.encode(observation), { Tokenizer::kAct } });
    QCOMPARE(prompt, expected);
    QVERIFY(std::find(prompt.begin(), prompt.end(), Tokenizer::kUnk) == prompt.end());
    // The scene appears at most once.
    const Ids sceneIds = tok.encode("You are in a kitchen");
    int scenes = 0;
    for (auto it = prompt.begin();
         (it = std::search(it, prompt.end(), sceneIds.begin(), sceneIds.end())) != prompt.end(); ++it)
        ++scenes;
    QVERIFY(scenes <= 1);
}

void TestLearnTokenizer::promptBudgetTruncates()
{
    const Tokenizer tok = promptTokenizer();
    const std::vector<Turn> turns = makeTurns(6);
    const std::string goal = "put a mug."; // short enough that a budget of 8 never cuts it
    const std::string observation = "You see a mug 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9";
    const Ids goalIds = join({ { Tokenizer::kGoal }, tok.encode(goal) });
    const Ids obsIds = tok.encode(observation);
    PromptOptions options;
    options.history = 3;
    options.budget = 10000;
    const Ids full = buildPrompt(tok, options, goal, turns, observation);
    const Ids scene = join({ { Tokenizer::kObs }, tok.encode(turns.front().observation) });
    const Ids current = join({ { Tokenizer::kObs }, obsIds, { Tokenizer::kAct } });

    for (int budget = 8; budget <= static_cast<int>(full.size()) + 2; ++budget) {
        options.budget = budget;
        const Ids p = buildPrompt(tok, options, goal, turns, observation);
        const QByteArray where = "budget " + QByteArray::number(budget);
        QVERIFY2(static_cast<int>(p.size()) <= budget, where);
        QVERIFY2(p.front() == Tokenizer::kGoal && p.back() == Tokenizer::kAct, where);
        QVERIFY2(std::count(p.begin(), p.end(), Tokenizer::kGoal) == 1, where);
        if (budget >= static_cast<int>(full.size())) {
            QCOMPARE(p, full);
            continue;
        }
        // Which of turns 3..5 fit, newest kept; then the scene; then the observation's tail.
        Ids expected;
        bool found = false;
        for (int first = 4; first <= 6 && !found; ++first) {
            Ids history;
            for (int k = first; k < 6; ++k)
                history = join({ history, turnIds(tok, turns[static_cast<std::size_t>(k)]) });
            expected = join({ goalIds, scene, history, current });
            found = static_cast<int>(expected.size()) <= budget;
        }
        if (!found && static_cast<int>(goalIds.size() + current.size()) <= budget) {
            expected = join({ goalIds, current });
            found = true;
        }
        if (!found) {
            const std::size_t keep = static_cast<std::size_t>(budget) - goalIds.size() - 2;
            expected = join({ goalIds, { Tokenizer::kObs },
                Ids(obsIds.end() - static_cast<std::ptrdiff_t>(keep), obsIds.end()), { Tokenizer::kAct } });
        }
        QCOMPARE(p, expected);
    }

    // A goal longer than the whole budget keeps its front.
    options.budget = 8;
    const std::string longGoal = "put a clean mug in coffeemachine. put a clean mug in coffeemachine.";
    const Ids longGoalIds = tok.encode(longGoal);
    const Ids p = buildPrompt(tok, options, longGoal, turns, observation);
    QCOMPARE(p,
        join({ Ids { Tokenizer::kGoal }, Ids(longGoalIds.begin(), longGoalIds.begin() + 5),
            Ids { Tokenizer::kObs, Tokenizer::kAct } }));
}

void TestLearnTokenizer::promptBudgetTooSmallThrows()
{
    const Tokenizer tok = promptTokenizer();
    for (const int budget : { 7, 1, 0, -5 }) {
        PromptOptions options;
        options.budget = budget;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildPrompt(tok, options, "goal", {}, "obs"));
    }
}

QTEST_GUILESS_MAIN(TestLearnTokenizer)

#include "tst_learn_tokenizer.moc"
