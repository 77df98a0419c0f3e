// The built-in tokenizer as Hugging Face files (core/learn/torch/lm/tokenizerjson.h): hf::Tokenizer loads what the
// writer writes and encodes every text of household and shop episodes, hand-written edge cases and random ASCII to
// the ids learn::Tokenizer gives (format 2 and format 1); the chat template gives hf::ChatFormat the stream of
// BuiltinFormat; python3-jinja2 renders the template as CreditLab does; @huggingface/tokenizers (when installed)
// gives the same ids.

#include "core/env/environment.h"
#include "core/env/policy.h"
#include "core/hf/chatformat.h"
#include "core/hf/chatrender.h"
#include "core/hf/tokenizer.h"
#include "core/learn/torch/hf/hfformat.h"
#include "core/learn/torch/lm/tokenformat.h"
#include "core/learn/torch/lm/tokenizer.h"
#include "core/learn/torch/lm/tokenizerjson.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace creditlab;
using Ids = std::vector<std::int32_t>;
using json = nlohmann::ordered_json;

namespace {

struct Episode {
    std::string goal;
    std::vector<std::pair<std::string, std::string>> turns; // (observation, action)
};

/// Rolls out `count` episodes of `env` (noisy expert on train seeds from 0, random on eval seeds from 1000: unseen
/// by the vocabulary, so unknown words appear) and collects every goal, observation, action, feedback and
/// admissible command.
void rollOut(const std::string& envName, int count, std::set<std::string>& texts, std::vector<Episode>& episodes)
{
    const auto environment = env::makeEnvironment(envName, {});
    for (int k = 0; k < count; ++k) {
        const bool noisy = k % 2 == 0;
        const auto policy = env::makePolicy(noisy ? "noisy-expert" : "random");
        const auto seed = static_cast<std::uint64_t>(noisy ? k : 1000 + k);
        Episode episode;
        std::string observation = environment->reset(seed, noisy ? env::Split::Train : env::Split::Eval);
        episode.goal = environment->goal();
        texts.insert(observation);
        texts.insert(episode.goal);
        policy->reset(seed);
        while (!environment->done()) {
            for (const std::string& command : environment->admissibleCommands())
                texts.insert(command);
            const std::string action(policy->act(*environment));
            texts.insert(action);
            episode.turns.emplace_back(observation, action);
            observation = environment->step(action).feedback;
            texts.insert(observation);
        }
        episodes.push_back(std::move(episode));
    }
}

/// Hand-written texts at the edges of the pieces: mixed ids, runs of spaces, newlines, punctuation, the ends.
const std::vector<std::string> kEdgeCases { "B02V40CNJX", " B02V40CNJX", "buy B02V40CNJX now", " x1", "x1 ", "1x",
    "a1b2", "12ab", "ab12", " 7", "7 ", "a  b", "a   b", "  a", "trailing  ", " ", "  ", "\n", "\n\n", " \n", "\n ",
    " \n a", "a\n\nb", "[search] red shoes", "price: $12.99!!", "...", " ...", "?!?", "a,b;c", "(x)", "tab\there",
    "cr\r\nlf", "x - y", "go to countertop 1", "take mug 1 from sink 1", "You see a mug 1, and a cup 2.", "", "a", "Z",
    "0", "\x01\x1f", "~`^", "quote \" and \\ backslash", "B0 2V 40C NJX9 z9z 9z9" };

/// An hf::Tokenizer loaded from the files the writer puts into a fresh folder.
hf::Tokenizer writeAndLoad(const learn::Tokenizer& tokenizer, const QTemporaryDir& dir)
{
    learn::writeHfTokenizerFiles(tokenizer, dir.path().toStdString());
    return hf::Tokenizer::load(dir.filePath("tokenizer.json").toStdString());
}

std::string idList(const Ids& ids)
{
    std::string s;
    for (const auto id : ids)
        s += (s.empty() ? "" : " ") + std::to_string(id);
    return s;
}

/// The first text of `texts` whose ids differ between the two tokenizers, with both id lists; empty when none does.
template <typename Texts>
QString firstMismatch(const learn::Tokenizer& ours, const hf::Tokenizer& theirs, const Texts& texts, bool decode = true)
{
    for (const std::string& text : texts) {
        const Ids expected = ours.encode(text);
        const Ids got = theirs.encode(text);
        if (got != expected)
            return QString::fromStdString("'" + text + "': learn [" + idList(expected) + "], hf [" + idList(got) + "]");
        if (decode
            && (theirs.decode(got, true) != ours.decode(expected) || theirs.decode(got) != ours.decode(expected)))
            return QString::fromStdString("'" + text + "' decodes to '" + theirs.decode(got) + "' in hf, '"
                + ours.decode(expected) + "' in learn");
    }
    return {};
}

std::string randomAscii(std::mt19937& rng)
{
    // Letters and digits often, so that pure, mixed and adjacent runs all occur; spaces and newlines in runs.
    static const std::string kAlphabet = "abcxyzABXY0129       \n\n.,!-$[]\t\"\\";
    std::uniform_int_distribution<std::size_t> length(0, 24), pick(0, kAlphabet.size() - 1);
    std::string s(length(rng), ' ');
    for (char& c : s)
        c = kAlphabet[pick(rng)];
    return s;
}

/// A learn::Tokenizer read back as format 1 (a run trained before format 2).
learn::Tokenizer asFormat1(const learn::Tokenizer& tokenizer)
{
    std::string text = tokenizer.serialize();
    text.replace(0, std::string("creditlab-tokenizer 2").size(), "creditlab-tokenizer 1");
    return learn::Tokenizer::deserialize(text);
}

} // namespace

