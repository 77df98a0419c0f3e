// jinja2's filters over sequences (map, select, sort, unique, ...) and the helpers shared by the filters.

#include "core/hf/jinja_builtins.h"
#include "core/hf/jinja_eval.h"
#include "core/hf/jinja_filters_util.h"
#include "core/hf/jinja_text.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

namespace creditlab::hf::jinja {

std::size_t length(const Value& v)
{
    switch (v.kind) {
    case Kind::Undefined:
        return 0;
    case Kind::String:
        return text::codePointCount(v.s);
    case Kind::List:
    case Kind::Tuple:
        return v.list->size();
    case Kind::Dict:
        return v.dict->entries.size();
    default:
        throw JinjaError(std::string("object of type '") + typeName(v) + "' has no len()");
    }
}

std::int64_t intArg(const Value& v, const char* what)
{
    if (!v.isInt())
        throw JinjaError(std::string(what) + ": expected an integer, got '" + typeName(v) + "'");
    return v.i;
}

Value attributeOf(const Value& item, const Value& attribute)
{
    if (attribute.isInt())
        return getItem(item, attribute);
    const std::string dot = ".";
    Value v = item;
    for (const std::string& part : text::split(toStr(attribute), &dot, -1, false)) {
        std::int64_t index = 0;
        const bool digits = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
        v = digits && parsePyInt(part, 10, index) ? getItem(v, Value::integer(index)) : getItem(v, Value::string(part));
    }
    return v;
}

static std::string pyNumberText(std::string_view s, bool allowDot)
{
    std::string t = text::strip(s, nullptr, true, true);
    std::string out;
    for (std::size_t k = 0; k < t.size(); ++k) {
        if (t[k] == '_') {
            const bool between = k > 0 && k + 1 < t.size() && std::isalnum(static_cast<unsigned char>(t[k - 1]))
                && std::isalnum(static_cast<unsigned char>(t[k + 1]));
            if (!between)
                return {};
            continue;
        }
        if (!allowDot && t[k] == '.')
            return {};
        out += t[k];
    }
    return out;
}

bool parsePyInt(std::string_view s, int base, std::int64_t& out)
{
    std::string t = pyNumberText(s, false);
    if (t.empty() || base < 0 || base == 1 || base > 36)
        return false;
    std::size_t k = (t[0] == '+' || t[0] == '-') ? 1 : 0;
    if (base == 0 || base == 16 || base == 8 || base == 2) {
        if (t.size() > k + 1 && t[k] == '0') {
            const char p = static_cast<char>(std::tolower(static_cast<unsigned char>(t[k + 1])));
            const int prefixed = p == 'x' ? 16 : (p == 'o' ? 8 : (p == 'b' ? 2 : 0));
            if (prefixed && (base == 0 || base == prefixed)) {
                base = prefixed;
                t.erase(k, 2);
            }
        }
        if (base == 0)
            base = 10;
    }
    if (k >= t.size() || !std::isalnum(static_cast<unsigned char>(t[k])))
        return false;
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(t.c_str(), &end, base);
    if (*end != '\0' || errno == ERANGE)
        return false;
    out = v;
    return true;
}

bool parsePyFloat(std::string_view s, double& out)
{
    const std::string t = pyNumberText(s, true);
    if (t.empty())
        return false;
    for (const char c : t) // strtod also reads hexadecimal floats, which Python's float() does not
        if (c == 'x' || c == 'X' || c == 'p' || c == 'P')
            return false;
    char* end = nullptr;
    out = std::strtod(t.c_str(), &end);
    return *end == '\0';
}

double pyRound(double x, std::int64_t ndigits)
{
    if (!std::isfinite(x) || ndigits > 300)
        return x;
    if (ndigits < 0) {
        const double scale = std::pow(10.0, static_cast<double>(-ndigits));
        return std::nearbyint(x / scale) * scale;
    }
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(ndigits), x);
    return std::strtod(buf, nullptr);
}

