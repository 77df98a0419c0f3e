// The household's rules on hand-written scenarios: every kind of invalid command answers "Nothing happens.",
// counts as invalid and changes nothing; the oracle's roles (D, E, N, R) and the progress potential, which
// can fall. Scenarios are written against the generated world (names come from world()).
#include "core/env/environment.h"
#include "core/env/household.h"

#include <QtTest/QTest>

#include <string>

using namespace creditlab;
using namespace creditlab::env;
using namespace creditlab::env::household;

namespace {

std::unique_ptr<HouseholdEnv> makeEnv(const std::string& task, std::uint64_t seed)
{
    auto env = std::make_unique<HouseholdEnv>(credit::Params::resolve(
        "household", HouseholdEnv::paramSpecs(), { { "task", task }, { "max_steps", "1000" } }));
    env->reset(seed, Split::Train);
    return env;
}

const Object& target(const World& w)
{
    for (const Object& o : w.objects)
        if (o.type == w.task.object)
            return o;
    throw std::logic_error("no target");
}

/// The first receptacle whose type is `type` (by name), or -1.
int firstOf(const World& w, std::string_view type)
{
    for (std::size_t r = 0; r < w.receptacles.size(); ++r)
        if (receptacleType(w.receptacles[r].type).name == type)
            return static_cast<int>(r);
    return -1;
}

const std::string& rname(const World& w, int r) { return w.rec(r).name; }

/// Goes to `r` and opens it when it is closed.
void reach(HouseholdEnv& env, int r)
{
    if (env.world().location != r)
        QVERIFY(env.step("go to " + rname(env.world(), r)).info.valid);
    if (env.world().rtype(r).openable && !env.world().rec(r).open)
        QVERIFY(env.step("open " + rname(env.world(), r)).info.valid);
}

} // namespace

class TestEnvHouseholdRules : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void invalidCommands();
    void rolesOnPickAndPlace();
    void openThenCloseIsARegression();
    void wrongObjectAndWrongPlaceLowerProgress();
    void lampTaskProgress();
    void pickTwoProgress();
    void partialObservability();
};

