#pragma once

// Agent episodes in a model's chat format, token in and token out (issue 34). An episode is a goal, then turns of
// (observation, action): the goal and each observation are user messages, each action an assistant message that
// ends with the template's end-of-turn token (Qwen <|im_end|>, Llama 3 <|eot_id|>). The trainer keeps one token
// stream per episode: it appends the goal's chunk, then each observation's chunk, and after each the policy samples
// the action's ids up to and including the end of turn; sampled ids are never decoded and re-encoded.
// ChatFormat derives those chunks once from the chat template by rendering probe conversations made of sentinel
// strings, and measures whether the stream equals what the template renders over the whole conversation
// (append-only) or how it differs. docs/hf-chat-episodes.md has the chunks of Qwen2.5, Qwen3 and Llama 3.

#include "core/hf/chatrender.h"
#include "core/hf/jinja.h"
#include "core/hf/tokenizer.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::hf {

struct ChatFormatOptions {
    std::optional<std::string> systemPrompt; ///< a system message first; unset: whatever the template does without one
    nlohmann::ordered_json extra = nlohmann::ordered_json::object(); ///< template kwargs: {"enable_thinking": false}
    std::vector<std::int32_t> extraStopTokens; ///< after the end of turn in stopTokens() (generation_config's EOS)
    jinja::Clock clock; ///< read once, at build (strftime_now); unset: the system clock
};

/// One turn of an episode. Only the last turn may lack an action (an episode that ended on an observation, whose
/// stream ends with the generation prompt).
struct ChatTurn {
    std::string observation;
    std::optional<std::string> action; ///< the action's text as the policy sampled it, end of turn not included
};

struct ChatEpisode {
    std::string goal;
    std::vector<ChatTurn> turns;
};

/// Why a stream differs from the template's render of the same conversation.
enum class StreamDifferenceCause {
    None, ///< they are equal
    Think, ///< only <think>...</think> reasoning differs (Qwen3 drops it from history, adds empty blocks)
    Whitespace, ///< only whitespace around an action's content differs (Llama 3 `| trim`s content)
    Tokenization, ///< the same text, other ids (a sampled action that is not the tokenizer's own encoding)
    Other,
};

/// A token stream against the template's render of its conversation.
struct StreamComparison {
    bool equal = true;
    StreamDifferenceCause cause = StreamDifferenceCause::None;
    std::size_t firstDifference = 0; ///< the index of the first differing token (when not equal)
    std::string difference; ///< "turn 2 (the action): the template renders history as '...' but the stream holds
                            ///< '...'"; empty when equal
};

/// One probe conversation of the append-only check and its result.
struct AppendProbe {
    std::string name; ///< "plain actions", "actions with surrounding whitespace", "actions with <think> reasoning"
    ChatEpisode episode;
    StreamComparison result;
};

/// Whether streams built chunk by chunk equal the template's render, measured on realistic probe episodes (a goal,
/// three observations, three actions such as "go to countertop 1"). The metric the trainer logs.
struct AppendCheck {
    bool appendOnly = false; ///< every probe's stream equals its render
    bool thinkOnly = false; ///< not append-only, and every difference is <think> reasoning
    std::string difference; ///< the first failing probe's name and difference; empty when append-only
    std::vector<AppendProbe> probes;
};

/// The texts the chunks are made of, as the template renders them (for the Tokens view and the docs).
struct ChatPieces {
    std::string prefix; ///< before the goal's content: BOS, system message, user header
    std::string goalClose; ///< after the goal's content in goal(): up to and including the first special token
    std::string leadAfterGoal; ///< starts the first observation's chunk: what follows goalClose, the user header
    std::string leadAfterAction; ///< starts an observation's chunk after an action: after the end of turn, user header
    std::string generationPrompt; ///< after an observation's content: the user close and the assistant header
    std::string finalTail; ///< after the end of turn of a conversation's last action ("\n" for ChatML)
    std::string endOfTurn; ///< "<|im_end|>"
    bool trimsUserContent = false; ///< the template trims a message's content, so goal() and observation() do
};

/// An episode format derived from one chat template and tokenizer. Immutable after build(); any thread.
class ChatFormat {
public:
    /// Renders probe conversations of sentinel strings (with and without add_generation_prompt) and splits them into
    /// the pieces. Throws HfError naming the template when it is not usable: a message's content not rendered
    /// verbatim (or trimmed), no generation prompt, the text after an assistant's content not starting with a special
    /// token (the end of turn), no special token between two user messages, pieces that differ from turn to turn, or
    /// chunks whose separate tokenisation differs from the whole render's. Then runs the append check.
    static ChatFormat build(const Tokenizer& tokenizer, const jinja::Template& chatTemplate, const ChatTokens& tokens,
        const ChatFormatOptions& options = {});

    /// The stream's start: everything the template renders before and including the goal's user message (BOS if
    /// the template writes it, the system message if configured or the template's default one), up to and including
    /// the first special token after the content (its end of turn; ChatML's "\n" after it starts the next chunk).
    std::vector<std::int32_t> goal(std::string_view goalText) const;
    /// The chunk after the goal (`afterAction` false) or after an action's end of turn: the end of the previous
    /// message, the observation as a user message and the generation prompt, so that the next sampled token starts
    /// the assistant's content. Tokenised as one string.
    std::vector<std::int32_t> observation(std::string_view text, bool afterAction) const;
    /// The end of turn first, then the tokenizer's EOS if it differs, then options.extraStopTokens (no repeats).
    const std::vector<std::int32_t>& stopTokens() const { return m_stopTokens; }
    std::int32_t endOfTurn() const { return m_endOfTurn; }

    /// The stream the trainer builds for `episode`: goal, observation chunks, and each action as encode(text) plus
    /// the end of turn. Throws std::invalid_argument when there is no turn or a turn other than the last lacks an
    /// action (so do renderText(), renderConversation() and compare()).
    std::vector<std::int32_t> stream(const ChatEpisode& episode) const;
    /// apply_chat_template over the whole conversation, as transformers would give it: the text, and its ids
    /// (add_generation_prompt when the last turn has no action).
    std::string renderText(const ChatEpisode& episode) const;
    std::vector<std::int32_t> renderConversation(const ChatEpisode& episode) const;
    /// `stream` (as sampled, or stream(episode)) against renderConversation(episode), ignoring finalTail after the
    /// last end of turn (the stream stops at the end of turn).
    StreamComparison compare(const ChatEpisode& episode, std::span<const std::int32_t> stream) const;

    const AppendCheck& appendCheck() const { return m_check; }
    const ChatPieces& pieces() const { return m_pieces; }
    const std::string& templateName() const { return m_template.name(); }
    const Tokenizer& tokenizer() const { return m_tokenizer; }

private:
    ChatFormat(Tokenizer tokenizer, jinja::Template chatTemplate);
    nlohmann::ordered_json messages(const ChatEpisode& episode) const;
    std::string render(const nlohmann::ordered_json& messages, bool addGenerationPrompt) const;
    std::string userContent(std::string_view text) const;
    [[noreturn]] void fail(const std::string& what) const;
    void derive();
    void checkChunks();
    void runAppendCheck();

    Tokenizer m_tokenizer;
    jinja::Template m_template;
    ChatTokens m_tokens;
    ChatFormatOptions m_options;
    ChatPieces m_pieces;
    std::int32_t m_endOfTurn = 0;
    std::vector<std::int32_t> m_stopTokens;
    AppendCheck m_check;
};

} // namespace creditlab::hf
