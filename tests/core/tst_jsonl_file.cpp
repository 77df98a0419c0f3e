// Whole files: LineReader's line splitting and JsonlFileReader round trips over varied lines.
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonlfile.h"

#include "testutil.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <cmath>
#include <random>

using namespace creditlab;

// Declarations first: moc mis-reads raw string literals inside a class body.
class TestJsonlFile : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void lineSplitting_data();
    void lineSplitting();
    void fileRoundTrip();
    void byteOrderMark();

private:
    QTemporaryDir m_dir;
    int m_counter = 0;
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

/// Hand-written lines in non-canonical forms.
std::vector<std::string> handWrittenLines()
{
    std::vector<std::string> lines;
    lines.push_back(R"({ "id" : "h1" , "group":"g1", "reward" : 1.0 , "success" : 1 , "turns" : [ ] })");
    lines.push_back(
        R"({"id":"h2","group":"g1","reward":0,"success":0,"iteration":2,"turns":[{"observation":"o","action":"a","valid":0}]})");
    lines.push_back(
        R"({"id":"h3","group":"g2","reward":-0.0,"turns":[{"observation":"\ud83d\ude00 via escapes","action":")"
        "\xF0\x9F\x98\x80 raw\"}]}");
    lines.push_back(
        "{\"id\":\"h4\",\"group\":\"g2\",\"reward\":0.1,\"turns\":[{\"observation\":\"raw\ttab and \x01 control\","
        "\"action\":\"\\u0000nul\\u001b[0m\\t\"}]}");
    lines.push_back(
        R"({"id":"h5","group":"g3","reward":1e-300,"turns":[{"observation":"o","action":"a","reward":123456789.123456789,"progress":1,"score":0}]})");
    lines.push_back(
        R"({"x":{"nested":[1,2,{"y":null}]},"id":"h6","group":"g3","reward":1.50e+3,"turns":[{"k":"v","observation":"o","action":"a","z":[]}],"tail":"\u00e9"})");
    lines.push_back(
        R"({"id":"h7","group":"g4","task":"","env":"","goal":"","reward":0,"turns":[{"observation":"","action":"","feedback":"","state":"","role_source":""}]})");
    lines.push_back(
        R"({"id":"h8","group":"g4","reward":0.30000000000000004,"success":true,"turns":[{"observation":"a\/b \"q\" \\ \b\f\n\r","action":"x","role":"R"}]})");
    return lines;
}

/// Canonical lines from a seeded generator: every optional field present or absent at random.
std::vector<std::string> generatedLines(int count)
{
    std::mt19937 rng(1234);
    auto coin = [&] { return (rng() & 1u) != 0; };
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const std::string texts[] = { "plain", "caf\xC3\xA9", "\xF0\x9F\x98\x80 emoji", "tab\there", "nl\nx", "q\"uote",
        std::string("nul\0x", 5), "" };
    std::vector<std::string> lines;
    for (int i = 0; i < count; ++i) {
        Trajectory t;
        t.id = "gen-" + std::to_string(i);
        t.group = "grp-" + std::to_string(i / 4);
        if (coin())
            t.task.key = "task:" + std::to_string(i);
        if (coin())
            t.task.env = texts[rng() % 8];
        if (coin())
            t.task.goal = texts[rng() % 8];
        t.reward = coin() ? unit(rng) * 2 - 1 : static_cast<double>(rng() % 3);
        if (coin())
            t.success = coin();
        if (coin())
            t.iteration = rng() % 50;
        if (coin())
            t.extra = R"("seed":)" + std::to_string(rng() % 1000) + R"(,"tags":["a",{"b":1.0e-5}])";
        const int turns = static_cast<int>(rng() % 6);
        for (int k = 0; k < turns; ++k) {
            Turn u;
            u.observation = std::string("obs ") + texts[rng() % 8] + std::to_string(k);
            u.action = texts[rng() % 8];
            if (coin())
                u.feedback = texts[rng() % 8];
            if (coin())
                u.reward = unit(rng) - 0.5;
            if (coin())
                u.valid = coin();
            if (coin())
                u.state = "s" + std::to_string(rng() % 10);
            if (coin())
                u.progress = unit(rng);
            if (coin())
                u.role = static_cast<Role>(rng() % 4);
            if (coin())
                u.roleSource = coin() ? "judge:j" : "human:h";
            if (coin())
                u.score = unit(rng);
            if (coin())
                u.extra = R"("lp":-0.25)";
            t.turns.push_back(u);
        }
        lines.push_back(format(t));
    }
    return lines;
}

