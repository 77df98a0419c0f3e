// The household's command parser (core/env/household_rules.h parseCommand) and step(text) with fuzzed actions: see
// env_common.h. Each action is parsed against the world before it is stepped, and the step's validity must agree
// with the parse (an unparsed command answers "Nothing happens."). Every admissible command must parse.

#include "core/env/household.h"
#include "core/env/household_rules.h"
#include "tests/fuzz/env_common.h"

using namespace creditlab;
using namespace creditlab::env::household;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    auto& e = static_cast<HouseholdEnv&>(fuzz::environment("household"));
    bool parsed = false;
    std::string action;
    fuzz::playEpisode(
        e, fuzz::text(data, size),
        [&](std::string_view a) {
            Command c;
            parsed = parseCommand(e.world(), a, c) == InvalidReason::None;
            action = a;
            if (parsed && (c.object < -1 || c.receptacle < -1
                    || c.object >= static_cast<int>(e.world().objects.size())
                    || c.receptacle >= static_cast<int>(e.world().receptacles.size())))
                fuzz::finding("a parsed command names an index outside the world", action);
        },
        [&](const env::StepResult& r) {
            if (!parsed && r.info.valid)
                fuzz::finding("an unparsed command was valid", action);
            if (!parsed && e.lastInvalidReason() == InvalidReason::None)
                fuzz::finding("an unparsed command has no invalid reason", action);
            if (!r.done)
                for (const std::string& admissible : e.admissibleCommands()) {
                    Command c;
                    if (parseCommand(e.world(), admissible, c) != InvalidReason::None)
                        fuzz::finding("an admissible command does not parse", admissible);
                }
        });
    return 0;
}
