// One JSONL line at a time: parseTrajectory and formatTrajectory, unknown fields, numbers, text.
#include "core/interchange/jsonl.h"

#include "testutil.h"

#include <QtTest/QTest>

#include <bit>
#include <cstring>

using namespace creditlab;

// Declarations first: moc mis-reads raw string literals inside a class body.
class TestJsonlParse : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void designExample();
    void minimalLineLeavesOptionalsAbsent();
    void unknownFieldsSurvive_data();
    void unknownFieldsSurvive();
    void unknownKeyBothInTurnAndAfterTurns();
    void duplicateUnknownKeyAroundTurnsIsRefused();
    void numbersRoundTripExactly_data();
    void numbersRoundTripExactly();
    void boolsAndNumbersAsBool_data();
    void boolsAndNumbersAsBool();
    void iterationValues_data();
    void iterationValues();
    void textDecoding_data();
    void textDecoding();
    void formatEscapesAsExpected();
    void reusedObjectEqualsFreshParse();
    void emptyTurnsArray();
    void deepNestingWithinLimitIsKept();
    void jsonlErrorWhat();
};

namespace {

Trajectory parse(std::string_view line)
{
    Trajectory t;
    parseTrajectory(line, t);
    return t;
}

std::string format(const Trajectory& t)
{
    std::string s;
    formatTrajectory(t, s);
    return s;
}

/// A line with required fields around `turnJson` (a turn object's members) and `topJson` (top-level members).
std::string lineWith(const std::string& topJson, const std::string& turnJson = R"("observation":"o","action":"a")")
{
    std::string s = R"({"id":"t","group":"g","reward":1,"turns":[{)" + turnJson + "}]";
    if (!topJson.empty())
        s += "," + topJson;
    return s + "}";
}

} // namespace

void TestJsonlParse::designExample()
{
    // The DESIGN.md example, on one line as the format requires.
    const std::string line
        = R"({"id": "it3-task17-r2", "group": "it3-task17", "task": "household:seed=17", "env": "household",)"
          R"( "goal": "put a clean mug in coffeemachine.", "reward": 1.0, "success": true,)"
          R"( "turns": [)"
          R"(   {"observation": "You are in the middle of a room. ...", "action": "go to countertop 1",)"
          R"(    "feedback": "On the countertop 1, you see a mug 1.", "reward": 0.0, "valid": true,)"
          R"(    "state": "loc=countertop1|holding=-|...", "progress": 0.25,)"
          R"(    "role": "E", "role_source": "human:alice", "score": 0.81})"
          R"( ]})";
    const Trajectory t = parse(line);
    QCOMPARE(t.id, std::string("it3-task17-r2"));
    QCOMPARE(t.group, std::string("it3-task17"));
    QCOMPARE(t.task.key, std::optional<std::string>("household:seed=17"));
    QCOMPARE(t.task.env, std::optional<std::string>("household"));
    QCOMPARE(t.task.goal, std::optional<std::string>("put a clean mug in coffeemachine."));
    QCOMPARE(t.reward, 1.0);
    QCOMPARE(t.success, std::optional<bool>(true));
    QVERIFY(!t.iteration.has_value());
    QCOMPARE(t.extra, std::string());
    QCOMPARE(t.turns.size(), std::size_t(1));
    const Turn& u = t.turns[0];
    QCOMPARE(u.observation, std::string("You are in the middle of a room. ..."));
    QCOMPARE(u.action, std::string("go to countertop 1"));
    QCOMPARE(u.feedback, std::optional<std::string>("On the countertop 1, you see a mug 1."));
    QCOMPARE(u.reward, std::optional<double>(0.0));
    QCOMPARE(u.valid, std::optional<bool>(true));
    QCOMPARE(u.state, std::optional<std::string>("loc=countertop1|holding=-|..."));
    QCOMPARE(u.progress, std::optional<double>(0.25));
    QCOMPARE(u.role, std::optional<Role>(Role::E));
    QCOMPARE(u.roleSource, std::optional<std::string>("human:alice"));
    QCOMPARE(u.score, std::optional<double>(0.81));
    QVERIFY(!u.tokens.has_value());
    QCOMPARE(u.extra, std::string());

    // The canonical form: known fields in DESIGN.md order, no spaces; it parses back equal.
    const std::string canonical = format(t);
    QCOMPARE(canonical,
        std::string(R"({"id":"it3-task17-r2","group":"it3-task17","task":"household:seed=17","env":"household",)"
                    R"("goal":"put a clean mug in coffeemachine.","reward":1,"success":true,"turns":[)"
                    R"({"observation":"You are in the middle of a room. ...","action":"go to countertop 1",)"
                    R"("feedback":"On the countertop 1, you see a mug 1.","reward":0,"valid":true,)"
                    R"("state":"loc=countertop1|holding=-|...","progress":0.25,"role":"E",)"
                    R"("role_source":"human:alice","score":0.81}]})"));
    CL_COMPARE_TRAJ(parse(canonical), t);
}

