#include "core/hf/jinja_value.h"

#include "core/hf/jinja_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace creditlab::hf::jinja {

Value Value::undefined(std::string hint)
{
    Value v;
    v.s = std::move(hint);
    return v;
}

Value Value::none()
{
    Value v;
    v.kind = Kind::None;
    return v;
}

Value Value::boolean(bool b)
{
    Value v;
    v.kind = Kind::Bool;
    v.i = b ? 1 : 0;
    return v;
}

Value Value::integer(std::int64_t n)
{
    Value v;
    v.kind = Kind::Int;
    v.i = n;
    return v;
}

Value Value::number(double x)
{
    Value v;
    v.kind = Kind::Float;
    v.f = x;
    return v;
}

Value Value::string(std::string str, bool markup)
{
    Value v;
    v.kind = Kind::String;
    v.s = std::move(str);
    v.markup = markup;
    return v;
}

Value Value::makeList(List items)
{
    Value v;
    v.kind = Kind::List;
    v.list = std::make_shared<List>(std::move(items));
    return v;
}

Value Value::makeTuple(List items)
{
    Value v = makeList(std::move(items));
    v.kind = Kind::Tuple;
    return v;
}

Value Value::makeDict(Dict d)
{
    Value v;
    v.kind = Kind::Dict;
    v.dict = std::make_shared<Dict>(std::move(d));
    return v;
}

Value Value::makeNamespace(Dict d)
{
    Value v = makeDict(std::move(d));
    v.kind = Kind::Namespace;
    return v;
}

Value Value::callable(std::shared_ptr<const Callable> c)
{
    Value v;
    v.kind = Kind::Callable;
    v.fn = std::move(c);
    return v;
}

const Value* Dict::find(const Value& key) const
{
    for (const auto& [k, v] : entries)
        if (equals(k, key))
            return &v;
    return nullptr;
}

const Value* Dict::find(std::string_view key) const
{
    for (const auto& [k, v] : entries)
        if (k.kind == Kind::String && k.s == key)
            return &v;
    return nullptr;
}

void Dict::set(Value key, Value value)
{
    for (auto& [k, v] : entries) {
        if (equals(k, key)) {
            v = std::move(value);
            return;
        }
    }
    entries.emplace_back(std::move(key), std::move(value));
}

static const char* const kMissing = "\x01missing";

bool isMissing(const Value& v) { return v.kind == Kind::Undefined && v.s == kMissing; }

std::vector<Value> Args::bind(const char* what, std::initializer_list<const char*> names, std::size_t required) const
{
    std::vector<Value> slots(names.size(), Value::undefined(kMissing));
    if (pos.size() > names.size())
        throw JinjaError(std::string(what) + "() takes at most " + std::to_string(names.size()) + " arguments ("
            + std::to_string(pos.size()) + " given)");
    for (std::size_t k = 0; k < pos.size(); ++k)
        slots[k] = pos[k];
    for (const auto& [name, value] : kw) {
        std::size_t k = 0;
        for (const char* n : names) {
            if (name == n)
                break;
            ++k;
        }
        if (k == names.size())
            throw JinjaError(std::string(what) + "() got an unexpected keyword argument '" + name + "'");
        if (!isMissing(slots[k]))
            throw JinjaError(std::string(what) + "() got multiple values for argument '" + name + "'");
        slots[k] = value;
    }
    for (std::size_t k = 0; k < required; ++k)
        if (isMissing(slots[k]))
            throw JinjaError(std::string(what) + "() missing required argument '" + *(names.begin() + k) + "'");
    return slots;
}

const char* typeName(const Value& v)
{
    switch (v.kind) {
    case Kind::Undefined:
        return "Undefined";
    case Kind::None:
        return "NoneType";
    case Kind::Bool:
        return "bool";
    case Kind::Int:
        return "int";
    case Kind::Float:
        return "float";
    case Kind::String:
        return v.markup ? "Markup" : "str";
    case Kind::List:
        return "list";
    case Kind::Tuple:
        return "tuple";
    case Kind::Dict:
        return "dict";
    case Kind::Namespace:
        return "Namespace";
    case Kind::Callable:
        return "function";
    }
    return "object";
}

