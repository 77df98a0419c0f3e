// Foreign rollout formats: each importer on its sample file (tests/core/data/import) and on broken
// variants, template splitting, format detection, and the all-or-nothing import into a Store.
//
// The samples follow the public code and documentation of each source:
// - chat.jsonl: OpenAI chat-completions messages with tool calls (the `tool_calls` / `tool_call_id` shape of
//   the OpenAI function-calling guide); lines 1-2 use the keys rLLM's AgentExecutionEngine returns
//   (rllm-org/rllm, rllm/engine/agent_execution_engine.py: `chat_completions`, `trajectory_reward`, `idx`,
//   `metrics`), line 3 the `messages` / `reward` shape most loggers write, with per-message rewards.
// - agentgym.jsonl: AgentGym's AgentTraj conversations (WooooDyy/AgentGym, agentenv/agentenv/controller:
//   `{"from": "human"|"gpt", "loss": ..., "value": ...}` and `item_id`, the scripted "Ok." with loss false).
// - 3.jsonl: verl's rollout dump (volcengine/verl, verl/trainer/ppo/ray_trainer.py, RayPPOTrainer._dump_generations:
//   `input`, `output`, `gts`, `score`, `step` and the reward_extra_infos keys, one `{global_steps}.jsonl` per
//   step), with Qwen2.5's ChatML tool-call template, a truncated response, a Llama 3.1 ipython exchange and a
//   response decoded without special tokens.
// - steps.jsonl: verl-agent step rows (agent_system/multi_turn_rollout/rollout_loop.py: `traj_uid`, `uid`,
//   `active_masks`, `anchor_obs`, `is_action_valid`, `episode_rewards`, `won`), interleaved and out of order.
// - custom.jsonl + custom.map.yaml: a made-up layout through a mapping file.
#include "core/interchange/chattemplate.h"
#include "core/interchange/importformats.h"
#include "core/interchange/jsonl.h"
#include "core/interchange/jsonltransfer.h"
#include "core/storage/store.h"

#include "testutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest/QTest>

#include <cmath>
#include <string>
#include <vector>

using namespace creditlab;

class TestImportFormats : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init();
    void detectsEachSample_data();
    void detectsEachSample();
    void chatSample();
    void shareGptSample();
    void verlSample();
    void verlCustomMarkers();
    void stepsSample();
    void stepRewardsCountTheOutcomeOnce();
    void mappedSample();
    void templateSplitting_data();
    void templateSplitting();
    void brokenLines_data();
    void brokenLines();
    void badMapFile_data();
    void badMapFile();
    void hugeArrayIndexIsPastTheEnd();
    void unknownFormatIsNamed();
    void importIntoStore();
    void exportReadsBackAsNative_data();
    void exportReadsBackAsNative();
    void badLineImportsNothing();
    void stepRowsReportAndCancelWhileReading();

private:
    std::string path(const std::string& name) const
    {
        return m_dir->filePath(QString::fromStdString(name)).toStdString();
    }
    std::unique_ptr<QTemporaryDir> m_dir;
};

namespace {

std::string sample(const std::string& name) { return std::string(CREDITLAB_IMPORT_SAMPLES) + "/" + name; }

std::vector<Trajectory> readAll(const std::string& file, const ImportOptions& options = {})
{
    auto source = openTrajectorySource(file, options);
    std::vector<Trajectory> out;
    Trajectory t;
    while (source->next(t))
        out.push_back(t);
    return out;
}

bool contains(const std::string& haystack, const std::string& needle)
{
    return haystack.find(needle) != std::string::npos;
}

/// Roles and contents of split messages as "role=content|role=content", closed flags as "1" / "0".
std::pair<std::string, std::string> describe(const std::vector<TemplateMessage>& messages)
{
    std::string text, closed;
    for (const auto& m : messages) {
        if (!text.empty())
            text += "|";
        text += m.role + "=" + m.content;
        closed += m.closed ? "1" : "0";
    }
    return { text, closed };
}

} // namespace

void TestImportFormats::init() { m_dir = std::make_unique<QTemporaryDir>(); }

void TestImportFormats::detectsEachSample_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::newRow("chat") << "chat.jsonl"
                          << "chat";
    QTest::newRow("agentgym") << "agentgym.jsonl"
                              << "sharegpt";
    QTest::newRow("verl") << "3.jsonl"
                          << "verl";
    QTest::newRow("steps") << "steps.jsonl"
                           << "steps";
    QTest::newRow("steps with input and output") << "{\"traj_uid\":\"t\",\"step\":0,\"input\":\"o\",\"output\":\"a\"}"
                                                 << "steps";
    QTest::newRow("verl with an id") << "{\"trajectory_id\":\"t\",\"input\":\"o\",\"output\":\"a\"}"
                                     << "verl";
    QTest::newRow("native") << "{\"id\":\"t\",\"group\":\"g\",\"reward\":0,\"turns\":[]}"
                            << "native";
}

void TestImportFormats::detectsEachSample()
{
    QFETCH(QString, file);
    QFETCH(QString, format);
    // A row given inline is written to a file first.
    std::string name = sample(file.toStdString());
    if (file.startsWith('{')) {
        name = path("detect.jsonl");
        test::writeFile(name, file.toStdString() + "\n");
    }
    QCOMPARE(QString::fromUtf8(importFormatName(detectImportFormat(name)).data()), format);
}