void TestJsonlParse::minimalLineLeavesOptionalsAbsent()
{
    const Trajectory t = parse(R"({"id":"a","group":"g","reward":0,"turns":[{"observation":"","action":""}]})");
    QVERIFY(!t.task.key && !t.task.env && !t.task.goal && !t.success && !t.iteration);
    QCOMPARE(t.turns.size(), std::size_t(1));
    const Turn& u = t.turns[0];
    QVERIFY(!u.feedback && !u.reward && !u.valid && !u.state && !u.progress && !u.role && !u.roleSource && !u.score
        && !u.tokens);
    QCOMPARE(u.observation, std::string());
    QCOMPARE(t.successOrDefault(), false);
}

void TestJsonlParse::unknownFieldsSurvive_data()
{
    QTest::addColumn<QString>("top"); // top-level unknown members as written
    QTest::addColumn<QString>("turn"); // a turn's unknown members as written
    QTest::newRow("none") << ""
                          << "";
    QTest::newRow("scalars") << R"("n":null,"b":false,"t":true)"
                             << R"("x":-0,"y":1.50e+3)";
    QTest::newRow("exponent forms") << R"("e1":1E-7,"e2":-2.5e+300,"e3":0.0)"
                                    << R"("e4":123456789012345678901234567890)";
    QTest::newRow("nested") << R"("meta":{"a":[1,{"b":[]},{}],"c":{"d":{"e":"f"}}})"
                            << R"("logits":[[0.1,0.2],[0.3,0.4]])";
    QTest::newRow("escaped strings") << R"("s":"quote \" backslash \\ slash \/ \b\f\n\r\t \u00e9 \ud83d\ude00")"
                                     << R"("u":"\u0000\u001f")";
    QTest::newRow("whitespace inside values") << R"("w":[ 1 , { "k" : "v" } ])"
                                              << R"("v":{ })";
    QTest::newRow("escaped key") << R"("k\u00e9y":1,"\"q\"":2)"
                                 << R"("\\":3)";
    QTest::newRow("unicode raw") << "\"émoji\":\"\xF0\x9F\x98\x80\""
                                 << "\"日本\":\"語\"";
}

void TestJsonlParse::unknownFieldsSurvive()
{
    QFETCH(QString, top);
    QFETCH(QString, turn);
    const std::string topText = top.toStdString();
    const std::string turnText = turn.toStdString();
    // Unknown members come before and after the known ones; both survive in order.
    std::string line = R"({"id":"t","group":"g",)";
    if (!topText.empty())
        line += topText + ",";
    line += R"("reward":1,"turns":[{"observation":"o",)";
    if (!turnText.empty())
        line += turnText + ",";
    line += R"("action":"a"}]})";

    const Trajectory t = parse(line);
    QCOMPARE(t.extra, topText);
    QCOMPARE(t.turns.size(), std::size_t(1));
    QCOMPARE(t.turns[0].extra, turnText);

    // Formatting keeps the raw text (numbers are not reformatted, escapes not decoded).
    const std::string out = format(t);
    if (!topText.empty())
        QVERIFY2(out.find(topText) != std::string::npos, out.c_str());
    if (!turnText.empty())
        QVERIFY2(out.find(turnText) != std::string::npos, out.c_str());
    const Trajectory again = parse(out);
    CL_COMPARE_TRAJ(again, t);
    QCOMPARE(format(again), out);
}