class TestLearnTokenizerJson : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void files();
    void environmentParity_data();
    void environmentParity();
    void edgeCases();
    void randomAscii();
    void format1();
    void specialTokenText();
    void nonAscii();
    void chatFormat_data();
    void chatFormat();
    void templateParity();
    void javascriptParity();
    void decodeAnyIds();
    void refusals();

private:
    std::map<std::string, learn::Tokenizer> m_tokenizers;
    std::map<std::string, std::set<std::string>> m_texts;
    std::map<std::string, std::vector<Episode>> m_episodes;
};

void TestLearnTokenizerJson::initTestCase()
{
    for (const std::string env : { "household", "shop" }) {
        m_tokenizers.emplace(env, learn::Tokenizer::forEnvironment(env, {}, 40));
        rollOut(env, 300, m_texts[env], m_episodes[env]);
    }
}

void TestLearnTokenizerJson::files()
{
    QTemporaryDir dir;
    const learn::Tokenizer& tokenizer = m_tokenizers.at("household");
    const hf::Tokenizer loaded = writeAndLoad(tokenizer, dir);
    QCOMPARE(loaded.size(), tokenizer.size());
    QCOMPARE(loaded.describe(),
        "word-level, " + QLocale::c().toString(tokenizer.size()).toStdString()
            + " pieces, 6 added tokens, no normalizer");
    QCOMPARE(loaded.describePreTokenizer(), std::string("Split(regex, Isolated)"));
    for (std::int32_t id = 0; id < tokenizer.size(); ++id) {
        QCOMPARE(loaded.tokenText(id), tokenizer.token(id));
        QCOMPARE(loaded.isSpecial(id), id < learn::Tokenizer::kSpecialCount && id != learn::Tokenizer::kUnk);
    }
    const auto read = [&](const char* name) {
        std::ifstream in(dir.filePath(name).toStdString());
        return json::parse(in);
    };
    const json config = read("tokenizer_config.json");
    QCOMPARE(config["tokenizer_class"].dump(), json("PreTrainedTokenizerFast").dump());
    QCOMPARE(config["eos_token"].dump(), json("</act>").dump());
    QCOMPARE(config["pad_token"].dump(), json("<pad>").dump());
    QCOMPARE(config["unk_token"].dump(), json("<unk>").dump());
    QVERIFY(config["bos_token"].is_null());
    QCOMPARE(config["clean_up_tokenization_spaces"].dump(), json(false).dump());
    QCOMPARE(config["model_max_length"].dump(), json(learn::kDefaultModelMaxLength).dump());
    QCOMPARE(config["added_tokens_decoder"]["5"]["content"].dump(), json("</act>").dump());
    QCOMPARE(config["added_tokens_decoder"]["5"]["special"].dump(), json(true).dump());
    QCOMPARE(config["chat_template"].dump(), json(learn::builtinChatTemplate()).dump());
    QCOMPARE(read("special_tokens_map.json")["eos_token"].dump(), json("</act>").dump());
    const json file = read("tokenizer.json");
    QCOMPARE(file["model"]["type"].dump(), json("WordLevel").dump());
    QCOMPARE(file["model"]["vocab"].size(), static_cast<std::size_t>(tokenizer.size()));
    QCOMPARE(file["pre_tokenizer"]["pattern"]["Regex"].dump(), json(learn::pieceRegex(2)).dump());
    // Only the three files, no temporary ones left behind.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 3);
}

