#include "core/learn/api/contamination.h"

#include "core/env/environment.h"
#include "core/env/episode.h"
#include "core/env/policy.h"
#include "core/learn/api/rng.h"
#include "core/model/progress.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <set>
#include <stdexcept>

namespace creditlab::learn {

namespace {

bool startsWith(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }

/// Every "name N" the text mentions after "a " (household lists things as "a cabinet 4, a mug 1").
std::vector<std::string> mentionedNames(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t i = 0;
    while ((i = text.find("a ", i)) != std::string::npos) {
        const bool wordStart = i == 0 || text[i - 1] == ' ';
        std::size_t k = i + 2;
        i += 2;
        if (!wordStart)
            continue;
        std::size_t w = k;
        while (w < text.size() && std::isalpha(static_cast<unsigned char>(text[w])))
            ++w;
        if (w == k || w + 1 >= text.size() || text[w] != ' ' || !std::isdigit(static_cast<unsigned char>(text[w + 1])))
            continue;
        std::size_t d = w + 1;
        while (d < text.size() && std::isdigit(static_cast<unsigned char>(text[d])))
            ++d;
        out.push_back(text.substr(k, d - k));
    }
    return out;
}

bool mentions(const std::string& text, const std::string& name)
{
    for (const auto& n : mentionedNames(text))
        if (n == name)
            return true;
    return false;
}

/// Where the agent stands before turn `j`: the receptacle of the last "go to" among the gold actions.
std::string locationBefore(const std::vector<Turn>& gold, int j)
{
    for (int k = j - 1; k >= 0; --k)
        if (startsWith(gold[k].action, "go to "))
            return gold[k].action.substr(6);
    return {};
}

/// The action with its last "name N" renumbered to a number no household room has.
std::string renumbered(const std::string& action)
{
    std::size_t end = action.size();
    while (end > 0 && !std::isdigit(static_cast<unsigned char>(action[end - 1])))
        --end;
    std::size_t begin = end;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(action[begin - 1])))
        --begin;
    if (begin == end)
        return {};
    return action.substr(0, begin) + std::to_string(std::stoi(action.substr(begin, end - begin)) + 37)
        + action.substr(end);
}

std::vector<std::string> toolMisuse(const std::vector<Turn>& gold, int j)
{
    const std::string& a = gold[j].action;
    std::vector<std::string> out;
    const auto swapVerb = [&](const std::string& from, const std::vector<std::string>& to) {
        if (startsWith(a, from))
            for (const auto& verb : to)
                out.push_back(verb + a.substr(from.size()));
    };
    swapVerb("clean ", { "heat ", "cool " });
    swapVerb("heat ", { "cool ", "clean " });
    swapVerb("cool ", { "heat ", "clean " });
    swapVerb("open ", { "close ", "use " });
    swapVerb("close ", { "open " });
    swapVerb("go to ", { "use ", "close " });
    swapVerb("use ", { "open " });
    const auto from = a.find(" from ");
    if (startsWith(a, "take ") && from != std::string::npos) {
        out.push_back("put " + a.substr(5, from - 5) + " in/on " + a.substr(from + 6));
        out.push_back(a.substr(0, from)); // "take mug 1": the receptacle argument missing
    }
    const auto in = a.find(" in/on ");
    if (startsWith(a, "put ") && in != std::string::npos)
        out.push_back("take " + a.substr(4, in - 4) + " from " + a.substr(in + 7));
    if (const auto wrong = renumbered(a); !wrong.empty())
        out.push_back(wrong);
    return out;
}

std::vector<std::string> observationMisinterpretation(const std::vector<Turn>& gold, int j)
{
    const std::string& observation = gold[j].observation;
    const std::string here = locationBefore(gold, j);
    std::vector<std::string> out;
    if (here.empty())
        return out;
    if (observation.find("The " + here + " is open") != std::string::npos)
        out.push_back("open " + here);
    // Objects the episode shows elsewhere (not the scene's receptacles), taken from here although this
    // observation does not list them here.
    const auto receptacles = mentionedNames(gold.front().observation);
    std::set<std::string> seen;
    for (const auto& turn : gold)
        for (const auto& name : mentionedNames(turn.observation + " " + turn.feedback.value_or("")))
            if (std::find(receptacles.begin(), receptacles.end(), name) == receptacles.end()
                && !mentions(observation, name) && seen.insert(name).second)
                out.push_back("take " + name + " from " + here);
    return out;
}

std::vector<std::string> staleMemory(const std::vector<Turn>& gold, int j)
{
    std::vector<std::string> out;
    for (int k = j - 2; k >= 0; --k) {
        const std::string& a = gold[k].action;
        if ((startsWith(a, "take ") || startsWith(a, "open ") || startsWith(a, "go to ")) && a != gold[j].action
            && std::find(out.begin(), out.end(), a) == out.end())
            out.push_back(a);
    }
    return out;
}

