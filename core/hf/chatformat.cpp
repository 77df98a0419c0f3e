#include "core/hf/chatformat.h"

#include "core/hf/chatformat_text.h"
#include "core/hf/error.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace creditlab::hf {

namespace {

using json = nlohmann::ordered_json;

// Sentinel contents of the probe conversations: plain ASCII words no template writes and no template changes.
const std::string kGoal = "CreditLabGoalSentinel";
const std::string kObs[3]
    = { "CreditLabObservationSentinelA", "CreditLabObservationSentinelB", "CreditLabObservationSentinelC" };
const std::string kAct[2] = { "CreditLabActionSentinelA", "CreditLabActionSentinelB" };

// A probe: the conversation as (role, content) pairs and whether the generation prompt is asked for.
struct Probe {
    std::vector<std::pair<std::string, std::string>> messages;
    bool generationPrompt = false;
};

std::string describe(const Probe& p)
{
    std::string s;
    for (const auto& [role, content] : p.messages)
        s += (s.empty() ? "" : ", ") + role;
    return "(" + s + (p.generationPrompt ? ", add_generation_prompt)" : ")");
}

} // namespace

ChatFormat::ChatFormat(Tokenizer tokenizer, jinja::Template chatTemplate)
    : m_tokenizer(std::move(tokenizer))
    , m_template(std::move(chatTemplate))
{
}

void ChatFormat::fail(const std::string& what) const { throw HfError(m_template.name() + ": " + what); }

std::string ChatFormat::render(const json& messages, bool addGenerationPrompt) const
{
    return renderChat(m_template, messages, addGenerationPrompt, m_options.extra, m_tokens, {}, m_options.clock);
}

std::string ChatFormat::userContent(std::string_view text) const
{
    return m_pieces.trimsUserContent ? chatformat::strip(text) : std::string(text);
}

ChatFormat ChatFormat::build(const Tokenizer& tokenizer, const jinja::Template& chatTemplate, const ChatTokens& tokens,
    const ChatFormatOptions& options)
{
    ChatFormat f(tokenizer, chatTemplate);
    f.m_tokens = tokens;
    f.m_options = options;
    if (!f.m_options.extra.is_object())
        f.fail("the extra template arguments must be a JSON object, not " + f.m_options.extra.dump());
    // One instant for every render, so that a date the template writes is the same in the chunks and the renders.
    const auto now = options.clock ? options.clock() : std::chrono::system_clock::now();
    f.m_options.clock = [now] { return now; };
    f.derive();
    f.checkChunks();
    f.runAppendCheck();
    return f;
}

