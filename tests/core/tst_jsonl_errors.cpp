// Every way a JSONL line can be refused: JsonlError names the file, the line, the field and, for
// syntax errors, the column.
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonlfile.h"
#include "core/interchange/jsonscanner.h"

#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <cctype>

using namespace creditlab;

// Declarations first: moc mis-reads raw string literals inside a class body.
class TestJsonlErrors : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void refusedLine_data();
    void refusedLine();
    void staleFieldAfterSyntaxError_data();
    void staleFieldAfterSyntaxError();
    void duplicateIdAcrossLines();
    void lineNumbersCountBlankLines();
    void missingFile();
    void directoryIsRefused();

private:
    QTemporaryDir m_dir;
    int m_counter = 0;
};

namespace {

const std::string kValid = R"({"id":"ok1","group":"g","reward":1,"turns":[{"observation":"o","action":"a"}]})";
const std::string kHead = R"({"id":"x","group":"g","reward":1,"turns":[)";

/// A line whose first turn has the members `turnMembers`.
std::string turnLine(const std::string& turnMembers) { return kHead + "{" + turnMembers + "}]}"; }

/// 1-based column of the byte at `marker`'s first occurrence plus `delta`.
int col(const std::string& line, const std::string& marker, int delta = 0)
{
    const auto at = line.find(marker);
    return at == std::string::npos ? -2 : static_cast<int>(at) + 1 + delta;
}

const char* kAnyField = "*";

} // namespace

void TestJsonlErrors::initTestCase() { QVERIFY(m_dir.isValid()); }