bool truthy(const Value& v)
{
    switch (v.kind) {
    case Kind::Undefined:
    case Kind::None:
        return false;
    case Kind::Bool:
    case Kind::Int:
        return v.i != 0;
    case Kind::Float:
        return v.f != 0;
    case Kind::String:
        return !v.s.empty();
    case Kind::List:
    case Kind::Tuple:
        return !v.list->empty();
    case Kind::Dict:
        return !v.dict->entries.empty();
    default:
        return true;
    }
}

static void checkDepth(int depth)
{
    if (depth > kMaxValueDepth)
        throw JinjaError("depth limit exceeded: values nest deeper than " + std::to_string(kMaxValueDepth));
}

bool equals(const Value& a, const Value& b, int depth)
{
    checkDepth(depth);
    if (a.isNumber() && b.isNumber()) {
        if (a.kind == Kind::Float || b.kind == Kind::Float)
            return a.asDouble() == b.asDouble();
        return a.i == b.i;
    }
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case Kind::Undefined:
    case Kind::None:
        return true;
    case Kind::String:
        return a.s == b.s;
    case Kind::List:
    case Kind::Tuple:
        if (a.list->size() != b.list->size())
            return false;
        for (std::size_t k = 0; k < a.list->size(); ++k)
            if (!equals((*a.list)[k], (*b.list)[k], depth + 1))
                return false;
        return true;
    case Kind::Dict:
        if (a.dict->entries.size() != b.dict->entries.size())
            return false;
        for (const auto& [k, v] : a.dict->entries) {
            const Value* other = b.dict->find(k);
            if (!other || !equals(v, *other, depth + 1))
                return false;
        }
        return true;
    case Kind::Namespace:
        return a.dict == b.dict;
    case Kind::Callable:
        return a.fn == b.fn;
    default:
        return false;
    }
}

bool lessThan(const Value& a, const Value& b, int depth)
{
    checkDepth(depth);
    if (a.isNumber() && b.isNumber()) {
        if (a.kind == Kind::Float || b.kind == Kind::Float)
            return a.asDouble() < b.asDouble();
        return a.i < b.i;
    }
    if (a.kind == Kind::String && b.kind == Kind::String)
        return a.s < b.s; // UTF-8 byte order is code point order
    if (a.isSequence() && a.kind == b.kind) {
        const List& x = *a.list;
        const List& y = *b.list;
        for (std::size_t k = 0; k < x.size() && k < y.size(); ++k) {
            if (!equals(x[k], y[k], depth + 1))
                return lessThan(x[k], y[k], depth + 1);
        }
        return x.size() < y.size();
    }
    throw JinjaError(
        std::string("'<' not supported between instances of '") + typeName(a) + "' and '" + typeName(b) + "'");
}

std::string floatRepr(double v)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v < 0 ? "-inf" : "inf";
    if (v == 0)
        return std::signbit(v) ? "-0.0" : "0.0";
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    // sci: [-]d[.ddd]e±XX → digits and decimal exponent, then Python's repr rule (repr uses 'r' format: exponent
    // notation when the decimal point position is below -4 or above 16).
    std::string out;
    std::size_t k = 0;
    if (sci[0] == '-') {
        out += '-';
        k = 1;
    }
    const std::size_t e = sci.find('e');
    std::string digits;
    for (std::size_t j = k; j < e; ++j)
        if (sci[j] != '.')
            digits += sci[j];
    const int exp10 = std::stoi(sci.substr(e + 1));
    const int decpt = exp10 + 1; // value = 0.digits × 10^decpt
    if (decpt > -4 && decpt <= 16) {
        if (decpt <= 0) {
            out += "0.";
            out.append(static_cast<std::size_t>(-decpt), '0');
            out += digits;
        } else if (static_cast<std::size_t>(decpt) >= digits.size()) {
            out += digits;
            out.append(static_cast<std::size_t>(decpt) - digits.size(), '0');
            out += ".0";
        } else {
            out += digits.substr(0, static_cast<std::size_t>(decpt));
            out += '.';
            out += digits.substr(static_cast<std::size_t>(decpt));
        }
        return out;
    }
    out += digits[0];
    if (digits.size() > 1) {
        out += '.';
        out += digits.substr(1);
    }
    char expBuf[16];
    std::snprintf(expBuf, sizeof expBuf, "e%c%02d", exp10 < 0 ? '-' : '+', std::abs(exp10));
    out += expBuf;
    return out;
}

