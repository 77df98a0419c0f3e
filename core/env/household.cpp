#include "core/env/household.h"

#include "core/env/household_rules.h"

#include <algorithm>
#include <stdexcept>

namespace creditlab::env::household {

namespace {

std::string taskTypeList()
{
    std::string names;
    for (int t = 0; t < kTaskTypeCount; ++t)
        names.append(t ? ", " : "").append(taskTypeName(static_cast<TaskType>(t)));
    return names;
}

/// "any", or task type names separated by commas (spaces around them are forgiven): the TaskFilter's type bits.
unsigned parseTaskTypes(const std::string& text)
{
    if (text == "any")
        return kAllTaskTypes;
    unsigned types = 0;
    std::size_t begin = 0;
    while (begin <= text.size()) {
        std::size_t end = text.find(',', begin);
        if (end == std::string::npos)
            end = text.size();
        std::string name = text.substr(begin, end - begin);
        name.erase(0, name.find_first_not_of(' '));
        name.erase(name.find_last_not_of(' ') + 1);
        int found = -1;
        for (int t = 0; t < kTaskTypeCount && found < 0; ++t)
            if (taskTypeName(static_cast<TaskType>(t)) == name)
                found = t;
        if (found < 0)
            throw credit::ParamError("parameter 'task' of household: '" + name + "' in '" + text
                + "' is no task type (expected any, or one or more of " + taskTypeList() + ", separated by commas)");
        types |= 1u << found;
        begin = end + 1;
    }
    return types;
}

std::vector<std::string> sceneChoices()
{
    std::vector<std::string> c { "any" };
    for (int s = 0; s < kSceneCount; ++s)
        c.emplace_back(sceneName(static_cast<Scene>(s)));
    return c;
}

int indexIn(const std::vector<std::string>& choices, const std::string& value)
{
    const auto it = std::find(choices.begin(), choices.end(), value);
    return static_cast<int>(it - choices.begin()) - 1; // "any" -> -1
}

std::uint64_t mixCommand(std::uint64_t state, const Command& c)
{
    std::uint64_t h = state ^ 0x9E3779B97F4A7C15ull;
    h = (h ^ static_cast<std::uint64_t>(c.verb)) * 0x100000001b3ull;
    h = (h ^ static_cast<std::uint64_t>(c.object + 2)) * 0x100000001b3ull;
    return (h ^ static_cast<std::uint64_t>(c.receptacle + 2)) * 0x100000001b3ull;
}

bool contains(const std::vector<std::uint64_t>& v, std::uint64_t x)
{
    return std::find(v.begin(), v.end(), x) != v.end();
}

} // namespace

std::vector<credit::ParamSpec> HouseholdEnv::paramSpecs()
{
    using credit::ParamType;
    return {
        { "max_steps", ParamType::Int, "50", 1, 100000, {}, "step limit of an episode (ALFWorld uses 50)" },
        { "task", ParamType::Text, "any", {}, {}, {},
            "draw only these task types: any, or names separated by commas (" + taskTypeList() + ")" },
        { "scene", ParamType::Choice, "any", {}, {}, sceneChoices(), "draw only tasks in this scene" },
        { "receptacles", ParamType::Int, "0", 0, 50, {},
            "receptacles in the room (at least 2; fewer make the search shorter); 0: the scene's own, 9-30" },
    };
}

HouseholdEnv::HouseholdEnv()
    : HouseholdEnv(credit::Params::resolve("household", paramSpecs(), {}))
{
}

HouseholdEnv::HouseholdEnv(const credit::Params& params)
    : m_maxSteps(static_cast<int>(params.getInt("max_steps")))
    , m_receptacles(static_cast<int>(params.getInt("receptacles")))
{
    m_filter.types = parseTaskTypes(params.getText("task"));
    m_filter.scene = indexIn(sceneChoices(), params.getChoice("scene"));
    if (!filterPossible(m_filter))
        throw credit::ParamError(
            "household: task=" + params.getText("task") + " never happens in scene=" + params.getChoice("scene"));
    if (m_receptacles == 1)
        throw credit::ParamError("parameter 'receptacles' of household: 1 is too few (0 for the scene's own counts, "
                                 "or at least 2: a destination and a place for the targets to start in)");
    m_states.reserve(static_cast<std::size_t>(std::min(m_maxSteps, 4096)) + 1);
    m_pairs.reserve(static_cast<std::size_t>(std::min(m_maxSteps, 4096)));
}

const std::string& HouseholdEnv::reset(std::uint64_t seed, Split split)
{
    m_world = generateWorld(seed, split, m_filter, m_receptacles);
    m_seed = seed;
    m_split = split;
    m_ready = true;
    m_done = false;
    m_steps = 0;
    m_knowledge = 0;
    m_lastInvalid = InvalidReason::None;
    m_progress = progressOf(m_world);
    m_states.assign(1, physicalHash(m_world));
    m_pairs.clear();
    m_admissibleStale = true;
    m_result = StepResult {};
    m_result.info.progress = m_progress;
    writeStateKey(m_world, m_result.info.stateAfter);

    // "-= Welcome to TextWorld, ALFRED! =-", the room, then the task: ALFWorld's opening. Receptacles are
    // listed by type, numbers descending, as ALFWorld does.
    m_initial = "-= Welcome to TextWorld, ALFRED! =-\n\nYou are in the middle of a room. Looking quickly around you, "
                "you see ";
    const std::size_t n = m_world.receptacles.size();
    std::size_t listed = 0;
    for (const int r : listingOrder(m_world)) {
        m_initial.append(listed == 0 ? "" : listed + 1 == n ? ", and " : ", ");
        m_initial.append("a ").append(m_world.rec(r).name);
        ++listed;
    }
    m_initial.append(".\n\nYour task is to: ").append(m_world.goal);
    return m_initial;
}

InvalidReason HouseholdEnv::execute(std::string_view action, std::string& feedback, std::uint64_t& commandHash)
{
    Command c;
    const InvalidReason parsed = parseCommand(m_world, action, c);
    if (parsed != InvalidReason::None)
        return parsed;
    commandHash = mixCommand(m_states.back(), c); // the physical state before the command
    return applyCommand(m_world, c, feedback);
}

const StepResult& HouseholdEnv::step(std::string_view action)
{
    if (!m_ready)
        throw std::logic_error("household: step() before reset()");
    if (m_done)
        throw std::logic_error("household: step() after the episode ended");
    StepInfo& info = m_result.info;
    info.stateBefore.swap(info.stateAfter);
    info.progressBefore = m_progress;
    const std::uint64_t before = m_states.back();

    std::uint64_t commandHash = 0;
    m_lastInvalid = execute(action, m_result.feedback, commandHash);
    const bool valid = m_lastInvalid == InvalidReason::None;
    if (!valid)
        m_result.feedback.assign("Nothing happens.");
    ++m_steps;
    m_admissibleStale = true;

    int knowledge = 0;
    for (std::size_t r = 0; r < m_world.visited.size(); ++r)
        knowledge += m_world.visited[r] + m_world.seen[r];
    info.gainedInformation = knowledge > m_knowledge;
    m_knowledge = knowledge;

    const std::uint64_t after = valid ? physicalHash(m_world) : before;
    const bool repeat = valid && !info.gainedInformation
        && (contains(m_pairs, commandHash) || (after != before && contains(m_states, after)));
    if (valid) {
        m_pairs.push_back(commandHash);
        m_states.push_back(after);
    }

    m_result.success = valid && succeeded(m_world);
    m_progress = m_result.success ? 1.0 : progressOf(m_world);
    m_result.reward = m_result.success ? 1.0 : 0.0;
    m_done = m_result.success || m_steps >= m_maxSteps;
    m_result.done = m_done;
    info.valid = valid;
    info.progress = m_progress;
    info.role = oracleRole(valid, info.progressBefore, m_progress, info.gainedInformation, repeat);
    writeStateKey(m_world, info.stateAfter);
    return m_result;
}

const std::vector<std::string>& HouseholdEnv::admissibleCommands() const
{
    if (m_admissibleStale) {
        if (m_done)
            m_admissible.clear();
        else
            listAdmissible(m_world, m_admissible);
        m_admissibleStale = false;
    }
    return m_admissible;
}

std::string HouseholdEnv::taskKey() const
{
    std::string key = "household:seed=" + std::to_string(m_seed);
    if (m_split == Split::Eval)
        key += ":split=eval";
    return key;
}

std::string HouseholdEnv::stateKey() const
{
    std::string key;
    writeStateKey(m_world, key);
    return key;
}

bool HouseholdEnv::expertAction(std::string& out) const
{
    if (!m_ready || m_done) {
        out.clear();
        return false;
    }
    return expertCommand(m_world, out);
}

bool HouseholdEnv::searchExpertAction(std::string& out) const
{
    if (!m_ready || m_done) {
        out.clear();
        return false;
    }
    return expertCommand(m_world, out, true);
}

bool HouseholdEnv::mistakenExpertAction(std::uint64_t mistake, std::string& out) const
{
    out.clear();
    Task wrong;
    if (!m_ready || m_done || !mistakenTask(m_world, mistake, wrong))
        return false;
    World believed = m_world; // a few dozen short strings: cheap beside what a policy does with the command
    believed.task = wrong;
    return expertCommand(believed, out);
}

} // namespace creditlab::env::household