void TestImportFormats::chatSample()
{
    const auto t = readAll(sample("chat.jsonl"));
    QCOMPARE(t.size(), std::size_t(3));
    // rLLM lines: the numeric idx is the id; no group field, so the identical prompt groups them.
    QCOMPARE(t[0].id, std::string("0"));
    QCOMPARE(t[1].id, std::string("1"));
    QCOMPARE(t[0].group, t[1].group);
    QCOMPARE(t[0].reward, 1.0);
    QCOMPARE(t[1].reward, 0.0);
    QCOMPARE(t[0].turns.size(), std::size_t(2));
    QCOMPARE(t[1].turns.size(), std::size_t(1));
    const Turn& call = t[0].turns[0];
    QCOMPARE(call.observation,
        std::string("You are a helpful assistant with a weather tool.\nWhat's the weather like in Paris today?"));
    QCOMPARE(call.action, std::string("get_weather({\"location\": \"Paris, France\"})"));
    QVERIFY2(call.extra.starts_with("\"message_index\":2,\"tool_calls\":[{\"id\":\"call_1\""), call.extra.c_str());
    const Turn& answer = t[0].turns[1];
    QCOMPARE(answer.observation, std::string("{\"temperature\": 14, \"unit\": \"celsius\"}"));
    QCOMPARE(answer.action,
        std::string("It is 14 \xC2\xB0"
                    "C in Paris right now."));
    QCOMPARE(answer.extra,
        std::string("\"message_index\":4,\"context\":[{\"index\":3,\"role\":\"tool\",\"tool_call_id\":\"call_1\"}]"));
    QVERIFY(!answer.feedback);
    QCOMPARE(t[0].extra, std::string("\"metrics\":{\"steps\":2,\"env_time\":0.41}"));

    // The logger line: its own id and group, step as iteration, content parts, per-message rewards and score,
    // the user's last message as the last turn's feedback.
    const Trajectory& c = t[2];
    QCOMPARE(c.id, std::string("conv-7"));
    QCOMPARE(c.group, std::string("g2"));
    QCOMPARE(c.iteration, std::optional<std::int64_t>(4));
    QCOMPARE(c.reward, 0.0);
    QCOMPARE(c.success, std::optional<bool>(true));
    QCOMPARE(c.turns.size(), std::size_t(2));
    QCOMPARE(c.turns[0].observation, std::string("Find the cheapest flight\nfrom Oslo to Rome."));
    QCOMPARE(c.turns[0].reward, std::optional<double>(0.25));
    QCOMPARE(c.turns[0].score, std::optional<double>(0.8));
    QCOMPARE(c.turns[1].reward, std::optional<double>(0.0));
    QCOMPARE(c.turns[1].feedback, std::optional<std::string>("Booked."));
    QVERIFY2(contains(c.turns[1].extra, "\"context\":[{\"index\":2,\"role\":\"tool\",\"name\":\"search\"}]"),
        c.turns[1].extra.c_str());
    QCOMPARE(c.extra, std::string("\"model\":\"qwen2.5-7b\""));
}

void TestImportFormats::shareGptSample()
{
    const auto t = readAll(sample("agentgym.jsonl"));
    QCOMPARE(t.size(), std::size_t(3));
    // Two samples of one AgentGym item: one group, distinct ids.
    QCOMPARE(t[0].id, std::string("webshop_0"));
    QCOMPARE(t[1].id, std::string("webshop_0#1"));
    QCOMPARE(t[0].group, std::string("webshop_0"));
    QCOMPARE(t[1].group, std::string("webshop_0"));
    QCOMPARE(t[0].task.key, std::optional<std::string>("webshop_0"));
    // The scripted "Ok." (loss false) is context: two actions, not three.
    QCOMPARE(t[0].turns.size(), std::size_t(2));
    QVERIFY(t[0].turns[0].observation.starts_with("You are web shopping."));
    QVERIFY(contains(t[0].turns[0].observation, "\nOk.\nWebShop [SEP] Instruction:"));
    QVERIFY(t[0].turns[0].action.ends_with("search[long clip-in hair extension natural looking]"));
    QVERIFY(t[0].turns[1].action.ends_with("click[B09QQLDJ93]"));
    QCOMPARE(t[0].turns[1].extra, std::string("\"message_index\":5"));
    QCOMPARE(t[0].reward, 0.0);
    QCOMPARE(t[1].reward, 0.5);
    QCOMPARE(t[1].turns.size(), std::size_t(1));
    QCOMPARE(t[2].id, std::string("alfworld_3"));
    QCOMPARE(t[2].reward, 1.0);
    QCOMPARE(t[2].turns[0].feedback, std::optional<std::string>("On the countertop 1, you see a mug 1."));
    QCOMPARE(t[2].turns[0].extra, std::string("\"message_index\":3,\"weight\":2"));
    QCOMPARE(t[2].extra, std::string("\"item_id\":\"alfworld_3\",\"source\":\"AgentTraj-L\""));
}