void TestJsonlErrors::refusedLine_data()
{
    QTest::addColumn<QByteArray>("bad"); // written as line 2, after one valid line
    QTest::addColumn<QString>("field"); // "*": not checked here (see staleFieldAfterSyntaxError)
    QTest::addColumn<QString>("message"); // a part of JsonlError::message()
    QTest::addColumn<int>("column"); // 0: no column in what(); -1: some column

    auto row = [](const char* name, const std::string& bad, const char* field, const char* message, int column) {
        QTest::newRow(name) << QByteArray::fromStdString(bad) << QString::fromUtf8(field) << QString::fromUtf8(message)
                            << column;
    };

    // Not JSON, or not one object.
    row("not JSON", "hello", "", "invalid JSON: unexpected character 'h'", 1);
    row("array line", "[1,2]", "", "a line must hold one JSON object, got an array", 1);
    row("string line", R"(  "text")", "", "got a string", 3);
    row("number line", "42", "", "got a number", 1);
    const std::string truncated = turnLine(R"("observation":"o","action":"a)").substr(0, kHead.size() + 30);
    row("truncated in a string", truncated, "turns[0].action", "invalid JSON: unterminated string",
        static_cast<int>(truncated.size()) + 1);
    row("truncated after a member", kHead.substr(0, 10), kAnyField, "invalid JSON", -1);
    row("unquoted key", R"({id:"x"})", "", "expected a quoted member name", 2);

    // Required members.
    row("missing id", R"({"group":"g","reward":1,"turns":[]})", "id", "is required but missing", 0);
    row("missing group", R"({"id":"x","reward":1,"turns":[]})", "group", "is required but missing", 0);
    row("missing reward", R"({"id":"x","group":"g","turns":[]})", "reward", "is required but missing", 0);
    row("missing turns", R"({"id":"x","group":"g","reward":1})", "turns", "is required but missing", 0);
    row("empty object", "{}", "id", "is required but missing", 0);
    row("missing observation", turnLine(R"("action":"a")"), "turns[0].observation", "is required but missing", 0);
    row("missing action in turn 2",
        kHead + R"({"observation":"o","action":"a"},{"observation":"o","action":"a"},{"observation":"o"}]})",
        "turns[2].action", "is required but missing", 0);

    // Wrong types.
    row("id number", R"({"id":5,"group":"g","reward":1,"turns":[]})", "id", "expected a string, got a number", 0);
    row("id empty", R"({"id":"","group":"g","reward":1,"turns":[]})", "id", "must not be empty", 0);
    row("group null", R"({"id":"x","group":null,"reward":1,"turns":[]})", "group", "expected a string, got null", 0);
    row("reward string", R"({"id":"x","group":"g","reward":"1","turns":[]})", "reward",
        "expected a number, got a string", 0);
    row("success string", R"({"id":"x","group":"g","reward":1,"success":"yes","turns":[]})", "success",
        "expected a boolean, got a string", 0);
    row("turns object", R"({"id":"x","group":"g","reward":1,"turns":{}})", "turns", "expected an array, got an object",
        0);
    row("turns null", R"({"id":"x","group":"g","reward":1,"turns":null})", "turns", "expected an array, got null", 0);
    row("turn not an object", kHead + R"({"observation":"o","action":"a"},1]})", "turns[1]",
        "expected an object, got a number", 0);
    row("valid string", turnLine(R"("observation":"o","action":"a","valid":"true")"), "turns[0].valid",
        "expected a boolean, got a string", 0);
    row("observation array", turnLine(R"("observation":["o"],"action":"a")"), "turns[0].observation",
        "expected a string, got an array", 0);
    row("turn reward bool", turnLine(R"("observation":"o","action":"a","reward":true)"), "turns[0].reward",
        "expected a number, got a boolean", 0);

    // Values out of their domain.
    row("role X", turnLine(R"("observation":"o","action":"a","role":"X")"), "turns[0].role",
        R"(expected one of "D", "E", "N", "R", got "X")", 0);
    row("role lowercase", turnLine(R"("observation":"o","action":"a","role":"d")"), "turns[0].role", R"(got "d")", 0);
    row("role number", turnLine(R"("observation":"o","action":"a","role":1)"), "turns[0].role",
        "expected a string, got a number", 0);
    row("progress above 1", turnLine(R"("observation":"o","action":"a","progress":1.5)"), "turns[0].progress",
        "must be in [0, 1]", 0);
    row("progress below 0", turnLine(R"("observation":"o","action":"a","progress":-0.01)"), "turns[0].progress",
        "must be in [0, 1]", 0);
    row("score above 1", turnLine(R"("observation":"o","action":"a","score":1.0001)"), "turns[0].score",
        "must be in [0, 1]", 0);
    row("score below 0", turnLine(R"("observation":"o","action":"a","score":-1)"), "turns[0].score",
        "must be in [0, 1]", 0);
    row("iteration negative", R"({"id":"x","group":"g","reward":1,"iteration":-1,"turns":[]})", "iteration",
        "must be a non-negative integer", 0);
    row("iteration fractional", R"({"id":"x","group":"g","reward":1,"iteration":1.5,"turns":[]})", "iteration",
        "must be a non-negative integer", 0);
    row("iteration huge", R"({"id":"x","group":"g","reward":1,"iteration":1e300,"turns":[]})", "iteration",
        "must be a non-negative integer", 0);

    // Duplicates.
    row("duplicate id key", R"({"id":"x","id":"y","group":"g","reward":1,"turns":[]})", "id", "appears twice", 0);
    row("duplicate reward key", R"({"id":"x","group":"g","reward":1,"reward":2,"turns":[]})", "reward", "appears twice",
        0);
    row("duplicate unknown key", R"({"id":"x","m":1,"group":"g","m":2,"reward":1,"turns":[]})", "m", "appears twice",
        0);
    row("duplicate key via escape", R"({"id":"x","group":"g","\u0069d":"y","reward":1,"turns":[]})", "id",
        "appears twice", 0);
    row("duplicate key in turn", turnLine(R"("observation":"o","action":"a","action":"b")"), "turns[0].action",
        "appears twice", 0);
    row("duplicate unknown key in turn", turnLine(R"("observation":"o","m":1,"action":"a","m":[])"), "turns[0].m",
        "appears twice", 0);

    // Strings: UTF-8 and escapes.
    const std::string badByte = turnLine("\"observation\":\"ab\xFF\",\"action\":\"a\"");
    row("invalid UTF-8 byte", badByte, "turns[0].observation", "invalid JSON: invalid UTF-8 byte",
        col(badByte, "\xFF"));
    const std::string overlong2 = turnLine("\"observation\":\"\xC0\xAF\",\"action\":\"a\"");
    row("overlong 2-byte UTF-8", overlong2, "turns[0].observation", "invalid UTF-8 byte", col(overlong2, "\xC0"));
    const std::string overlong3 = turnLine("\"observation\":\"\xE0\x80\xAF\",\"action\":\"a\"");
    row("overlong 3-byte UTF-8", overlong3, "turns[0].observation", "overlong", col(overlong3, "\xE0"));
    const std::string overlong4 = turnLine("\"observation\":\"\xF0\x80\x80\xAF\",\"action\":\"a\"");
    row("overlong 4-byte UTF-8", overlong4, "turns[0].observation", "overlong", col(overlong4, "\xF0"));
    const std::string beyond = turnLine("\"observation\":\"\xF4\x90\x80\x80\",\"action\":\"a\"");
    row("beyond U+10FFFF", beyond, "turns[0].observation", "out-of-range", col(beyond, "\xF4"));
    const std::string encodedSurrogate = turnLine("\"observation\":\"\xED\xA0\x80\",\"action\":\"a\"");
    row("UTF-8 encoded surrogate", encodedSurrogate, "turns[0].observation", "surrogate",
        col(encodedSurrogate, "\xED"));
    const std::string cut = turnLine("\"observation\":\"\xE6\x97\",\"action\":\"a\"");
    row("cut UTF-8 sequence", cut, "turns[0].observation", "continuation", col(cut, "\xE6"));
    const std::string badInUnknown = turnLine("\"observation\":\"o\",\"note\":\"\xFE\",\"action\":\"a\"");
    row("invalid UTF-8 in unknown field", badInUnknown, "turns[0].note", "invalid UTF-8 byte",
        col(badInUnknown, "\xFE"));
    const std::string badKey = "{\"id\":\"x\",\"k\xFF\":1}";
    row("invalid UTF-8 in a key", badKey, kAnyField, "invalid UTF-8 byte", col(badKey, "\xFF"));
    const std::string lone = turnLine(R"("observation":"a\ud800","action":"a")");
    row("lone high surrogate escape", lone, "turns[0].observation", "unpaired high surrogate", col(lone, "\\ud800"));
    const std::string loneLow = turnLine(R"("observation":"\udc00x","action":"a")");
    row("lone low surrogate escape", loneLow, "turns[0].observation", "unpaired low surrogate",
        col(loneLow, "\\udc00"));
    const std::string badPair = turnLine(R"("observation":"\ud83d\u0041","action":"a")");
    row("high surrogate then non-low", badPair, "turns[0].observation", "invalid low surrogate",
        col(badPair, "\\ud83d"));
    const std::string badEscape = turnLine(R"("observation":"a\x41","action":"a")");
    row("invalid escape \\x", badEscape, "turns[0].observation", "invalid escape '\\x'", col(badEscape, "\\x"));
    const std::string badHex = turnLine(R"("observation":"\u00g1","action":"a")");
    row("bad hex digit", badHex, "turns[0].observation", "invalid hex digit", col(badHex, "\\u00g"));
    const std::string badEscapeUnknown = R"({"id":"x","group":"g","reward":1,"turns":[],"u":"\q"})";
    row("invalid escape in unknown field", badEscapeUnknown, "u", "invalid escape '\\q'", col(badEscapeUnknown, "\\q"));

    // Numbers and grammar.
    const std::string lead = R"({"id":"x","group":"g","reward":01,"turns":[]})";
    row("leading zero", lead, "reward", "invalid JSON: leading zero in number", col(lead, "01", 1));
    const std::string leadUnknown = R"({"id":"x","group":"g","reward":1,"turns":[],"n":-007})";
    row("leading zero in unknown field", leadUnknown, "n", "leading zero", col(leadUnknown, "-007", 2));
    row("out of range", R"({"id":"x","group":"g","reward":1e400,"turns":[]})", "reward", "number out of range", -1);
    row("bare minus", R"({"id":"x","group":"g","reward":-,"turns":[]})", "reward", "invalid number", -1);
    row("dot without digits", R"({"id":"x","group":"g","reward":1.,"turns":[]})", "reward",
        "expected a digit after '.'", -1);
    row("leading dot", R"({"id":"x","group":"g","reward":.5,"turns":[]})", "reward", "unexpected character '.'", -1);
    row("NaN", R"({"id":"x","group":"g","reward":NaN,"turns":[]})", "reward", "unexpected character 'N'", -1);
    row("exponent without digits", R"({"id":"x","group":"g","reward":1e,"turns":[]})", "reward",
        "expected a digit in exponent", -1);
    row("bad literal", R"({"id":"x","group":"g","reward":1,"turns":[],"b":tru})", "b", "invalid JSON", -1);
    row("trailing comma in array", kHead + R"({"observation":"o","action":"a"},]})", kAnyField,
        "trailing comma in array", -1);
    row("trailing comma in object", turnLine(R"("observation":"o","action":"a",)"), kAnyField, "invalid JSON", -1);
    row("trailing comma in unknown array", R"({"id":"x","group":"g","reward":1,"turns":[],"a":[1,]})", "a",
        "trailing comma in array", -1);
    row("missing colon", R"({"id" "x"})", kAnyField, "expected ':'", -1);
    const std::string garbage = kValid.substr(0, kValid.size() - 1) + R"(,"id2":"y"} x)";
    row("trailing garbage", garbage, kAnyField, "unexpected text after the JSON value", col(garbage, "} x", 2));
    row("two objects", kValid + kValid, kAnyField, "unexpected text after the JSON value", -1);
    const std::string deep = R"({"id":"x","group":"g","reward":1,"turns":[],"deep":)" + std::string(600, '[')
        + std::string(600, ']') + "}";
    row("nesting deeper than kMaxDepth", deep, "deep", "nesting too deep", -1);
    std::string nestedObjects;
    for (int i = 0; i < JsonScanner::kMaxDepth + 10; ++i)
        nestedObjects += R"({"k":)";
    nestedObjects += "1" + std::string(JsonScanner::kMaxDepth + 10, '}');
    row("deep objects in a turn", turnLine(R"("observation":"o","action":"a","d":)" + nestedObjects), "turns[0].d",
        "nesting too deep", -1);
}

