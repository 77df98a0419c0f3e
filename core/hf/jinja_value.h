#pragma once

// The values of the Jinja engine (internal to core/hf): Python's types as jinja2 sees them (str, int, float, bool,
// None, list, tuple, dict, jinja2's Undefined and namespace, callables), with Python's str(), repr(), truthiness,
// equality and ordering, and json.dumps as transformers' `tojson` calls it.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace creditlab::hf::jinja {

/// An error while parsing or rendering; `line` is 0 until an enclosing node adds its line. `limit` marks the
/// exceeded limits, `raised` a template's own raise_exception().
class JinjaError : public std::runtime_error {
public:
    explicit JinjaError(const std::string& message, int line = 0)
        : std::runtime_error(message)
        , line(line)
    {
    }
    int line = 0;
};

enum class Kind { Undefined, None, Bool, Int, Float, String, List, Tuple, Dict, Namespace, Callable };

struct Value;
struct Dict;
struct Callable;
using List = std::vector<Value>;

/// A Python value. Lists, tuples and dicts are shared and never mutated after construction (the immutable sandbox);
/// a namespace is shared and mutable, as in jinja2.
struct Value {
    Kind kind = Kind::Undefined;
    bool markup = false; ///< a markupsafe.Markup string (macro results, `|safe`, `|e`)
    std::int64_t i = 0; ///< Bool and Int
    double f = 0; ///< Float
    std::string s; ///< String; for Undefined the hint used when it is misused
    std::shared_ptr<List> list; ///< List and Tuple
    std::shared_ptr<Dict> dict; ///< Dict and Namespace
    std::shared_ptr<const Callable> fn;

    Value() = default;
    static Value undefined(std::string hint = {});
    static Value none();
    static Value boolean(bool b);
    static Value integer(std::int64_t v);
    static Value number(double v);
    static Value string(std::string v, bool markup = false);
    static Value makeList(List items);
    static Value makeTuple(List items);
    static Value makeDict(Dict d);
    static Value makeNamespace(Dict d);
    static Value callable(std::shared_ptr<const Callable> c);

    bool isUndefined() const { return kind == Kind::Undefined; }
    bool isNone() const { return kind == Kind::None; }
    bool isString() const { return kind == Kind::String; }
    bool isInt() const { return kind == Kind::Int || kind == Kind::Bool; }
    bool isNumber() const { return kind == Kind::Int || kind == Kind::Bool || kind == Kind::Float; }
    bool isSequence() const { return kind == Kind::List || kind == Kind::Tuple; }
    bool isMapping() const { return kind == Kind::Dict; }
    double asDouble() const { return kind == Kind::Float ? f : static_cast<double>(i); }
    const List& items() const { return *list; }
};

/// A Python dict: insertion-ordered, any hashable key (1, 1.0 and True are one key, as in Python).
struct Dict {
    std::vector<std::pair<Value, Value>> entries;
    const Value* find(const Value& key) const;
    const Value* find(std::string_view key) const;
    void set(Value key, Value value);
};

/// Positional and keyword arguments of a call.
struct Args {
    std::vector<Value> pos;
    std::vector<std::pair<std::string, Value>> kw;
    /// Python's binding of these arguments to `names` (at most `names.size()` of them; `required` first ones needed):
    /// one slot per name, Undefined-kind with s == "\x01missing" where absent. `what` names the callee in errors.
    std::vector<Value> bind(const char* what, std::initializer_list<const char*> names, std::size_t required = 0) const;
};

class Renderer;

/// A callable: a global, a macro or a bound method.
struct Callable {
    std::string name;
    std::function<Value(Renderer&, const Args&)> call;
};

bool isMissing(const Value& v);
const char* typeName(const Value& v);
bool truthy(const Value& v);
bool equals(const Value& a, const Value& b, int depth = 0);
/// Python's `a < b`; throws JinjaError where Python raises TypeError.
bool lessThan(const Value& a, const Value& b, int depth = 0);
/// Python's str() (Undefined prints as "").
std::string toStr(const Value& v);
void appendStr(std::string& out, const Value& v, int depth = 0);
std::string repr(const Value& v);
void appendRepr(std::string& out, const Value& v, int depth = 0);
/// Python's repr() of a float: the shortest text that reads back, "1.0", "1e-07", "inf".
std::string floatRepr(double v);
std::string pyStringRepr(std::string_view s);

Value fromJson(const nlohmann::ordered_json& j, int depth = 0);

struct JsonOptions {
    bool indented = false;
    std::string indent;
    std::string itemSeparator = ", ";
    std::string keySeparator = ": ";
    bool sortKeys = false;
};
/// json.dumps(v, ensure_ascii=False, ...); throws JinjaError for what JSON cannot hold (Undefined, namespaces, ...).
void appendJson(std::string& out, const Value& v, const JsonOptions& options, int level = 0);

/// Values nest at most this deep (repr, equality, JSON): a namespace can hold itself.
constexpr int kMaxValueDepth = 512;

} // namespace creditlab::hf::jinja