void TestJsonlParse::unknownKeyBothInTurnAndAfterTurns()
{
    // formatTrajectory writes top-level unknown members after "turns"; a turn may carry an unknown
    // member of the same name. Such a line is valid JSON without duplicates and must round trip.
    Trajectory t = test::minimalTrajectory("t", "g", 1.0, 1);
    t.turns[0].extra = R"("meta":1)";
    t.extra = R"("meta":2)";
    const std::string line = format(t);
    QCOMPARE(line,
        std::string(
            R"({"id":"t","group":"g","reward":1,"turns":[{"observation":"obs 0","action":"act 0","meta":1}],"meta":2})"));
    Trajectory back;
    try {
        parseTrajectory(line, back);
    } catch (const JsonlFieldError& e) {
        QFAIL(("valid line refused: field \"" + e.field + "\": " + e.message).c_str());
    }
    CL_COMPARE_TRAJ(back, t);
}

void TestJsonlParse::duplicateUnknownKeyAroundTurnsIsRefused()
{
    // A top-level unknown member repeated on both sides of "turns" is a duplicate like any other.
    const std::string line
        = R"({"id":"t","group":"g","meta":1,"reward":1,"turns":[{"observation":"o","action":"a"}],"meta":2})";
    Trajectory t;
    try {
        parseTrajectory(line, t);
        QFAIL("duplicate top-level member \"meta\" was accepted");
    } catch (const JsonlFieldError& e) {
        QCOMPARE(e.field, std::string("meta"));
        QVERIFY2(e.message.find("twice") != std::string::npos, e.message.c_str());
    }
}

void TestJsonlParse::numbersRoundTripExactly_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<double>("value");
    QTest::newRow("0.1") << "0.1" << 0.1;
    QTest::newRow("1e-300") << "1e-300" << 1e-300;
    QTest::newRow("123456789.123456789") << "123456789.123456789" << 123456789.123456789;
    QTest::newRow("-0.0") << "-0.0" << -0.0;
    QTest::newRow("-0") << "-0" << -0.0;
    QTest::newRow("1.50e+3") << "1.50e+3" << 1500.0;
    QTest::newRow("1E2") << "1E2" << 100.0;
    QTest::newRow("max double") << "1.7976931348623157e308" << 1.7976931348623157e308;
    QTest::newRow("min normal") << "2.2250738585072014e-308" << 2.2250738585072014e-308;
    QTest::newRow("2^53+1 rounds") << "9007199254740993" << 9007199254740992.0;
    QTest::newRow("third") << "0.3333333333333333" << 0.3333333333333333;
    QTest::newRow("negative") << "-42.5" << -42.5;
}

void TestJsonlParse::numbersRoundTripExactly()
{
    QFETCH(QString, text);
    QFETCH(double, value);
    const std::string line = R"({"id":"t","group":"g","reward":)" + text.toStdString()
        + R"(,"turns":[{"observation":"o","action":"a","reward":)" + text.toStdString() + "}]}";
    const Trajectory t = parse(line);
    // Bit-exact, so that -0.0 keeps its sign.
    QCOMPARE(std::bit_cast<std::uint64_t>(t.reward), std::bit_cast<std::uint64_t>(value));
    QCOMPARE(std::bit_cast<std::uint64_t>(*t.turns[0].reward), std::bit_cast<std::uint64_t>(value));
    const Trajectory back = parse(format(t));
    QCOMPARE(std::bit_cast<std::uint64_t>(back.reward), std::bit_cast<std::uint64_t>(value));
    QCOMPARE(std::bit_cast<std::uint64_t>(*back.turns[0].reward), std::bit_cast<std::uint64_t>(value));
}