void TestImportFormats::verlSample()
{
    const auto t = readAll(sample("3.jsonl"));
    QCOMPARE(t.size(), std::size_t(4));
    for (const auto& x : t)
        QCOMPARE(x.iteration, std::optional<std::int64_t>(3));
    QCOMPARE(t[0].id, std::string("line-1"));
    // ChatML with a tool call: two turns, the tool response is the second turn's observation.
    QCOMPARE(t[0].turns.size(), std::size_t(2));
    QCOMPARE(t[0].turns[0].observation,
        std::string(
            "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.\nWhat is 12*7? Use the calculator."));
    QCOMPARE(t[0].turns[0].action,
        std::string("<tool_call>\n{\"name\": \"calc\", \"arguments\": {\"expr\": \"12*7\"}}\n</tool_call>"));
    QCOMPARE(t[0].turns[1].observation, std::string("<tool_response>\n84\n</tool_response>"));
    QCOMPARE(t[0].turns[1].action, std::string("The answer is 84."));
    QCOMPARE(t[0].turns[1].extra, std::string("\"message_index\":4"));
    QCOMPARE(t[0].reward, 1.0);
    QCOMPARE(t[0].extra, std::string("\"gts\":\"84\",\"acc\":true"));
    // The same input: the same group; its response was cut mid-message.
    QCOMPARE(t[1].group, t[0].group);
    QCOMPARE(t[1].turns.size(), std::size_t(2));
    QCOMPARE(t[1].turns[1].action, std::string("Let me double-check: 12*7 = 8"));
    QCOMPARE(t[1].turns[1].extra, std::string("\"message_index\":4,\"truncated\":true"));
    QVERIFY(!contains(t[1].turns[0].extra, "truncated"));
    // Llama 3.1: the uid names the group; the ipython answer is the second observation.
    QCOMPARE(t[2].group, std::string("q-17"));
    QCOMPARE(t[2].turns.size(), std::size_t(2));
    QCOMPARE(t[2].turns[0].observation,
        std::string("Environment: ipython\nYou are a helpful assistant.\nHow many files are in /tmp?"));
    QCOMPARE(t[2].turns[0].action, std::string("<|python_tag|>ls /tmp | wc -l"));
    QCOMPARE(t[2].turns[1].observation, std::string("3"));
    QCOMPARE(t[2].turns[1].action, std::string("There are 3 files."));
    // Decoded without special tokens: no markers, one turn, a different input: another group.
    QCOMPARE(t[3].turns.size(), std::size_t(1));
    QCOMPARE(t[3].turns[0].action, std::string("4"));
    QVERIFY(t[3].group != t[0].group);
    QVERIFY(!contains(t[3].turns[0].extra, "truncated"));
}

void TestImportFormats::verlCustomMarkers()
{
    // A template of one's own (--markers BEGIN END): messages written BEGIN ROLE\n ... END.
    const std::string file = path("0.jsonl");
    test::writeFile(file,
        "{\"input\":\"[[user\\nfind the key]]\\n[[assistant\\n\",\"output\":\"look around]]\\n[[env\\na key]]"
        "\\n[[assistant\\ntake key]]\",\"score\":1,\"step\":0}\n");
    ImportOptions options;
    options.format = ImportFormat::Verl;
    options.markers = TemplateMarkers { "[[", "]]" };
    const auto t = readAll(file, options);
    QCOMPARE(t.size(), std::size_t(1));
    QCOMPARE(t[0].turns.size(), std::size_t(2));
    QCOMPARE(t[0].turns[0].observation, std::string("find the key"));
    QCOMPARE(t[0].turns[0].action, std::string("look around"));
    QCOMPARE(t[0].turns[1].observation, std::string("a key"));
    QCOMPARE(t[0].turns[1].action, std::string("take key"));
    QCOMPARE(t[0].iteration, std::optional<std::int64_t>(0));
    // Without the markers the same line is one turn: the whole prompt, the whole response.
    const auto plain = readAll(file, ImportOptions::as(ImportFormat::Verl));
    QCOMPARE(plain[0].turns.size(), std::size_t(1));
}

void TestImportFormats::stepsSample()
{
    const auto t = readAll(sample("steps.jsonl"));
    QCOMPARE(t.size(), std::size_t(2));
    QCOMPARE(t[0].id, std::string("t-a"));
    QCOMPARE(t[1].id, std::string("t-b"));
    QCOMPARE(t[0].group, std::string("task-17"));
    QCOMPARE(t[1].group, std::string("task-17"));
    QCOMPARE(t[0].iteration, std::optional<std::int64_t>(5));
    // Rows out of order are sorted by step; the inactive padding row is dropped.
    QCOMPARE(t[0].turns.size(), std::size_t(3));
    QCOMPARE(t[0].turns[0].action, std::string("go to countertop 1"));
    QCOMPARE(t[0].turns[1].action, std::string("take mug 1 from countertop 1"));
    QCOMPARE(t[0].turns[2].action, std::string("put mug 1 in/on coffeemachine 1"));
    QCOMPARE(t[0].turns[1].extra, std::string("\"step_index\":1"));
    // verl-agent's step rewards hold the outcome (episode_rewards is their sum): it is counted once, as the outcome,
    // and the step reward r_t + [t = T] R of every turn equals its row's reward.
    QCOMPARE(t[0].reward, 10.0);
    QCOMPARE(t[0].turns[2].reward, std::optional<double>(0.0));
    QCOMPARE(t[0].turns[0].reward, std::optional<double>(0.0));
    QCOMPARE(t[0].success, std::optional<bool>(true));
    QCOMPARE(t[1].turns.size(), std::size_t(2));
    QCOMPARE(t[1].turns[0].valid, std::optional<bool>(false));
    QCOMPARE(t[1].turns[1].extra, std::string("\"step_index\":1,\"logprob\":-1.25"));
    QCOMPARE(t[1].reward, 0.0);
    QVERIFY(!t[1].success);
}

