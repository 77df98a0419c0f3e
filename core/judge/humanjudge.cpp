#include "core/judge/humanjudge.h"

#include "core/judge/noisyjudge.h"

#include <algorithm>
#include <set>

namespace creditlab::judge {

namespace {

constexpr std::string_view kAnnotator = "annotator";
constexpr std::string_view kBacking = "backing";

bool isOwnKey(const std::string& key) { return key == kAnnotator || key == kBacking; }

} // namespace

std::string HumanLabelIndex::key(const std::string& task, const std::string& state, const std::string& action)
{
    // Length-prefixed, so no task, state or action text can make two different triples collide.
    return std::to_string(task.size()) + '\x1f' + task + '\x1f' + std::to_string(state.size()) + '\x1f' + state
        + '\x1f' + action;
}

HumanLabelIndex HumanLabelIndex::build(const std::vector<LabelledTurn>& labels)
{
    struct Votes {
        std::array<int, 4> count {};
        std::array<std::int64_t, 4> latest { -1, -1, -1, -1 };
        std::array<std::size_t, 4> latestLabel {};
    };
    std::unordered_map<std::string, Votes> votes;
    std::set<std::string> tasks;
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const LabelledTurn& l = labels[i];
        if (l.task.empty())
            continue;
        Votes& v = votes[key(l.task, l.state, l.action)];
        const auto r = static_cast<std::size_t>(l.role);
        ++v.count[r];
        if (l.order >= v.latest[r]) {
            v.latest[r] = l.order;
            v.latestLabel[r] = i;
        }
        tasks.insert(l.task);
    }
    HumanLabelIndex index;
    index.m_labelCount = labels.size();
    index.m_tasks.assign(tasks.begin(), tasks.end());
    index.m_entries.reserve(votes.size());
    for (auto& [k, v] : votes) {
        std::size_t best = 0;
        for (std::size_t r = 1; r < 4; ++r)
            if (v.count[r] > v.count[best] || (v.count[r] == v.count[best] && v.latest[r] > v.latest[best]))
                best = r;
        index.m_entries.emplace(k, Match { static_cast<Role>(best), labels[v.latestLabel[best]].annotator });
    }
    return index;
}

const HumanLabelIndex::Match* HumanLabelIndex::find(
    const std::string& task, const std::string& state, const std::string& action) const
{
    const auto it = m_entries.find(key(task, state, action));
    return it == m_entries.end() ? nullptr : &it->second;
}

const std::vector<credit::ParamSpec>& HumanJudge::params()
{
    static const std::vector<credit::ParamSpec> specs = [] {
        std::vector<credit::ParamSpec> s {
            { std::string(kAnnotator), credit::ParamType::Text, "", {}, {}, {},
                "whose labels (empty: every annotator's, by majority); matched on task, state and action" },
            { std::string(kBacking), credit::ParamType::Choice, "oracle", {}, {}, { "oracle", "noisy" },
                "the judge for turns no human labelled" },
        };
        for (credit::ParamSpec spec : NoisyJudge::params()) {
            spec.doc = "backing=noisy: " + spec.doc;
            s.push_back(std::move(spec));
        }
        return s;
    }();
    return specs;
}

std::unique_ptr<HumanJudge> HumanJudge::create(
    const std::vector<std::pair<std::string, std::string>>& assignments, Store* store)
{
    std::vector<std::pair<std::string, std::string>> own;
    std::vector<std::pair<std::string, std::string>> backingKeys;
    for (const auto& a : assignments)
        (isOwnKey(a.first) ? own : backingKeys).push_back(a);
    std::vector<credit::ParamSpec> ownSpecs(params().begin(), params().begin() + 2);
    const credit::Params p = credit::Params::resolve(std::string(kName), ownSpecs, own);
    const std::string& backingName = p.getChoice(std::string(kBacking));
    if (backingName == "oracle" && !backingKeys.empty()) {
        // Unknown keys and noisy keys without backing=noisy are both mistakes; name the key either way.
        const auto& k = backingKeys.front().first;
        const auto& noisy = NoisyJudge::params();
        const bool isNoisyKey
            = std::any_of(noisy.begin(), noisy.end(), [&](const credit::ParamSpec& s) { return s.name == k; });
        if (isNoisyKey)
            throw credit::ParamError("judge human: " + k + " applies only with backing=noisy");
        throw credit::ParamError("judge human: unknown parameter '" + k + "' (annotator, backing, and with "
            + "backing=noisy: accuracy, matrix, success_matrix, seed)");
    }
    auto backing = makeJudge(backingName, backingKeys);
    auto judge = std::unique_ptr<HumanJudge>(new HumanJudge(p.getText(std::string(kAnnotator)), std::move(backing), store));
    judge->reload();
    return judge;
}

HumanJudge::HumanJudge(std::string annotator, std::unique_ptr<Judge> backing, Store* store)
    : m_annotator(std::move(annotator))
    , m_backing(std::move(backing))
    , m_store(store)
{
}

std::string HumanJudge::tag() const
{
    return std::string(kName) + ":annotator=" + (m_annotator.empty() ? "*" : m_annotator)
        + ",backing=" + m_backing->tag();
}

HumanLabelIndex HumanJudge::labelIndex(Store& store, const std::string& annotator)
{
    return HumanLabelIndex::build(store.humanLabelledTurns(annotator));
}

void HumanJudge::reload()
{
    if (m_store)
        m_index = labelIndex(*m_store, m_annotator);
}

void HumanJudge::restart(std::uint64_t stream)
{
    m_backing->restart(stream);
    reload();
    m_judged = 0;
    m_human = 0;
}

std::vector<Verdict> HumanJudge::judge(const Trajectory& t, std::span<const std::optional<Role>> oracle)
{
    // The backing judge sees every turn (its random stream stays the same whether or not people labelled),
    // then human labels replace its verdicts where they exist.
    std::vector<Verdict> out = m_backing->judge(t, oracle);
    out.resize(t.turns.size());
    const std::string task = t.task.key.value_or(std::string());
    for (std::size_t k = 0; k < t.turns.size(); ++k) {
        ++m_judged;
        if (task.empty())
            continue;
        const Turn& turn = t.turns[k];
        if (const auto* match = m_index.find(task, turn.stateKey(), turn.action)) {
            out[k].role = match->role;
            out[k].score = roleScore(match->role);
            out[k].source = "human:" + match->annotator;
            ++m_human;
        }
    }
    return out;
}

} // namespace creditlab::judge