void TestEnvHouseholdRules::invalidCommands()
{
    // A kitchen whose first target lies in a closed cabinet or drawer next to another object.
    std::unique_ptr<HouseholdEnv> env;
    for (std::uint64_t seed = 0; !env && seed < 500; ++seed) {
        auto candidate = makeEnv("pick_heat_then_place", seed);
        const World& cw = candidate->world();
        const int home = target(cw).location;
        int sharing = 0;
        for (const Object& o : cw.objects)
            sharing += o.location == home;
        if (cw.rtype(home).openable && cw.rtype(home).appliance == Appliance::None && sharing >= 2)
            env = std::move(candidate);
    }
    QVERIFY(env);
    const World& w = env->world();
    const auto expect = [&](const std::string& command, InvalidReason reason) {
        const std::string before = env->stateKey();
        const StepResult& r = env->step(command);
        QVERIFY2(!r.info.valid, command.c_str());
        QCOMPARE(r.feedback, std::string("Nothing happens."));
        QVERIFY2(env->lastInvalidReason() == reason, command.c_str());
        QCOMPARE(*r.info.role, Role::R);
        QCOMPARE(r.info.stateAfter, before);
        QVERIFY(!r.info.gainedInformation);
    };
    const int microwave = firstOf(w, "microwave"), fridge = firstOf(w, "fridge"), sink = firstOf(w, "sinkbasin");
    const int countertop = firstOf(w, "countertop"), cabinet = firstOf(w, "cabinet");
    const Object& t = target(w);
    const int home = t.location;
    const std::string tname = t.name;
    std::string tType(objectType(t.type).name);

    // Malformed.
    for (const char* c : { "fly to the moon", "take ", "go to", "put", "", "heat apple 1", "take apple 1",
             "put apple 1 into fridge 1", "clean apple 1 using sinkbasin 1" })
        expect(c, InvalidReason::Malformed);
    // Naming something absent: an object, a receptacle, or a thing of the wrong kind.
    expect("take unicorn 1 from " + rname(w, countertop), InvalidReason::UnknownName);
    expect("take " + tType + " 9 from " + rname(w, home), InvalidReason::UnknownName);
    expect("go to cabinet 99", InvalidReason::UnknownName);
    expect("go to " + tname, InvalidReason::UnknownName);
    expect("open spaceship 1", InvalidReason::UnknownName);
    expect("examine unicorn 1", InvalidReason::UnknownName);
    expect("take " + rname(w, cabinet) + " from " + rname(w, countertop), InvalidReason::UnknownName);
    // Impossible now.
    expect("take " + tname + " from " + rname(w, home), InvalidReason::Impossible); // not there
    expect("examine " + rname(w, cabinet), InvalidReason::Impossible); // not there
    expect("examine " + tname, InvalidReason::Impossible); // not in reach
    expect("put " + tname + " in/on " + rname(w, countertop), InvalidReason::Impossible); // not held
    env->step("go to " + rname(w, home));
    expect("go to " + rname(w, home), InvalidReason::Impossible); // already there
    expect("take " + tname + " from " + rname(w, home), InvalidReason::Impossible); // closed: hidden
    expect("close " + rname(w, home), InvalidReason::Impossible); // already closed
    QVERIFY(env->step("open " + rname(w, home)).info.valid);
    expect("open " + rname(w, home), InvalidReason::Impossible); // already open
    expect("use " + rname(w, home), InvalidReason::Impossible); // not a lamp
    QVERIFY(env->step("take " + tname + " from " + rname(w, home)).info.valid);
    for (const Object& o : w.objects) // take while holding
        if (o.location == home) {
            expect("take " + o.name + " from " + rname(w, home), InvalidReason::Impossible);
            break;
        }
    env->step("go to " + rname(w, countertop));
    expect("open " + rname(w, countertop), InvalidReason::Impossible); // cannot be opened
    expect("heat " + tname + " with " + rname(w, microwave), InvalidReason::Impossible); // not at the microwave
    env->step("go to " + rname(w, fridge));
    expect("heat " + tname + " with " + rname(w, fridge), InvalidReason::Impossible); // not a microwave
    expect("put " + tname + " in/on " + rname(w, fridge), InvalidReason::Impossible); // closed
    expect("clean " + tname + " with " + rname(w, fridge), InvalidReason::Impossible); // not a sink
    env->step("go to " + rname(w, sink));
    expect("cool " + tname + " with " + rname(w, sink), InvalidReason::Impossible); // not a fridge
    for (const Object& o : w.objects) // put what you do not hold
        if (o.location != kHeld) {
            expect("put " + o.name + " in/on " + rname(w, sink), InvalidReason::Impossible);
            break;
        }
    env->step("go to " + rname(w, microwave));
    expect("heat " + tname + " with " + rname(w, microwave) + " 1", InvalidReason::UnknownName);
    const StepResult& heat = env->step("HEAT  " + tname + " with " + rname(w, microwave) + " "); // case, spaces
    QVERIFY(heat.info.valid);
    QCOMPARE(heat.feedback, "You heat the " + tname + " using the " + rname(w, microwave) + ".");
    QCOMPARE(*heat.info.role, Role::D);
}