std::vector<std::string> redundant(const std::vector<Turn>& gold, int j)
{
    std::vector<std::string> out;
    if (j >= 1 && gold[j - 1].action != gold[j].action)
        out.push_back(gold[j - 1].action);
    out.push_back("look");
    if (const auto here = locationBefore(gold, j); !here.empty())
        out.push_back("examine " + here);
    return out;
}

struct Verdict {
    bool wrong = false;
    env::StepInfo info;
};

/// Replays the gold actions before turn j from the task's start, then steps `action` from that true state.
Verdict judgeAction(env::Environment& environment, const ContaminatedEpisode& e, int j, const std::string& action)
{
    environment.reset(e.taskSeed, env::Split::Train);
    for (int k = 0; k < j; ++k)
        environment.step(e.clean[k].action);
    const auto& r = environment.step(action);
    Verdict v;
    v.info = r.info;
    v.wrong = !r.info.valid || (r.info.role && *r.info.role == Role::R);
    return v;
}

template <typename T> void shuffle(std::vector<T>& v, Rng& rng)
{
    for (std::size_t i = v.size(); i > 1; --i)
        std::swap(v[i - 1], v[rng.below(i)]);
}

/// Corrupts turn j of `e` with the first type (in a seeded order) whose candidates hold a verified-wrong action.
bool corruptTurn(env::Environment& environment, ContaminatedEpisode& e, int j, Rng& rng)
{
    auto types = allContaminationTypes();
    shuffle(types, rng);
    for (const auto type : types) {
        std::vector<std::string> candidates;
        switch (type) {
        case ContaminationType::ToolMisuse:
            candidates = toolMisuse(e.clean, j);
            break;
        case ContaminationType::ObservationMisinterpretation:
            candidates = observationMisinterpretation(e.clean, j);
            break;
        case ContaminationType::StaleMemory:
            candidates = staleMemory(e.clean, j);
            break;
        case ContaminationType::Redundant:
            candidates = redundant(e.clean, j);
            break;
        }
        shuffle(candidates, rng);
        for (const auto& action : candidates) {
            if (action == e.clean[j].action)
                continue;
            const Verdict v = judgeAction(environment, e, j, action);
            if (!v.wrong)
                continue;
            // Downstream preserved (§2.7 A.4 step 5): the observation after it stays the gold one.
            Turn& t = e.contaminated[j];
            t.action = action;
            t.valid = v.info.valid;
            t.role = v.info.role;
            t.progress = v.info.progress;
            e.corrupted.push_back(j);
            e.types.push_back(type);
            return true;
        }
    }
    return false;
}

bool goldIsRight(const Trajectory& t)
{
    if (!t.successOrDefault())
        return false;
    for (const auto& turn : t.turns)
        if (!turn.validOrDefault() || (turn.role && *turn.role == Role::R))
            return false;
    return true;
}

} // namespace

const char* contaminationTypeName(ContaminationType type)
{
    switch (type) {
    case ContaminationType::ToolMisuse:
        return "tool_misuse";
    case ContaminationType::ObservationMisinterpretation:
        return "observation_misinterpretation";
    case ContaminationType::StaleMemory:
        return "stale_memory";
    case ContaminationType::Redundant:
        return "redundant";
    }
    return "?";
}

std::vector<ContaminationType> allContaminationTypes()
{
    return { ContaminationType::ToolMisuse, ContaminationType::ObservationMisinterpretation,
        ContaminationType::StaleMemory, ContaminationType::Redundant };
}

std::vector<Turn> recordPrefix(const ContaminatedDataset& data, const ProbeRecord& record)
{
    const auto& e = data.episodes.at(record.episode);
    const auto& source = record.prefix == PrefixType::Clean ? e.clean : e.contaminated;
    return { source.begin(), source.begin() + record.turn };
}

const Turn& recordTurn(const ContaminatedDataset& data, const ProbeRecord& record)
{
    return data.episodes.at(record.episode).contaminated.at(static_cast<std::size_t>(record.turn));
}

