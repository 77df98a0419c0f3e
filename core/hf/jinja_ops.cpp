// Attribute and item access, slices, iteration, `in` and the arithmetic operators, with Python's semantics.

#include "core/hf/jinja_builtins.h"
#include "core/hf/jinja_eval.h"
#include "core/hf/jinja_filters_util.h"
#include "core/hf/jinja_text.h"

#include <cmath>

namespace creditlab::hf::jinja {

void failUndefined(const Value& v) { throw JinjaError(v.s.empty() ? "the value is undefined" : v.s); }

static std::string objectName(const Value& obj) { return std::string("'") + typeName(obj) + " object'"; }

Value getAttr(const Value& obj, const std::string& name)
{
    switch (obj.kind) {
    case Kind::Undefined:
        failUndefined(obj);
    case Kind::Namespace:
        if (const Value* v = obj.dict->find(std::string_view(name)))
            return *v;
        break;
    case Kind::Dict: {
        Value method = findMethod(obj, name);
        if (!isMissing(method))
            return method;
        if (const Value* v = obj.dict->find(std::string_view(name)))
            return *v;
        break;
    }
    case Kind::String:
    case Kind::List:
    case Kind::Tuple: {
        Value method = findMethod(obj, name);
        if (!isMissing(method))
            return method;
        break;
    }
    default:
        break;
    }
    return Value::undefined(objectName(obj) + " has no attribute '" + name + "'");
}

static bool indexOf(const Value& key, std::size_t size, std::size_t& index)
{
    if (!key.isInt())
        return false;
    std::int64_t i = key.i;
    if (i < 0)
        i += static_cast<std::int64_t>(size);
    if (i < 0 || i >= static_cast<std::int64_t>(size))
        return false;
    index = static_cast<std::size_t>(i);
    return true;
}

Value getItem(const Value& obj, const Value& key)
{
    std::size_t index = 0;
    switch (obj.kind) {
    case Kind::Undefined:
        failUndefined(obj);
    case Kind::Dict:
        if (const Value* v = obj.dict->find(key))
            return *v;
        break;
    case Kind::List:
    case Kind::Tuple:
        if (indexOf(key, obj.list->size(), index))
            return (*obj.list)[index];
        break;
    case Kind::String: {
        if (key.isInt()) {
            const auto offsets = text::codePointOffsets(obj.s);
            if (indexOf(key, offsets.size() - 1, index))
                return Value::string(obj.s.substr(offsets[index], offsets[index + 1] - offsets[index]));
        }
        break;
    }
    default:
        break;
    }
    // jinja2's sandbox falls back to the attribute of that name.
    if (key.kind == Kind::String && obj.kind != Kind::None) {
        Value attr = getAttr(obj, key.s);
        if (!attr.isUndefined())
            return attr;
    }
    if (key.kind == Kind::String)
        return Value::undefined(objectName(obj) + " has no attribute '" + key.s + "'");
    return Value::undefined(objectName(obj) + " has no element " + repr(key));
}

Value getSlice(const Value& obj, const Value& start, const Value& stop, const Value& step)
{
    if (obj.isUndefined())
        failUndefined(obj);
    auto ok = [](const Value& v) { return v.isNone() || v.isInt(); };
    if (!ok(start) || !ok(stop) || !ok(step) || !(obj.isSequence() || obj.isString()))
        return Value::undefined(objectName(obj) + " has no slice");
    const std::int64_t st = step.isNone() ? 1 : step.i;
    if (st == 0)
        throw JinjaError("slice step cannot be zero");
    std::vector<std::size_t> offsets;
    std::int64_t length = 0;
    if (obj.isString()) {
        offsets = text::codePointOffsets(obj.s);
        length = static_cast<std::int64_t>(offsets.size() - 1);
    } else {
        length = static_cast<std::int64_t>(obj.list->size());
    }
    const std::int64_t lower = st > 0 ? 0 : -1;
    const std::int64_t upper = st > 0 ? length : length - 1;
    auto clamp = [&](const Value& v, std::int64_t dflt) {
        if (v.isNone())
            return dflt;
        std::int64_t x = v.i;
        if (x < 0) {
            x += length;
            if (x < lower)
                x = lower;
        } else if (x > upper) {
            x = upper;
        }
        return x;
    };
    const std::int64_t b = clamp(start, st > 0 ? lower : upper);
    const std::int64_t e = clamp(stop, st > 0 ? upper : lower);
    if (obj.isString()) {
        std::string out;
        for (std::int64_t k = b; st > 0 ? k < e : k > e; k += st) {
            const auto u = static_cast<std::size_t>(k);
            out.append(obj.s, offsets[u], offsets[u + 1] - offsets[u]);
        }
        return Value::string(std::move(out));
    }
    List out;
    for (std::int64_t k = b; st > 0 ? k < e : k > e; k += st)
        out.push_back((*obj.list)[static_cast<std::size_t>(k)]);
    return obj.kind == Kind::Tuple ? Value::makeTuple(std::move(out)) : Value::makeList(std::move(out));
}

List iterate(const Value& v)
{
    switch (v.kind) {
    case Kind::Undefined:
        return {};
    case Kind::List:
    case Kind::Tuple:
        return *v.list;
    case Kind::Dict: {
        List keys;
        keys.reserve(v.dict->entries.size());
        for (const auto& entry : v.dict->entries)
            keys.push_back(entry.first);
        return keys;
    }
    case Kind::String: {
        List chars;
        const auto offsets = text::codePointOffsets(v.s);
        for (std::size_t k = 0; k + 1 < offsets.size(); ++k)
            chars.push_back(Value::string(v.s.substr(offsets[k], offsets[k + 1] - offsets[k])));
        return chars;
    }
    default:
        throw JinjaError(std::string("'") + typeName(v) + "' object is not iterable");
    }
}

bool contains(const Value& container, const Value& item)
{
    switch (container.kind) {
    case Kind::Undefined:
        return false;
    case Kind::String:
        if (item.kind != Kind::String)
            throw JinjaError(std::string("'in <string>' requires string as left operand, not ") + typeName(item));
        return container.s.find(item.s) != std::string::npos;
    case Kind::List:
    case Kind::Tuple:
        for (const Value& v : *container.list)
            if (equals(v, item))
                return true;
        return false;
    case Kind::Dict:
        return container.dict->find(item) != nullptr;
    default:
        throw JinjaError(std::string("argument of type '") + typeName(container) + "' is not iterable");
    }
}

static Value repeat(Renderer& r, const Value& seq, std::int64_t times)
{
    if (times <= 0)
        return seq.isString() ? Value::string({}, seq.markup)
                              : (seq.kind == Kind::Tuple ? Value::makeTuple({}) : Value::makeList({}));
    const std::size_t unit = seq.isString() ? seq.s.size() : seq.list->size();
    std::size_t total = 0;
    if (__builtin_mul_overflow(unit, static_cast<std::uint64_t>(times), &total))
        total = SIZE_MAX;
    r.checkSize(total);
    if (seq.isString()) {
        std::string out = seq.s;
        out.reserve(total);
        while (out.size() * 2 <= total)
            out += out;
        out.append(out, 0, total - out.size());
        return Value::string(std::move(out), seq.markup);
    }
    List out;
    for (std::int64_t k = 0; k < times; ++k)
        out.insert(out.end(), seq.list->begin(), seq.list->end());
    return seq.kind == Kind::Tuple ? Value::makeTuple(std::move(out)) : Value::makeList(std::move(out));
}

template <typename Op> static std::int64_t checked(Op op, std::int64_t x, std::int64_t y)
{
    std::int64_t result = 0;
    if (op(x, y, &result))
        throw JinjaError("integer overflow (integers beyond 64 bits are not supported)");
    return result;
}

static bool addOverflow(std::int64_t x, std::int64_t y, std::int64_t* r) { return __builtin_add_overflow(x, y, r); }

static bool subOverflow(std::int64_t x, std::int64_t y, std::int64_t* r) { return __builtin_sub_overflow(x, y, r); }

static bool mulOverflow(std::int64_t x, std::int64_t y, std::int64_t* r) { return __builtin_mul_overflow(x, y, r); }

Value binaryOp(Renderer& r, const std::string& op, const Value& a, const Value& b)
{
    if (a.isUndefined())
        failUndefined(a);
    if (b.isUndefined())
        failUndefined(b);
    const char o = op[0];
    const bool bothInt = a.isInt() && b.isInt();
    const bool bothNum = a.isNumber() && b.isNumber();
    if (op == "+") {
        if (bothInt)
            return Value::integer(checked(addOverflow, a.i, b.i));
        if (bothNum)
            return Value::number(a.asDouble() + b.asDouble());
        if (a.isString() && b.isString()) {
            r.checkSize(a.s.size() + b.s.size());
            if (a.markup && !b.markup)
                return Value::string(a.s + htmlEscape(b.s), true);
            if (b.markup && !a.markup)
                return Value::string(htmlEscape(a.s) + b.s, true);
            return Value::string(a.s + b.s, a.markup);
        }
        if (a.isSequence() && a.kind == b.kind) {
            r.checkSize(a.list->size() + b.list->size());
            List out = *a.list;
            out.insert(out.end(), b.list->begin(), b.list->end());
            return a.kind == Kind::Tuple ? Value::makeTuple(std::move(out)) : Value::makeList(std::move(out));
        }
    } else if (op == "-") {
        if (bothInt)
            return Value::integer(checked(subOverflow, a.i, b.i));
        if (bothNum)
            return Value::number(a.asDouble() - b.asDouble());
    } else if (op == "*") {
        if (bothInt)
            return Value::integer(checked(mulOverflow, a.i, b.i));
        if (bothNum)
            return Value::number(a.asDouble() * b.asDouble());
        if ((a.isString() || a.isSequence()) && b.isInt())
            return repeat(r, a, b.i);
        if (a.isInt() && (b.isString() || b.isSequence()))
            return repeat(r, b, a.i);
    } else if (op == "/") {
        if (bothNum) {
            if (b.asDouble() == 0)
                throw JinjaError("division by zero");
            return Value::number(a.asDouble() / b.asDouble());
        }
    } else if (op == "//" || o == '%') {
        if (bothNum && b.asDouble() == 0)
            throw JinjaError(op == "//" ? "integer division or modulo by zero" : "modulo by zero");
        if (bothInt) {
            if (a.i == INT64_MIN && b.i == -1)
                throw JinjaError("integer overflow");
            std::int64_t q = a.i / b.i;
            std::int64_t m = a.i % b.i;
            if (m != 0 && ((m < 0) != (b.i < 0))) {
                --q;
                m += b.i;
            }
            return Value::integer(op == "//" ? q : m);
        }
        if (bothNum) {
            // CPython's float_divmod.
            const double x = a.asDouble();
            const double y = b.asDouble();
            double mod = std::fmod(x, y);
            double div = (x - mod) / y;
            if (mod != 0) {
                if ((y < 0) != (mod < 0)) {
                    mod += y;
                    div -= 1.0;
                }
            } else {
                mod = std::copysign(0.0, y);
            }
            double floorDiv = std::copysign(0.0, x / y);
            if (div != 0) {
                floorDiv = std::floor(div);
                if (div - floorDiv > 0.5)
                    floorDiv += 1.0;
            }
            return Value::number(op == "//" ? floorDiv : mod);
        }
        if (o == '%' && a.isString())
            throw JinjaError("printf-style string formatting (str % values) is not supported");
    } else if (op == "**") {
        if (bothInt && b.i >= 0) {
            std::int64_t result = 1;
            std::int64_t base = a.i;
            for (std::int64_t e = b.i; e > 0; e >>= 1) {
                if (e & 1)
                    result = checked(mulOverflow, result, base);
                if (e > 1)
                    base = checked(mulOverflow, base, base);
            }
            return Value::integer(result);
        }
        if (bothNum) {
            if (a.asDouble() == 0 && b.asDouble() < 0)
                throw JinjaError("0.0 cannot be raised to a negative power");
            return Value::number(std::pow(a.asDouble(), b.asDouble()));
        }
    }
    throw JinjaError("unsupported operand type(s) for " + op + ": '" + typeName(a) + "' and '" + typeName(b) + "'");
}

} // namespace creditlab::hf::jinja