void TestLearnTokenizerJson::environmentParity_data()
{
    QTest::addColumn<QString>("env");
    QTest::newRow("household") << "household";
    QTest::newRow("shop") << "shop";
}

void TestLearnTokenizerJson::environmentParity()
{
    QFETCH(QString, env);
    const learn::Tokenizer& tokenizer = m_tokenizers.at(env.toStdString());
    const auto& texts = m_texts.at(env.toStdString());
    QTemporaryDir dir;
    const hf::Tokenizer loaded = writeAndLoad(tokenizer, dir);
    QVERIFY(texts.size() > 300);
    const QString mismatch = firstMismatch(tokenizer, loaded, texts);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    std::size_t unknown = 0, roundTrips = 0;
    for (const std::string& text : texts) {
        // The texts hold no special token's text (that would encode apart, see specialTokenText) and are ASCII.
        for (std::int32_t id = 0; id < learn::Tokenizer::kSpecialCount; ++id)
            QVERIFY2(text.find(tokenizer.token(id)) == std::string::npos, text.c_str());
        QVERIFY2(std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }),
            text.c_str());
        const Ids ids = loaded.encode(text);
        if (std::find(ids.begin(), ids.end(), learn::Tokenizer::kUnk) != ids.end())
            ++unknown;
        else if (loaded.decode(ids) == text)
            ++roundTrips;
    }
    QCOMPARE(roundTrips + unknown, texts.size());
    qInfo(
        "%s: %zu texts of 300 episodes encode equally, %zu with unknown words", qPrintable(env), texts.size(), unknown);
}

void TestLearnTokenizerJson::edgeCases()
{
    // Every piece known (a vocabulary of the cases themselves), so equal ids mean equal pieces; then the household
    // vocabulary, where most are unknown.
    std::vector<std::string> corpus(kEdgeCases);
    const learn::Tokenizer own = learn::Tokenizer::fromCorpus(corpus);
    QTemporaryDir dir, householdDir;
    QString mismatch = firstMismatch(own, writeAndLoad(own, dir), kEdgeCases);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    mismatch = firstMismatch(
        m_tokenizers.at("household"), writeAndLoad(m_tokenizers.at("household"), householdDir), kEdgeCases);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    // The pieces of a mixed id as format 2 cuts them, seen through hf's tokens.
    const hf::Tokenizer loaded = hf::Tokenizer::load(dir.filePath("tokenizer.json").toStdString());
    std::vector<std::string> pieces;
    for (const auto id : loaded.encode("buy B02V40CNJX"))
        pieces.push_back(loaded.tokenText(id));
    QCOMPARE(pieces, (std::vector<std::string> { "buy", " B", "0", "2", "V", "4", "0", "C", "N", "J", "X" }));
}