void TestEnvHouseholdRules::rolesOnPickAndPlace()
{
    auto env = makeEnv("pick_and_place", 11);
    const World& w = env->world();
    const Object& t = target(w);
    const std::string tname = t.name;
    const int home = t.location;
    const int dest = firstOf(w, receptacleType(w.task.destination).name);
    int other = -1; // a receptacle that is neither the target's nor the destination
    for (int r = 0; r < static_cast<int>(w.receptacles.size()) && other < 0; ++r)
        if (r != home && r != dest && !w.rtype(r).openable && w.rtype(r).container())
            other = r;
    QVERIFY(other >= 0);
    const auto role = [&](const std::string& command) {
        const StepResult& r = env->step(command);
        return r.info.role.value();
    };
    QCOMPARE(env->progress(), 1.0 / 3.0);
    QCOMPARE(role("look"), Role::N); // generic command, no information
    QCOMPARE(role("look"), Role::R); // the same command from the same state: redundant
    QCOMPARE(role("inventory"), Role::N);
    QCOMPARE(role("go to " + rname(w, home)), Role::E); // first visit
    if (w.rtype(home).openable)
        QCOMPARE(role("open " + rname(w, home)), Role::E); // first sight of the contents
    QCOMPARE(role("examine " + tname), Role::N);
    QCOMPARE(role("examine " + tname), Role::R); // already known
    QCOMPARE(role("take " + tname + " from " + rname(w, home)), Role::D);
    QCOMPARE(env->progress(), 2.0 / 3.0);
    QCOMPARE(role("put " + tname + " in/on " + rname(w, home)), Role::R); // progress falls
    QCOMPARE(env->progress(), 1.0 / 3.0);
    QCOMPARE(role("take " + tname + " from " + rname(w, home)), Role::D);
    QCOMPARE(role("go to " + rname(w, other)), Role::E);
    QCOMPARE(role("go to " + rname(w, home)), Role::R); // back to a physical state met before, nothing learned
    QCOMPARE(role("jump"), Role::R); // invalid
    const StepResult& arrive = env->step("go to " + rname(w, dest));
    QCOMPARE(*arrive.info.role, Role::E); // first visit, holding the target
    if (w.rtype(dest).openable)
        QCOMPARE(role("open " + rname(w, dest)), Role::E);
    const StepResult& put = env->step("put " + tname + " in/on " + rname(w, dest));
    QCOMPARE(*put.info.role, Role::D);
    QVERIFY(put.success && put.done);
    QCOMPARE(put.reward, 1.0);
    QCOMPARE(put.info.progress, 1.0);
}

void TestEnvHouseholdRules::openThenCloseIsARegression()
{
    auto env = makeEnv("pick_and_place", 3);
    const World& w = env->world();
    const int cabinet = firstOf(w, "cabinet") >= 0 ? firstOf(w, "cabinet") : firstOf(w, "drawer");
    QVERIFY(cabinet >= 0);
    const std::string name = rname(w, cabinet);
    QCOMPARE(*env->step("go to " + name).info.role, Role::E);
    const StepResult& open = env->step("open " + name);
    QVERIFY(open.info.gainedInformation);
    QCOMPARE(*open.info.role, Role::E);
    QVERIFY(open.info.stateAfter.find("open=" + name) != std::string::npos);
    QCOMPARE(*env->step("close " + name).info.role, Role::R); // undoes the open, nothing new learned
    QCOMPARE(*env->step("open " + name).info.role, Role::R); // a second look at known contents
}

void TestEnvHouseholdRules::wrongObjectAndWrongPlaceLowerProgress()
{
    auto env = makeEnv("pick_cool_then_place", 8);
    const World& w = env->world();
    QCOMPARE(env->progress(), 0.25);
    const int fridge = firstOf(w, "fridge");
    // Take a distractor: progress falls below the start.
    int distractor = -1;
    for (int o = 0; o < static_cast<int>(w.objects.size()) && distractor < 0; ++o)
        if (w.obj(o).type != w.task.object)
            distractor = o;
    const std::string dname = w.obj(distractor).name;
    const int dhome = w.obj(distractor).location;
    reach(*env, dhome);
    const StepResult& wrong = env->step("take " + dname + " from " + rname(w, dhome));
    QCOMPARE(*wrong.info.role, Role::R);
    QCOMPARE(wrong.info.progressBefore, 0.25);
    QCOMPARE(wrong.info.progress, 0.0);
    QCOMPARE(*env->step("put " + dname + " in/on " + rname(w, dhome)).info.role, Role::D); // recovers
    // Take the target, cool it, then put it somewhere that is not the destination: progress falls.
    const Object& t = target(w);
    const std::string tname = t.name;
    const int home = t.location;
    reach(*env, home);
    QCOMPARE(*env->step("take " + tname + " from " + rname(w, home)).info.role, Role::D);
    QCOMPARE(env->progress(), 0.5);
    reach(*env, fridge);
    QCOMPARE(*env->step("cool " + tname + " with " + rname(w, fridge)).info.role, Role::D);
    QCOMPARE(env->progress(), 0.75);
    QVERIFY(env->stateKey().find(tname + "@hand+cool") != std::string::npos);
    reach(*env, home);
    const StepResult& drop = env->step("put " + tname + " in/on " + rname(w, home));
    QCOMPARE(*drop.info.role, Role::R);
    QCOMPARE(drop.info.progress, 0.5); // a cooled target still lies somewhere
    QVERIFY(!drop.done);
}

