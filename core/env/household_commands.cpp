// Command parsing, execution and the admissible-command list: ALFWorld's grammar and feedback texts.
#include "core/env/household_rules.h"

namespace creditlab::env::household {

namespace {

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

int findReceptacle(const World& w, std::string_view name)
{
    for (std::size_t r = 0; r < w.receptacles.size(); ++r)
        if (w.receptacles[r].name == name)
            return static_cast<int>(r);
    return -1;
}

int findObject(const World& w, std::string_view name)
{
    for (std::size_t o = 0; o < w.objects.size(); ++o)
        if (w.objects[o].name == name)
            return static_cast<int>(o);
    return -1;
}

/// Splits "X<sep>Y" at the first `sep`; false when it is absent or a side is empty.
bool splitAt(std::string_view s, std::string_view sep, std::string_view& left, std::string_view& right)
{
    const auto at = s.find(sep);
    if (at == std::string_view::npos || at == 0 || at + sep.size() >= s.size())
        return false;
    left = s.substr(0, at);
    right = s.substr(at + sep.size());
    return true;
}

InvalidReason objectAndReceptacle(const World& w, std::string_view o, std::string_view r, Verb verb, Command& out)
{
    out.verb = verb;
    out.object = findObject(w, o);
    out.receptacle = findReceptacle(w, r);
    return out.object >= 0 && out.receptacle >= 0 ? InvalidReason::None : InvalidReason::UnknownName;
}

std::string_view prepOf(const World& w, int r) { return w.rtype(r).inside ? "in" : "on"; }

void appendArticled(std::string& out, const std::string& name) { out.append("a ").append(name); }

} // namespace

InvalidReason parseCommand(const World& w, std::string_view text, Command& out)
{
    // Normalise: lower case, single spaces, no leading or trailing space. Commands are short.
    char buffer[256];
    std::size_t n = 0;
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = n > 0;
            continue;
        }
        if (n + 2 >= sizeof buffer)
            return InvalidReason::Malformed;
        if (space)
            buffer[n++] = ' ';
        space = false;
        buffer[n++] = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
    const std::string_view s(buffer, n);
    out = Command {};
    std::string_view a, b;
    if (s == "look") {
        out.verb = Verb::Look;
        return InvalidReason::None;
    }
    if (s == "inventory") {
        out.verb = Verb::Inventory;
        return InvalidReason::None;
    }
    struct Unary {
        std::string_view prefix;
        Verb verb;
    };
    static constexpr Unary unary[] = { { "go to ", Verb::GoTo }, { "open ", Verb::Open }, { "close ", Verb::Close },
        { "use ", Verb::Use }, { "examine ", Verb::Examine } };
    for (const Unary& u : unary) {
        if (!startsWith(s, u.prefix))
            continue;
        const std::string_view name = s.substr(u.prefix.size());
        out.verb = u.verb;
        out.receptacle = findReceptacle(w, name);
        if (u.verb == Verb::Examine && out.receptacle < 0)
            out.object = findObject(w, name);
        return out.receptacle >= 0 || out.object >= 0 ? InvalidReason::None : InvalidReason::UnknownName;
    }
    if (startsWith(s, "take ") && splitAt(s.substr(5), " from ", a, b))
        return objectAndReceptacle(w, a, b, Verb::Take, out);
    if (startsWith(s, "put ")) {
        const std::string_view rest = s.substr(4);
        if (splitAt(rest, " in/on ", a, b) || splitAt(rest, " in ", a, b) || splitAt(rest, " on ", a, b))
            return objectAndReceptacle(w, a, b, Verb::Put, out);
    }
    static constexpr Unary withVerbs[]
        = { { "clean ", Verb::Clean }, { "heat ", Verb::Heat }, { "cool ", Verb::Cool } };
    for (const Unary& u : withVerbs)
        if (startsWith(s, u.prefix) && splitAt(s.substr(u.prefix.size()), " with ", a, b))
            return objectAndReceptacle(w, a, b, u.verb, out);
    return InvalidReason::Malformed;
}

void describeReceptacle(const World& w, int r, std::string& out)
{
    const ReceptacleType& t = w.rtype(r);
    const std::string& name = w.rec(r).name;
    if (t.appliance == Appliance::Lamp) {
        out.append("The ").append(name).append(w.lampOn ? " is turned on." : " is turned off.");
        return;
    }
    if (t.openable && !w.rec(r).open) {
        out.append("The ").append(name).append(" is closed.");
        return;
    }
    if (t.openable)
        out.append("The ").append(name).append(" is open. In it, you see ");
    else
        out.append("On the ").append(name).append(", you see ");
    int total = 0;
    for (const Object& o : w.objects)
        total += o.location == r;
    int k = 0;
    for (const Object& o : w.objects) {
        if (o.location != r)
            continue;
        if (k > 0)
            out.append(total > 1 && k == total - 1 ? ", and " : ", ");
        appendArticled(out, o.name);
        ++k;
    }
    out.append(total == 0 ? "nothing." : ".");
}