void TestJsonlParse::boolsAndNumbersAsBool_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("expected");
    QTest::newRow("true") << "true" << true;
    QTest::newRow("false") << "false" << false;
    QTest::newRow("1") << "1" << true;
    QTest::newRow("0") << "0" << false;
    QTest::newRow("0.0") << "0.0" << false;
    QTest::newRow("-1") << "-1" << true;
    QTest::newRow("0.5") << "0.5" << true;
}

void TestJsonlParse::boolsAndNumbersAsBool()
{
    QFETCH(QString, text);
    QFETCH(bool, expected);
    const std::string v = text.toStdString();
    const Trajectory t = parse(R"({"id":"t","group":"g","reward":0,"success":)" + v
        + R"(,"turns":[{"observation":"o","action":"a","valid":)" + v + "}]}");
    QCOMPARE(t.success, std::optional<bool>(expected));
    QCOMPARE(t.turns[0].valid, std::optional<bool>(expected));
    const std::string out = format(t);
    const std::string word = expected ? "true" : "false";
    QVERIFY2(out.find("\"success\":" + word) != std::string::npos, out.c_str());
    QVERIFY2(out.find("\"valid\":" + word) != std::string::npos, out.c_str());
    CL_COMPARE_TRAJ(parse(out), t);
}

void TestJsonlParse::iterationValues_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("expected");
    QTest::newRow("0") << "0" << qint64(0);
    QTest::newRow("7") << "7" << qint64(7);
    QTest::newRow("7.0") << "7.0" << qint64(7);
    QTest::newRow("1e3") << "1e3" << qint64(1000);
    QTest::newRow("large") << "4503599627370496" << qint64(4503599627370496);
}

void TestJsonlParse::iterationValues()
{
    QFETCH(QString, text);
    QFETCH(qint64, expected);
    const Trajectory t = parse(lineWith(R"("iteration":)" + text.toStdString()));
    QCOMPARE(t.iteration, std::optional<std::int64_t>(expected));
    QCOMPARE(parse(format(t)).iteration, std::optional<std::int64_t>(expected));
}

void TestJsonlParse::textDecoding_data()
{
    QTest::addColumn<QByteArray>("json"); // a JSON string literal, quotes included
    QTest::addColumn<QByteArray>("decoded");
    QTest::newRow("plain") << QByteArray(R"("hello")") << QByteArray("hello");
    QTest::newRow("simple escapes") << QByteArray(R"("\"\\\/\b\f\n\r\t")") << QByteArray("\"\\/\b\f\n\r\t");
    QTest::newRow("NUL escape") << QByteArray(R"("a\u0000b")") << QByteArray("a\0b", 3);
    QTest::newRow("control escapes") << QByteArray(R"("\u0001\u001F\u007f")") << QByteArray("\x01\x1f\x7f");
    QTest::newRow("BMP escape") << QByteArray(R"("caf\u00E9 \u65e5")") << QByteArray("caf\xC3\xA9 \xE6\x97\xA5");
    QTest::newRow("surrogate pair escape") << QByteArray(R"("\ud83d\ude00")") << QByteArray("\xF0\x9F\x98\x80");
    QTest::newRow("raw 4-byte emoji") << QByteArray("\"\xF0\x9F\x98\x80\"") << QByteArray("\xF0\x9F\x98\x80");
    QTest::newRow("max code point") << QByteArray(R"("\udbff\udfff")") << QByteArray("\xF4\x8F\xBF\xBF");
    QTest::newRow("raw tab (accepted)") << QByteArray("\"a\tb\"") << QByteArray("a\tb");
    QTest::newRow("raw newline-free controls") << QByteArray("\"\x01\x1f\"") << QByteArray("\x01\x1f");
    QTest::newRow("empty") << QByteArray(R"("")") << QByteArray("");
}

