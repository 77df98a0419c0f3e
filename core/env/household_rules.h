#pragma once

// The household's rules as free functions over a World: command parsing and execution, admissible
// commands, success, progress potential, state keys, the oracle and the expert. Internal to core/env.

#include "core/env/household.h"
#include "core/env/household_world.h"
#include "core/model/trajectory.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace creditlab::env::household {

enum class Verb : std::uint8_t { Look, Inventory, GoTo, Open, Close, Use, Examine, Take, Put, Clean, Heat, Cool };

/// A parsed command: `object` and `receptacle` are indices or -1.
struct Command {
    Verb verb = Verb::Look;
    int object = -1;
    int receptacle = -1;
};

/// Parses `text` (case and spacing are forgiven) against the names in `world`.
InvalidReason parseCommand(const World& world, std::string_view text, Command& out);
/// Applies a parsed command; on success writes ALFWorld-style feedback into `feedback` (cleared first).
InvalidReason applyCommand(World& world, const Command& command, std::string& feedback);
/// Writes the commands that are valid now into `out`, in ALFWorld's forms ("put apple 1 in/on fridge 1").
void listAdmissible(const World& world, std::vector<std::string>& out);
/// Appends what the agent sees at `r`: "On the countertop 1, you see a apple 1, and a mug 2.", "The cabinet 1 is
/// closed.", "The drawer 1 is open. In it, you see nothing.".
void describeReceptacle(const World& world, int r, std::string& out);

/// The object satisfies the task's transformation (clean, hot, cool); true for tasks without one.
bool transformDone(TaskType type, const Object& object);
bool isTransform(TaskType type);
/// The goal holds.
bool succeeded(const World& world);
/// The progress potential in [0, 1]; 1 exactly when the goal holds.
double progressOf(const World& world);
/// "loc=...|holding=...|<targets>|lamp=...|open=...|visited=...".
void writeStateKey(const World& world, std::string& out);
/// A hash of the physical state (location, held object, every object's place and states, open flags,
/// the lamp), without the agent's knowledge.
std::uint64_t physicalHash(const World& world);
/// The oracle's role of one step (rules in household_oracle.cpp).
Role oracleRole(bool valid, double progressBefore, double progressAfter, bool gainedInformation, bool repeat);

/// The expert's next command from the current state; false when the goal already holds. With `search`, the
/// planner uses only what the agent has observed (see household_expert.cpp).
bool expertCommand(const World& world, std::string& out, bool search = false);
/// The receptacles in the order the opening scene names them: by type as stored, each type's numbers descending.
std::vector<int> listingOrder(const World& world);
/// A task that differs from the world's in one decision, chosen by `mistake`: another object type lying in the
/// room (one the task's cleaning, heating or cooling applies to), or, except for the lamp task, another container
/// type in the room as the destination (not the appliance a transform uses). The same world and mistake give the
/// same task. False when the room offers no alternative.
bool mistakenTask(const World& world, std::uint64_t mistake, Task& out);

} // namespace creditlab::env::household
