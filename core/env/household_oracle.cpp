// Ground truth of the household: success, the progress potential, the canonical state key, and the oracle
// role labels.
//
// Progress potential. Each task type has K subgoals; `a` counts those satisfied now, and one more unit,
// "ready", holds unless the agent carries an object that is not the target type (a distractor in hand
// blocks every next subgoal). phi = (a + ready) / (K + 1), and phi = 1 exactly when the goal holds.
//   pick_and_place           K = 2: a = 1 while holding an object of the target type.
//   pick_{clean,heat,cool}   K = 3: a = 2 while holding a transformed target; a = 1 while holding an
//                                   untransformed one, or while a transformed one lies anywhere.
//   look_at_obj_in_light     K = 3: a = [holding the target type] + [lamp on]; success = both, at the lamp.
//   pick_two_obj_and_place   K = 4: a = 2 * [one target already in a destination receptacle]
//                                   + [holding the target type].
// So phi falls when the agent puts the target somewhere wrong (drops it outside the destination, or puts a
// transformed one down elsewhere), takes a target back out of the destination, or takes the wrong object.
// The start is 1 / (K + 1), not 0, so that taking the wrong object can fall below it.
//
// Canonical state key: "loc=<receptacle or ->|holding=<object or ->|<each target-type object>@<place>
// [+clean][+hot][+cool]|lamp=on/off (lamp tasks)|open=<open receptacles>|visited=<visited receptacles>".
//
// Oracle roles (TRIAGE's taxonomy, triage.md §2.4 and §3 "Role boundaries"), first rule that applies:
//   R  the action is invalid ("Nothing happens.");
//   D  progress rises;
//   R  progress falls (state corruption: wrong place, wrong object, undoing a subgoal);
//   E  first-time information gain without progress: the first visit of a receptacle, or the first sight
//      of its contents (arriving at an open one, or opening it);
//   R  a repeat that gains no information: the same command from the same physical state again, or a
//      step that returns the physical state to one met earlier in the episode (open then close, A -> B -> A);
//   N  otherwise (look, inventory, a first examine, walking to a known place to act there).
// Information is the agent's knowledge (visited and seen flags), physical state everything else.
#include "core/env/household_rules.h"

#include <algorithm>

namespace creditlab::env::household {

namespace {

/// The most target-type objects (transformed where needed) in one destination receptacle.
int bestDestinationCount(const World& w)
{
    int best = 0;
    for (std::size_t r = 0; r < w.receptacles.size(); ++r) {
        if (w.receptacles[r].type != w.task.destination)
            continue;
        int n = 0;
        for (const Object& o : w.objects)
            n += o.location == static_cast<int>(r) && o.type == w.task.object && transformDone(w.task.type, o);
        best = std::max(best, n);
    }
    return best;
}

void mix(std::uint64_t& h, std::uint64_t v) { h = (h ^ v) * 0x100000001b3ull; }

} // namespace

bool transformDone(TaskType type, const Object& o)
{
    switch (type) {
    case TaskType::PickCleanThenPlace:
        return o.clean;
    case TaskType::PickHeatThenPlace:
        return o.hot;
    case TaskType::PickCoolThenPlace:
        return o.cold;
    default:
        return true;
    }
}

bool isTransform(TaskType type)
{
    return type == TaskType::PickCleanThenPlace || type == TaskType::PickHeatThenPlace
        || type == TaskType::PickCoolThenPlace;
}

bool succeeded(const World& w)
{
    const Task& t = w.task;
    if (t.type == TaskType::LookAtObjInLight)
        return w.lampOn && w.held >= 0 && w.obj(w.held).type == t.object && w.location >= 0
            && w.rtype(w.location).appliance == Appliance::Lamp;
    return bestDestinationCount(w) >= (t.type == TaskType::PickTwoObjAndPlace ? 2 : 1);
}

double progressOf(const World& w)
{
    if (succeeded(w))
        return 1.0;
    const Task& t = w.task;
    const bool holding = w.held >= 0;
    const bool holdingTarget = holding && w.obj(w.held).type == t.object;
    int k = 2, a = holdingTarget ? 1 : 0;
    if (isTransform(t.type)) {
        k = 3;
        bool transformedElsewhere = false;
        for (const Object& o : w.objects)
            transformedElsewhere |= o.type == t.object && o.location != kHeld && transformDone(t.type, o);
        if (holdingTarget && transformDone(t.type, w.obj(w.held)))
            a = 2;
        else
            a = holdingTarget || transformedElsewhere ? 1 : 0;
    } else if (t.type == TaskType::LookAtObjInLight) {
        k = 3;
        a += w.lampOn ? 1 : 0;
    } else if (t.type == TaskType::PickTwoObjAndPlace) {
        k = 4;
        a += bestDestinationCount(w) >= 1 ? 2 : 0;
    }
    const int ready = holding && !holdingTarget ? 0 : 1;
    return static_cast<double>(a + ready) / static_cast<double>(k + 1);
}

void writeStateKey(const World& w, std::string& out)
{
    out.assign("loc=").append(w.location >= 0 ? w.rec(w.location).name : std::string_view("-"));
    out.append("|holding=").append(w.held >= 0 ? w.obj(w.held).name : std::string_view("-")).append("|");
    bool first = true;
    for (const Object& o : w.objects) {
        if (o.type != w.task.object)
            continue;
        out.append(first ? "" : ",").append(o.name).append("@");
        out.append(o.location == kHeld ? std::string_view("hand") : std::string_view(w.rec(o.location).name));
        out.append(o.clean ? "+clean" : "").append(o.hot ? "+hot" : "").append(o.cold ? "+cool" : "");
        first = false;
    }
    if (w.task.type == TaskType::LookAtObjInLight)
        out.append(w.lampOn ? "|lamp=on" : "|lamp=off");
    out.append("|open=");
    first = true;
    for (const Receptacle& r : w.receptacles)
        if (r.open) {
            out.append(first ? "" : ",").append(r.name);
            first = false;
        }
    out.append("|visited=");
    first = true;
    for (std::size_t r = 0; r < w.receptacles.size(); ++r)
        if (w.visited[r]) {
            out.append(first ? "" : ",").append(w.receptacles[r].name);
            first = false;
        }
}

std::uint64_t physicalHash(const World& w)
{
    std::uint64_t h = 0xcbf29ce484222325ull;
    mix(h, static_cast<std::uint64_t>(w.location + 2));
    mix(h, static_cast<std::uint64_t>(w.held + 2));
    mix(h, w.lampOn ? 7u : 3u);
    for (const Receptacle& r : w.receptacles)
        mix(h, r.open ? 5u : 11u);
    for (const Object& o : w.objects)
        mix(h,
            static_cast<std::uint64_t>(o.location + 2) * 8u + (o.clean ? 1u : 0u) + (o.hot ? 2u : 0u)
                + (o.cold ? 4u : 0u));
    return h;
}

Role oracleRole(bool valid, double before, double after, bool gainedInformation, bool repeat)
{
    constexpr double eps = 1e-9;
    if (!valid)
        return Role::R;
    if (after > before + eps)
        return Role::D;
    if (after < before - eps)
        return Role::R;
    if (gainedInformation)
        return Role::E;
    return repeat ? Role::R : Role::N;
}

} // namespace creditlab::env::household
