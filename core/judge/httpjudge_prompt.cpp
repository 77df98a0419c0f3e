// The http judge's prompt, window and answer parser (triage.md §3).

#include "core/judge/httpjudge.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace creditlab::judge {

namespace {

constexpr std::size_t kWindow = 5; // triage.md §3.2: five pairs before and after

std::string_view trim(std::string_view s)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    return s;
}

std::string immediateObservation(const Trajectory& t, std::size_t k)
{
    if (t.turns[k].feedback)
        return *t.turns[k].feedback;
    if (k + 1 < t.turns.size())
        return t.turns[k + 1].observation;
    return "(none)";
}

void appendPair(std::string& out, const Trajectory& t, std::size_t k)
{
    out += "Step " + std::to_string(k + 1) + "\nACTION: " + t.turns[k].action
        + "\nOBSERVATION: " + immediateObservation(t, k) + "\n";
}

} // namespace

const std::string& judgeSystemPrompt()
{
    // triage.md §3.4 verbatim up to OUTPUT FORMAT; the output format asks for the current step only (§8.3).
    static const std::string prompt = R"(You are an expert evaluator of multi-turn agent trajectories.

You will see a local window around one target segment: the task, up to
five previous action-observation pairs, the CURRENT action and observation,
and up to five future action-observation pairs. Classify only the CURRENT
action into ONE of four roles:

    D (DECISIVE)    The action completes a required sub-goal or makes a
                    verifier-checkable state change directly required by
                    the task (e.g. takes the target object, performs a
                    required transformation like cool/heat/clean, places
                    the target in the destination, executes the final
                    purchase, selects a task-mandated attribute).

    E (EXPLORATION) The action gathers information or visits a new state
                    for the first time without completing a sub-goal.
                    First-time inspection of a container, first navigation
                    to a candidate location, an initial search query,
                    a refined search after recognizing a wrong commitment.

    N (NO-PROGRESS) The action neither changes the task state nor reveals
                    new information. Empty-handed traversal, harmless
                    duplicate after task completion, generic navigation
                    through an irrelevant location with no investigation.

    R (REGRESSION)  Clear setback: the action either corrupts state,
                    picks the wrong object, commits to a non-matching
                    product, performs the wrong transformation, OR is a
                    redundant repeat of an already-completed action that
                    yields no new information ("examine X" when X was just
                    examined; re-click of an already-selected attribute;
                    re-purchase after success).

CALIBRATION RULES
    - Judge LOCAL causal role using only the supplied window. Do not infer
        credit from distant recovery or distant failure outside the window.
    - For the current step, provide brief evidence grounded in the local
        action/observation, e.g. "first inspection reveals new object",
        "repeat with no new information", or "correct target acquired".
    - First-time examine/inspect = E. Second-time examine of the same
        target without state change = R.
    - "Nothing happens." in observation means the action was invalid;
        if action repeats, label R.
    - A buy/place/take/heat/cool of the correct target = D.
    - Re-click of already-selected attribute = R, even if the local observation
        reports success.

OUTPUT FORMAT
After your reasoning, output ONLY a JSON object on a single line at
the very end, for the CURRENT step only:
{"role": "D"|"E"|"N"|"R", "rationale": "short evidence", "confidence": number between 0 and 1})";
    return prompt;
}

std::string judgeWindow(const Trajectory& t, std::size_t k)
{
    if (k >= t.turns.size())
        throw std::out_of_range("judgeWindow: turn " + std::to_string(k) + " of a trajectory with "
            + std::to_string(t.turns.size()) + " turns");
    const std::size_t first = k >= kWindow ? k - kWindow : 0;
    const std::size_t last = std::min(t.turns.size() - 1, k + kWindow);
    std::string out = "TASK: " + t.task.goal.value_or("(no goal given)") + "\n\n";
    out += "INITIAL OBSERVATION:\n" + t.turns[first].observation + "\n\n";
    out += "PREVIOUS STEPS:\n";
    if (first == k)
        out += "(none)\n";
    for (std::size_t j = first; j < k; ++j)
        appendPair(out, t, j);
    out += "\nCURRENT STEP:\n";
    appendPair(out, t, k);
    out += "\nFUTURE STEPS:\n";
    if (last == k)
        out += "(none)\n";
    for (std::size_t j = k + 1; j <= last; ++j)
        appendPair(out, t, j);
    out += "\nClassify the CURRENT step (step " + std::to_string(k + 1) + ").";
    return out;
}

ChatAnswer parseChatAnswer(std::string_view content)
{
    std::string_view s = trim(content);
    // A thinking model's reasoning, when the server leaves it in the content.
    if (s.starts_with("<think>")) {
        const auto end = s.find("</think>");
        if (end == std::string_view::npos)
            throw std::runtime_error("answer: unterminated <think> block");
        s = trim(s.substr(end + 8));
    }
    if (s.starts_with("```")) {
        const auto nl = s.find('\n');
        const std::string_view info = nl == std::string_view::npos ? s.substr(3) : trim(s.substr(3, nl - 3));
        if (nl == std::string_view::npos || !(info.empty() || info == "json") || !s.ends_with("```")
            || s.size() < nl + 4)
            throw std::runtime_error("answer: malformed code fence");
        s = trim(s.substr(nl + 1, s.size() - nl - 1 - 3));
    }
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(s);
    } catch (const nlohmann::json::exception& e) { // a syntax error, or a number beyond double's range (1e999)
        throw std::runtime_error(std::string("answer is not JSON: ") + e.what());
    }
    if (!j.is_object())
        throw std::runtime_error("answer is not a JSON object");
    const auto role = j.find("role");
    if (role == j.end() || !role->is_string())
        throw std::runtime_error("answer has no string 'role'");
    ChatAnswer a;
    const auto parsed = parseRole(role->get<std::string>());
    if (!parsed)
        throw std::runtime_error("answer role '" + role->get<std::string>() + "' is not D, E, N or R");
    a.role = *parsed;
    if (const auto r = j.find("rationale"); r != j.end() && !r->is_null()) {
        if (!r->is_string())
            throw std::runtime_error("answer 'rationale' is not a string");
        a.rationale = r->get<std::string>();
    }
    if (const auto c = j.find("confidence"); c != j.end() && !c->is_null()) {
        if (!c->is_number() || c->get<double>() < 0.0 || c->get<double>() > 1.0)
            throw std::runtime_error("answer 'confidence' is not a number in [0, 1]");
        a.confidence = c->get<double>();
    }
    return a;
}

} // namespace creditlab::judge