std::string htmlEscape(std::string_view s)
{
    std::string out;
    for (const char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&#34;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string asciiEscape(std::string_view json)
{
    std::string out;
    for (std::size_t pos = 0; pos < json.size();) {
        const std::size_t start = pos;
        char32_t c = text::decode(json, pos);
        if (c < 0x80) {
            out.append(json.substr(start, pos - start));
            continue;
        }
        char buf[16];
        if (c >= 0x10000) {
            c -= 0x10000;
            std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", 0xD800 + static_cast<unsigned>(c >> 10),
                0xDC00 + static_cast<unsigned>(c & 0x3FF));
        } else {
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
        }
        out += buf;
    }
    return out;
}

std::string pad(Renderer& r, const std::string& s, std::int64_t width, char32_t fill, int align)
{
    const auto n = static_cast<std::int64_t>(text::codePointCount(s));
    if (width <= n)
        return s;
    r.checkSize(static_cast<std::size_t>(width) * 4);
    const std::int64_t margin = width - n;
    std::int64_t left = align < 0 ? 0 : (align > 0 ? margin : margin / 2 + (margin & width & 1));
    std::string fillText;
    text::encode(fillText, fill);
    std::string out;
    for (std::int64_t k = 0; k < left; ++k)
        out += fillText;
    out += s;
    for (std::int64_t k = 0; k < margin - left; ++k)
        out += fillText;
    return out;
}

namespace {

// select/reject/selectattr/rejectattr: `attr` picks the attribute first; the test is named by the next argument.
Value selectOrReject(Renderer& r, const Value& v, const Args& a, bool attr, bool keep)
{
    std::size_t next = 0;
    Value attribute;
    if (attr) {
        if (a.pos.empty())
            throw JinjaError("Missing parameter for attribute name");
        attribute = a.pos[next++];
    }
    TestFn test = nullptr;
    Args testArgs;
    if (next < a.pos.size()) {
        const std::string name = toStr(a.pos[next++]);
        test = findTest(name);
        if (!test)
            throw JinjaError("No test named '" + name + "'.");
        testArgs.pos.assign(a.pos.begin() + static_cast<std::ptrdiff_t>(next), a.pos.end());
        testArgs.kw = a.kw;
    }
    List out;
    for (const Value& item : iterate(v)) {
        r.step();
        const Value subject = attr ? attributeOf(item, attribute) : item;
        const bool passed = test ? test(r, subject, testArgs) : truthy(subject);
        if (passed == keep)
            out.push_back(item);
    }
    return Value::makeList(std::move(out));
}

Value fSelect(Renderer& r, const Value& v, const Args& a) { return selectOrReject(r, v, a, false, true); }

Value fReject(Renderer& r, const Value& v, const Args& a) { return selectOrReject(r, v, a, false, false); }

Value fSelectAttr(Renderer& r, const Value& v, const Args& a) { return selectOrReject(r, v, a, true, true); }

Value fRejectAttr(Renderer& r, const Value& v, const Args& a) { return selectOrReject(r, v, a, true, false); }

Value fMap(Renderer& r, const Value& v, const Args& a)
{
    List out;
    const auto attribute
        = std::find_if(a.kw.begin(), a.kw.end(), [](const auto& kw) { return kw.first == "attribute"; });
    if (attribute != a.kw.end()) {
        const auto dflt = std::find_if(a.kw.begin(), a.kw.end(), [](const auto& kw) { return kw.first == "default"; });
        for (const Value& item : iterate(v)) {
            r.step();
            Value x = attributeOf(item, attribute->second);
            out.push_back(x.isUndefined() && dflt != a.kw.end() ? dflt->second : x);
        }
        return Value::makeList(std::move(out));
    }
    if (a.pos.empty())
        throw JinjaError("map requires a filter argument");
    const std::string name = toStr(a.pos[0]);
    const FilterFn filter = findFilter(name);
    if (!filter)
        throw JinjaError("No filter named '" + name + "'.");
    Args rest;
    rest.pos.assign(a.pos.begin() + 1, a.pos.end());
    rest.kw = a.kw;
    for (const Value& item : iterate(v)) {
        r.step();
        out.push_back(filter(r, item, rest));
    }
    return Value::makeList(std::move(out));
}

Value sortKey(const Value& item, const Value& attribute, bool caseSensitive)
{
    Value key
        = attribute.isUndefined() || attribute.isNone() || isMissing(attribute) ? item : attributeOf(item, attribute);
    if (!caseSensitive && key.isString())
        return Value::string(text::lower(key.s));
    return key;
}

Value fSort(Renderer& r, const Value& v, const Args& a)
{
    const auto p = a.bind("sort", { "reverse", "case_sensitive", "attribute" });
    const bool reverse = !isMissing(p[0]) && truthy(p[0]);
    const bool caseSensitive = !isMissing(p[1]) && truthy(p[1]);
    List items = iterate(v);
    r.step(items.size() * 4);
    std::vector<std::pair<Value, Value>> keyed;
    for (Value& item : items)
        keyed.emplace_back(sortKey(item, p[2], caseSensitive), std::move(item));
    std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
        return reverse ? lessThan(y.first, x.first) : lessThan(x.first, y.first);
    });
    List out;
    for (auto& [key, item] : keyed)
        out.push_back(std::move(item));
    return Value::makeList(std::move(out));
}

