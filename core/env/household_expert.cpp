// The expert: a closed-loop planner over the true simulator state. It knows where every object is, so it goes
// straight to a target's receptacle instead of searching (allowed: it only needs to be an efficient, legal
// policy), but it acts only through commands that are admissible now. Because it re-plans from the current
// state at every step, it recovers from any detour a noisy policy takes. Plan, per task type:
//   holding a distractor        -> put it down here (or on the first non-destination container), opening if needed;
//   holding the target type     -> lamp task: go to the lamp, use it; transform task, not yet transformed: go to
//                                  the first sink/microwave/fridge, clean/heat/cool it; otherwise go to the
//                                  destination receptacle that already holds the most targets, open it, put;
//   empty-handed                -> fetch a target that is not yet placed (a transformed one first, then the lowest
//                                  index): go to its receptacle, open it, take it.
// It needs at most 11 steps (pick two: 2 x (go, open, take, go, open, put), less the second open), far below 50.
//
// The searching expert (`search`) is the same planner restricted to what the agent has observed: it fetches
// only targets lying in a receptacle whose contents the agent has seen, and while it knows of none it visits
// the containers it has not yet seen into, in the order the opening scene lists them (listingOrder), opening
// closed ones. Receptacles, appliances
// and the lamp are named in the opening scene, so the rest of the plan needs no hidden state. This is the
// demonstrator a policy that sees only the text can imitate.
#include "core/env/household_rules.h"

#include <algorithm>

namespace creditlab::env::household {

namespace {

/// Writes the command that brings the agent to `r` with its contents reachable; false when already there.
bool approach(const World& w, int r, std::string& out)
{
    if (w.location != r) {
        out.append("go to ").append(w.rec(r).name);
        return true;
    }
    if (w.rtype(r).openable && !w.rec(r).open) {
        out.append("open ").append(w.rec(r).name);
        return true;
    }
    return false;
}

int firstWith(const World& w, Appliance appliance)
{
    for (std::size_t r = 0; r < w.receptacles.size(); ++r)
        if (receptacleType(w.receptacles[r].type).appliance == appliance)
            return static_cast<int>(r);
    return -1;
}

/// The destination receptacle holding the most finished targets; the first one on ties.
int chosenDestination(const World& w)
{
    int best = -1, bestCount = -1;
    for (std::size_t r = 0; r < w.receptacles.size(); ++r) {
        if (w.receptacles[r].type != w.task.destination)
            continue;
        int n = 0;
        for (const Object& o : w.objects)
            n += o.location == static_cast<int>(r) && o.type == w.task.object && transformDone(w.task.type, o);
        if (n > bestCount) {
            best = static_cast<int>(r);
            bestCount = n;
        }
    }
    return best;
}

Appliance neededAppliance(TaskType type)
{
    return type == TaskType::PickCleanThenPlace ? Appliance::Sink
        : type == TaskType::PickHeatThenPlace   ? Appliance::Microwave
                                                : Appliance::Fridge;
}

std::string_view transformVerb(TaskType type)
{
    return type == TaskType::PickCleanThenPlace ? "clean " : type == TaskType::PickHeatThenPlace ? "heat " : "cool ";
}

} // namespace

std::vector<int> listingOrder(const World& w)
{
    // Receptacles are stored grouped by type, numbers ascending; the scene lists each type's numbers descending.
    std::vector<int> order;
    const int n = static_cast<int>(w.receptacles.size());
    order.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n;) {
        int end = i;
        while (end < n && w.receptacles[static_cast<std::size_t>(end)].type == w.receptacles[static_cast<std::size_t>(i)].type)
            ++end;
        for (int k = end; k-- > i;)
            order.push_back(k);
        i = end;
    }
    return order;
}

