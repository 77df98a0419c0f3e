#pragma once

// The syntax tree of a parsed Jinja template (internal to the engine).

#include "core/hf/jinja_value.h"

#include <memory>
#include <string>
#include <vector>

namespace creditlab::hf::jinja {

enum class ExprType {
    Const,
    Name,
    List,
    Tuple,
    Dict,
    GetAttr,
    GetItem,
    Slice,
    Call,
    Filter,
    Test,
    Neg,
    Pos,
    Not,
    And,
    Or,
    Binary,
    Concat,
    Compare,
    CondExpr
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
using FilterFn = Value (*)(Renderer&, const Value& subject, const Args& args);
using TestFn = bool (*)(Renderer&, const Value& subject, const Args& args);

struct Expr {
    ExprType type = ExprType::Const;
    int line = 0;
    Value value; ///< Const
    std::string name; ///< Name, GetAttr, Filter, Test; Binary's operator
    std::vector<ExprPtr> kids; ///< operands, items, positional arguments (a Filter's first is its subject or null)
    std::vector<std::string> kwNames; ///< keyword arguments' names (Dict: unused; keys and values alternate in kids)
    std::vector<ExprPtr> kwValues;
    std::vector<std::string> ops; ///< Compare: the operators between kids
    FilterFn filter = nullptr;
    TestFn test = nullptr;
    bool negated = false; ///< Test: `is not`
};

enum class StmtType { Output, Print, If, For, Set, SetBlock, Macro, CallBlock, FilterBlock, Break, Continue, Scope };

/// An assignment target: one name, a tuple of names, or `ns.attr`.
struct Target {
    std::vector<std::string> names;
    bool tuple = false;
    std::string attr;
};

struct Stmt;
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

struct Stmt {
    StmtType type = StmtType::Output;
    int line = 0;
    std::string text; ///< Output: the data; Macro: the name
    ExprPtr expr; ///< Print, If's test, For's iterable, Set's value, CallBlock's call, FilterBlock's filter chain
    ExprPtr cond; ///< For's `if` filter; SetBlock's filter chain
    Target target;
    Body body;
    Body elseBody;
    std::vector<std::string> params; ///< Macro (and CallBlock's caller) parameters
    std::vector<ExprPtr> defaults; ///< one per parameter, null where none
};

/// A parsed template; shared by every copy of a Template and immutable.
struct Program {
    Body body;
};

} // namespace creditlab::hf::jinja