void ChatFormat::derive()
{
    const auto renderProbe = [this](const Probe& p) {
        json messages = json::array();
        if (m_options.systemPrompt)
            messages.push_back({ { "role", "system" }, { "content", *m_options.systemPrompt } });
        for (const auto& [role, content] : p.messages)
            messages.push_back({ { "role", role }, { "content", content } });
        return render(messages, p.generationPrompt);
    };
    // The text around each sentinel: pieces[k] is before sentinel k, the last piece after the last sentinel.
    const auto split = [this, &renderProbe](const Probe& p) {
        const std::string text = renderProbe(p);
        std::vector<std::string> pieces;
        std::size_t from = 0;
        for (const auto& [role, content] : p.messages) {
            const std::size_t at = text.find(content);
            if (at == std::string::npos || at < from || text.find(content, at + 1) != std::string::npos)
                fail("the probe conversation " + describe(p) + " does not render the " + role + " content '" + content
                    + "' exactly once, in order: '" + chatformat::quoted(text, 600) + "'");
            pieces.push_back(text.substr(from, at - from));
            from = at + content.size();
        }
        pieces.push_back(text.substr(from));
        return pieces;
    };
    const auto user = [](const std::string& s) { return std::pair<std::string, std::string>("user", s); };
    const auto assistant = [](const std::string& s) { return std::pair<std::string, std::string>("assistant", s); };

    const Probe first { { user(kGoal), user(kObs[0]) }, true };
    const auto r2 = split(first); // prefix, goal -> observation, observation -> end
    const auto r3 = split({ { user(kGoal), user(kObs[0]), assistant(kAct[0]), user(kObs[1]) }, true });
    const auto r4 = split(
        { { user(kGoal), user(kObs[0]), assistant(kAct[0]), user(kObs[1]), assistant(kAct[1]), user(kObs[2]) }, true });
    const auto r5 = split({ { user(kGoal), user(kObs[0]), assistant(kAct[0]) }, false });

    m_pieces.prefix = r2[0];
    m_pieces.generationPrompt = r2[2];
    const std::string& goalToObservation = r2[1];
    const std::string& afterAction = r3[3];
    const std::string& assistantHeader = r3[2]; // the user close and assistant header as history renders them
    if (r3[4] != r2[2] || r4[6] != r2[2])
        fail("the user close and generation prompt differ from turn to turn: after observation 1 '"
            + chatformat::quoted(r2[2]) + "', after observation 2 '" + chatformat::quoted(r3[4])
            + "', after observation 3 '" + chatformat::quoted(r4[6]) + "'");
    if (r4[5] != afterAction)
        fail("the text between an action and the next observation differs from turn to turn: after action 1 '"
            + chatformat::quoted(afterAction) + "', after action 2 '" + chatformat::quoted(r4[5]) + "'");

    const std::string withPrompt = renderProbe(first);
    const std::string withoutPrompt = renderProbe({ first.messages, false });
    if (withPrompt == withoutPrompt && !withoutPrompt.ends_with(assistantHeader))
        fail("the template writes no generation prompt: add_generation_prompt=true renders the same text, which ends "
             "with '"
            + chatformat::quoted(r2[2]) + "' after the last user message, while an assistant message starts with '"
            + chatformat::quoted(assistantHeader) + "'");

    // The end of turn: the special token that starts the text after an assistant's content.
    const std::vector<std::int32_t> afterIds = m_tokenizer.encode(afterAction);
    if (afterIds.empty() || !m_tokenizer.isSpecial(afterIds.front()))
        fail("the text after an assistant's content, '" + chatformat::quoted(afterAction)
            + "', does not start with a special token, so no end-of-turn token ends an action");
    m_endOfTurn = afterIds.front();
    for (const AddedToken& t : m_tokenizer.addedTokens())
        if (t.id == m_endOfTurn)
            m_pieces.endOfTurn = t.content;
    if (m_pieces.endOfTurn.empty() || !afterAction.starts_with(m_pieces.endOfTurn))
        fail("the text after an assistant's content, '" + chatformat::quoted(afterAction)
            + "', does not start with the text of its first token '" + chatformat::quoted(m_pieces.endOfTurn) + "'");
    const std::string& finalClose = r5[3];
    if (!finalClose.starts_with(m_pieces.endOfTurn))
        fail("the text after the last assistant's content, '" + chatformat::quoted(finalClose)
            + "', does not start with the end of turn '" + m_pieces.endOfTurn + "' that follows the others");
    m_pieces.finalTail = finalClose.substr(m_pieces.endOfTurn.size());
    m_pieces.leadAfterAction = afterAction.substr(m_pieces.endOfTurn.size());
    // The goal's chunk ends with the first special token after its content (the end of turn where the template
    // closes user messages as assistant ones), so that a special token bounds the chunks whatever the goal's text.
    std::string firstSpecial;
    for (const std::int32_t id : m_tokenizer.encode(goalToObservation))
        if (m_tokenizer.isSpecial(id)) {
            firstSpecial = m_tokenizer.decode(std::vector<std::int32_t> { id });
            break;
        }
    const std::size_t special = firstSpecial.empty() ? std::string::npos : goalToObservation.find(firstSpecial);
    if (special == std::string::npos)
        fail("no special token separates two user messages ('" + chatformat::quoted(goalToObservation)
            + "'), so the goal's chunk could merge with the first observation's into other tokens");
    m_pieces.goalClose = goalToObservation.substr(0, special + firstSpecial.size());
    m_pieces.leadAfterGoal = goalToObservation.substr(m_pieces.goalClose.size());

    // Contents with surrounding whitespace: rendered verbatim, or trimmed (Llama 3's `| trim`); anything else is
    // beyond what the chunks can reproduce.
    const std::string goalWs = " \n" + kGoal + "\t ", obsWs = "  " + kObs[0] + "\n";
    const std::string ws = renderProbe({ { user(goalWs), user(obsWs) }, true });
    const auto expected = [&](const std::string& g, const std::string& o) {
        return m_pieces.prefix + g + goalToObservation + o + m_pieces.generationPrompt;
    };
    if (ws == expected(kGoal, kObs[0]))
        m_pieces.trimsUserContent = true;
    else if (ws != expected(goalWs, obsWs))
        fail("the template changes a user message's content other than by trimming it: the goal '"
            + chatformat::quoted(goalWs) + "' and observation '" + chatformat::quoted(obsWs) + "' render as '"
            + chatformat::quoted(ws, 600) + "'");

    m_stopTokens = { m_endOfTurn };
    std::vector<std::int32_t> more = m_options.extraStopTokens;
    if (m_tokens.eos)
        if (const auto eos = m_tokenizer.tokenId(*m_tokens.eos))
            more.insert(more.begin(), *eos);
    for (const std::int32_t id : more)
        if (std::find(m_stopTokens.begin(), m_stopTokens.end(), id) == m_stopTokens.end())
            m_stopTokens.push_back(id);
}