InvalidReason applyCommand(World& w, const Command& c, std::string& fb)
{
    using R = InvalidReason;
    fb.clear();
    const int r = c.receptacle;
    const bool here = r >= 0 && r == w.location;
    const auto appliance = [&](Appliance a) { return here && w.rtype(r).appliance == a; };
    switch (c.verb) {
    case Verb::Look:
        if (w.location < 0)
            fb = "You are in the middle of a room. Looking quickly around you, you see nothing.";
        else
            fb.append("You are facing the ").append(w.rec(w.location).name).append(". Next to it, you see nothing.");
        return R::None;
    case Verb::Inventory:
        if (w.held < 0) {
            fb = "You are not carrying anything.";
        } else {
            fb = "You are carrying: ";
            appendArticled(fb, w.obj(w.held).name);
            fb.push_back('.');
        }
        return R::None;
    case Verb::GoTo:
        if (here)
            return R::Impossible;
        w.location = r;
        w.visited[static_cast<std::size_t>(r)] = 1;
        if (w.rtype(r).container() && w.visible(r))
            w.seen[static_cast<std::size_t>(r)] = 1;
        fb.append("You arrive at ").append(w.rec(r).name).append(". ");
        describeReceptacle(w, r, fb);
        return R::None;
    case Verb::Open:
    case Verb::Close: {
        const bool open = c.verb == Verb::Open;
        if (!here || !w.rtype(r).openable || w.rec(r).open == open)
            return R::Impossible;
        w.receptacles[static_cast<std::size_t>(r)].open = open;
        fb.append(open ? "You open the " : "You close the ").append(w.rec(r).name).append(".");
        if (open) {
            w.seen[static_cast<std::size_t>(r)] = 1;
            fb.push_back(' ');
            describeReceptacle(w, r, fb);
        }
        return R::None;
    }
    case Verb::Use:
        if (!appliance(Appliance::Lamp) || w.lampOn)
            return R::Impossible;
        w.lampOn = true;
        fb.append("You turn on the ").append(w.rec(r).name).append(".");
        return R::None;
    case Verb::Examine:
        if (r >= 0) {
            if (!here)
                return R::Impossible;
            describeReceptacle(w, r, fb);
            return R::None;
        } else {
            const Object& o = w.obj(c.object);
            const bool inReach
                = w.held == c.object || (w.location >= 0 && o.location == w.location && w.visible(w.location));
            if (!inReach)
                return R::Impossible;
            if (!o.clean && !o.hot && !o.cold) {
                fb.append("There's nothing special about ").append(o.name).append(".");
                return R::None;
            }
            fb.append("The ").append(o.name).append(" is ");
            fb.append(o.clean ? (o.hot || o.cold ? "clean and " : "clean") : "");
            fb.append(o.hot ? "hot" : o.cold ? "cool" : "").append(".");
            return R::None;
        }
    case Verb::Take:
        if (w.held >= 0 || !here || w.obj(c.object).location != r || !w.visible(r))
            return R::Impossible;
        w.held = c.object;
        w.objects[static_cast<std::size_t>(c.object)].location = kHeld;
        fb.append("You pick up the ").append(w.obj(c.object).name).append(" from the ").append(w.rec(r).name);
        fb.push_back('.');
        return R::None;
    case Verb::Put:
        if (w.held != c.object || !here || !w.rtype(r).container() || !w.visible(r))
            return R::Impossible;
        w.held = -1;
        w.objects[static_cast<std::size_t>(c.object)].location = r;
        fb.append("You put the ").append(w.obj(c.object).name).append(" ").append(prepOf(w, r)).append(" the ");
        fb.append(w.rec(r).name).push_back('.');
        return R::None;
    case Verb::Clean:
    case Verb::Heat:
    case Verb::Cool: {
        const Appliance needed = c.verb == Verb::Clean ? Appliance::Sink
            : c.verb == Verb::Heat                     ? Appliance::Microwave
                                                       : Appliance::Fridge;
        if (w.held != c.object || !appliance(needed))
            return R::Impossible;
        Object& o = w.objects[static_cast<std::size_t>(c.object)];
        if (c.verb == Verb::Clean)
            o.clean = true;
        else if (c.verb == Verb::Heat)
            o.hot = true, o.cold = false;
        else
            o.cold = true, o.hot = false;
        fb.append(c.verb == Verb::Clean ? "You clean the " : c.verb == Verb::Heat ? "You heat the " : "You cool the ");
        fb.append(o.name).append(" using the ").append(w.rec(r).name).push_back('.');
        return R::None;
    }
    }
    return R::Malformed;
}

void listAdmissible(const World& w, std::vector<std::string>& out)
{
    std::size_t n = 0;
    const auto next = [&]() -> std::string& {
        if (n == out.size())
            out.emplace_back();
        std::string& s = out[n++];
        s.clear();
        return s;
    };
    for (std::size_t r = 0; r < w.receptacles.size(); ++r)
        if (static_cast<int>(r) != w.location)
            next().append("go to ").append(w.receptacles[r].name);
    const int here = w.location;
    if (here >= 0) {
        const ReceptacleType& t = w.rtype(here);
        const std::string& name = w.rec(here).name;
        if (t.openable)
            next().append(w.rec(here).open ? "close " : "open ").append(name);
        if (t.appliance == Appliance::Lamp && !w.lampOn)
            next().append("use ").append(name);
        if (t.container() && w.visible(here)) {
            for (const Object& o : w.objects)
                if (w.held < 0 && o.location == here)
                    next().append("take ").append(o.name).append(" from ").append(name);
            if (w.held >= 0)
                next().append("put ").append(w.obj(w.held).name).append(" in/on ").append(name);
        }
        if (w.held >= 0) {
            const std::string& h = w.obj(w.held).name;
            if (t.appliance == Appliance::Sink)
                next().append("clean ").append(h).append(" with ").append(name);
            if (t.appliance == Appliance::Microwave)
                next().append("heat ").append(h).append(" with ").append(name);
            if (t.appliance == Appliance::Fridge)
                next().append("cool ").append(h).append(" with ").append(name);
        }
        next().append("examine ").append(name);
    }
    if (w.held >= 0)
        next().append("examine ").append(w.obj(w.held).name);
    next().append("inventory");
    next().append("look");
    out.resize(n);
}

} // namespace creditlab::env::household