void TestLearnTokenizerJson::randomAscii()
{
    std::mt19937 rng(20240611);
    std::vector<std::string> texts(3000);
    for (std::string& t : texts)
        t = ::randomAscii(rng);
    // Half of them build the vocabulary, so both known and unknown pieces occur.
    const learn::Tokenizer tokenizer
        = learn::Tokenizer::fromCorpus(std::span<const std::string>(texts.data(), texts.size() / 2));
    QTemporaryDir dir;
    const QString mismatch = firstMismatch(tokenizer, writeAndLoad(tokenizer, dir), texts);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
}

void TestLearnTokenizerJson::format1()
{
    std::mt19937 rng(7);
    std::vector<std::string> texts(kEdgeCases);
    for (int k = 0; k < 1000; ++k)
        texts.push_back(::randomAscii(rng));
    // Format 1 splits a mixed id into letter and digit runs: its vocabulary comes from a format-2 corpus, so add the
    // runs by hand through a corpus that has them apart.
    std::vector<std::string> corpus(texts.begin(), texts.begin() + 500);
    corpus.push_back("B 02 V 40 CNJX x 1 a 1 b 2 ab 12");
    const learn::Tokenizer tokenizer = asFormat1(learn::Tokenizer::fromCorpus(corpus));
    QCOMPARE(tokenizer.formatVersion(), 1);
    QTemporaryDir dir;
    const hf::Tokenizer loaded = writeAndLoad(tokenizer, dir);
    const QString mismatch = firstMismatch(tokenizer, loaded, texts);
    QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    QCOMPARE(loaded.encode(" B02V40CNJX").size(), std::size_t(5)); // " B", "02", "V", "40", "CNJX"
}

void TestLearnTokenizerJson::specialTokenText()
{
    // Hugging Face finds added tokens in the text before splitting it; CreditLab never encodes text to a special
    // token. Environment text never holds one (environmentParity checks), so only such hand-written text differs.
    const learn::Tokenizer tokenizer = learn::Tokenizer::fromCorpus(std::vector<std::string> { "<goal> x </act>" });
    QTemporaryDir dir;
    const hf::Tokenizer loaded = writeAndLoad(tokenizer, dir);
    const Ids ours = tokenizer.encode("<goal> x </act>");
    QCOMPARE(ours.size(), std::size_t(8)); // "<", "goal", ">", " x", " <", "/", "act", ">": plain pieces
    QVERIFY(std::none_of(ours.begin(), ours.end(), [](auto id) { return id < learn::Tokenizer::kSpecialCount; }));
    const Ids theirs = loaded.encode("<goal> x </act>");
    QCOMPARE(theirs, (Ids { learn::Tokenizer::kGoal, tokenizer.id(" x"), tokenizer.id(" "), learn::Tokenizer::kEnd }));
}

void TestLearnTokenizerJson::nonAscii()
{
    // CreditLab splits "é" into its two bytes, each a piece (with the space before the first): they are not valid
    // UTF-8, so the vocabulary leaves them out, and Hugging Face sees one character, an unknown piece.
    const learn::Tokenizer tokenizer = learn::Tokenizer::fromCorpus(std::vector<std::string> { "caf\xC3\xA9 ok" });
    QTemporaryDir dir;
    const hf::Tokenizer loaded = writeAndLoad(tokenizer, dir);
    QCOMPARE(tokenizer.encode("caf\xC3\xA9 ok").size(), std::size_t(4)); // "caf", "\xC3", "\xA9", " ok"
    QCOMPARE(
        loaded.encode("caf\xC3\xA9 ok"), (Ids { tokenizer.id("caf"), learn::Tokenizer::kUnk, tokenizer.id(" ok") }));
    QVERIFY(!loaded.tokenId("\xC3").has_value());
    // Bytes >= 0x80 sort last, so the left-out pieces are the last ids: the others keep their numbers.
    QCOMPARE(tokenizer.token(tokenizer.size() - 2), std::string("\xA9"));
    QCOMPARE(tokenizer.token(tokenizer.size() - 1), std::string("\xC3"));
    QCOMPARE(loaded.size(), tokenizer.size() - 2);
}