void TestImportFormats::stepRewardsCountTheOutcomeOnce()
{
    // Rows of two trajectories: "a" with verl-agent's episode_rewards (the sum of its rows' rewards, the outcome on the
    // last), "b" without one (its reward is the sum), "c" whose rows' rewards exclude the outcome (they do not sum to
    // it: kept as intermediate rewards). Each turn's step reward r_t + [t = T] R equals its row's reward for a and b.
    const QString path = m_dir->filePath("rewards.jsonl");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"traj_uid\":\"a\",\"uid\":\"g\",\"step_idx\":0,\"obs\":\"o\",\"action\":\"x\",\"rewards\":-0.1}\n"
            "{\"traj_uid\":\"a\",\"uid\":\"g\",\"step_idx\":1,\"obs\":\"o\",\"action\":\"y\",\"rewards\":1.0,"
            "\"episode_rewards\":0.9}\n"
            "{\"traj_uid\":\"b\",\"uid\":\"g\",\"step_idx\":0,\"obs\":\"o\",\"action\":\"x\",\"rewards\":0.25}\n"
            "{\"traj_uid\":\"b\",\"uid\":\"g\",\"step_idx\":1,\"obs\":\"o\",\"action\":\"y\",\"rewards\":0.5}\n"
            "{\"traj_uid\":\"c\",\"uid\":\"g\",\"step_idx\":0,\"obs\":\"o\",\"action\":\"x\",\"rewards\":0.1}\n"
            "{\"traj_uid\":\"c\",\"uid\":\"g\",\"step_idx\":1,\"obs\":\"o\",\"action\":\"y\",\"rewards\":0.0,"
            "\"episode_rewards\":1.0}\n");
    f.close();
    const auto t = readAll(path.toStdString());
    QCOMPARE(t.size(), std::size_t(3));
    const auto stepReward = [](const Trajectory& x, std::size_t k) {
        return x.turns[k].rewardOrDefault() + (k + 1 == x.turns.size() ? x.reward : 0.0);
    };
    QCOMPARE(t[0].reward, 0.9);
    QCOMPARE(stepReward(t[0], 0), -0.1);
    QVERIFY(std::abs(stepReward(t[0], 1) - 1.0) < 1e-12);
    QCOMPARE(t[1].reward, 0.75);
    QCOMPARE(stepReward(t[1], 0), 0.25);
    QCOMPARE(stepReward(t[1], 1), 0.5);
    QCOMPARE(t[2].reward, 1.0);
    QCOMPARE(t[2].turns[0].reward, std::optional<double>(0.1));
    QCOMPARE(t[2].turns[1].reward, std::optional<double>(0.0));
}

void TestImportFormats::mappedSample()
{
    ImportOptions options;
    options.mapPath = sample("custom.map.yaml");
    const auto t = readAll(sample("custom.jsonl"), options);
    QCOMPARE(t.size(), std::size_t(2));
    QCOMPARE(t[0].id, std::string("ep-1"));
    QCOMPARE(t[0].group, std::string("maze-4"));
    QCOMPARE(t[1].group, std::string("maze-4"));
    QCOMPARE(t[0].iteration, std::optional<std::int64_t>(2));
    QCOMPARE(t[0].reward, 0.5);
    QCOMPARE(t[0].success, std::optional<bool>(false));
    QCOMPARE(t[1].success, std::optional<bool>(true));
    QCOMPARE(t[0].turns.size(), std::size_t(2));
    QCOMPARE(t[0].turns[0].observation, std::string("start"));
    QCOMPARE(t[0].turns[0].action, std::string("north"));
    QCOMPARE(t[0].turns[0].reward, std::optional<double>(0.1));
    QCOMPARE(t[0].turns[0].role, std::optional<Role>(Role::E));
    QCOMPARE(t[0].turns[0].score, std::optional<double>(0.4));
    QCOMPARE(t[0].turns[0].extra, std::string("\"latency_ms\":12"));
    QCOMPARE(t[0].turns[1].role, std::optional<Role>(Role::N));
    // Objects read only in part (meta, outcome) are kept whole; epoch and steps were read entirely.
    QCOMPARE(t[0].extra,
        std::string("\"meta\":{\"run\":\"r1\",\"episode\":\"ep-1\",\"task\":\"maze-4\"},\"outcome\":{\"reward\":0.5,"
                    "\"solved\":false},\"note\":\"kept\""));
}