ContaminatedDataset buildContaminatedDataset(
    const ContaminationOptions& o, const std::function<bool(std::int64_t, std::int64_t)>& progress)
{
    if (o.episodes < 1)
        throw std::invalid_argument("contamination: episodes must be at least 1");
    if (o.minTurns < 3 || o.maxTurns < o.minTurns)
        throw std::invalid_argument("contamination: turns must satisfy 3 <= min_turns <= max_turns");
    if (!(o.testFraction > 0.0 && o.testFraction < 1.0))
        throw std::invalid_argument("contamination: test_fraction must be in (0, 1)");
    auto environment = env::makeEnvironment(o.env, o.envAssignments);
    auto replay = env::makeEnvironment(o.env, o.envAssignments);
    std::unique_ptr<env::Policy> demonstrator;
    if (o.searchExpert)
        demonstrator = std::make_unique<env::SearchExpertPolicy>();
    else
        demonstrator = std::make_unique<env::ExpertPolicy>();

    ContaminatedDataset data;
    Rng rng(o.seed * 0x9e3779b97f4a7c15ULL + 7);
    const std::int64_t maxAttempts = o.episodes * 50;
    for (std::int64_t k = 0; k < maxAttempts && static_cast<std::int64_t>(data.episodes.size()) < o.episodes; ++k) {
        const std::uint64_t taskSeed = o.firstTaskSeed + static_cast<std::uint64_t>(k);
        std::string expert;
        environment->reset(taskSeed, env::Split::Train);
        if (!environment->expertAction(expert))
            throw std::invalid_argument("contamination: environment '" + o.env + "' has no expert");
        const Trajectory gold = env::runEpisode(*environment, *demonstrator, taskSeed, env::Split::Train);
        ++data.sourceEpisodes;
        const int turns = static_cast<int>(gold.turns.size());
        if (turns < o.minTurns || turns > o.maxTurns) {
            ++data.rejectedLength;
            continue;
        }
        if (!goldIsRight(gold)) {
            ++data.rejectedGold;
            continue;
        }
        ContaminatedEpisode e;
        e.taskKey = gold.task.key.value_or(environment->taskKey());
        e.taskSeed = taskSeed;
        e.goal = gold.task.goal.value_or(environment->goal());
        e.clean = gold.turns;
        e.contaminated = gold.turns;
        // 1 or 2 corrupted turns among 0…T−2, so that a gold turn always follows (§2.7, §7.1 item 3).
        const int wanted = rng.uniform() < o.twoCorruptedFraction ? 2 : 1;
        std::vector<int> positions;
        for (int j = 0; j + 1 < turns; ++j)
            positions.push_back(j);
        shuffle(positions, rng);
        for (const int j : positions)
            if (static_cast<int>(e.corrupted.size()) < wanted)
                corruptTurn(*replay, e, j, rng);
        if (e.corrupted.empty()) {
            ++data.rejectedCorruption;
            continue;
        }
        // Keep indices ascending with their types.
        std::vector<std::size_t> order(e.corrupted.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](auto a, auto b) { return e.corrupted[a] < e.corrupted[b]; });
        std::vector<int> sortedIdx;
        std::vector<ContaminationType> sortedTypes;
        for (auto i : order) {
            sortedIdx.push_back(e.corrupted[i]);
            sortedTypes.push_back(e.types[i]);
        }
        e.corrupted = std::move(sortedIdx);
        e.types = std::move(sortedTypes);
        data.episodes.push_back(std::move(e));
        if (progress && !progress(static_cast<std::int64_t>(data.episodes.size()), o.episodes))
            throw Cancelled();
    }
    if (static_cast<std::int64_t>(data.episodes.size()) < o.episodes)
        throw std::runtime_error("contamination: only " + std::to_string(data.episodes.size()) + " of "
            + std::to_string(o.episodes) + " episodes passed the filters in " + std::to_string(maxAttempts)
            + " tasks; widen max_turns or env.max_steps");

    // 80:20 split by episode (seed 42), so that no episode has records on both sides.
    std::vector<std::size_t> order(data.episodes.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    Rng splitRng(o.splitSeed);
    shuffle(order, splitRng);
    const auto tests = std::max<std::size_t>(1, static_cast<std::size_t>(o.testFraction * order.size() + 0.5));
    for (std::size_t i = 0; i < tests && i + 1 < order.size(); ++i)
        data.episodes[order[i]].test = true;

    for (std::size_t ei = 0; ei < data.episodes.size(); ++ei) {
        const auto& e = data.episodes[ei];
        for (int t = 0; t < static_cast<int>(e.contaminated.size()); ++t) {
            const bool injected = std::find(e.corrupted.begin(), e.corrupted.end(), t) != e.corrupted.end();
            int nearest = -1;
            for (const int j : e.corrupted)
                if (j < t)
                    nearest = j;
            for (const auto prefix : { PrefixType::Clean, PrefixType::Contaminated }) {
                ProbeRecord r;
                r.episode = ei;
                r.turn = t;
                r.label = injected ? 0 : 1;
                r.prefix = prefix;
                r.hasContaminatedPrefix = prefix == PrefixType::Contaminated && nearest >= 0;
                r.distance = r.hasContaminatedPrefix ? t - nearest : 0;
                r.test = e.test;
                data.records.push_back(r);
            }
        }
    }
    return data;
}

} // namespace creditlab::learn