std::string pyStringRepr(std::string_view s)
{
    const bool hasSingle = s.find('\'') != std::string_view::npos;
    const bool hasDouble = s.find('"') != std::string_view::npos;
    const char quote = hasSingle && !hasDouble ? '"' : '\'';
    std::string out(1, quote);
    for (std::size_t pos = 0; pos < s.size();) {
        const std::size_t start = pos;
        const char32_t c = text::decode(s, pos);
        const bool invalid = pos - start == 1 && c >= 0x80;
        if (c == static_cast<char32_t>(quote) || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (invalid || !text::isPrintable(c)) {
            char buf[16];
            if (c < 0x100)
                std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(c));
            else if (c < 0x10000)
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
            else
                std::snprintf(buf, sizeof buf, "\\U%08x", static_cast<unsigned>(c));
            out += buf;
        } else {
            out.append(s.substr(start, pos - start));
        }
    }
    out += quote;
    return out;
}

void appendStr(std::string& out, const Value& v, int depth)
{
    switch (v.kind) {
    case Kind::Undefined:
        return;
    case Kind::String:
        out += v.s;
        return;
    default:
        appendRepr(out, v, depth);
    }
}

std::string toStr(const Value& v)
{
    if (v.kind == Kind::String)
        return v.s;
    std::string out;
    appendStr(out, v);
    return out;
}

void appendRepr(std::string& out, const Value& v, int depth)
{
    checkDepth(depth);
    switch (v.kind) {
    case Kind::Undefined:
        out += "Undefined";
        return;
    case Kind::None:
        out += "None";
        return;
    case Kind::Bool:
        out += v.i ? "True" : "False";
        return;
    case Kind::Int:
        out += std::to_string(v.i);
        return;
    case Kind::Float:
        out += floatRepr(v.f);
        return;
    case Kind::String:
        if (v.markup)
            out += "Markup(" + pyStringRepr(v.s) + ")";
        else
            out += pyStringRepr(v.s);
        return;
    case Kind::List:
    case Kind::Tuple: {
        const bool tuple = v.kind == Kind::Tuple;
        out += tuple ? '(' : '[';
        for (std::size_t k = 0; k < v.list->size(); ++k) {
            if (k)
                out += ", ";
            appendRepr(out, (*v.list)[k], depth + 1);
        }
        if (tuple && v.list->size() == 1)
            out += ',';
        out += tuple ? ')' : ']';
        return;
    }
    case Kind::Dict:
    case Kind::Namespace: {
        if (v.kind == Kind::Namespace)
            out += "<Namespace ";
        out += '{';
        bool first = true;
        for (const auto& [key, value] : v.dict->entries) {
            if (!first)
                out += ", ";
            first = false;
            appendRepr(out, key, depth + 1);
            out += ": ";
            appendRepr(out, value, depth + 1);
        }
        out += '}';
        if (v.kind == Kind::Namespace)
            out += '>';
        return;
    }
    case Kind::Callable:
        out += "<function " + v.fn->name + ">";
        return;
    }
}

std::string repr(const Value& v)
{
    std::string out;
    appendRepr(out, v);
    return out;
}