void ChatFormat::checkChunks()
{
    const auto ids = [](const std::string& what, std::vector<std::int32_t> a) {
        std::string s = what + " [";
        for (std::size_t i = 0; i < a.size(); ++i)
            s += (i ? ", " : "") + std::to_string(a[i]);
        return s + "]";
    };
    const auto concat = [](std::vector<std::int32_t> a, const std::vector<std::int32_t>& b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    };
    // The start: the goal's chunk and the first observation's, against the text they make up tokenised whole.
    const std::string startText
        = m_pieces.prefix + kGoal + m_pieces.goalClose + m_pieces.leadAfterGoal + kObs[0] + m_pieces.generationPrompt;
    const auto chunks = concat(goal(kGoal), observation(kObs[0], false));
    const auto whole = m_tokenizer.encode(startText);
    if (chunks != whole)
        fail("the goal's and the first observation's chunks tokenised apart give other ids than their text '"
            + chatformat::quoted(startText, 600) + "' tokenised whole: " + ids("apart", chunks) + ", "
            + ids("whole", whole));
    // An action, its end of turn and the next observation's chunk.
    const std::string turnText
        = kAct[0] + m_pieces.endOfTurn + m_pieces.leadAfterAction + kObs[1] + m_pieces.generationPrompt;
    auto turn = m_tokenizer.encode(kAct[0]);
    turn.push_back(m_endOfTurn);
    turn = concat(turn, observation(kObs[1], true));
    const auto turnWhole = m_tokenizer.encode(turnText);
    if (turn != turnWhole)
        fail("an action, its end of turn and the next observation's chunk tokenised apart give other ids than their "
             "text '"
            + chatformat::quoted(turnText, 600) + "' tokenised whole: " + ids("apart", turn) + ", "
            + ids("whole", turnWhole));
}

std::vector<std::int32_t> ChatFormat::goal(std::string_view goalText) const
{
    return m_tokenizer.encode(m_pieces.prefix + userContent(goalText) + m_pieces.goalClose);
}

std::vector<std::int32_t> ChatFormat::observation(std::string_view text, bool afterAction) const
{
    const std::string& lead = afterAction ? m_pieces.leadAfterAction : m_pieces.leadAfterGoal;
    return m_tokenizer.encode(lead + userContent(text) + m_pieces.generationPrompt);
}

json ChatFormat::messages(const ChatEpisode& episode) const
{
    if (episode.turns.empty())
        throw std::invalid_argument("chat episode: an episode has at least one turn");
    json m = json::array();
    if (m_options.systemPrompt)
        m.push_back({ { "role", "system" }, { "content", *m_options.systemPrompt } });
    m.push_back({ { "role", "user" }, { "content", episode.goal } });
    for (std::size_t t = 0; t < episode.turns.size(); ++t) {
        const ChatTurn& turn = episode.turns[t];
        m.push_back({ { "role", "user" }, { "content", turn.observation } });
        if (turn.action)
            m.push_back({ { "role", "assistant" }, { "content", *turn.action } });
        else if (t + 1 < episode.turns.size())
            throw std::invalid_argument(
                "chat episode: turn " + std::to_string(t + 1) + " has no action but is not " + "the last");
    }
    return m;
}

std::vector<std::int32_t> ChatFormat::stream(const ChatEpisode& episode) const
{
    messages(episode); // the episode's checks
    std::vector<std::int32_t> s = goal(episode.goal);
    bool afterAction = false;
    for (const ChatTurn& turn : episode.turns) {
        const auto obs = observation(turn.observation, afterAction);
        s.insert(s.end(), obs.begin(), obs.end());
        if (turn.action) {
            const auto act = m_tokenizer.encode(*turn.action);
            s.insert(s.end(), act.begin(), act.end());
            s.push_back(m_endOfTurn);
        }
        afterAction = turn.action.has_value();
    }
    return s;
}

std::string ChatFormat::renderText(const ChatEpisode& episode) const
{
    const json m = messages(episode);
    return render(m, !episode.turns.back().action.has_value());
}

std::vector<std::int32_t> ChatFormat::renderConversation(const ChatEpisode& episode) const
{
    return m_tokenizer.encode(renderText(episode));
}

} // namespace creditlab::hf