void TestEnvHouseholdRules::lampTaskProgress()
{
    auto env = makeEnv("look_at_obj_in_light", 2);
    const World& w = env->world();
    int lamp = firstOf(w, "desklamp");
    if (lamp < 0)
        lamp = firstOf(w, "floorlamp");
    QVERIFY(lamp >= 0);
    QCOMPARE(env->progress(), 0.25);
    env->step("go to " + rname(w, lamp));
    QVERIFY(env->step("examine " + rname(w, lamp)).feedback.find("turned off") != std::string::npos);
    QCOMPARE(*env->step("use " + rname(w, lamp)).info.role, Role::D);
    QCOMPARE(env->progress(), 0.5);
    QVERIFY(!env->step("use " + rname(w, lamp)).info.valid); // already on
    const Object& t = target(w);
    const std::string tname = t.name;
    const int home = t.location;
    reach(*env, home);
    QCOMPARE(*env->step("take " + tname + " from " + rname(w, home)).info.role, Role::D);
    QCOMPARE(env->progress(), 0.75);
    const StepResult& done = env->step("go to " + rname(w, lamp));
    QVERIFY(done.success);
    QCOMPARE(*done.info.role, Role::D);
}

void TestEnvHouseholdRules::pickTwoProgress()
{
    auto env = makeEnv("pick_two_obj_and_place", 5);
    const World& w = env->world();
    const int dest = firstOf(w, receptacleType(w.task.destination).name);
    std::vector<int> targets;
    for (int o = 0; o < static_cast<int>(w.objects.size()); ++o)
        if (w.obj(o).type == w.task.object)
            targets.push_back(o);
    QVERIFY(targets.size() >= 2);
    QCOMPARE(env->progress(), 0.2);
    double expected = 0.2;
    for (int k = 0; k < 2; ++k) {
        const std::string name = w.obj(targets[static_cast<std::size_t>(k)]).name;
        const int home = w.obj(targets[static_cast<std::size_t>(k)]).location;
        reach(*env, home);
        env->step("take " + name + " from " + rname(w, home));
        QCOMPARE(env->progress(), expected += 0.2);
        reach(*env, dest);
        const StepResult& put = env->step("put " + name + " in/on " + rname(w, dest));
        QCOMPARE(put.info.progress, k == 0 ? (expected += 0.2) : 1.0);
        QCOMPARE(put.success, k == 1);
    }
}

void TestEnvHouseholdRules::partialObservability()
{
    auto env = makeEnv("pick_and_place", 21);
    const World& w = env->world();
    const int cabinet = firstOf(w, "cabinet") >= 0 ? firstOf(w, "cabinet") : firstOf(w, "drawer");
    const std::string name = rname(w, cabinet);
    const StepResult& arrive = env->step("go to " + name);
    QCOMPARE(arrive.feedback, "You arrive at " + name + ". The " + name + " is closed.");
    for (const std::string& c : env->admissibleCommands())
        QVERIFY2(c.rfind("take ", 0) != 0, c.c_str()); // nothing to take while closed
    const std::string& opened = env->step("open " + name).feedback;
    QCOMPARE(opened.rfind("You open the " + name + ". The " + name + " is open. In it, you see ", 0), std::size_t(0));
    for (const Object& o : w.objects)
        QCOMPARE(opened.find("a " + o.name + ",") != std::string::npos
                || opened.find("a " + o.name + ".") != std::string::npos,
            o.location == cabinet);
    const StepResult& inv = env->step("inventory");
    QCOMPARE(inv.feedback, std::string("You are not carrying anything."));
}

QTEST_GUILESS_MAIN(TestEnvHouseholdRules)
#include "tst_env_household_rules.moc"
