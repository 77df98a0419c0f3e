// The searchqa rules: parsing and executing actions, observations, the progress potential, the canonical state
// key, the oracle, the admissible commands and the two experts.
//
// Progress potential (phi in [0, 1], 1 exactly on a correct answer). A question of h hops has a chain of h
// entities; the passage of each states the next link (the last one states the answer). With k the number of
// chain passages shown in order from the start (hopsKnown()):
//   before answering    0.9 * k / h
//   after an answer     1 when correct, 0 when wrong
//
// Canonical state key: "known=<k>/<h>|read=<ids of the passages shown, sorted>|answer=<normalised or ->": what
// the agent has read decides what it can do next; the order it read it in does not.
//
// Oracle roles (TRIAGE's taxonomy with household_oracle.cpp's rules, plus two for question answering), first
// that applies:
//   R  the action is invalid (neither a search nor an answer, or an empty one);
//   D  a correct answer; R a wrong answer (the episode ends short of the goal);
//   R  a search repeating one made before, word for word: it can show nothing new;
//   D  progress rises (a search that shows the next passage of the chain);
//   E  a search that shows a passage not shown before without progress (another chain passage out of order,
//      or an unrelated one);
//   N  otherwise (a new query showing only passages already read).
#include "core/env/searchqa.h"

#include "core/env/household_rules.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