void TestJsonlErrors::refusedLine()
{
    QFETCH(QByteArray, bad);
    QFETCH(QString, field);
    QFETCH(QString, message);
    QFETCH(int, column);
    const std::string path = m_dir.filePath(QString("%1.jsonl").arg(m_counter++)).toStdString();
    test::writeFile(
        path, kValid + "\n" + bad.toStdString() + "\n" + R"({"id":"ok3","group":"g","reward":0,"turns":[]})" + "\n");

    JsonlFileReader reader(path);
    Trajectory t;
    QVERIFY(reader.next(t));
    QCOMPARE(t.id, std::string("ok1"));
    try {
        reader.next(t);
        QFAIL("line 2 was accepted");
    } catch (const JsonlError& e) {
        const std::string what = e.what();
        QCOMPARE(e.file(), path);
        QCOMPARE(e.line(), std::size_t(2));
        if (field != kAnyField)
            QCOMPARE(e.field(), field.toStdString());
        QVERIFY2(e.message().find(message.toStdString()) != std::string::npos, what.c_str());
        const std::string fileLine = path + ":2:";
        QVERIFY2(what.rfind(fileLine, 0) == 0, what.c_str());
        if (column == 0) {
            QVERIFY2(what.rfind(fileLine + " ", 0) == 0, what.c_str());
        } else if (column > 0) {
            QVERIFY2(what.rfind(fileLine + std::to_string(column) + ": ", 0) == 0, what.c_str());
        } else {
            QVERIFY2(what.size() > fileLine.size() && std::isdigit(static_cast<unsigned char>(what[fileLine.size()])),
                what.c_str());
        }
        if (!e.field().empty())
            QVERIFY2(what.find("field \"" + e.field() + "\": ") != std::string::npos, what.c_str());
        QVERIFY2(what.find(e.message()) != std::string::npos, what.c_str());
    } catch (const std::exception& e) {
        QFAIL((std::string("wrong exception type: ") + e.what()).c_str());
    }
}