void TestLearnTokenizerJson::chatFormat_data()
{
    QTest::addColumn<QString>("env");
    QTest::newRow("household") << "household";
    QTest::newRow("shop") << "shop";
}

void TestLearnTokenizerJson::chatFormat()
{
    QFETCH(QString, env);
    const learn::Tokenizer& tokenizer = m_tokenizers.at(env.toStdString());
    QTemporaryDir dir;
    learn::writeHfTokenizerFiles(tokenizer, dir.path().toStdString());
    const hf::Tokenizer loaded = hf::Tokenizer::load(dir.filePath("tokenizer.json").toStdString());
    const hf::ChatTemplateConfig config = hf::loadFolderChatTemplate(dir.path().toStdString());
    const hf::ChatFormat format = hf::ChatFormat::build(loaded, hf::parseChatTemplate(config), config.tokens);
    const hf::ChatPieces& pieces = format.pieces();
    QCOMPARE(pieces.prefix, std::string("<goal>"));
    QCOMPARE(pieces.goalClose, std::string("<obs>")); // the goal's chunk ends with the first observation's <obs>
    QCOMPARE(pieces.leadAfterGoal, std::string());
    QCOMPARE(pieces.leadAfterAction, std::string("<obs>"));
    QCOMPARE(pieces.generationPrompt, std::string("<act>"));
    QCOMPARE(pieces.endOfTurn, std::string("</act>"));
    QCOMPARE(pieces.finalTail, std::string());
    QVERIFY(!pieces.trimsUserContent);
    QCOMPARE(format.stopTokens(), (Ids { learn::Tokenizer::kEnd }));
    QVERIFY2(format.appendCheck().appendOnly, format.appendCheck().difference.c_str());

    const learn::BuiltinFormat builtin(tokenizer);
    const learn::HfFormat hf(format);
    int checked = 0;
    for (const Episode& episode : m_episodes.at(env.toStdString())) {
        Ids ours = builtin.goal(episode.goal), theirs = hf.goal(episode.goal);
        hf::ChatEpisode chat { episode.goal, {} };
        for (std::size_t t = 0; t < episode.turns.size(); ++t) {
            const auto& [observation, action] = episode.turns[t];
            const learn::ObservationChunk a = builtin.observation(observation, t > 0);
            const learn::ObservationChunk b = hf.observation(observation, t > 0);
            // BuiltinFormat's chunk is "<obs> o <act>"; the first one of HfFormat lacks the <obs>, which ends the
            // goal's chunk instead.
            QCOMPARE(a.lead, 1);
            QCOMPARE(b.lead, t > 0 ? 1 : 0);
            QCOMPARE(a.tail, b.tail);
            ours.insert(ours.end(), a.ids.begin(), a.ids.end());
            theirs.insert(theirs.end(), b.ids.begin(), b.ids.end());
            const Ids actionIds = builtin.action(action);
            QCOMPARE(hf.action(action), actionIds);
            QCOMPARE(hf.actionText(actionIds), builtin.actionText(actionIds));
            ours.insert(ours.end(), actionIds.begin(), actionIds.end());
            theirs.insert(theirs.end(), actionIds.begin(), actionIds.end());
            chat.turns.push_back({ observation, action });
        }
        QCOMPARE(theirs, ours);
        QCOMPARE(format.stream(chat), ours);
        // The template's render of the whole conversation is the same stream (no final tail after </act>).
        QCOMPARE(format.renderConversation(chat), ours);
        ++checked;
    }
    QCOMPARE(checked, 300);
}