Value fromJson(const nlohmann::ordered_json& j, int depth)
{
    checkDepth(depth);
    switch (j.type()) {
    case nlohmann::ordered_json::value_t::null:
        return Value::none();
    case nlohmann::ordered_json::value_t::boolean:
        return Value::boolean(j.get<bool>());
    case nlohmann::ordered_json::value_t::number_integer:
        return Value::integer(j.get<std::int64_t>());
    case nlohmann::ordered_json::value_t::number_unsigned: {
        const auto u = j.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(INT64_MAX))
            return Value::number(static_cast<double>(u));
        return Value::integer(static_cast<std::int64_t>(u));
    }
    case nlohmann::ordered_json::value_t::number_float:
        return Value::number(j.get<double>());
    case nlohmann::ordered_json::value_t::string:
        return Value::string(j.get<std::string>());
    case nlohmann::ordered_json::value_t::array: {
        List items;
        items.reserve(j.size());
        for (const auto& e : j)
            items.push_back(fromJson(e, depth + 1));
        return Value::makeList(std::move(items));
    }
    case nlohmann::ordered_json::value_t::object: {
        Dict d;
        d.entries.reserve(j.size());
        for (const auto& [k, e] : j.items())
            d.entries.emplace_back(Value::string(k), fromJson(e, depth + 1));
        return Value::makeDict(std::move(d));
    }
    default:
        throw JinjaError("the context holds a value JSON text cannot have (binary)");
    }
}

static void appendJsonString(std::string& out, std::string_view s)
{
    out += '"';
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                out += buf;
            } else {
                out += ch;
            }
        }
    }
    out += '"';
}

static std::string jsonKey(const Value& k)
{
    switch (k.kind) {
    case Kind::String:
        return k.s;
    case Kind::Bool:
        return k.i ? "true" : "false";
    case Kind::None:
        return "null";
    case Kind::Int:
        return std::to_string(k.i);
    case Kind::Float:
        return floatRepr(k.f);
    default:
        throw JinjaError(std::string("keys must be str, int, float, bool or None, not ") + typeName(k));
    }
}

static void jsonNewline(std::string& out, const JsonOptions& o, int level)
{
    out += '\n';
    for (int k = 0; k < level; ++k)
        out += o.indent;
}

void appendJson(std::string& out, const Value& v, const JsonOptions& o, int level)
{
    checkDepth(level);
    switch (v.kind) {
    case Kind::None:
        out += "null";
        return;
    case Kind::Bool:
        out += v.i ? "true" : "false";
        return;
    case Kind::Int:
        out += std::to_string(v.i);
        return;
    case Kind::Float:
        if (std::isnan(v.f))
            out += "NaN";
        else if (std::isinf(v.f))
            out += v.f < 0 ? "-Infinity" : "Infinity";
        else
            out += floatRepr(v.f);
        return;
    case Kind::String:
        appendJsonString(out, v.s);
        return;
    case Kind::List:
    case Kind::Tuple: {
        if (v.list->empty()) {
            out += "[]";
            return;
        }
        out += '[';
        for (std::size_t k = 0; k < v.list->size(); ++k) {
            if (k)
                out += o.itemSeparator;
            if (o.indented)
                jsonNewline(out, o, level + 1);
            appendJson(out, (*v.list)[k], o, level + 1);
        }
        if (o.indented)
            jsonNewline(out, o, level);
        out += ']';
        return;
    }
    case Kind::Dict: {
        if (v.dict->entries.empty()) {
            out += "{}";
            return;
        }
        std::vector<std::pair<std::string, const Value*>> members;
        for (const auto& [key, value] : v.dict->entries)
            members.emplace_back(jsonKey(key), &value);
        if (o.sortKeys)
            std::stable_sort(
                members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        out += '{';
        bool first = true;
        for (const auto& [key, value] : members) {
            if (!first)
                out += o.itemSeparator;
            first = false;
            if (o.indented)
                jsonNewline(out, o, level + 1);
            appendJsonString(out, key);
            out += o.keySeparator;
            appendJson(out, *value, o, level + 1);
        }
        if (o.indented)
            jsonNewline(out, o, level);
        out += '}';
        return;
    }
    default:
        throw JinjaError(std::string("Object of type ") + typeName(v) + " is not JSON serializable");
    }
}

} // namespace creditlab::hf::jinja
