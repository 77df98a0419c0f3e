// jinja2's filters as transformers' environment has them (its own `tojson`).

#include "core/hf/jinja_builtins.h"
#include "core/hf/jinja_eval.h"
#include "core/hf/jinja_filters_util.h"
#include "core/hf/jinja_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_map>

namespace creditlab::hf::jinja {

namespace {

Value fDefault(Renderer&, const Value& v, const Args& a)
{
    const auto p = a.bind("default", { "default_value", "boolean" });
    const bool boolean = !isMissing(p[1]) && truthy(p[1]);
    if (v.isUndefined() || (boolean && !truthy(v)))
        return isMissing(p[0]) ? Value::string({}) : p[0];
    return v;
}

Value fTrim(Renderer&, const Value& v, const Args& a)
{
    const auto p = a.bind("trim", { "chars" });
    const bool hasChars = !isMissing(p[0]) && !p[0].isNone();
    const std::string chars = hasChars ? toStr(p[0]) : std::string();
    return Value::string(text::strip(toStr(v), hasChars ? &chars : nullptr, true, true), v.markup);
}

Value fToJson(Renderer& r, const Value& v, const Args& a)
{
    const auto p = a.bind("tojson", { "ensure_ascii", "indent", "separators", "sort_keys" });
    JsonOptions o;
    if (!isMissing(p[1]) && !p[1].isNone()) {
        o.indented = true;
        o.itemSeparator = ",";
        if (p[1].isString())
            o.indent = p[1].s;
        else if (p[1].isInt())
            o.indent = std::string(static_cast<std::size_t>(std::clamp<std::int64_t>(p[1].i, 0, 1024)), ' ');
        else
            throw JinjaError("tojson: indent must be an integer or a string");
    }
    if (!isMissing(p[2]) && !p[2].isNone()) {
        if (!p[2].isSequence() || p[2].list->size() != 2 || !(*p[2].list)[0].isString() || !(*p[2].list)[1].isString())
            throw JinjaError("tojson: separators must be a pair of strings");
        o.itemSeparator = (*p[2].list)[0].s;
        o.keySeparator = (*p[2].list)[1].s;
    }
    o.sortKeys = !isMissing(p[3]) && truthy(p[3]);
    std::string out;
    appendJson(out, v, o);
    if (!isMissing(p[0]) && truthy(p[0]))
        out = asciiEscape(out);
    r.checkSize(out.size());
    return Value::string(std::move(out));
}

Value fLength(Renderer&, const Value& v, const Args& a)
{
    a.bind("length", {});
    return Value::integer(static_cast<std::int64_t>(length(v)));
}

Value fUpper(Renderer&, const Value& v, const Args& a)
{
    a.bind("upper", {});
    return Value::string(text::upper(toStr(v)), v.markup);
}

Value fLower(Renderer&, const Value& v, const Args& a)
{
    a.bind("lower", {});
    return Value::string(text::lower(toStr(v)), v.markup);
}

Value fTitle(Renderer&, const Value& v, const Args& a)
{
    a.bind("title", {});
    return Value::string(text::jinjaTitle(toStr(v)), v.markup);
}

Value fCapitalize(Renderer&, const Value& v, const Args& a)
{
    a.bind("capitalize", {});
    return Value::string(text::capitalize(toStr(v)), v.markup);
}

Value fReplace(Renderer& r, const Value& v, const Args& a)
{
    const auto p = a.bind("replace", { "old", "new", "count" }, 2);
    const long long count = isMissing(p[2]) || p[2].isNone() ? -1 : intArg(p[2], "replace");
    std::string out = text::replace(toStr(v), toStr(p[0]), toStr(p[1]), count);
    r.checkSize(out.size());
    return Value::string(std::move(out));
}

Value fFirst(Renderer&, const Value& v, const Args& a)
{
    a.bind("first", {});
    if (v.isSequence())
        return v.list->empty() ? Value::undefined("No first item, sequence was empty.") : v.list->front();
    const List items = iterate(v);
    return items.empty() ? Value::undefined("No first item, sequence was empty.") : items.front();
}

Value fLast(Renderer&, const Value& v, const Args& a)
{
    a.bind("last", {});
    if (v.isSequence())
        return v.list->empty() ? Value::undefined("No last item, sequence was empty.") : v.list->back();
    const List items = iterate(v);
    return items.empty() ? Value::undefined("No last item, sequence was empty.") : items.back();
}

Value fJoin(Renderer& r, const Value& v, const Args& a)
{
    const auto p = a.bind("join", { "d", "attribute" });
    const std::string sep = isMissing(p[0]) ? std::string() : toStr(p[0]);
    List items = iterate(v);
    if (!isMissing(p[1]) && !p[1].isNone())
        for (Value& item : items)
            item = attributeOf(item, p[1]);
    std::string out;
    for (std::size_t k = 0; k < items.size(); ++k) {
        if (k)
            out += sep;
        appendStr(out, items[k]);
        r.checkSize(out.size());
    }
    return Value::string(std::move(out));
}

Value fList(Renderer& r, const Value& v, const Args& a)
{
    a.bind("list", {});
    List items = iterate(v);
    r.step(items.size());
    return Value::makeList(std::move(items));
}

Value fString(Renderer&, const Value& v, const Args& a)
{
    a.bind("string", {});
    return v.isString() ? v : Value::string(toStr(v));
}

Value fInt(Renderer&, const Value& v, const Args& a)
{
    const auto p = a.bind("int", { "default", "base" });
    const Value dflt = isMissing(p[0]) ? Value::integer(0) : p[0];
    const int base = isMissing(p[1]) ? 10 : static_cast<int>(intArg(p[1], "int"));
    if (v.isInt())
        return Value::integer(v.i);
    if (v.kind == Kind::Float) {
        if (std::isnan(v.f))
            return dflt;
        if (std::isinf(v.f) || std::fabs(v.f) >= 9.2e18)
            throw JinjaError("cannot convert float to a 64-bit integer");
        return Value::integer(static_cast<std::int64_t>(v.f));
    }
    if (v.isString()) {
        std::int64_t n = 0;
        if (parsePyInt(v.s, base, n))
            return Value::integer(n);
        double d = 0;
        if (parsePyFloat(v.s, d) && std::isfinite(d) && std::fabs(d) < 9.2e18)
            return Value::integer(static_cast<std::int64_t>(d));
    }
    return dflt;
}

Value fFloat(Renderer&, const Value& v, const Args& a)
{
    const auto p = a.bind("float", { "default" });
    const Value dflt = isMissing(p[0]) ? Value::number(0.0) : p[0];
    if (v.isNumber())
        return Value::number(v.asDouble());
    double d = 0;
    if (v.isString() && parsePyFloat(v.s, d))
        return Value::number(d);
    return dflt;
}

Value fAbs(Renderer&, const Value& v, const Args& a)
{
    a.bind("abs", {});
    if (v.kind == Kind::Float)
        return Value::number(std::fabs(v.f));
    if (v.isInt()) {
        if (v.i == INT64_MIN)
            throw JinjaError("integer overflow");
        return Value::integer(v.i < 0 ? -v.i : v.i);
    }
    throw JinjaError(std::string("bad operand type for abs(): '") + typeName(v) + "'");
}

Value fRound(Renderer&, const Value& v, const Args& a)
{
    const auto p = a.bind("round", { "precision", "method" });
    const std::int64_t precision = isMissing(p[0]) ? 0 : intArg(p[0], "round");
    const std::string method = isMissing(p[1]) ? "common" : toStr(p[1]);
    if (!v.isNumber())
        throw JinjaError(std::string("type ") + typeName(v) + " doesn't define __round__ method");
    if (method != "common" && method != "ceil" && method != "floor")
        throw JinjaError("method must be common, ceil or floor");
    if (method == "common") {
        if (v.isInt() && precision >= 0)
            return Value::integer(v.i);
        return Value::number(pyRound(v.asDouble(), precision));
    }
    const double scale = std::pow(10.0, static_cast<double>(precision));
    const double x = v.asDouble() * scale;
    return Value::number((method == "ceil" ? std::ceil(x) : std::floor(x)) / scale);
}

Value fItems(Renderer&, const Value& v, const Args& a)
{
    a.bind("items", {});
    if (v.isUndefined())
        return Value::makeList({});
    if (!v.isMapping())
        throw JinjaError("Can only get item pairs from a mapping.");
    List out;
    for (const auto& [k, value] : v.dict->entries)
        out.push_back(Value::makeTuple({ k, value }));
    return Value::makeList(std::move(out));
}

Value fReverse(Renderer&, const Value& v, const Args& a)
{
    a.bind("reverse", {});
    if (v.isString())
        return getSlice(v, Value::none(), Value::none(), Value::integer(-1));
    List items = iterate(v);
    std::reverse(items.begin(), items.end());
    return Value::makeList(std::move(items));
}

Value fIndent(Renderer& r, const Value& v, const Args& a)
{
    const auto p = a.bind("indent", { "width", "first", "blank" });
    std::string indentation(4, ' ');
    if (!isMissing(p[0]))
        indentation = p[0].isString()
            ? p[0].s
            : std::string(static_cast<std::size_t>(std::clamp<std::int64_t>(intArg(p[0], "indent"), 0, 1 << 20)), ' ');
    const bool first = !isMissing(p[1]) && truthy(p[1]);
    const bool blank = !isMissing(p[2]) && truthy(p[2]);
    const std::vector<std::string> lines = text::splitlines(toStr(v) + "\n", false);
    std::string out;
    for (std::size_t k = 0; k < lines.size(); ++k) {
        if (k) {
            out += '\n';
            if (blank || !lines[k].empty())
                out += indentation;
        }
        out += lines[k];
        r.checkSize(out.size());
    }
    if (first)
        out = indentation + out;
    return Value::string(std::move(out), v.markup);
}

Value fSafe(Renderer&, const Value& v, const Args& a)
{
    a.bind("safe", {});
    return Value::string(toStr(v), true);
}

Value fEscape(Renderer&, const Value& v, const Args& a)
{
    a.bind("escape", {});
    if (v.isString() && v.markup)
        return v;
    return Value::string(htmlEscape(toStr(v)), true);
}

Value fForceEscape(Renderer&, const Value& v, const Args& a)
{
    a.bind("forceescape", {});
    return Value::string(htmlEscape(toStr(v)), true);
}

Value fWordcount(Renderer&, const Value& v, const Args& a)
{
    a.bind("wordcount", {});
    const std::string s = toStr(v);
    std::int64_t words = 0;
    bool inWord = false;
    for (std::size_t pos = 0; pos < s.size();) {
        const char32_t c = text::decode(s, pos);
        const bool w = c == '_' || text::isAlnum(c);
        if (w && !inWord)
            ++words;
        inWord = w;
    }
    return Value::integer(words);
}

Value fCenter(Renderer& r, const Value& v, const Args& a)
{
    const auto p = a.bind("center", { "width" });
    const std::int64_t width = isMissing(p[0]) ? 80 : intArg(p[0], "center");
    return Value::string(pad(r, toStr(v), width, ' ', 0));
}

Value fAttr(Renderer&, const Value& v, const Args& a)
{
    // getattr() only: unlike `.name`, no fallback to the item of that name.
    const auto p = a.bind("attr", { "name" }, 1);
    const std::string name = toStr(p[0]);
    if (v.kind == Kind::Namespace) {
        if (const Value* x = v.dict->find(std::string_view(name)))
            return *x;
    } else if (Value method = findMethod(v, name); !isMissing(method)) {
        return method;
    }
    return Value::undefined("'" + std::string(typeName(v)) + " object' has no attribute '" + name + "'");
}

} // namespace

void registerCollectionFilters(std::unordered_map<std::string_view, FilterFn>& table);

FilterFn findFilter(std::string_view name)
{
    static const std::unordered_map<std::string_view, FilterFn> kFilters = [] {
        std::unordered_map<std::string_view, FilterFn> t = { { "default", fDefault }, { "d", fDefault },
            { "trim", fTrim }, { "tojson", fToJson }, { "length", fLength }, { "count", fLength }, { "upper", fUpper },
            { "lower", fLower }, { "title", fTitle }, { "capitalize", fCapitalize }, { "replace", fReplace },
            { "first", fFirst }, { "last", fLast }, { "join", fJoin }, { "list", fList }, { "string", fString },
            { "int", fInt }, { "float", fFloat }, { "abs", fAbs }, { "round", fRound }, { "items", fItems },
            { "reverse", fReverse }, { "indent", fIndent }, { "safe", fSafe }, { "e", fEscape }, { "escape", fEscape },
            { "forceescape", fForceEscape }, { "wordcount", fWordcount }, { "center", fCenter }, { "attr", fAttr } };
        registerCollectionFilters(t);
        return t;
    }();
    const auto it = kFilters.find(name);
    return it == kFilters.end() ? nullptr : it->second;
}

} // namespace creditlab::hf::jinja