void TestLearnTokenizerJson::templateParity()
{
    if (!QFile::exists("/usr/bin/python3"))
        QSKIP("/usr/bin/python3 is missing (packaging/install-deps.sh installs python3-jinja2)");
    const QString script = qEnvironmentVariable("CREDITLAB_SOURCE_DIR") + "/tests/hf/oracles/render_jinja.py";
    QVERIFY2(QFile::exists(script), qPrintable(script + " is missing (CREDITLAB_SOURCE_DIR)"));
    const hf::jinja::Template parsed = hf::jinja::Template::parse(learn::builtinChatTemplate(), "builtin");
    const hf::ChatTokens tokens { std::nullopt, "</act>", "<unk>", "<pad>" };
    const std::vector<std::pair<std::string, std::string>> turns { { "user", "put a clean mug in coffeemachine." },
        { "user", "You are in the middle of a room.\nLooking around, you see a sink 1." },
        { "assistant", "go to sink 1" }, { "user", "  On the sink 1, you see a mug 1.  " },
        { "assistant", "take mug 1 from sink 1" }, { "user", "You pick up the mug 1 from the sink 1." } };
    // Conversations ending on each message, with and without the generation prompt; then the errors.
    std::vector<std::pair<json, bool>> cases;
    for (std::size_t end = 1; end <= turns.size(); ++end)
        for (const bool prompt : { false, true }) {
            json messages = json::array();
            for (std::size_t k = 0; k < end; ++k)
                messages.push_back({ { "role", turns[k].first }, { "content", turns[k].second } });
            cases.emplace_back(messages, prompt);
        }
    cases.emplace_back(json::array({ { { "role", "system" }, { "content", "be brief" } } }), false);
    cases.emplace_back(json::array({ { { "role", "assistant" }, { "content", "go" } } }), false);
    cases.emplace_back(
        json::array({ { { "role", "user" }, { "content", "g" } }, { { "role", "tool" }, { "content", "x" } } }), false);

    json input = json::array();
    for (const auto& [messages, prompt] : cases)
        input.push_back({ { "template", learn::builtinChatTemplate() },
            { "context", hf::chatContext(messages, prompt, json::object(), tokens) } });
    QProcess python;
    python.start("/usr/bin/python3", { script });
    QVERIFY(python.waitForStarted(30000));
    const std::string text = input.dump();
    python.write(text.data(), static_cast<qint64>(text.size()));
    python.closeWriteChannel();
    QVERIFY(python.waitForFinished(60000));
    const QByteArray err = python.readAllStandardError();
    if (python.exitCode() != 0 && err.contains("No module named 'jinja2'"))
        QSKIP("python3-jinja2 is missing (packaging/install-deps.sh installs it)");
    QVERIFY2(python.exitCode() == 0, err.constData());
    const json rendered = json::parse(python.readAllStandardOutput().toStdString());
    QCOMPARE(rendered.size(), cases.size());
    for (std::size_t k = 0; k < cases.size(); ++k) {
        const auto& [messages, prompt] = cases[k];
        std::string ours;
        try {
            ours = hf::renderChat(parsed, messages, prompt, json::object(), tokens);
        } catch (const std::exception& e) {
            QVERIFY2(rendered[k].is_object(),
                (messages.dump() + ": CreditLab fails (" + e.what() + "), jinja2 renders").c_str());
            QVERIFY2(
                std::string(e.what()).find(rendered[k]["error"].get<std::string>().substr(15)) != std::string::npos,
                (std::string(e.what()) + " | " + rendered[k]["error"].get<std::string>()).c_str());
            continue;
        }
        QVERIFY2(rendered[k].is_string(), (messages.dump() + ": jinja2 fails: " + rendered[k].dump()).c_str());
        QCOMPARE(ours, rendered[k].get<std::string>());
    }
    // The last conversation with and without the prompt: BuiltinFormat's text, the same both ways.
    QCOMPARE(rendered[2 * turns.size() - 1].dump(), rendered[2 * turns.size() - 2].dump());
    QCOMPARE(rendered[2 * turns.size() - 1].get<std::string>(),
        "<goal>" + turns[0].second + "<obs>" + turns[1].second + "<act>" + turns[2].second + "</act><obs>"
            + turns[3].second + "<act>" + turns[4].second + "</act><obs>" + turns[5].second + "<act>");
}