void TestJsonlErrors::staleFieldAfterSyntaxError_data()
{
    // A syntax error outside any member's value must not name the member read before it: the
    // header documents that the field part is left out when the line is not valid JSON.
    QTest::addColumn<QByteArray>("bad");
    QTest::newRow("trailing garbage after turns") << QByteArray::fromStdString(kValid + " x");
    QTest::newRow("truncated after a member") << QByteArray(R"({"id":"x",)");
    QTest::newRow("trailing comma after action")
        << QByteArray::fromStdString(turnLine(R"("observation":"o","action":"a",)"));
    QTest::newRow("cut inside the next key") << QByteArray(R"({"id":"x","gro)");
}

void TestJsonlErrors::staleFieldAfterSyntaxError()
{
    QFETCH(QByteArray, bad);
    Trajectory t;
    try {
        parseTrajectory(bad.toStdString(), t);
        QFAIL("accepted");
    } catch (const JsonlFieldError& e) {
        QVERIFY(e.column > 0);
        QVERIFY2(e.field.empty(), ("names field \"" + e.field + "\" for: " + e.message).c_str());
    }
}

void TestJsonlErrors::duplicateIdAcrossLines()
{
    const std::string path = m_dir.filePath("dup.jsonl").toStdString();
    // Line 1 valid, line 2 blank, line 3 another id, line 4 repeats line 1's id.
    test::writeFile(path, kValid + "\n\n" + R"({"id":"ok2","group":"g","reward":1,"turns":[]})" + "\n" + kValid + "\n");
    JsonlFileReader reader(path);
    Trajectory t;
    QVERIFY(reader.next(t));
    QVERIFY(reader.next(t));
    QCOMPARE(t.id, std::string("ok2"));
    QCOMPARE(reader.lineNumber(), std::size_t(3));
    try {
        reader.next(t);
        QFAIL("duplicate id accepted");
    } catch (const JsonlError& e) {
        QCOMPARE(e.line(), std::size_t(4));
        QCOMPARE(e.field(), std::string("id"));
        QVERIFY2(e.message().find("\"ok1\"") != std::string::npos, e.what());
        QVERIFY2(e.message().find("first on line 1") != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).rfind(path + ":4: ", 0) == 0, e.what());
    }
}

