// Python's methods on str, list, tuple and dict as the immutable sandbox exposes them, and jinja2's globals with
// transformers' raise_exception and strftime_now.

#include "core/hf/jinja_builtins.h"
#include "core/hf/jinja_eval.h"
#include "core/hf/jinja_filters_util.h"
#include "core/hf/jinja_text.h"

#include <algorithm>
#include <ctime>
#include <unordered_set>

namespace creditlab::hf::jinja {

namespace {

Value boundMethod(
    const Value& self, std::string name, Value (*impl)(Renderer&, const Value&, const std::string&, const Args&))
{
    auto c = std::make_shared<Callable>();
    c->name = name;
    c->call = [self, name, impl](Renderer& r, const Args& args) { return impl(r, self, name, args); };
    return Value::callable(std::move(c));
}

std::string optionalString(const Value& v, const char* what)
{
    if (!v.isString())
        throw JinjaError(std::string(what) + " arg must be None or str");
    return v.s;
}

std::int64_t codePointIndex(const std::string& s, std::size_t byte)
{
    return static_cast<std::int64_t>(text::codePointCount(std::string_view(s).substr(0, byte)));
}

bool affix(const std::string& s, const Value& what, bool start)
{
    auto one = [&](const Value& v) {
        if (!v.isString())
            throw JinjaError(std::string(start ? "startswith" : "endswith")
                + " first arg must be str or a tuple of str, not " + typeName(v));
        return start ? s.compare(0, v.s.size(), v.s) == 0
                     : s.size() >= v.s.size() && s.compare(s.size() - v.s.size(), v.s.size(), v.s) == 0;
    };
    if (what.kind == Kind::Tuple)
        return std::any_of(what.list->begin(), what.list->end(), one);
    return one(what);
}

std::string format(Renderer& r, const std::string& fmt, const Args& a)
{
    std::string out;
    std::size_t auto_ = 0;
    for (std::size_t k = 0; k < fmt.size(); ++k) {
        const char c = fmt[k];
        if ((c == '{' || c == '}') && k + 1 < fmt.size() && fmt[k + 1] == c) {
            out += c;
            ++k;
            continue;
        }
        if (c == '}')
            throw JinjaError("Single '}' encountered in format string");
        if (c != '{') {
            out += c;
            continue;
        }
        const std::size_t close = fmt.find('}', k);
        if (close == std::string::npos)
            throw JinjaError("Single '{' encountered in format string");
        const std::string field = fmt.substr(k + 1, close - k - 1);
        if (field.find_first_of(":!.[") != std::string::npos)
            throw JinjaError("format specifications in str.format are not supported");
        std::int64_t index = 0;
        if (field.empty()) {
            index = static_cast<std::int64_t>(auto_++);
        } else if (!parsePyInt(field, 10, index)) {
            const auto it = std::find_if(a.kw.begin(), a.kw.end(), [&](const auto& kw) { return kw.first == field; });
            if (it == a.kw.end())
                throw JinjaError("KeyError: '" + field + "'");
            appendStr(out, it->second);
            k = close;
            continue;
        }
        if (index < 0 || static_cast<std::size_t>(index) >= a.pos.size())
            throw JinjaError("Replacement index " + std::to_string(index) + " out of range for positional args tuple");
        appendStr(out, a.pos[static_cast<std::size_t>(index)]);
        r.checkSize(out.size());
        k = close;
    }
    return out;
}

Value strMethod(Renderer& r, const Value& self, const std::string& name, const Args& a)
{
    const std::string& s = self.s;
    auto str = [](std::string v) { return Value::string(std::move(v)); };
    if (name == "strip" || name == "lstrip" || name == "rstrip") {
        const auto p = a.bind(name.c_str(), { "chars" });
        const bool has = !isMissing(p[0]) && !p[0].isNone();
        const std::string chars = has ? optionalString(p[0], name.c_str()) : std::string();
        return str(text::strip(s, has ? &chars : nullptr, name != "rstrip", name != "lstrip"));
    }
    if (name == "split" || name == "rsplit") {
        const auto p = a.bind(name.c_str(), { "sep", "maxsplit" });
        const bool has = !isMissing(p[0]) && !p[0].isNone();
        const std::string sep = has ? optionalString(p[0], name.c_str()) : std::string();
        if (has && sep.empty())
            throw JinjaError("empty separator");
        const long long maxsplit = isMissing(p[1]) ? -1 : intArg(p[1], name.c_str());
        List parts;
        for (std::string& part : text::split(s, has ? &sep : nullptr, maxsplit, name == "rsplit"))
            parts.push_back(str(std::move(part)));
        r.step(parts.size());
        return Value::makeList(std::move(parts));
    }
    if (name == "startswith" || name == "endswith") {
        const auto p = a.bind(name.c_str(), { "prefix" }, 1);
        return Value::boolean(affix(s, p[0], name == "startswith"));
    }
    if (name == "replace") {
        const auto p = a.bind("replace", { "old", "new", "count" }, 2);
        std::string out = text::replace(s, optionalString(p[0], "replace"), optionalString(p[1], "replace"),
            isMissing(p[2]) ? -1 : intArg(p[2], "replace"));
        r.checkSize(out.size());
        return str(std::move(out));
    }
    if (name == "upper" || name == "lower" || name == "title" || name == "capitalize" || name == "swapcase") {
        a.bind(name.c_str(), {});
        if (name == "upper")
            return str(text::upper(s));
        if (name == "lower")
            return str(text::lower(s));
        if (name == "title")
            return str(text::pyTitle(s));
        return str(name == "capitalize" ? text::capitalize(s) : text::swapcase(s));
    }
    if (name == "find" || name == "rfind" || name == "index" || name == "rindex" || name == "count") {
        const auto p = a.bind(name.c_str(), { "sub" }, 1);
        const std::string sub = optionalString(p[0], name.c_str());
        if (name == "count")
            return Value::integer(static_cast<std::int64_t>(text::count(s, sub)));
        const std::size_t at = name[0] == 'r' ? s.rfind(sub) : s.find(sub);
        if (at == std::string::npos) {
            if (name.find("index") != std::string::npos)
                throw JinjaError("substring not found");
            return Value::integer(-1);
        }
        return Value::integer(codePointIndex(s, at));
    }
    if (name == "join") {
        const auto p = a.bind("join", { "iterable" }, 1);
        std::string out;
        bool first = true;
        for (const Value& item : iterate(p[0])) {
            if (!item.isString())
                throw JinjaError(std::string("sequence item: expected str instance, ") + typeName(item) + " found");
            if (!first)
                out += s;
            first = false;
            out += item.s;
            r.checkSize(out.size());
        }
        return str(std::move(out));
    }
    if (name == "format")
        return str(format(r, s, a));
    if (name == "splitlines") {
        const auto p = a.bind("splitlines", { "keepends" });
        List lines;
        for (std::string& line : text::splitlines(s, !isMissing(p[0]) && truthy(p[0])))
            lines.push_back(str(std::move(line)));
        return Value::makeList(std::move(lines));
    }
    if (name == "center" || name == "ljust" || name == "rjust") {
        const auto p = a.bind(name.c_str(), { "width", "fillchar" }, 1);
        char32_t fill = ' ';
        if (!isMissing(p[1])) {
            const std::string f = optionalString(p[1], name.c_str());
            if (text::codePointCount(f) != 1)
                throw JinjaError("The fill character must be exactly one character long");
            std::size_t pos = 0;
            fill = text::decode(f, pos);
        }
        return str(pad(r, s, intArg(p[0], name.c_str()), fill, name == "center" ? 0 : (name == "ljust" ? -1 : 1)));
    }
    if (name == "removeprefix" || name == "removesuffix") {
        const auto p = a.bind(name.c_str(), { "affix" }, 1);
        const std::string x = optionalString(p[0], name.c_str());
        if (name == "removeprefix")
            return str(s.compare(0, x.size(), x) == 0 ? s.substr(x.size()) : s);
        return str(affix(s, p[0], false) ? s.substr(0, s.size() - x.size()) : s);
    }
    // is*(): true when the string is non-empty and every code point passes.
    a.bind(name.c_str(), {});
    bool (*pass)(char32_t) = nullptr;
    if (name == "isdigit")
        pass = text::isDigit;
    else if (name == "isalpha")
        pass = text::isAlpha;
    else if (name == "isalnum")
        pass = text::isAlnum;
    else if (name == "isspace")
        pass = text::isSpace;
    if (pass) {
        bool all = !s.empty();
        for (std::size_t pos = 0; all && pos < s.size();)
            all = pass(text::decode(s, pos));
        return Value::boolean(all);
    }
    // isupper/islower: at least one cased character, and none of the other case.
    bool cased = false;
    bool ok = true;
    for (std::size_t pos = 0; pos < s.size();) {
        const char32_t c = text::decode(s, pos);
        if (text::isUpper(c) || text::isLower(c))
            cased = true;
        if (name == "isupper" ? text::isLower(c) : text::isUpper(c))
            ok = false;
    }
    return Value::boolean(cased && ok);
}

Value seqMethod(Renderer& r, const Value& self, const std::string& name, const Args& a)
{
    const auto p = a.bind(name.c_str(), { "value" }, name == "copy" ? 0 : 1);
    if (name == "copy")
        return Value::makeList(*self.list);
    r.step(self.list->size());
    std::int64_t n = 0;
    for (std::size_t k = 0; k < self.list->size(); ++k) {
        if (!equals((*self.list)[k], p[0]))
            continue;
        if (name == "index")
            return Value::integer(static_cast<std::int64_t>(k));
        ++n;
    }
    if (name == "index")
        throw JinjaError(repr(p[0]) + " is not in list");
    return Value::integer(n);
}

Value dictMethod(Renderer& r, const Value& self, const std::string& name, const Args& a)
{
    const Dict& d = *self.dict;
    r.step(d.entries.size() / 8);
    if (name == "get") {
        const auto p = a.bind("get", { "key", "default" }, 1);
        if (const Value* v = d.find(p[0]))
            return *v;
        return isMissing(p[1]) ? Value::none() : p[1];
    }
    a.bind(name.c_str(), {});
    if (name == "copy")
        return Value::makeDict(d);
    List out;
    for (const auto& [k, v] : d.entries)
        out.push_back(name == "keys" ? k : (name == "values" ? v : Value::makeTuple({ k, v })));
    return Value::makeList(std::move(out));
}

Value unsafe(const Value& obj, std::string_view name)
{
    return Value::undefined(
        "access to attribute '" + std::string(name) + "' of '" + typeName(obj) + "' object is unsafe.");
}

} // namespace

Value findMethod(const Value& obj, std::string_view name)
{
    static const std::unordered_set<std::string_view> kStr = { "strip", "lstrip", "rstrip", "split", "rsplit",
        "startswith", "endswith", "replace", "upper", "lower", "title", "capitalize", "swapcase", "find", "rfind",
        "index", "rindex", "count", "join", "format", "splitlines", "center", "ljust", "rjust", "removeprefix",
        "removesuffix", "isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower" };
    static const std::unordered_set<std::string_view> kListUnsafe
        = { "append", "extend", "insert", "pop", "remove", "reverse", "sort", "clear" };
    static const std::unordered_set<std::string_view> kDictUnsafe
        = { "pop", "popitem", "setdefault", "update", "clear" };
    const std::string n(name);
    switch (obj.kind) {
    case Kind::String:
        if (kStr.count(name))
            return boundMethod(obj, n, strMethod);
        break;
    case Kind::List:
        if (kListUnsafe.count(name))
            return unsafe(obj, name);
        [[fallthrough]];
    case Kind::Tuple:
        if (name == "index" || name == "count" || (name == "copy" && obj.kind == Kind::List))
            return boundMethod(obj, n, seqMethod);
        break;
    case Kind::Dict:
        if (kDictUnsafe.count(name))
            return unsafe(obj, name);
        if (name == "get" || name == "keys" || name == "values" || name == "items" || name == "copy")
            return boundMethod(obj, n, dictMethod);
        break;
    default:
        break;
    }
    return Value::undefined("\x01missing");
}

namespace {

// jinja2's sandbox refuses ranges longer than MAX_RANGE.
constexpr std::int64_t kMaxRange = 100000;

Value gRange(Renderer& r, const Args& a)
{
    if (!a.kw.empty() || a.pos.empty() || a.pos.size() > 3)
        throw JinjaError("range expected 1 to 3 integer arguments");
    std::int64_t start = 0, stop = 0, step = 1;
    if (a.pos.size() == 1) {
        stop = intArg(a.pos[0], "range");
    } else {
        start = intArg(a.pos[0], "range");
        stop = intArg(a.pos[1], "range");
        if (a.pos.size() == 3)
            step = intArg(a.pos[2], "range");
    }
    if (step == 0)
        throw JinjaError("range() arg 3 must not be zero");
    const long double count = step > 0 ? (static_cast<long double>(stop) - start + step - 1) / step
                                       : (static_cast<long double>(start) - stop - step - 1) / -step;
    if (count > kMaxRange)
        throw JinjaError("Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).");
    List out;
    for (std::int64_t k = start; step > 0 ? k < stop : k > stop; k += step)
        out.push_back(Value::integer(k));
    r.step(out.size());
    return Value::makeList(std::move(out));
}

Value gNamespace(Renderer& r, const Args& a)
{
    Dict d;
    for (const Value& v : a.pos) {
        if (!v.isMapping() && v.kind != Kind::Namespace)
            throw JinjaError("namespace() takes mappings and keyword arguments");
        for (const auto& [k, value] : v.dict->entries)
            d.set(k, value);
    }
    for (const auto& [k, value] : a.kw)
        d.set(Value::string(k), value);
    Value ns = Value::makeNamespace(std::move(d));
    r.track(ns);
    return ns;
}

Value gDict(Renderer&, const Args& a)
{
    Dict d;
    if (a.pos.size() > 1)
        throw JinjaError("dict expected at most 1 argument");
    if (!a.pos.empty()) {
        if (!a.pos[0].isMapping())
            throw JinjaError("dict() with a positional argument other than a mapping is not supported");
        d = *a.pos[0].dict;
    }
    for (const auto& [k, value] : a.kw)
        d.set(Value::string(k), value);
    return Value::makeDict(std::move(d));
}

Value gRaise(Renderer&, const Args& a)
{
    const auto p = a.bind("raise_exception", { "message" }, 1);
    throw JinjaError(toStr(p[0]));
}

Value gStrftime(Renderer& r, const Args& a)
{
    const auto p = a.bind("strftime_now", { "format" }, 1);
    const std::string fmt = toStr(p[0]);
    const std::time_t t = std::chrono::system_clock::to_time_t(r.now());
    std::tm tm {};
    localtime_r(&t, &tm);
    std::string out(256 + fmt.size() * 8, '\0');
    const std::size_t n = fmt.empty() ? 0 : std::strftime(out.data(), out.size(), fmt.c_str(), &tm);
    out.resize(n);
    return Value::string(std::move(out));
}

std::shared_ptr<const Callable> global(const char* name, Value (*fn)(Renderer&, const Args&))
{
    auto c = std::make_shared<Callable>();
    c->name = name;
    c->call = fn;
    return c;
}

} // namespace

Value findGlobal(std::string_view name)
{
    static const std::vector<std::pair<std::string_view, std::shared_ptr<const Callable>>> kGlobals
        = { { "range", global("range", gRange) }, { "namespace", global("namespace", gNamespace) },
              { "dict", global("dict", gDict) }, { "raise_exception", global("raise_exception", gRaise) },
              { "strftime_now", global("strftime_now", gStrftime) } };
    for (const auto& [n, c] : kGlobals)
        if (n == name)
            return Value::callable(c);
    return Value();
}

} // namespace creditlab::hf::jinja