/// One line longer than four of LineReader's 1 MiB blocks, with escapes and multi-byte text spread over it.
std::string longLine()
{
    std::string obs;
    obs.reserve(5 << 20);
    while (obs.size() < (std::size_t(9) << 19)) // 4.5 MiB
        obs += "long observation \\u00e9 caf\xC3\xA9 \\ud83d\\ude00 \\n ";
    return R"({"id":"long","group":"gl","reward":0.5,"turns":[{"observation":")" + obs
        + R"(","action":"a"},{"observation":"second","action":"b"}],"after":true})";
}

} // namespace

void TestJsonlFile::initTestCase() { QVERIFY(m_dir.isValid()); }

void TestJsonlFile::lineSplitting_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QByteArrayList>("lines");
    QTest::newRow("empty file") << QByteArray() << QByteArrayList {};
    QTest::newRow("one line, no newline") << QByteArray("a") << QByteArrayList { "a" };
    QTest::newRow("one line") << QByteArray("a\n") << QByteArrayList { "a" };
    QTest::newRow("CRLF") << QByteArray("a\r\nb\r\n") << QByteArrayList { "a", "b" };
    QTest::newRow("CRLF last without newline") << QByteArray("a\r\nb\r") << QByteArrayList { "a", "b" };
    QTest::newRow("blank lines") << QByteArray("\n\na\n\n") << QByteArrayList { "", "", "a", "" };
    QTest::newRow("only CRLF") << QByteArray("\r\n") << QByteArrayList { "" };
    QTest::newRow("inner CR kept") << QByteArray("a\rb\n") << QByteArrayList { "a\rb" };
    QTest::newRow("mixed endings") << QByteArray("x\ny\r\nz") << QByteArrayList { "x", "y", "z" };
    const QByteArray block(1 << 20, 'k');
    QTest::newRow("line of exactly one block") << block + "\nend" << QByteArrayList { block, "end" };
    QTest::newRow("line one byte short of a block")
        << block.left(block.size() - 1) + "\nend" << QByteArrayList { block.left(block.size() - 1), "end" };
    QTest::newRow("CRLF split over the block edge")
        << block.left(block.size() - 1) + "\r\nend" << QByteArrayList { block.left(block.size() - 1), "end" };
    QTest::newRow("3 MiB line without newline") << block + block + block << QByteArrayList { block + block + block };
    QByteArrayList many;
    QByteArray manyContent;
    for (int i = 0; i < 200000; ++i) {
        many.push_back(QByteArray::number(i));
        manyContent += QByteArray::number(i) + (i % 3 == 0 ? "\r\n" : "\n");
    }
    QTest::newRow("many short lines over several blocks") << manyContent << many;
}

void TestJsonlFile::lineSplitting()
{
    QFETCH(QByteArray, content);
    QFETCH(QByteArrayList, lines);
    const std::string path = m_dir.filePath(QString("lines%1.txt").arg(m_counter++)).toStdString();
    test::writeFile(path, content.toStdString());
    LineReader reader(path);
    QCOMPARE(reader.size(), std::uint64_t(content.size()));
    std::string_view line;
    qsizetype n = 0;
    while (reader.next(line)) {
        QVERIFY2(n < lines.size(), "more lines than expected");
        QVERIFY2(line == std::string_view(lines[n].constData(), static_cast<std::size_t>(lines[n].size())),
            qPrintable(QString("line %1 differs").arg(n + 1)));
        ++n;
        QCOMPARE(reader.lineNumber(), std::size_t(n));
    }
    QCOMPARE(n, lines.size());
    QCOMPARE(reader.bytesRead(), std::uint64_t(content.size()));
    QVERIFY(!reader.next(line)); // stays at the end
}