void TestJsonlErrors::lineNumbersCountBlankLines()
{
    const std::string path = m_dir.filePath("blank.jsonl").toStdString();
    test::writeFile(path, "\n   \n\t\r\n" + kValid + "\r\n\n{oops}\n");
    JsonlFileReader reader(path);
    Trajectory t;
    QVERIFY(reader.next(t));
    QCOMPARE(reader.lineNumber(), std::size_t(4));
    try {
        reader.next(t);
        QFAIL("accepted");
    } catch (const JsonlError& e) {
        QCOMPARE(e.line(), std::size_t(6));
        QVERIFY2(std::string(e.what()).rfind(path + ":6:2: ", 0) == 0, e.what());
    }
}

void TestJsonlErrors::missingFile()
{
    const std::string path = m_dir.filePath("no/such/file.jsonl").toStdString();
    try {
        LineReader reader(path);
        QFAIL("opened a missing file");
    } catch (const std::runtime_error& e) {
        QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        QVERIFY(dynamic_cast<const JsonlError*>(&e) == nullptr);
    }
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, JsonlFileReader { path });
}

void TestJsonlErrors::directoryIsRefused()
{
    const std::string path = m_dir.path().toStdString();
    try {
        LineReader reader(path);
        QFAIL("opened a directory");
    } catch (const std::runtime_error& e) {
        QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
    }
}

QTEST_GUILESS_MAIN(TestJsonlErrors)
#include "tst_jsonl_errors.moc"
