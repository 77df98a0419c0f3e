// jinja2's tests (`x is defined`, `x is divisibleby 3`, ...).

#include "core/hf/jinja_builtins.h"
#include "core/hf/jinja_eval.h"

#include <unordered_map>

namespace creditlab::hf::jinja {

namespace {

const Value& argument(const Args& a, const char* what)
{
    if (a.pos.size() + a.kw.size() != 1)
        throw JinjaError(std::string("the test '") + what + "' takes one argument");
    return a.pos.empty() ? a.kw[0].second : a.pos[0];
}

void noArgs(const Args& a, const char* what)
{
    if (!a.pos.empty() || !a.kw.empty())
        throw JinjaError(std::string("the test '") + what + "' takes no arguments");
}

#define CREDITLAB_SIMPLE_TEST(fn, name, expr)                                                                          \
    bool fn(Renderer&, const Value& v, const Args& a)                                                                  \
    {                                                                                                                  \
        noArgs(a, name);                                                                                               \
        return expr;                                                                                                   \
    }

CREDITLAB_SIMPLE_TEST(tDefined, "defined", !v.isUndefined())
CREDITLAB_SIMPLE_TEST(tUndefined, "undefined", v.isUndefined())
CREDITLAB_SIMPLE_TEST(tNone, "none", v.isNone())
CREDITLAB_SIMPLE_TEST(tBoolean, "boolean", v.kind == Kind::Bool)
CREDITLAB_SIMPLE_TEST(tTrue, "true", v.kind == Kind::Bool && v.i)
CREDITLAB_SIMPLE_TEST(tFalse, "false", v.kind == Kind::Bool && !v.i)
CREDITLAB_SIMPLE_TEST(tInteger, "integer", v.kind == Kind::Int)
CREDITLAB_SIMPLE_TEST(tFloat, "float", v.kind == Kind::Float)
CREDITLAB_SIMPLE_TEST(tNumber, "number", v.isNumber())
CREDITLAB_SIMPLE_TEST(tString, "string", v.isString())
CREDITLAB_SIMPLE_TEST(tMapping, "mapping", v.isMapping())
CREDITLAB_SIMPLE_TEST(tIterable, "iterable", v.isUndefined() || v.isString() || v.isSequence() || v.isMapping())
CREDITLAB_SIMPLE_TEST(tSequence, "sequence", v.isUndefined() || v.isString() || v.isSequence() || v.isMapping())
CREDITLAB_SIMPLE_TEST(tCallable, "callable", v.isUndefined() || v.kind == Kind::Callable)
CREDITLAB_SIMPLE_TEST(tEscaped, "escaped", v.isString() && v.markup)

bool parity(Renderer& r, const Value& v, std::int64_t rest)
{
    const Value m = binaryOp(r, "%", v, Value::integer(2));
    return equals(m, Value::integer(rest));
}

bool tOdd(Renderer& r, const Value& v, const Args& a)
{
    noArgs(a, "odd");
    return parity(r, v, 1);
}

bool tEven(Renderer& r, const Value& v, const Args& a)
{
    noArgs(a, "even");
    return parity(r, v, 0);
}

bool tDivisibleBy(Renderer& r, const Value& v, const Args& a)
{
    return equals(binaryOp(r, "%", v, argument(a, "divisibleby")), Value::integer(0));
}

bool tEq(Renderer&, const Value& v, const Args& a) { return equals(v, argument(a, "==")); }

bool tNe(Renderer&, const Value& v, const Args& a) { return !equals(v, argument(a, "!=")); }

bool ordered(const Value& x, const Value& y)
{
    if (x.isUndefined())
        failUndefined(x);
    if (y.isUndefined())
        failUndefined(y);
    return lessThan(x, y);
}

bool tLt(Renderer&, const Value& v, const Args& a) { return ordered(v, argument(a, "<")); }

bool tLe(Renderer&, const Value& v, const Args& a)
{
    const Value& o = argument(a, "<=");
    return ordered(v, o) || equals(v, o);
}

bool tGt(Renderer&, const Value& v, const Args& a) { return ordered(argument(a, ">"), v); }

bool tGe(Renderer&, const Value& v, const Args& a)
{
    const Value& o = argument(a, ">=");
    return ordered(o, v) || equals(v, o);
}

bool tIn(Renderer&, const Value& v, const Args& a) { return contains(argument(a, "in"), v); }

bool tSameAs(Renderer&, const Value& v, const Args& a)
{
    const Value& o = argument(a, "sameas");
    if (v.kind != o.kind)
        return false;
    switch (v.kind) {
    case Kind::List:
    case Kind::Tuple:
        return v.list == o.list;
    case Kind::Dict:
    case Kind::Namespace:
        return v.dict == o.dict;
    case Kind::Callable:
        return v.fn == o.fn;
    case Kind::Float:
        return false;
    default:
        return equals(v, o);
    }
}

bool tFilter(Renderer&, const Value& v, const Args& a)
{
    noArgs(a, "filter");
    return v.isString() && findFilter(v.s);
}

bool tTest(Renderer&, const Value& v, const Args& a)
{
    noArgs(a, "test");
    return v.isString() && findTest(v.s);
}

} // namespace

TestFn findTest(std::string_view name)
{
    static const std::unordered_map<std::string_view, TestFn> kTests = { { "defined", tDefined },
        { "undefined", tUndefined }, { "none", tNone }, { "boolean", tBoolean }, { "true", tTrue }, { "false", tFalse },
        { "integer", tInteger }, { "float", tFloat }, { "number", tNumber }, { "string", tString },
        { "mapping", tMapping }, { "iterable", tIterable }, { "sequence", tSequence }, { "callable", tCallable },
        { "escaped", tEscaped }, { "odd", tOdd }, { "even", tEven }, { "divisibleby", tDivisibleBy }, { "eq", tEq },
        { "equalto", tEq }, { "==", tEq }, { "ne", tNe }, { "!=", tNe }, { "lt", tLt }, { "lessthan", tLt },
        { "<", tLt }, { "le", tLe }, { "<=", tLe }, { "gt", tGt }, { "greaterthan", tGt }, { ">", tGt }, { "ge", tGe },
        { ">=", tGe }, { "in", tIn }, { "sameas", tSameAs }, { "filter", tFilter }, { "test", tTest } };
    const auto it = kTests.find(name);
    return it == kTests.end() ? nullptr : it->second;
}

} // namespace creditlab::hf::jinja
