// The catalogue of household receptacle and object types, after ALFWorld's (ALFRED's) object classes.
#include "core/env/household_world.h"

#include <array>
#include <stdexcept>

namespace creditlab::env::household {

namespace {

using A = Appliance;

// name, openable, inside ("in" rather than "on"), appliance
const std::array kReceptacleTypes = {
    ReceptacleType { "armchair" },
    ReceptacleType { "bathtubbasin", false, true },
    ReceptacleType { "bed" },
    ReceptacleType { "cabinet", true, true },
    ReceptacleType { "coffeemachine" },
    ReceptacleType { "coffeetable" },
    ReceptacleType { "countertop" },
    ReceptacleType { "desk" },
    ReceptacleType { "desklamp", false, false, A::Lamp },
    ReceptacleType { "diningtable" },
    ReceptacleType { "drawer", true, true },
    ReceptacleType { "dresser" },
    ReceptacleType { "floorlamp", false, false, A::Lamp },
    ReceptacleType { "fridge", true, true, A::Fridge },
    ReceptacleType { "garbagecan", false, true },
    ReceptacleType { "handtowelholder" },
    ReceptacleType { "laundryhamper", false, true },
    ReceptacleType { "microwave", true, true, A::Microwave },
    ReceptacleType { "ottoman" },
    ReceptacleType { "safe", true, true },
    ReceptacleType { "shelf" },
    ReceptacleType { "sidetable" },
    ReceptacleType { "sinkbasin", false, true, A::Sink },
    ReceptacleType { "sofa" },
    ReceptacleType { "stoveburner" },
    ReceptacleType { "toaster" },
    ReceptacleType { "toilet" },
    ReceptacleType { "toiletpaperhanger" },
    ReceptacleType { "towelholder" },
    ReceptacleType { "tvstand" },
};

// name, cleanable, heatable, coolable
const std::array kObjectTypes = {
    ObjectType { "alarmclock" },
    ObjectType { "apple", true, true, true },
    ObjectType { "baseballbat" },
    ObjectType { "book" },
    ObjectType { "bowl", true, false, true },
    ObjectType { "box" },
    ObjectType { "bread", false, true, true },
    ObjectType { "butterknife", true },
    ObjectType { "candle" },
    ObjectType { "cd" },
    ObjectType { "cellphone" },
    ObjectType { "cloth", true },
    ObjectType { "creditcard" },
    ObjectType { "cup", true, true, true },
    ObjectType { "dishsponge", true },
    ObjectType { "egg", true, true, true },
    ObjectType { "fork", true },
    ObjectType { "handtowel" },
    ObjectType { "keychain" },
    ObjectType { "knife", true },
    ObjectType { "ladle", true },
    ObjectType { "laptop" },
    ObjectType { "lettuce", true, false, true },
    ObjectType { "mug", true, true, true },
    ObjectType { "newspaper" },
    ObjectType { "pan", true, false, true },
    ObjectType { "pen" },
    ObjectType { "pencil" },
    ObjectType { "peppershaker" },
    ObjectType { "pillow" },
    ObjectType { "plate", true, true, true },
    ObjectType { "plunger" },
    ObjectType { "pot", true, false, true },
    ObjectType { "potato", true, true, true },
    ObjectType { "remotecontrol" },
    ObjectType { "saltshaker" },
    ObjectType { "scrubbrush" },
    ObjectType { "soapbar", true },
    ObjectType { "soapbottle" },
    ObjectType { "spatula", true },
    ObjectType { "spoon", true },
    ObjectType { "spraybottle" },
    ObjectType { "statue" },
    ObjectType { "teddybear" },
    ObjectType { "tennisracket" },
    ObjectType { "tissuebox" },
    ObjectType { "toiletpaper" },
    ObjectType { "tomato", true, true, true },
    ObjectType { "towel" },
    ObjectType { "vase" },
    ObjectType { "watch" },
    ObjectType { "winebottle", false, false, true },
};

} // namespace

const ReceptacleType& receptacleType(int type) { return kReceptacleTypes[static_cast<std::size_t>(type)]; }
const ObjectType& objectType(int type) { return kObjectTypes[static_cast<std::size_t>(type)]; }
int receptacleTypeCount() { return static_cast<int>(kReceptacleTypes.size()); }
int objectTypeCount() { return static_cast<int>(kObjectTypes.size()); }

int findReceptacleType(std::string_view name)
{
    for (std::size_t i = 0; i < kReceptacleTypes.size(); ++i)
        if (kReceptacleTypes[i].name == name)
            return static_cast<int>(i);
    throw std::logic_error("household: unknown receptacle type");
}

int findObjectType(std::string_view name)
{
    for (std::size_t i = 0; i < kObjectTypes.size(); ++i)
        if (kObjectTypes[i].name == name)
            return static_cast<int>(i);
    throw std::logic_error("household: unknown object type");
}

} // namespace creditlab::env::household