void TestImportFormats::templateSplitting_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("format");
    QTest::addColumn<QString>("leadingRole");
    QTest::addColumn<QString>("messages");
    QTest::addColumn<QString>("closed");
    const int chatml = int(ChatTemplate::ChatMl), llama = int(ChatTemplate::Llama3), custom = int(ChatTemplate::Custom);
    QTest::newRow("chatml prompt")
        << "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
        << chatml << ""
        << "system=Be brief.|user=Hi|assistant="
        << "110";
    QTest::newRow("chatml response with tool")
        << "<tool_call>\n{}\n</"
           "tool_call><|im_end|>\n<|im_start|>tool\nok<|im_end|>\n<|im_start|>assistant\nDone.<|im_end|>"
        << chatml << "assistant"
        << "assistant=<tool_call>\n{}\n</tool_call>|tool=ok|assistant=Done."
        << "111";
    QTest::newRow("chatml truncated in content")
        << "A<|im_end|>\n<|im_start|>user\nobs<|im_end|>\n<|im_start|>assistant\nhalf a sen" << chatml << "assistant"
        << "assistant=A|user=obs|assistant=half a sen"
        << "110";
    QTest::newRow("chatml truncated in header") << "A<|im_end|>\n<|im_start|>us" << chatml << "assistant"
                                                << "assistant=A|us="
                                                << "10";
    QTest::newRow("chatml truncated first message") << "no end" << chatml << "assistant"
                                                    << "assistant=no end"
                                                    << "0";
    QTest::newRow("llama3 conversation with ipython")
        << "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHow many?<|eot_id|>"
           "<|start_header_id|>assistant<|end_header_id|>\n\n<|python_tag|>count()<|eom_id|>"
           "<|start_header_id|>ipython<|end_header_id|>\n\n3<|eot_id|>"
           "<|start_header_id|>assistant<|end_header_id|>\n\nThree.<|eot_id|>"
        << llama << ""
        << "user=How many?|assistant=<|python_tag|>count()|ipython=3|assistant=Three."
        << "1111";
    QTest::newRow("llama3 truncated") << "First.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nmore<|eot_id|>"
                                         "<|start_header_id|>assistant<|end_header_id|>\n\nSecond, cut"
                                      << llama << "assistant"
                                      << "assistant=First.|user=more|assistant=Second, cut"
                                      << "110";
    QTest::newRow("custom markers") << "act 1</s>\n<s>env\nobs 1</s>\n<s>assistant\nact 2</s>" << custom << "assistant"
                                    << "assistant=act 1|env=obs 1|assistant=act 2"
                                    << "111";
    QTest::newRow("plain text") << "just text" << int(ChatTemplate::None) << "assistant"
                                << "assistant=just text"
                                << "1";
}

void TestImportFormats::templateSplitting()
{
    QFETCH(QString, text);
    QFETCH(int, format);
    QFETCH(QString, leadingRole);
    QFETCH(QString, messages);
    QFETCH(QString, closed);
    const TemplateMarkers markers { "<s>", "</s>" };
    const auto split
        = splitChatTemplate(text.toStdString(), static_cast<ChatTemplate>(format), leadingRole.toStdString(), &markers);
    const auto [gotMessages, gotClosed] = describe(split);
    QCOMPARE(QString::fromStdString(gotMessages), messages);
    QCOMPARE(QString::fromStdString(gotClosed), closed);
    if (format != int(ChatTemplate::Custom) && format != int(ChatTemplate::None))
        QCOMPARE(int(detectChatTemplate(
                     text.toStdString() + (format == int(ChatTemplate::ChatMl) ? "<|im_end|>" : "<|eot_id|>"))),
            format);
}