Value fDictSort(Renderer& r, const Value& v, const Args& a)
{
    const auto p = a.bind("dictsort", { "case_sensitive", "by", "reverse" });
    if (!v.isMapping())
        throw JinjaError("dictsort: expected a mapping");
    const bool caseSensitive = !isMissing(p[0]) && truthy(p[0]);
    const std::string by = isMissing(p[1]) ? "key" : toStr(p[1]);
    if (by != "key" && by != "value")
        throw JinjaError("You can only sort by either \"key\" or \"value\"");
    const bool reverse = !isMissing(p[2]) && truthy(p[2]);
    List pairs;
    for (const auto& [k, value] : v.dict->entries)
        pairs.push_back(Value::makeTuple({ k, value }));
    r.step(pairs.size() * 4);
    const std::size_t index = by == "key" ? 0 : 1;
    std::stable_sort(pairs.begin(), pairs.end(), [&](const Value& x, const Value& y) {
        const Value kx = sortKey((*x.list)[index], Value(), caseSensitive);
        const Value ky = sortKey((*y.list)[index], Value(), caseSensitive);
        return reverse ? lessThan(ky, kx) : lessThan(kx, ky);
    });
    return Value::makeList(std::move(pairs));
}

Value fUnique(Renderer& r, const Value& v, const Args& a)
{
    const auto p = a.bind("unique", { "case_sensitive", "attribute" });
    const bool caseSensitive = !isMissing(p[0]) && truthy(p[0]);
    List seen;
    List out;
    for (const Value& item : iterate(v)) {
        r.step(seen.size() / 16 + 1);
        Value key = sortKey(item, p[1], caseSensitive);
        if (std::none_of(seen.begin(), seen.end(), [&](const Value& s) { return equals(s, key); })) {
            seen.push_back(std::move(key));
            out.push_back(item);
        }
    }
    return Value::makeList(std::move(out));
}

Value fBatch(Renderer& r, const Value& v, const Args& a)
{
    const auto p = a.bind("batch", { "linecount", "fill_with" }, 1);
    const std::int64_t n = intArg(p[0], "batch");
    if (n <= 0)
        throw JinjaError("batch: linecount must be positive");
    List out;
    List current;
    for (const Value& item : iterate(v)) {
        r.step();
        current.push_back(item);
        if (static_cast<std::int64_t>(current.size()) == n)
            out.push_back(Value::makeList(std::exchange(current, {})));
    }
    if (!current.empty()) {
        if (!isMissing(p[1]) && !p[1].isNone())
            while (static_cast<std::int64_t>(current.size()) < n)
                current.push_back(p[1]);
        out.push_back(Value::makeList(std::move(current)));
    }
    return Value::makeList(std::move(out));
}

Value fSum(Renderer& r, const Value& v, const Args& a)
{
    const auto p = a.bind("sum", { "attribute", "start" });
    Value total = isMissing(p[1]) ? Value::integer(0) : p[1];
    for (const Value& item : iterate(v))
        total = binaryOp(r, "+", total, isMissing(p[0]) || p[0].isNone() ? item : attributeOf(item, p[0]));
    return total;
}

Value minMax(Renderer& r, const Value& v, const Args& a, bool max)
{
    const auto p = a.bind(max ? "max" : "min", { "case_sensitive", "attribute" });
    const bool caseSensitive = !isMissing(p[0]) && truthy(p[0]);
    const List items = iterate(v);
    if (items.empty())
        return Value::undefined(std::string("No aggregated item, sequence was empty."));
    std::size_t best = 0;
    Value bestKey = sortKey(items[0], p[1], caseSensitive);
    for (std::size_t k = 1; k < items.size(); ++k) {
        r.step();
        Value key = sortKey(items[k], p[1], caseSensitive);
        if (max ? lessThan(bestKey, key) : lessThan(key, bestKey)) {
            best = k;
            bestKey = std::move(key);
        }
    }
    return items[best];
}

Value fMin(Renderer& r, const Value& v, const Args& a) { return minMax(r, v, a, false); }

Value fMax(Renderer& r, const Value& v, const Args& a) { return minMax(r, v, a, true); }

} // namespace

void registerCollectionFilters(std::unordered_map<std::string_view, FilterFn>& table)
{
    table.insert({ { "select", fSelect }, { "reject", fReject }, { "selectattr", fSelectAttr },
        { "rejectattr", fRejectAttr }, { "map", fMap }, { "sort", fSort }, { "dictsort", fDictSort },
        { "unique", fUnique }, { "batch", fBatch }, { "sum", fSum }, { "min", fMin }, { "max", fMax } });
}

} // namespace creditlab::hf::jinja