void TestJsonlFile::fileRoundTrip()
{
    std::vector<std::string> lines = handWrittenLines();
    const std::vector<std::string> generated = generatedLines(600);
    lines.insert(lines.begin() + 3, longLine());
    lines.insert(lines.end(), generated.begin(), generated.end());
    QVERIFY(lines[3].size() > (std::size_t(4) << 20));

    // Varied separators: LF, CRLF, blank lines between; the last line has no newline.
    std::string content;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        content += lines[i];
        if (i + 1 == lines.size())
            break;
        content += i % 3 == 0 ? "\r\n" : "\n";
        if (i % 7 == 0)
            content += i % 2 ? "\n" : "  \t\r\n";
    }
    const std::string path = m_dir.filePath("varied.jsonl").toStdString();
    test::writeFile(path, content);

    JsonlFileReader reader(path);
    QCOMPARE(reader.path(), path);
    std::vector<Trajectory> read;
    Trajectory t; // recycled, as the importer does
    while (reader.next(t))
        read.push_back(t);
    QCOMPARE(read.size(), lines.size());
    QCOMPARE(reader.bytesRead(), reader.size());

    std::string formatted;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const Trajectory direct = parse(lines[i]);
        CL_COMPARE_TRAJ(read[i], direct);
        const std::string out = format(read[i]);
        const Trajectory again = parse(out);
        CL_COMPARE_TRAJ(again, read[i]);
        // Formatting is a fixed point after one pass; canonical lines come back byte for byte.
        QCOMPARE(format(again), out);
        if (i >= lines.size() - generated.size())
            QCOMPARE(out, lines[i]);
        formatted += out + "\n";
    }

    // Spot checks on the hand-written lines.
    QCOMPARE(read[0].success, std::optional<bool>(true));
    QCOMPARE(read[1].turns[0].valid, std::optional<bool>(false));
    QCOMPARE(read[3].id, std::string("long"));
    QCOMPARE(read[3].turns.size(), std::size_t(2));
    QVERIFY(read[3].turns[0].observation.size() > (std::size_t(4) << 20) / 2);
    QVERIFY(read[3].turns[0].observation.find("\xC3\xA9 caf\xC3\xA9 \xF0\x9F\x98\x80 \n long") != std::string::npos);
    QCOMPARE(read[3].extra, std::string(R"("after":true)"));
    QCOMPARE(read[2].turns[0].observation, std::string("\xF0\x9F\x98\x80 via escapes"));
    QCOMPARE(read[2].turns[0].action, std::string("\xF0\x9F\x98\x80 raw"));
    QVERIFY(std::signbit(read[2].reward));
    QCOMPARE(read[4].turns[0].observation, std::string("raw\ttab and \x01 control"));
    QCOMPARE(read[4].turns[0].action, std::string("\0nul\x1b[0m\t", 9));
    QCOMPARE(*read[5].turns[0].reward, 123456789.123456789);
    QCOMPARE(read[5].reward, 1e-300);
    QCOMPARE(read[6].extra, std::string(R"("x":{"nested":[1,2,{"y":null}]},"tail":"\u00e9")"));
    QCOMPARE(read[6].turns[0].extra, std::string(R"("k":"v","z":[])"));
    QCOMPARE(read[6].reward, 1500.0);
    QCOMPARE(read[7].task.key, std::optional<std::string>(""));
    QCOMPARE(read[7].turns[0].feedback, std::optional<std::string>(""));
    QCOMPARE(read[8].reward, 0.30000000000000004);

    // The formatted file reads back equal, line for line.
    const std::string path2 = m_dir.filePath("formatted.jsonl").toStdString();
    test::writeFile(path2, formatted);
    JsonlFileReader reader2(path2);
    std::size_t i = 0;
    while (reader2.next(t)) {
        QVERIFY(i < read.size());
        CL_COMPARE_TRAJ(t, read[i]);
        ++i;
    }
    QCOMPARE(i, read.size());
}

void TestJsonlFile::byteOrderMark()
{
    // A UTF-8 byte-order mark opening the file is skipped; anywhere else it is an error.
    const std::string bom = "\xEF\xBB\xBF";
    const std::string line = R"({"id":"a","group":"g","reward":1,"turns":[]})";
    const std::string path = m_dir.filePath("bom.jsonl").toStdString();
    test::writeFile(path, bom + line + "\n" + bom + R"({"id":"b","group":"g","reward":1,"turns":[]})" + "\n");
    JsonlFileReader reader(path);
    Trajectory t;
    QVERIFY(reader.next(t));
    CL_COMPARE_TRAJ(t, parse(line));
    try {
        reader.next(t);
        QFAIL("a byte-order mark on line 2 was accepted");
    } catch (const JsonlError& e) {
        QCOMPARE(e.line(), std::size_t(2));
        QVERIFY2(std::string(e.what()).rfind(path + ":2:1: ", 0) == 0, e.what());
    }
    // A mark before a blank first line is skipped too.
    test::writeFile(path, bom + "\r\n" + line);
    JsonlFileReader blankFirst(path);
    QVERIFY(blankFirst.next(t));
    QCOMPARE(blankFirst.lineNumber(), std::size_t(2));
    QVERIFY(!blankFirst.next(t));
}

QTEST_GUILESS_MAIN(TestJsonlFile)
#include "tst_jsonl_file.moc"