void TestImportFormats::brokenLines_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("content");
    QTest::addColumn<QString>("expected"); // the error after "<file>:"
    const QString ok
        = "{\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"assistant\",\"content\":\"a\"}]}\n";
    QTest::newRow("chat: message without role") << "chat" << ok + "{\"messages\":[{\"content\":\"hi\"}]}\n"
                                                << "2: field \"messages[0].role\": is required but missing";
    QTest::newRow("chat: no assistant message") << "chat"
                                                << "{\"messages\":[{\"role\":\"user\",\"content\":\"q\"}]}\n"
                                                << "1: field \"messages\": holds no assistant message, so no turn";
    QTest::newRow("chat: score outside [0, 1]") << "chat"
                                                << "{\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":"
                                                   "\"assistant\",\"content\":\"a\",\"score\":1.5}]}\n"
                                                << "1: field \"messages[1].score\": must be in [0, 1], got 1.5";
    QTest::newRow("chat: content not text")
        << "chat"
        << "{\"messages\":[{\"role\":\"assistant\",\"content\":7}]}\n"
        << "1: field \"messages[0].content\": expected a string, null or an array of parts, got a number";
    QTest::newRow("chat: reward not a number")
        << "chat"
        << "{\"reward\":\"high\",\"messages\":[{\"role\":\"assistant\",\"content\":\"a\"}]}\n"
        << "1: field \"reward\": expected a number, got a string";
    QTest::newRow("chat: invalid JSON") << "chat" << ok + "{\"messages\":[\n"
                                        << "2:";
    QTest::newRow("chat: duplicate id") << "chat"
                                        << "{\"id\":\"x\"," + ok.mid(1) + "{\"id\":\"x\"," + ok.mid(1)
                                        << "2: field \"id\": duplicate id \"x\" (first on line 1)";
    QTest::newRow("chat: tool call without function")
        << "chat"
        << "{\"messages\":[{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c\"}]}]}\n"
        << "1: field \"messages[0].tool_calls[0].function\": is required but missing";
    QTest::newRow("sharegpt: value not text")
        << "sharegpt"
        << "{\"conversations\":[{\"from\":\"gpt\",\"value\":3}]}\n"
        << "1: field \"conversations[0].value\": expected a string, null or an array of parts, got a number";
    QTest::newRow("sharegpt: message without from") << "sharegpt"
                                                    << "{\"conversations\":[{\"value\":\"hi\"}]}\n"
                                                    << "1: field \"conversations[0].from\": is required but missing";
    QTest::newRow("sharegpt: loss not a boolean")
        << "sharegpt"
        << "{\"conversations\":[{\"from\":\"gpt\",\"value\":\"a\",\"loss\":\"yes\"}]}\n"
        << "1: field \"conversations[0].loss\": expected a boolean, got a string";
    QTest::newRow("verl: no output") << "verl"
                                     << "{\"input\":\"q\",\"score\":1}\n"
                                     << "1: field \"output\": is required but missing";
    QTest::newRow("verl: negative step") << "verl"
                                         << "{\"input\":\"q\",\"output\":\"a\",\"score\":1,\"step\":-1}\n"
                                         << "1: field \"step\": must be a non-negative integer";
    QTest::newRow("verl: output not text") << "verl"
                                           << "{\"input\":\"q\",\"output\":[\"a\"],\"score\":1}\n"
                                           << "1: field \"output\": expected a string, got an array";
    QTest::newRow("steps: no trajectory id") << "steps"
                                             << "{\"step_idx\":0,\"obs\":\"o\",\"action\":\"a\"}\n"
                                             << "1: field \"traj_uid\": is required but missing";
    QTest::newRow("steps: repeated step")
        << "steps"
        << "{\"traj_uid\":\"t\",\"step_idx\":0,\"obs\":\"o\",\"action\":\"a\"}\n"
           "{\"traj_uid\":\"u\",\"step_idx\":0,\"obs\":\"o\",\"action\":\"a\"}\n"
           "{\"traj_uid\":\"t\",\"step_idx\":0,\"obs\":\"o\",\"action\":\"b\"}\n"
        << "3: field \"step\": step 0 of trajectory \"t\" appears twice (also on line 1)";
    QTest::newRow("steps: group changes")
        << "steps"
        << "{\"traj_uid\":\"t\",\"uid\":\"g\",\"step_idx\":0,\"obs\":\"o\",\"action\":\"a\"}\n"
           "{\"traj_uid\":\"t\",\"uid\":\"h\",\"step_idx\":1,\"obs\":\"o\",\"action\":\"a\"}\n"
        << "2: field \"uid\": \"h\" differs from \"g\" on line 1 of the same trajectory";
    QTest::newRow("steps: no action") << "steps"
                                      << "{\"traj_uid\":\"t\",\"step_idx\":0,\"obs\":\"o\"}\n"
                                      << "1: field \"action\": is required but missing";
    QTest::newRow("map: turn without action") << "map"
                                              << "{\"steps\":[{\"obs\":\"o\",\"act\":\"a\"},{\"obs\":\"o\"}]}\n"
                                              << "1: field \"steps[1].act\": is required but missing";
    QTest::newRow("map: bad role")
        << "map"
        << "{\"steps\":[{\"obs\":\"o\",\"act\":\"a\",\"label\":\"X\"}]}\n"
        << "1: field \"steps[0].label\": expected one of \"D\", \"E\", \"N\", \"R\", got \"X\"";
    // Found by the fuzz targets (tests/fuzz/corpus/fuzz_import_*/crash-*): text with a lone surrogate escape passed the
    // record's syntax check and failed only when decoded, with an exception nothing caught (the program aborted).
    QTest::newRow("chat: unpaired high surrogate")
        << "chat" << "{\"messages\":[{\"role\":\"assistant\",\"content\":\"Yo\\ud83dG\"}]}\n"
        << "1:47: invalid JSON: unpaired high surrogate in \\u escape";
    QTest::newRow("sharegpt: unpaired low surrogate")
        << "sharegpt" << "{\"conversations\":[{\"from\":\"gpt\",\"value\":\"We\\ude00b\"}]}\n"
        << "1:44: invalid JSON: unpaired low surrogate in \\u escape";
    QTest::newRow("verl: invalid low surrogate")
        << "verl" << "{\"input\":\"q\",\"output\":\"\\ud83d\\ue0d0\",\"score\":1}\n"
        << "1:24: invalid JSON: invalid low surrogate in \\u escape";
    QTest::newRow("steps: surrogate in a group id")
        << "steps" << "{\"traj_uid\":\"t\",\"uid\":\"x\\ude07\",\"step_idx\":0,\"obs\":\"o\",\"action\":\"a\"}\n"
        << "1:25: invalid JSON: unpaired low surrogate in \\u escape";
    // A number beyond double's range where a number is read: a field error, where the scanner's error escaped.
    QTest::newRow("chat: reward out of range")
        << "chat" << "{\"reward\":1e999,\"messages\":[{\"role\":\"assistant\",\"content\":\"a\"}]}\n"
        << "1: field \"reward\": number out of range: 1e999";
    QTest::newRow("map: turns not a list") << "map"
                                           << "{\"steps\":{\"obs\":\"o\"}}\n"
                                           << "1: field \"steps\": expected an array of turns";
}

