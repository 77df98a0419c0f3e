#include "core/env/household_world.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <stdexcept>
#include <tuple>

namespace creditlab::env::household {

namespace {

int rt(std::string_view name) { return findReceptacleType(name); }
int ot(std::string_view name) { return findObjectType(name); }

struct Count {
    int type, min, max;
};

struct SceneDef {
    std::vector<Count> receptacles;
    std::vector<int> lamps; ///< lamp types; one lamp is placed when non-empty
    std::vector<int> objects;
    std::vector<int> destinations;
};

std::vector<int> types(std::initializer_list<std::string_view> names, int (*lookup)(std::string_view))
{
    std::vector<int> out;
    for (std::string_view n : names)
        out.push_back(lookup(n));
    return out;
}

std::vector<Count> counts(std::initializer_list<std::tuple<std::string_view, int, int>> list)
{
    std::vector<Count> out;
    for (const auto& [n, lo, hi] : list)
        out.push_back({ rt(n), lo, hi });
    return out;
}

const std::array<SceneDef, kSceneCount>& scenes()
{
    static const std::array<SceneDef, kSceneCount> defs = {
        SceneDef {
            counts({ { "cabinet", 3, 8 }, { "coffeemachine", 1, 1 }, { "countertop", 1, 3 }, { "diningtable", 0, 1 },
                { "drawer", 2, 5 }, { "fridge", 1, 1 }, { "garbagecan", 1, 1 }, { "microwave", 1, 1 },
                { "shelf", 0, 3 }, { "sinkbasin", 1, 1 }, { "stoveburner", 2, 4 }, { "toaster", 1, 1 } }),
            {},
            types({ "apple", "bowl", "bread", "butterknife", "cup", "dishsponge", "egg", "fork", "knife", "ladle",
                      "lettuce", "mug", "pan", "peppershaker", "plate", "pot", "potato", "saltshaker", "soapbottle",
                      "spatula", "spoon", "tomato", "winebottle" },
                ot),
            types({ "cabinet", "countertop", "diningtable", "drawer", "fridge", "garbagecan", "microwave", "shelf",
                      "sinkbasin" },
                rt) },
        SceneDef { counts({ { "armchair", 1, 1 }, { "cabinet", 0, 4 }, { "coffeetable", 1, 2 }, { "drawer", 1, 4 },
                       { "dresser", 0, 1 }, { "garbagecan", 1, 1 }, { "ottoman", 0, 1 }, { "shelf", 1, 5 },
                       { "sidetable", 1, 2 }, { "sofa", 1, 1 }, { "tvstand", 1, 1 } }),
            types({ "desklamp", "floorlamp" }, rt),
            types({ "book", "box", "candle", "cellphone", "creditcard", "keychain", "laptop", "newspaper", "pillow",
                      "plate", "remotecontrol", "statue", "tissuebox", "vase", "watch" },
                ot),
            types({ "armchair", "cabinet", "coffeetable", "drawer", "dresser", "garbagecan", "ottoman", "shelf",
                      "sidetable", "sofa", "tvstand" },
                rt) },
        SceneDef { counts({ { "armchair", 0, 1 }, { "bed", 1, 1 }, { "desk", 1, 2 }, { "drawer", 2, 6 },
                       { "dresser", 1, 1 }, { "garbagecan", 1, 1 }, { "laundryhamper", 0, 1 }, { "safe", 0, 1 },
                       { "shelf", 1, 4 }, { "sidetable", 1, 2 } }),
            types({ "desklamp" }, rt),
            types({ "alarmclock", "baseballbat", "book", "bowl", "cd", "cellphone", "cloth", "creditcard", "keychain",
                      "laptop", "mug", "pen", "pencil", "pillow", "teddybear", "tennisracket", "watch" },
                ot),
            types({ "armchair", "bed", "desk", "drawer", "dresser", "garbagecan", "laundryhamper", "safe", "shelf",
                      "sidetable" },
                rt) },
        SceneDef { counts({ { "bathtubbasin", 1, 1 }, { "cabinet", 2, 4 }, { "countertop", 1, 1 }, { "drawer", 1, 4 },
                       { "garbagecan", 1, 1 }, { "handtowelholder", 0, 1 }, { "shelf", 0, 2 }, { "sinkbasin", 1, 2 },
                       { "toilet", 1, 1 }, { "toiletpaperhanger", 1, 1 }, { "towelholder", 1, 1 } }),
            {},
            types({ "candle", "cloth", "dishsponge", "handtowel", "plunger", "scrubbrush", "soapbar", "soapbottle",
                      "spraybottle", "tissuebox", "toiletpaper", "towel" },
                ot),
            types({ "bathtubbasin", "cabinet", "countertop", "drawer", "garbagecan", "shelf", "sinkbasin", "toilet" },
                rt) },
    };
    return defs;
}

bool sceneSupports(TaskType type, Scene scene)
{
    switch (type) {
    case TaskType::LookAtObjInLight:
        return scene == Scene::LivingRoom || scene == Scene::Bedroom;
    case TaskType::PickCleanThenPlace:
        return scene == Scene::Kitchen || scene == Scene::Bathroom;
    case TaskType::PickHeatThenPlace:
    case TaskType::PickCoolThenPlace:
        return scene == Scene::Kitchen;
    default:
        return true;
    }
}

bool objectFits(TaskType type, const ObjectType& o)
{
    switch (type) {
    case TaskType::PickCleanThenPlace:
        return o.cleanable;
    case TaskType::PickHeatThenPlace:
        return o.heatable;
    case TaskType::PickCoolThenPlace:
        return o.coolable;
    default:
        return true;
    }
}

/// The appliance a transform task needs; its receptacle type is no destination ("put a hot apple in microwave").
Appliance needed(TaskType type)
{
    switch (type) {
    case TaskType::PickCleanThenPlace:
        return Appliance::Sink;
    case TaskType::PickHeatThenPlace:
        return Appliance::Microwave;
    case TaskType::PickCoolThenPlace:
        return Appliance::Fridge;
    default:
        return Appliance::None;
    }
}

template <typename T> const T& pick(Rng& rng, const std::vector<T>& v)
{
    return v[static_cast<std::size_t>(rng.below(static_cast<int>(v.size())))];
}

/// The filter's task types in enum order (the order of the names in `task=` does not matter); draws none for one
/// type and one number otherwise, as the single and "any" filters always did.
TaskType drawType(Rng& rng, unsigned types)
{
    std::array<TaskType, kTaskTypeCount> allowed {};
    int n = 0;
    for (int t = 0; t < kTaskTypeCount; ++t)
        if (types & (1u << t))
            allowed[static_cast<std::size_t>(n++)] = static_cast<TaskType>(t);
    return n == 1 ? allowed[0] : allowed[static_cast<std::size_t>(rng.below(n))];
}

Task drawTask(Rng& rng, const TaskFilter& filter)
{
    Task t;
    t.type = drawType(rng, filter.types);
    std::vector<Scene> options;
    for (int s = 0; s < kSceneCount; ++s)
        if ((filter.scene < 0 || filter.scene == s) && sceneSupports(t.type, static_cast<Scene>(s)))
            options.push_back(static_cast<Scene>(s));
    if (options.empty())
        return t; // the caller re-draws; filterPossible() rules out a filter that never fits
    t.scene = pick(rng, options);
    const SceneDef& def = scenes()[static_cast<std::size_t>(t.scene)];
    std::vector<int> objects;
    for (int o : def.objects)
        if (objectFits(t.type, objectType(o)))
            objects.push_back(o);
    t.object = pick(rng, objects);
    if (t.type == TaskType::LookAtObjInLight) {
        t.lamp = pick(rng, def.lamps);
    } else {
        std::vector<int> dests;
        for (int d : def.destinations)
            if (needed(t.type) == Appliance::None || receptacleType(d).appliance != needed(t.type))
                dests.push_back(d);
        t.destination = pick(rng, dests);
    }
    return t;
}

std::string_view prep(int receptacleTypeIndex) { return receptacleType(receptacleTypeIndex).inside ? "in" : "on"; }

std::string goalText(const Task& t, Rng& rng)
{
    const std::string o(objectType(t.object).name);
    const bool alt = rng.below(2) == 1;
    if (t.type == TaskType::LookAtObjInLight) {
        const std::string lamp(receptacleType(t.lamp).name);
        return alt ? "examine the " + o + " with the " + lamp + "." : "look at " + o + " under the " + lamp + ".";
    }
    const std::string d(receptacleType(t.destination).name);
    const std::string p(prep(t.destination));
    switch (t.type) {
    case TaskType::PickCleanThenPlace:
        return alt ? "clean some " + o + " and put it in " + d + "." : "put a clean " + o + " " + p + " " + d + ".";
    case TaskType::PickHeatThenPlace:
        return alt ? "heat some " + o + " and put it in " + d + "." : "put a hot " + o + " " + p + " " + d + ".";
    case TaskType::PickCoolThenPlace:
        return alt ? "cool some " + o + " and put it in " + d + "." : "put a cool " + o + " " + p + " " + d + ".";
    case TaskType::PickTwoObjAndPlace:
        return alt ? "find two " + o + " and put them " + p + " " + d + "." : "put two " + o + " " + p + " " + d + ".";
    default:
        return alt ? "put some " + o + " " + p + " " + d + "." : "put a " + o + " " + p + " " + d + ".";
    }
}

/// Trims or grows the drawn (type, count) list to `total` receptacles, one random receptacle at a time. Kept: the
/// destination, a transform's appliance, the task's lamp, and a container other than the destination for the
/// targets to start in, so the task stays solvable. Grown: types the scene has several of (cabinets, drawers,
/// shelves, ...), as a bigger room of the same kind would.
void resize(std::vector<std::pair<int, int>>& typeCounts, int total, const Task& t, const SceneDef& def, Rng& rng)
{
    const auto required = [&t](int type) {
        const Appliance a = receptacleType(type).appliance;
        return type == t.destination || type == t.lamp || (needed(t.type) != Appliance::None && a == needed(t.type));
    };
    const auto startsTargets = [&t](int type) { return receptacleType(type).container() && type != t.destination; };
    int sum = 0;
    for (const auto& [type, n] : typeCounts)
        sum += n;
    std::vector<int> weights(typeCounts.size());
    while (sum > total) {
        int starts = 0;
        for (const auto& [type, n] : typeCounts)
            starts += startsTargets(type) ? n : 0;
        int removable = 0;
        for (std::size_t i = 0; i < typeCounts.size(); ++i) {
            const auto& [type, n] = typeCounts[i];
            weights[i] = startsTargets(type) && starts <= 1 ? 0 : n - (required(type) ? 1 : 0);
            removable += weights[i];
        }
        if (removable == 0)
            break; // cannot happen for total >= kMinReceptacles: at most two receptacles are kept
        int k = rng.below(removable);
        std::size_t i = 0;
        while (k >= weights[i])
            k -= weights[i++];
        --typeCounts[i].second;
        --sum;
    }
    std::vector<std::size_t> growable; // indices into typeCounts, whose first entries follow def.receptacles
    for (std::size_t i = 0; i < def.receptacles.size(); ++i)
        if (def.receptacles[i].max > 1)
            growable.push_back(i);
    for (; sum < total; ++sum)
        ++typeCounts[pick(rng, growable)].second;
}

} // namespace

std::string_view taskTypeName(TaskType type)
{
    static constexpr std::array<std::string_view, kTaskTypeCount> names = { "pick_and_place", "look_at_obj_in_light",
        "pick_clean_then_place", "pick_heat_then_place", "pick_cool_then_place", "pick_two_obj_and_place" };
    return names[static_cast<std::size_t>(type)];
}

std::string_view sceneName(Scene scene)
{
    static constexpr std::array<std::string_view, kSceneCount> names
        = { "kitchen", "livingroom", "bedroom", "bathroom" };
    return names[static_cast<std::size_t>(scene)];
}

std::string Task::spec() const
{
    std::string s(taskTypeName(type));
    s.append("/").append(sceneName(scene)).append("/").append(objectType(object).name).append("/");
    s.append(receptacleType(type == TaskType::LookAtObjInLight ? lamp : destination).name);
    return s;
}

bool filterPossible(const TaskFilter& filter)
{
    for (int t = 0; t < kTaskTypeCount; ++t)
        for (int s = 0; s < kSceneCount; ++s)
            if ((filter.types & (1u << t)) && (filter.scene < 0 || filter.scene == s)
                && sceneSupports(static_cast<TaskType>(t), static_cast<Scene>(s)))
                return true;
    return false;
}

Split splitOf(const Task& task)
{
    // FNV-1a over the spec text, then a splitmix finaliser: a fixed, platform-independent assignment.
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (char c : task.spec())
        h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    return Rng(h).next() % 5 == 0 ? Split::Eval : Split::Train;
}

World generateWorld(std::uint64_t seed, Split split, const TaskFilter& filter, int receptacles)
{
    if (receptacles != 0 && receptacles < kMinReceptacles)
        throw std::invalid_argument("household: a room needs at least 2 receptacles");
    if (!filterPossible(filter))
        throw std::invalid_argument("household: no task type fits the scene filter");
    Rng rng(seed * 2 + (split == Split::Eval ? 1 : 0));
    World w;
    bool found = false;
    for (int attempt = 0; attempt < 10000 && !found; ++attempt) {
        w.task = drawTask(rng, filter);
        found = sceneSupports(w.task.type, w.task.scene)
            && (filter.scene < 0 || static_cast<int>(w.task.scene) == filter.scene) && splitOf(w.task) == split;
    }
    if (!found)
        throw std::invalid_argument("household: the filter admits no task of this split");
    const Task& t = w.task;
    const SceneDef& def = scenes()[static_cast<std::size_t>(t.scene)];

    // Receptacles: the scene's counts, at least one destination, one lamp where the scene has lamps.
    std::vector<std::pair<int, int>> typeCounts; // (type, count)
    for (const Count& c : def.receptacles)
        typeCounts.emplace_back(c.type, std::max(rng.between(c.min, c.max), c.type == t.destination ? 1 : 0));
    if (!def.lamps.empty())
        typeCounts.emplace_back(t.lamp >= 0 ? t.lamp : pick(rng, def.lamps), 1);
    if (receptacles > 0) // after the scene's own draws, so that the default draws exactly what it always did
        resize(typeCounts, receptacles, t, def, rng);
    std::sort(typeCounts.begin(), typeCounts.end(),
        [](const auto& a, const auto& b) { return receptacleType(a.first).name < receptacleType(b.first).name; });
    for (const auto& [type, n] : typeCounts)
        for (int i = 1; i <= n; ++i)
            w.receptacles.push_back({ std::string(receptacleType(type).name) + " " + std::to_string(i), type, false });

    // Objects: the targets (two or three for pick-two), then 5 to 9 distractor types of one or two each.
    std::vector<int> instanceTypes;
    const int targets = t.type == TaskType::PickTwoObjAndPlace ? rng.between(2, 3) : rng.between(1, 3);
    instanceTypes.insert(instanceTypes.end(), static_cast<std::size_t>(targets), t.object);
    std::vector<int> others;
    for (int o : def.objects)
        if (o != t.object)
            others.push_back(o);
    for (std::size_t i = others.size(); i > 1; --i) // Fisher-Yates
        std::swap(others[i - 1], others[static_cast<std::size_t>(rng.below(static_cast<int>(i)))]);
    const int distractors = std::min<int>(rng.between(5, 9), static_cast<int>(others.size()));
    for (int k = 0; k < distractors; ++k)
        instanceTypes.insert(
            instanceTypes.end(), static_cast<std::size_t>(rng.between(1, 2)), others[static_cast<std::size_t>(k)]);

    std::vector<int> anywhere, forTargets; // targets never start in a destination receptacle
    for (std::size_t r = 0; r < w.receptacles.size(); ++r) {
        if (!receptacleType(w.receptacles[r].type).container())
            continue;
        anywhere.push_back(static_cast<int>(r));
        if (w.receptacles[r].type != t.destination)
            forTargets.push_back(static_cast<int>(r));
    }
    std::vector<int> numberOf(static_cast<std::size_t>(objectTypeCount()), 0);
    for (int type : instanceTypes) {
        Object o;
        o.type = type;
        o.name = std::string(objectType(type).name) + " " + std::to_string(++numberOf[static_cast<std::size_t>(type)]);
        o.location = pick(rng, type == t.object ? forTargets : anywhere);
        w.objects.push_back(std::move(o));
    }
    w.goal = goalText(t, rng);
    w.visited.assign(w.receptacles.size(), 0);
    w.seen.assign(w.receptacles.size(), 0);
    return w;
}

} // namespace creditlab::env::household