void TestJsonlParse::textDecoding()
{
    QFETCH(QByteArray, json);
    QFETCH(QByteArray, decoded);
    const std::string lit = json.toStdString();
    const std::string want = decoded.toStdString();
    const Trajectory t = parse(R"({"id":"t","group":"g","goal":)" + lit + R"(,"reward":0,"turns":[{"observation":)"
        + lit + R"(,"action":)" + lit + R"(,"feedback":)" + lit + "}]}");
    QCOMPARE(*t.task.goal, want);
    QCOMPARE(t.turns[0].observation, want);
    QCOMPARE(t.turns[0].action, want);
    QCOMPARE(*t.turns[0].feedback, want);
    // Formatting escapes control characters, so the output is strict JSON, and reads back equal.
    const std::string out = format(t);
    for (char c : out)
        QVERIFY2(static_cast<unsigned char>(c) >= 0x20, "a raw control character in formatted output");
    CL_COMPARE_TRAJ(parse(out), t);
}

void TestJsonlParse::formatEscapesAsExpected()
{
    Trajectory t = test::minimalTrajectory("q\"id\\", "g", 0.0, 1);
    t.turns[0].observation = std::string("a\0b\x1f\t\n\r\b\f/\x7f", 11);
    t.turns[0].action = "\xF0\x9F\x98\x80";
    QCOMPARE(format(t),
        std::string(R"({"id":"q\"id\\","group":"g","reward":0,"turns":[{"observation":"a\u0000b\u001f\t\n\r\b\f/)")
            + "\x7f" + R"(","action":")" + "\xF0\x9F\x98\x80" + R"("}]})");
}

void TestJsonlParse::reusedObjectEqualsFreshParse()
{
    // The importer parses into recycled objects: a line with fewer fields must not inherit the
    // previous line's values.
    const std::string full = format(test::fullTrajectory("a", "g"));
    Trajectory t2 = test::fullTrajectory("b", "g");
    t2.turns.push_back(t2.turns[0]);
    t2.turns.push_back(t2.turns[0]);
    const std::string three = format(t2);
    const std::string minimal = R"({"id":"m","group":"h","reward":-1,"turns":[{"observation":"x","action":"y"}]})";
    const std::string empty = R"({"id":"e","group":"h","reward":0,"turns":[]})";
    Trajectory reused;
    for (const std::string* line : { &three, &minimal, &full, &empty, &three, &full, &minimal }) {
        parseTrajectory(*line, reused);
        CL_COMPARE_TRAJ(reused, parse(*line));
    }
}

void TestJsonlParse::emptyTurnsArray()
{
    const Trajectory t = parse(R"({"id":"e","group":"g","reward":0,"turns":[]})");
    QVERIFY(t.turns.empty());
    QCOMPARE(format(t), std::string(R"({"id":"e","group":"g","reward":0,"turns":[]})"));
}

void TestJsonlParse::deepNestingWithinLimitIsKept()
{
    // kMaxDepth levels inside an unknown member are fine; the raw text is kept.
    const int depth = 500;
    const std::string nested = std::string(depth, '[') + std::string(depth, ']');
    const Trajectory t = parse(lineWith(R"("deep":)" + nested));
    QCOMPARE(t.extra, R"("deep":)" + nested);
}

void TestJsonlParse::jsonlErrorWhat()
{
    const JsonlError withField("runs/a.jsonl", 12, "turns[2].action", "is required but missing");
    QCOMPARE(std::string(withField.what()),
        std::string(R"(runs/a.jsonl:12: field "turns[2].action": is required but missing)"));
    QCOMPARE(withField.file(), std::string("runs/a.jsonl"));
    QCOMPARE(withField.line(), std::size_t(12));
    QCOMPARE(withField.field(), std::string("turns[2].action"));
    QCOMPARE(withField.message(), std::string("is required but missing"));
    const JsonlError syntax("b.jsonl", 3, "", "invalid JSON: unterminated string", 17);
    QCOMPARE(std::string(syntax.what()), std::string("b.jsonl:3:17: invalid JSON: unterminated string"));
}

QTEST_GUILESS_MAIN(TestJsonlParse)
#include "tst_jsonl_parse.moc"
