// verl rollout dumps (`trainer.rollout_data_dir`): one `{step}.jsonl` per training step, one line per
// sample with `input` (the decoded prompt), `output` (the decoded response), `score`, `step`, `gts`, and
// any extra reward keys (verl/trainer/ppo/ray_trainer.py, RayPPOTrainer._dump_generations).
#include "core/interchange/chattemplate.h"
#include "core/interchange/importsource_p.h"

namespace creditlab::importer {

namespace {

using Kind = JsonDoc::Kind;

bool isBlank(std::string_view s) { return s.find_first_not_of(" \t\r\n") == std::string_view::npos; }

class VerlSource : public LineRecordSource {
public:
    VerlSource(const TextInput& input, const std::optional<TemplateMarkers>& markers)
        : LineRecordSource(input)
        , m_markers(markers)
    {
    }

protected:
    void convert(const JsonDoc& doc, std::size_t lineNo, Trajectory& out) override
    {
        const Index root = doc.root();
        const Index input = doc.member(root, "input");
        const Index output = doc.member(root, "output");
        if (input == kNone)
            fieldError("input", "is required but missing");
        if (output == kNone)
            fieldError("output", "is required but missing");
        readText(doc, input, "input", m_input);
        readText(doc, output, "output", m_output);
        const Index score = doc.firstMember(root, { "score", "reward" });
        if (score != kNone)
            out.reward = readNumber(doc, score, doc.key(score));
        const Index step = doc.firstMember(root, { "step", "iteration" });
        if (step != kNone)
            out.iteration = readIndex(doc, step, doc.key(step));
        const Index group = doc.firstMember(root, { "uid", "group", "group_id" });
        if (group != kNone)
            out.group = readId(doc, group, doc.key(group));
        const Index id = doc.firstMember(root, { "id", "trajectory_id" });
        out.id = id != kNone ? readId(doc, id, doc.key(id)) : generatedId(lineNo);
        const Index success = doc.member(root, "success");
        if (success != kNone)
            out.success = readBool(doc, success, "success");

        ChatTemplate tpl = ChatTemplate::Custom;
        if (!m_markers) {
            tpl = detectChatTemplate(m_input);
            if (tpl == ChatTemplate::None)
                tpl = detectChatTemplate(m_output);
        }
        const TemplateMarkers* custom = m_markers ? &*m_markers : nullptr;
        auto prompt = splitChatTemplate(m_input, tpl, "user", custom);
        // The prompt ends by opening the assistant message the response continues (the generation prompt);
        // text already in it (a prefill) starts the first action.
        std::string prefill;
        if (!prompt.empty() && !prompt.back().closed && prompt.back().role == "assistant") {
            prefill = std::move(prompt.back().content);
            prompt.pop_back();
        }
        auto response = splitChatTemplate(m_output, tpl, "assistant", custom);
        const bool responseHasMarkers = custom ? m_output.find(custom->end) != std::string::npos
                                               : detectChatTemplate(m_output) != ChatTemplate::None;
        if (response.empty()) // an empty response is still the sample's (empty) action
            response.push_back(TemplateMessage { "assistant", {}, true });
        if (!isBlank(prefill)) {
            if (response.empty() || response.front().role != "assistant")
                response.insert(response.begin(), TemplateMessage { "assistant", {}, false });
            response.front().content.insert(0, prefill);
        }

        m_messages.clear();
        std::size_t index = 0;
        auto add = [&](TemplateMessage& t, bool inResponse) {
            Message& m = m_messages.emplace_back();
            m.role = std::move(t.role);
            m.text = std::move(t.content);
            m.isAction = m.role == "assistant";
            // Without any marker in the response there is no end marker to miss (verl decodes with
            // skip_special_tokens, which strips them): only a templated response can be seen as cut.
            m.truncated = inResponse && !t.closed && responseHasMarkers;
            m.index = index++;
        };
        for (auto& t : prompt)
            add(t, false);
        for (auto& t : response)
            add(t, true);
        messagesToTurns(m_messages, out.turns, "output");
        if (out.group.empty())
            out.group = m_groups.groupOf(out.iteration, m_input);
        for (Index c = doc.first(root); c != kNone; c = doc.next(root, c))
            if (c != input && c != output && c != score && c != step && c != group && c != id && c != success)
                keepMember(out.extra, doc, c, KeptLevel::Trajectory); // gts, data_source, extra reward keys, ...
    }

private:
    std::optional<TemplateMarkers> m_markers;
    std::string m_input;
    std::string m_output;
    std::vector<Message> m_messages;
    PromptGroups m_groups;
};

} // namespace

std::unique_ptr<TrajectorySource> openVerl(const TextInput& input, const std::optional<TemplateMarkers>& markers)
{
    return std::make_unique<VerlSource>(input, markers);
}

} // namespace creditlab::importer
