#pragma once

// The household world: the catalogue of receptacle and object types, the world state, and its seeded
// generation. Internal to core/env; HouseholdEnv (household.h) is the public face.

#include "core/env/environment.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::env::household {

/// splitmix64: a tiny, portable generator (std distributions differ between standard libraries).
struct Rng {
    std::uint64_t state;
    explicit Rng(std::uint64_t seed)
        : state(seed)
    {
    }
    std::uint64_t next()
    {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, n); n > 0.
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
    /// Uniform in [lo, hi].
    int between(int lo, int hi) { return lo + below(hi - lo + 1); }
    /// Uniform in [0, 1).
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

/// The six ALFWorld task types, in ALFWorld's naming.
enum class TaskType : std::uint8_t {
    PickAndPlace,
    LookAtObjInLight,
    PickCleanThenPlace,
    PickHeatThenPlace,
    PickCoolThenPlace,
    PickTwoObjAndPlace,
};
inline constexpr int kTaskTypeCount = 6;
std::string_view taskTypeName(TaskType type);

enum class Scene : std::uint8_t { Kitchen, LivingRoom, Bedroom, Bathroom };
inline constexpr int kSceneCount = 4;
std::string_view sceneName(Scene scene);

/// What a receptacle does beyond holding things.
enum class Appliance : std::uint8_t { None, Sink, Microwave, Fridge, Lamp };

struct ReceptacleType {
    std::string_view name;
    bool openable = false;
    bool inside = false; ///< "in" rather than "on"
    Appliance appliance = Appliance::None;
    /// Objects can be taken from and put in it (false for lamps).
    bool container() const { return appliance != Appliance::Lamp; }
};

struct ObjectType {
    std::string_view name;
    bool cleanable = false;
    bool heatable = false;
    bool coolable = false;
};

const ReceptacleType& receptacleType(int type);
const ObjectType& objectType(int type);
int receptacleTypeCount();
int objectTypeCount();
/// The index of a type by name; throws std::logic_error when unknown (a catalogue bug).
int findReceptacleType(std::string_view name);
int findObjectType(std::string_view name);

struct Receptacle {
    std::string name; ///< "cabinet 3"
    int type = 0;
    bool open = false; ///< openable ones start closed
};

inline constexpr int kHeld = -1;
inline constexpr int kNowhere = -1; ///< the agent's location before its first "go to"

struct Object {
    std::string name; ///< "apple 2"
    int type = 0;
    int location = 0; ///< receptacle index, or kHeld
    bool clean = false;
    bool hot = false;
    bool cold = false;
};

/// The task spec: what decides the split. Layouts vary freely within a spec.
struct Task {
    TaskType type = TaskType::PickAndPlace;
    Scene scene = Scene::Kitchen;
    int object = 0; ///< object type
    int destination = -1; ///< receptacle type; -1 for LookAtObjInLight
    int lamp = -1; ///< receptacle type of the lamp, LookAtObjInLight only

    /// "pick_heat_then_place/kitchen/apple/fridge", "look_at_obj_in_light/bedroom/book/desklamp".
    std::string spec() const;
};

/// The whole simulator state: layout, object states and the agent.
struct World {
    Task task;
    std::string goal;
    std::vector<Receptacle> receptacles; ///< sorted by type name, then number
    std::vector<Object> objects;
    int location = kNowhere;
    int held = -1; ///< object index or -1
    bool lampOn = false;
    std::vector<std::uint8_t> visited; ///< per receptacle: the agent has been there
    std::vector<std::uint8_t> seen; ///< per receptacle: the agent has seen its contents

    const ReceptacleType& rtype(int r) const { return receptacleType(receptacles[static_cast<std::size_t>(r)].type); }
    const Receptacle& rec(int r) const { return receptacles[static_cast<std::size_t>(r)]; }
    const Object& obj(int o) const { return objects[static_cast<std::size_t>(o)]; }
    /// Contents are visible: the receptacle is open or cannot be opened.
    bool visible(int r) const { return !rtype(r).openable || rec(r).open; }
};

inline constexpr unsigned kAllTaskTypes = (1u << kTaskTypeCount) - 1;

/// Filters on the drawn task.
struct TaskFilter {
    unsigned types = kAllTaskTypes; ///< bit t set: TaskType t may be drawn
    int scene = -1; ///< Scene; -1 means any
};

/// True when `filter` admits at least one task.
bool filterPossible(const TaskFilter& filter);
/// The split a task spec belongs to: a fixed hash of the spec, about 20% eval.
Split splitOf(const Task& task);
/// The fewest receptacles a room can have: every task needs two (a destination or a lamp or an appliance, and a
/// place for the targets to start in).
inline constexpr int kMinReceptacles = 2;
/// Draws the task from `seed` (re-drawing until it is in `split` and passes `filter`), then the layout. With
/// `receptacles` > 0 the room has exactly that many (at least kMinReceptacles), drawn from the scene's receptacle
/// types; 0 keeps the scene's own counts. Throws std::invalid_argument when the filter admits no task of the
/// split.
World generateWorld(std::uint64_t seed, Split split, const TaskFilter& filter, int receptacles = 0);

} // namespace creditlab::env::household
