// ChatFormat's comparison of a stream with the template's render, and the append check on probe episodes.

#include "core/hf/chatformat.h"
#include "core/hf/chatformat_text.h"
#include "core/hf/jinja_text.h"

#include <algorithm>

namespace creditlab::hf {

namespace chatformat {

std::string quoted(std::string_view text, std::size_t maxBytes)
{
    std::size_t end = std::min(text.size(), maxBytes);
    while (end < text.size() && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end; // not inside a UTF-8 sequence
    std::string out;
    for (const char c : text.substr(0, end)) {
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (c == '\r')
            out += "\\r";
        else
            out += c;
    }
    return end < text.size() ? out + "..." : out;
}

std::string strip(std::string_view text) { return jinja::text::strip(text, nullptr, true, true); }

std::string withoutThink(std::string_view text)
{
    std::string out(text);
    std::size_t from = 0;
    while (true) {
        const std::size_t open = out.find("<think>", from);
        if (open == std::string::npos)
            break;
        const std::size_t close = out.find("</think>", open);
        if (close == std::string::npos)
            break;
        std::size_t end = close + 8;
        while (end < out.size() && out[end] == '\n')
            ++end;
        out.erase(open, end - open);
        from = open;
    }
    return out;
}

} // namespace chatformat

namespace {

// The probe episode of the append check: ALFWorld-like, as the trainer's text environments write them.
ChatEpisode probeEpisode(const std::string (&actions)[3])
{
    ChatEpisode e;
    e.goal = "Your task is to: put a clean mug in coffeemachine.";
    const std::string observations[3] = {
        "You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a countertop 1, a "
        "coffeemachine 1 and a sinkbasin 1.",
        "You arrive at countertop 1. On the countertop 1, you see a knife 1 and a mug 1.",
        "You pick up the mug 1 from the countertop 1.",
    };
    for (int k = 0; k < 3; ++k)
        e.turns.push_back({ observations[k], actions[k] });
    return e;
}

} // namespace

StreamComparison ChatFormat::compare(const ChatEpisode& episode, std::span<const std::int32_t> stream) const
{
    std::vector<std::int32_t> expected = renderConversation(episode);
    if (episode.turns.back().action && !m_pieces.finalTail.empty()) {
        // The stream stops at the last end of turn; the render goes on with what follows it ("\n" for ChatML).
        const auto tail = m_tokenizer.encode(m_pieces.finalTail);
        if (expected.size() >= tail.size() && std::equal(tail.begin(), tail.end(), expected.end() - tail.size()))
            expected.resize(expected.size() - tail.size());
    }
    StreamComparison r;
    const std::size_t n = std::min(expected.size(), stream.size());
    std::size_t i = 0;
    while (i < n && expected[i] == stream[i])
        ++i;
    if (i == expected.size() && i == stream.size())
        return r;
    r.equal = false;
    r.firstDifference = i;

    const std::string streamText = m_tokenizer.decode(stream);
    const std::string renderedText = m_tokenizer.decode(expected);
    if (streamText == renderedText) {
        r.cause = StreamDifferenceCause::Tokenization;
    } else if (chatformat::withoutThink(streamText) == chatformat::withoutThink(renderedText)) {
        r.cause = StreamDifferenceCause::Think;
    } else {
        ChatEpisode trimmed = episode;
        for (ChatTurn& t : trimmed.turns)
            if (t.action)
                t.action = chatformat::strip(*t.action);
        const bool ofThisEpisode = streamText == m_tokenizer.decode(this->stream(episode));
        r.cause = ofThisEpisode && m_tokenizer.decode(this->stream(trimmed)) == renderedText
            ? StreamDifferenceCause::Whitespace
            : StreamDifferenceCause::Other;
    }

    // Where the difference is: the stream's chunks are the goal's, then per turn the observation's and the action's
    // (the sampled ids up to and including the end of turn).
    std::string where = "the end of the stream";
    std::size_t pos = goal(episode.goal).size();
    if (i < pos)
        where = "the goal";
    bool afterAction = false;
    for (std::size_t t = 0; t < episode.turns.size() && i >= pos; ++t) {
        const std::string turn = "turn " + std::to_string(t + 1);
        pos += observation(episode.turns[t].observation, afterAction).size();
        if (i < pos) {
            where = turn + " (the observation's chunk)";
            break;
        }
        if (episode.turns[t].action) {
            const auto from = stream.begin() + static_cast<std::ptrdiff_t>(std::min(pos, stream.size()));
            pos = static_cast<std::size_t>(std::find(from, stream.end(), m_endOfTurn) - stream.begin()) + 1;
            if (i < pos) {
                where = turn + " (the action)";
                break;
            }
        }
        afterAction = episode.turns[t].action.has_value();
    }
    // A few tokens of context, then up to the next end of turn.
    const auto window = [&](std::span<const std::int32_t> ids) {
        const std::size_t begin = i >= 3 ? i - 3 : 0;
        std::size_t end = i;
        while (end < ids.size() && end < i + 24 && (end == i || ids[end - 1] != m_endOfTurn))
            ++end;
        const std::string text = m_tokenizer.decode(ids.subspan(begin, end - begin));
        return "'" + std::string(begin > 0 ? "..." : "") + chatformat::quoted(text, 400)
            + (end < ids.size() ? "...'" : "'");
    };
    const auto ids = [&](std::span<const std::int32_t> v) {
        std::string s = "[";
        for (std::size_t k = i; k < std::min(v.size(), i + 8); ++k)
            s += (k > i ? ", " : "") + std::to_string(v[k]);
        return s + (v.size() > i + 8 ? ", ...]" : "]");
    };
    if (r.cause == StreamDifferenceCause::Tokenization) {
        r.difference = where + ": the same text, other ids: from token " + std::to_string(i)
            + " the template's render gives " + ids(expected) + " but the stream holds " + ids(stream) + " (around "
            + window(stream) + ")";
        return r;
    }
    r.difference
        = where + ": the template renders history as " + window(expected) + " but the stream holds " + window(stream);
    if (r.cause == StreamDifferenceCause::Think)
        r.difference += " (only <think> reasoning differs: the template takes it out of history or adds empty blocks)";
    else if (r.cause == StreamDifferenceCause::Whitespace)
        r.difference += " (only whitespace around an action differs: the template trims message content)";
    return r;
}

void ChatFormat::runAppendCheck()
{
    const std::string plain[3] = { "go to countertop 1", "take mug 1 from countertop 1", "go to sinkbasin 1" };
    const std::string spaced[3] = { " go to countertop 1", "take mug 1 from countertop 1\n", "  go to sinkbasin 1 " };
    const std::string thinking[3] = {
        "<think>\nThe mug is likely on the countertop.\n</think>\n\ngo to countertop 1",
        "<think>\nThere is the mug; take it.\n</think>\n\ntake mug 1 from countertop 1",
        "<think>\nIt must be cleaned before it goes in the coffeemachine.\n</think>\n\ngo to sinkbasin 1",
    };
    const std::pair<const char*, const std::string(&)[3]> probes[] = {
        { "plain actions", plain },
        { "actions with surrounding whitespace", spaced },
        { "actions with <think> reasoning", thinking },
    };
    m_check = {};
    m_check.appendOnly = true;
    bool allThink = true;
    for (const auto& [name, actions] : probes) {
        AppendProbe p;
        p.name = name;
        p.episode = probeEpisode(actions);
        p.result = compare(p.episode, stream(p.episode));
        if (!p.result.equal) {
            if (m_check.appendOnly)
                m_check.difference = p.name + ": " + p.result.difference;
            m_check.appendOnly = false;
            allThink = allThink && p.result.cause == StreamDifferenceCause::Think;
        }
        m_check.probes.push_back(std::move(p));
    }
    m_check.thinkOnly = !m_check.appendOnly && allThink;
}

} // namespace creditlab::hf