void TestLearnTokenizerJson::javascriptParity()
{
    const QString oracles = qEnvironmentVariable("CREDITLAB_ORACLES");
    const QString module = oracles + "/node_modules/@huggingface/tokenizers/dist/tokenizers.mjs";
    if (oracles.isEmpty() || !QFile::exists(module))
        QSKIP("@huggingface/tokenizers is not installed (ctest -R hf_oracles installs it)");
    const learn::Tokenizer& tokenizer = m_tokenizers.at("shop");
    QTemporaryDir dir;
    learn::writeHfTokenizerFiles(tokenizer, dir.path().toStdString());
    std::vector<std::string> texts(kEdgeCases);
    const auto& shop = m_texts.at("shop");
    texts.insert(texts.end(), shop.begin(), shop.end());
    std::mt19937 rng(3);
    for (int k = 0; k < 500; ++k)
        texts.push_back(::randomAscii(rng));
    std::ofstream(dir.filePath("corpus.json").toStdString()) << nlohmann::json(texts).dump();
    QProcess node;
    node.start("node",
        { qEnvironmentVariable("CREDITLAB_SOURCE_DIR") + "/tests/hf/oracles/tokenize.mjs", "--file", oracles,
            dir.filePath("tokenizer.json"), dir.filePath("corpus.json"), dir.filePath("tokenizer_config.json") });
    if (!node.waitForStarted(30000))
        QSKIP("node is missing (packaging/install-deps.sh installs it)");
    QVERIFY(node.waitForFinished(120000));
    QVERIFY2(node.exitCode() == 0, node.readAllStandardError().constData());
    const json out = json::parse(node.readAllStandardOutput().toStdString());
    QCOMPARE(out["ids"].size(), texts.size());
    for (std::size_t k = 0; k < texts.size(); ++k) {
        const Ids expected = tokenizer.encode(texts[k]);
        QVERIFY2(out["ids"][k] == json(expected),
            ("'" + texts[k] + "': learn [" + idList(expected) + "], @huggingface/tokenizers " + out["ids"][k].dump())
                .c_str());
    }
    qInfo("@huggingface/tokenizers: %zu texts with equal ids", texts.size());
}

void TestLearnTokenizerJson::decodeAnyIds()
{
    // Any ids, specials included (as a policy samples them): Hugging Face's decode skipping special tokens gives
    // Tokenizer::decode's text, "<unk>" kept and the markers dropped.
    const learn::Tokenizer& tokenizer = m_tokenizers.at("household");
    QTemporaryDir dir;
    const hf::Tokenizer loaded = writeAndLoad(tokenizer, dir);
    std::mt19937 rng(11);
    std::uniform_int_distribution<std::int32_t> id(0, tokenizer.size() - 1), special(0, 5), length(0, 30);
    for (int k = 0; k < 2000; ++k) {
        Ids ids(static_cast<std::size_t>(length(rng)));
        for (auto& i : ids)
            i = rng() % 3 == 0 ? special(rng) : id(rng);
        QCOMPARE(loaded.decode(ids, true), tokenizer.decode(ids));
    }
    QVERIFY(!loaded.isSpecial(learn::Tokenizer::kUnk));
    QCOMPARE(loaded.decode(Ids { 2, 1, 3, 4, 5, 0 }), std::string("<goal><unk><obs><act></act><pad>"));
}

void TestLearnTokenizerJson::refusals()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, learn::pieceRegex(3));
    QTemporaryDir dir;
    const std::string missing = dir.filePath("no/such/folder").toStdString();
    try {
        learn::writeHfTokenizerFiles(learn::Tokenizer(), missing);
        QFAIL("no exception");
    } catch (const std::runtime_error& e) {
        QCOMPARE(std::string(e.what()), missing + ": not a folder, cannot write the tokenizer files into it");
    }
}

QTEST_GUILESS_MAIN(TestLearnTokenizerJson)
#include "tst_learn_tokenizerjson.moc"