void TestImportFormats::brokenLines()
{
    QFETCH(QString, format);
    QFETCH(QString, content);
    QFETCH(QString, expected);
    const std::string file = path("bad.jsonl");
    test::writeFile(file, content.toStdString());
    ImportOptions options;
    if (format == "map")
        options.mapPath = sample("custom.map.yaml");
    else
        options.format = *parseImportFormat(format.toStdString());
    try {
        readAll(file, options);
        QFAIL("no error");
    } catch (const JsonlError& e) {
        const std::string want = file + ":" + expected.toStdString();
        QVERIFY2(std::string(e.what()).starts_with(want), (std::string(e.what()) + "\n want: " + want).c_str());
        QCOMPARE(e.file(), file);
    }
}

void TestImportFormats::badMapFile_data()
{
    QTest::addColumn<QString>("map");
    QTest::addColumn<QString>("expected");
    QTest::newRow("unknown key") << "turns: steps\nobservation: o\naction: a\nrewad: r\n"
                                 << ":4: unknown key \"rewad\"";
    QTest::newRow("no action") << "turns: steps\nobservation: o\n"
                               << ": \"action\" is required";
    QTest::newRow("not a map") << "- id\n"
                               << ": a mapping file is a YAML map";
    QTest::newRow("empty segment") << "turns: steps\nobservation: a..b\naction: a\n"
                                   << ":2: observation: empty segment";
    // Found by fuzz_import_map (corpus/fuzz_import_map/crash-623ae23f...): a key that is not text threw yaml-cpp's
    // "bad conversion", which named neither the file nor the problem.
    QTest::newRow("key is a list") << "turns: steps\nobservation: o\naction: a\n[a, b]: x\n"
                                  << ":4: a key must be one of our field names, not a list or a map";
    QTest::newRow("bad YAML") << "turns: [steps\n"
                              << ":";
}

void TestImportFormats::badMapFile()
{
    QFETCH(QString, map);
    QFETCH(QString, expected);
    const std::string mapFile = path("bad.map.yaml");
    test::writeFile(mapFile, map.toStdString());
    ImportOptions options;
    options.mapPath = mapFile;
    try {
        openTrajectorySource(sample("custom.jsonl"), options);
        QFAIL("no error");
    } catch (const std::runtime_error& e) {
        const std::string want = mapFile + expected.toStdString();
        QVERIFY2(std::string(e.what()).starts_with(want), (std::string(e.what()) + "\n want: " + want).c_str());
    }
}

void TestImportFormats::hugeArrayIndexIsPastTheEnd()
{
    // Found by fuzz_import_map (corpus/fuzz_import_map/crash-7a8b44ea...): an index beyond 64 bits threw
    // std::out_of_range out of std::stoul, which no caller expects. It reads like any index past the array's end.
    const std::string data = path("huge.jsonl");
    test::writeFile(data, R"({"ids":["a"],"meta":{"g":"G"},"r":[{"v":0.5}],"t":[["obs","act"],["o2","2"]]})" "\n");
    std::vector<Trajectory> read[2];
    const char* const indices[] = { "2222222222222222222222222222222222222222", "5" };
    for (int k = 0; k < 2; ++k) {
        const std::string mapFile = path("huge.map.yaml");
        test::writeFile(mapFile,
            std::string("id: ids.0\ngroup: meta.g\nreward: r.") + indices[k]
                + ".v\nturns: t\nobservation: 1\naction: 1\n");
        ImportOptions options;
        options.mapPath = mapFile;
        read[k] = readAll(data, options);
    }
    QCOMPARE(read[0].size(), std::size_t(1));
    QCOMPARE(read[0][0].reward, read[1][0].reward);
    QCOMPARE(read[0][0].reward, 0.0);
    QCOMPARE(read[0][0].turns.size(), std::size_t(2));
    QCOMPARE(read[1][0].turns.size(), std::size_t(2));
}

void TestImportFormats::unknownFormatIsNamed()
{
    const std::string file = path("odd.jsonl");
    test::writeFile(file, "\n{\"question\":\"q\",\"answer\":\"a\"}\n");
    try {
        detectImportFormat(file);
        QFAIL("no error");
    } catch (const std::runtime_error& e) {
        QVERIFY2(std::string(e.what()).starts_with(file
                     + ":2: cannot tell the format from the first record (fields: "
                       "question, answer)"),
            e.what());
    }
    // Broken or incomplete native lines stay native, so that the native reader names the field.
    test::writeFile(file, "{\"id\":\"a\",\"group\":\"g\",\"reward\":1}\n");
    QCOMPARE(detectImportFormat(file), ImportFormat::Native);
    test::writeFile(file, "{\"id\":\"a\",\"turns\":[{\"observation\":\n");
    QCOMPARE(detectImportFormat(file), ImportFormat::Native);
    test::writeFile(file, "\n\n");
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, detectImportFormat(file));
}