namespace creditlab::env::searchqa {

namespace {

constexpr const char* kInvalid = "Invalid action: search with <search>query</search> or answer with "
                                 "<answer>text</answer>.";

std::string_view trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

/// The content of the first `<tag>...</tag>` of `tags` in `text` (tags case-insensitive); -1 when none.
int firstTagged(std::string_view text, std::string_view& content)
{
    std::string lower(text);
    for (char& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static const char* tags[] = { "search", "answer" };
    int best = -1;
    std::size_t bestAt = std::string::npos;
    for (int t = 0; t < 2; ++t) {
        const std::string open = std::string("<") + tags[t] + ">";
        const std::string close = std::string("</") + tags[t] + ">";
        const std::size_t at = lower.find(open);
        if (at == std::string::npos || at >= bestAt)
            continue;
        const std::size_t end = lower.find(close, at + open.size());
        if (end == std::string::npos)
            continue;
        best = t;
        bestAt = at;
        content = trimmed(text.substr(at + open.size(), end - at - open.size()));
    }
    return best;
}

} // namespace

std::vector<credit::ParamSpec> SearchQaEnv::paramSpecs()
{
    using credit::ParamType;
    return {
        { "max_steps", ParamType::Int, "6", 1, 100000, {}, "step limit of an episode (three hops need four)" },
        { "kb_size", ParamType::Int, std::to_string(kDefaultKbSize), 60, 1000000, {},
            "entities (and passages) in the generated knowledge base" },
        { "kb_seed", ParamType::Int, "0", 0, 2147483647, {}, "seed of the generated knowledge base" },
        { "top_k", ParamType::Int, "3", 1, 50, {}, "passages a search returns (Search-R1 retrieves 3)" },
    };
}

SearchQaEnv::SearchQaEnv()
    : SearchQaEnv(credit::Params::resolve("searchqa", paramSpecs(), {}))
{
}

SearchQaEnv::SearchQaEnv(const credit::Params& params)
    : m_kb(KnowledgeBase::shared(
        static_cast<std::uint64_t>(params.getInt("kb_seed")), static_cast<int>(params.getInt("kb_size"))))
    , m_maxSteps(static_cast<int>(params.getInt("max_steps")))
    , m_topK(static_cast<int>(params.getInt("top_k")))
{
}

const std::string& SearchQaEnv::reset(std::uint64_t seed, Split split)
{
    m_question = m_kb->drawQuestion(seed, split);
    m_seed = seed;
    m_split = split;
    m_ready = true;
    m_done = false;
    m_steps = 0;
    m_read.clear();
    m_lastResults.clear();
    m_queries.clear();
    m_repeatedQuery = false;
    m_newPassage = false;
    m_answered = false;
    m_correct = false;
    m_answer.clear();
    m_progress = potential();
    m_admissibleStale = true;
    m_result = StepResult {};
    m_result.info.progress = m_progress;
    m_result.info.stateAfter = stateKey();
    m_initial = "Answer the question. To look something up, search the knowledge base with <search>query</search>: "
                "the top passages come back between <information> and </information>. Give the final answer with "
                "<answer>text</answer>.\nQuestion: "
        + m_question.text;
    return m_initial;
}

bool SearchQaEnv::hasRead(int passage) const { return std::binary_search(m_read.begin(), m_read.end(), passage); }

int SearchQaEnv::hopsKnown() const
{
    int k = 0;
    while (k < m_question.hops() && hasRead(m_question.chain[static_cast<std::size_t>(k)]))
        ++k;
    return k;
}

double SearchQaEnv::potential() const
{
    if (m_answered)
        return m_correct ? 1.0 : 0.0;
    return 0.9 * hopsKnown() / static_cast<double>(m_question.hops());
}

bool SearchQaEnv::execute(std::string_view action)
{
    std::string_view content;
    const int tag = firstTagged(action, content);
    if (tag == 0) {
        const std::string query = shop::SearchIndex::joinedWords(content);
        if (query.empty())
            return false;
        m_repeatedQuery = std::find(m_queries.begin(), m_queries.end(), query) != m_queries.end();
        if (!m_repeatedQuery)
            m_queries.push_back(query);
        m_lastResults = m_kb->search(query, m_topK);
        m_newPassage = false;
        std::string& out = m_result.feedback;
        out.assign("<information>");
        if (m_lastResults.empty())
            out += "No passages found.";
        for (std::size_t i = 0; i < m_lastResults.size(); ++i) {
            const int p = m_lastResults[i];
            // Search-R1's _passages2string: "Doc 1(Title: ...) text", one per line.
            out += (i ? "\n" : "") + std::string("Doc ") + std::to_string(i + 1) + "(Title: " + m_kb->entity(p).name
                + ") " + m_kb->passage(p);
            if (!hasRead(p)) {
                m_read.insert(std::lower_bound(m_read.begin(), m_read.end(), p), p);
                m_newPassage = true;
            }
        }
        out += "</information>";
        return true;
    }
    if (tag == 1) {
        const std::string answer = normalizeAnswer(content);
        if (answer.empty())
            return false;
        m_answer = answer;
        m_answered = true;
        m_correct = answer == normalizeAnswer(m_question.answer);
        m_result.feedback = (m_correct ? "Correct: the answer is " : "Wrong: the answer is ") + m_question.answer + ".";
        return true;
    }
    return false;
}

const StepResult& SearchQaEnv::step(std::string_view action)
{
    if (!m_ready)
        throw std::logic_error("searchqa: step() before reset()");
    if (m_done)
        throw std::logic_error("searchqa: step() after the episode ended");
    StepInfo& info = m_result.info;
    info.stateBefore.swap(info.stateAfter);
    info.progressBefore = m_progress;
    m_repeatedQuery = false;
    m_newPassage = false;

    const bool valid = execute(action);
    ++m_steps;
    m_admissibleStale = true;
    if (!valid)
        m_result.feedback.assign(kInvalid);
    m_progress = potential();
    m_done = m_answered || m_steps >= m_maxSteps;
    m_result.done = m_done;
    m_result.success = m_answered && m_correct;
    m_result.reward = m_result.success ? 1.0 : 0.0;
    info.valid = valid;
    info.progress = m_progress;
    info.gainedInformation = valid && m_newPassage;
    info.stateAfter = stateKey();
    if (valid && m_answered)
        info.role = m_correct ? Role::D : Role::R;
    else if (valid && m_repeatedQuery)
        info.role = Role::R;
    else
        info.role = household::oracleRole(valid, info.progressBefore, m_progress, info.gainedInformation, false);
    return m_result;
}

const std::vector<std::string>& SearchQaEnv::admissibleCommands() const
{
    if (!m_admissibleStale)
        return m_admissible;
    m_admissibleStale = false;
    m_admissible.clear();
    if (!m_ready || m_done)
        return m_admissible;
    std::set<std::string> seen;
    const auto add = [&](const char* tag, const std::string& text) {
        std::string command = std::string("<") + tag + ">" + text + "</" + tag + ">";
        if (seen.insert(command).second)
            m_admissible.push_back(std::move(command));
    };
    add("search", m_question.text);
    add("search", m_kb->entity(m_question.chain.front()).name);
    for (const int p : m_read) {
        add("search", m_kb->entity(p).name);
        for (const int m : m_kb->mentions(p))
            add("search", m_kb->entity(m).name);
    }
    for (const int p : m_read) {
        add("answer", m_kb->entity(p).name);
        for (const int m : m_kb->mentions(p))
            add("answer", m_kb->entity(m).name);
        for (const std::string& literal : m_kb->literals(p))
            add("answer", literal);
    }
    return m_admissible;
}

bool SearchQaEnv::expertAction(std::string& out) const
{
    if (!m_ready || m_done)
        return false;
    const int k = hopsKnown();
    if (k < m_question.hops())
        out = "<search>" + m_kb->entity(m_question.chain[static_cast<std::size_t>(k)]).name + "</search>";
    else
        out = "<answer>" + m_question.answer + "</answer>";
    return true;
}

bool SearchQaEnv::searchExpertAction(std::string& out) const
{
    if (!m_ready || m_done)
        return false;
    // Every name it searches after the first query was read: the start in the question, chain[k] in the passage
    // of chain[k - 1], which hopsKnown() says was shown; the answer in the passage of the last link.
    if (m_queries.empty()) {
        out = "<search>" + m_question.text + "</search>";
        return true;
    }
    return expertAction(out);
}

std::string SearchQaEnv::taskKey() const
{
    std::string key = "searchqa:seed=" + std::to_string(m_seed);
    if (m_split == Split::Eval)
        key += ":split=eval";
    // Another knowledge base is another task space: name it unless it is the default one.
    if (m_kb->seed() != 0 || m_kb->entities().size() != static_cast<std::size_t>(kDefaultKbSize))
        key += ":kb=" + std::to_string(m_kb->seed()) + "/" + std::to_string(m_kb->entities().size());
    return key;
}

std::string SearchQaEnv::stateKey() const
{
    std::string key = "known=" + std::to_string(hopsKnown()) + "/" + std::to_string(m_question.hops()) + "|read=";
    if (m_read.empty())
        key += "-";
    for (std::size_t i = 0; i < m_read.size(); ++i)
        key += (i ? "," : "") + std::to_string(m_read[i]);
    key += "|answer=" + (m_answered ? m_answer : std::string("-"));
    return key;
}

} // namespace creditlab::env::searchqa