bool expertCommand(const World& w, std::string& out, bool search)
{
    out.clear();
    if (succeeded(w))
        return false;
    const Task& t = w.task;
    const bool lampTask = t.type == TaskType::LookAtObjInLight;
    const int destination = lampTask ? -1 : chosenDestination(w);
    if (w.held >= 0) {
        const Object& h = w.obj(w.held);
        if (h.type != t.object) {
            int r = w.location >= 0 && w.rtype(w.location).container() ? w.location : -1;
            for (std::size_t i = 0; r < 0 && i < w.receptacles.size(); ++i)
                if (receptacleType(w.receptacles[i].type).container() && w.receptacles[i].type != t.destination)
                    r = static_cast<int>(i);
            if (!approach(w, r, out))
                out.append("put ").append(h.name).append(" in/on ").append(w.rec(r).name);
            return true;
        }
        if (lampTask) {
            const int lamp = firstWith(w, Appliance::Lamp);
            if (!approach(w, lamp, out))
                out.append("use ").append(w.rec(lamp).name);
            return true;
        }
        if (isTransform(t.type) && !transformDone(t.type, h)) {
            const int a = firstWith(w, neededAppliance(t.type));
            if (!approach(w, a, out))
                out.append(transformVerb(t.type)).append(h.name).append(" with ").append(w.rec(a).name);
            return true;
        }
        if (!approach(w, destination, out))
            out.append("put ").append(h.name).append(" in/on ").append(w.rec(destination).name);
        return true;
    }
    int target = -1;
    bool targetDone = false;
    for (std::size_t i = 0; i < w.objects.size(); ++i) {
        const Object& o = w.objects[i];
        if (o.type != t.object || o.location == kHeld || (o.location == destination && transformDone(t.type, o)))
            continue;
        if (search && (o.location < 0 || !w.seen[static_cast<std::size_t>(o.location)]))
            continue;
        const bool done = transformDone(t.type, o);
        if (target < 0 || (done && !targetDone)) {
            target = static_cast<int>(i);
            targetDone = done;
        }
    }
    if (target < 0 && search) {
        // No target seen yet: look into the next container not yet seen into, in the order the opening scene lists
        // them, so that the next place to look is the one named after the last in that list.
        for (const int r : listingOrder(w))
            if (receptacleType(w.rec(r).type).container() && !w.seen[static_cast<std::size_t>(r)] && approach(w, r, out))
                return true;
        return false; // cannot happen: every container seen means every target is known
    }
    if (target < 0)
        return false; // cannot happen: generation places enough targets and nothing destroys them
    const int r = w.obj(target).location;
    if (!approach(w, r, out))
        out.append("take ").append(w.obj(target).name).append(" from ").append(w.rec(r).name);
    return true;
}

bool mistakenTask(const World& w, std::uint64_t mistake, Task& out)
{
    const Task& t = w.task;
    const auto fits = [&t](int type) {
        const ObjectType& o = objectType(type);
        return t.type == TaskType::PickCleanThenPlace ? o.cleanable
            : t.type == TaskType::PickHeatThenPlace   ? o.heatable
            : t.type == TaskType::PickCoolThenPlace   ? o.coolable
                                                      : true;
    };
    // Candidates in a fixed order: object types in the order of the objects, then receptacle types in the order of
    // the receptacles; each type once.
    std::vector<int> objects, destinations;
    for (const Object& o : w.objects)
        if (o.type != t.object && fits(o.type) && std::find(objects.begin(), objects.end(), o.type) == objects.end())
            objects.push_back(o.type);
    if (t.type != TaskType::LookAtObjInLight)
        for (const Receptacle& r : w.receptacles) {
            const ReceptacleType& rt = receptacleType(r.type);
            const bool usedAppliance = isTransform(t.type) && rt.appliance == neededAppliance(t.type);
            if (r.type != t.destination && rt.container() && !usedAppliance
                && std::find(destinations.begin(), destinations.end(), r.type) == destinations.end())
                destinations.push_back(r.type);
        }
    if (objects.empty() && destinations.empty())
        return false;
    // Half the mistakes take a wrong object and half put in a wrong place, where the room offers both.
    const bool wrongObject = destinations.empty() || (!objects.empty() && (mistake & 1u) == 0);
    const std::vector<int>& from = wrongObject ? objects : destinations;
    out = t;
    (wrongObject ? out.object : out.destination) = from[static_cast<std::size_t>((mistake >> 1) % from.size())];
    return true;
}

} // namespace creditlab::env::household