void TestImportFormats::importIntoStore()
{
    Store store(path("runs.db"));
    const ImportResult r = importFile(store, sample("3.jsonl"), ImportOptions {});
    QCOMPARE(r.trajectories, std::uint64_t(4));
    QCOMPARE(r.turns, std::uint64_t(7));
    std::vector<Trajectory> back;
    store.forEachTrajectory(r.runId, std::nullopt, [&](const Trajectory& t) {
        back.push_back(t);
        return true;
    });
    QCOMPARE(back.size(), std::size_t(4));
    // Unknown fields survive the store: export shows them again.
    QCOMPARE(back[0].extra, std::string("\"gts\":\"84\",\"acc\":true"));
    QCOMPARE(back[1].turns[1].extra, std::string("\"message_index\":4,\"truncated\":true"));
    QCOMPARE(back[0].iteration, std::optional<std::int64_t>(3));
}

void TestImportFormats::exportReadsBackAsNative_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("map");
    QTest::newRow("chat") << "chat.jsonl"
                          << "";
    QTest::newRow("agentgym") << "agentgym.jsonl"
                              << "";
    QTest::newRow("verl") << "3.jsonl"
                          << "";
    QTest::newRow("steps") << "steps.jsonl"
                           << "";
    QTest::newRow("map") << "custom.jsonl"
                         << "custom.map.yaml";
}

void TestImportFormats::exportReadsBackAsNative()
{
    // What an importer keeps (ids, message indices, unknown members) must be valid JSON members: the exported
    // native file reads back equal to what was imported.
    QFETCH(QString, file);
    QFETCH(QString, map);
    ImportOptions options;
    if (!map.isEmpty())
        options.mapPath = sample(map.toStdString());
    const auto imported = readAll(sample(file.toStdString()), options);
    Store store(path("runs.db"));
    const ImportResult r = importFile(store, sample(file.toStdString()), options);
    const std::string out = path("export.jsonl");
    exportJsonl(store, r.runId, std::nullopt, out);
    const auto back = readAll(out, ImportOptions::as(ImportFormat::Native));
    QCOMPARE(back.size(), imported.size());
    for (std::size_t i = 0; i < back.size(); ++i)
        CL_COMPARE_TRAJ(back[i], imported[i]);
    // ... and import → export → import → export gives the same bytes.
    Store again(path("again.db"));
    const ImportResult r2 = importFile(again, out, ImportOptions {});
    const std::string second = path("second.jsonl");
    exportJsonl(again, r2.runId, std::nullopt, second);
    QCOMPARE(test::readFile(second), test::readFile(out));
}

void TestImportFormats::badLineImportsNothing()
{
    const std::string file = path("half.jsonl");
    std::string text = test::readFile(sample("chat.jsonl"));
    text += "{\"messages\":[{\"role\":\"user\",\"content\":\"no answer\"}]}\n";
    test::writeFile(file, text);
    Store store(path("runs.db"));
    try {
        importFile(store, file, ImportOptions {});
        QFAIL("no error");
    } catch (const JsonlError& e) {
        QCOMPARE(e.line(), std::size_t(4));
        QCOMPARE(e.field(), std::string("messages"));
    }
    QVERIFY(store.runs().empty());
}

void TestImportFormats::stepRowsReportAndCancelWhileReading()
{
    // Step rows are all read before the first trajectory is written; meanwhile progress moves (with no
    // trajectory yet) and a cancel stops the reading, leaving no run.
    const std::string file = path("many-steps.jsonl");
    {
        std::string text;
        for (int i = 0; i < 300000; ++i)
            text += "{\"traj_uid\":\"t" + std::to_string(i % 5000) + "\",\"uid\":\"g" + std::to_string(i % 500)
                + "\",\"step_idx\":" + std::to_string(i / 5000)
                + ",\"anchor_obs\":\"You are in the middle of a room.\",\"action\":\"go to countertop "
                  "1\",\"reward\":0}\n";
        test::writeFile(file, text);
    }
    Store store(path("runs.db"));
    std::optional<Progress> whileReading;
    try {
        importFile(store, file, ImportOptions {}, [&](const Progress& p) {
            if (p.items == 0 && p.done > 0 && p.done < p.total)
                whileReading = p;
            return !whileReading;
        });
        QFAIL("not cancelled");
    } catch (const Cancelled&) {
    }
    QVERIFY(store.runs().empty());
    QVERIFY2(whileReading, "no progress while reading ahead");
    QCOMPARE(whileReading->subItems, std::uint64_t(0));
    // Not cancelled, the same file imports whole.
    const ImportResult r = importFile(store, file, ImportOptions {});
    QCOMPARE(r.trajectories, std::uint64_t(5000));
    QCOMPARE(r.turns, std::uint64_t(300000));
}

QTEST_GUILESS_MAIN(TestImportFormats)
#include "tst_import_formats.moc"
