// Renderer::evalInner: the value of each kind of expression.

#include "core/hf/jinja_eval.h"

namespace creditlab::hf::jinja {

Value Renderer::evalInner(const Expr& e, Frame& frame)
{
    switch (e.type) {
    case ExprType::Const:
        return e.value;
    case ExprType::Name:
        return lookup(e.name, frame);
    case ExprType::List:
    case ExprType::Tuple: {
        List items;
        items.reserve(e.kids.size());
        for (const ExprPtr& k : e.kids)
            items.push_back(eval(*k, frame));
        return e.type == ExprType::List ? Value::makeList(std::move(items)) : Value::makeTuple(std::move(items));
    }
    case ExprType::Dict: {
        Dict d;
        for (std::size_t k = 0; k + 1 < e.kids.size(); k += 2) {
            Value key = eval(*e.kids[k], frame);
            if (key.isUndefined() || key.kind == Kind::List || key.kind == Kind::Dict || key.kind == Kind::Namespace)
                throw JinjaError(std::string("unhashable type: '") + typeName(key) + "'");
            d.set(std::move(key), eval(*e.kids[k + 1], frame));
        }
        return Value::makeDict(std::move(d));
    }
    case ExprType::GetAttr:
        return getAttr(eval(*e.kids[0], frame), e.name);
    case ExprType::GetItem: {
        const Value obj = eval(*e.kids[0], frame);
        const Expr& index = *e.kids[1];
        if (index.type == ExprType::Slice) {
            auto bound = [&](std::size_t k) { return index.kids[k] ? eval(*index.kids[k], frame) : Value::none(); };
            return getSlice(obj, bound(0), bound(1), bound(2));
        }
        return getItem(obj, eval(index, frame));
    }
    case ExprType::Slice:
        throw JinjaError("a slice outside of a subscript");
    case ExprType::Call: {
        const Value callee = eval(*e.kids[0], frame);
        return call(callee, evalArgs(e, frame, 1));
    }
    case ExprType::Filter:
        return e.filter(*this, e.kids[0] ? eval(*e.kids[0], frame) : Value(), evalArgs(e, frame, 1));
    case ExprType::Test: {
        const Value subject = eval(*e.kids[0], frame);
        return Value::boolean(e.test(*this, subject, evalArgs(e, frame, 1)) != e.negated);
    }
    case ExprType::Neg:
    case ExprType::Pos: {
        const Value v = eval(*e.kids[0], frame);
        if (v.isUndefined())
            failUndefined(v);
        if (v.kind == Kind::Float)
            return Value::number(e.type == ExprType::Neg ? -v.f : v.f);
        if (v.isInt()) {
            if (e.type == ExprType::Pos)
                return Value::integer(v.i);
            if (v.i == INT64_MIN)
                throw JinjaError("integer overflow");
            return Value::integer(-v.i);
        }
        throw JinjaError(std::string("bad operand type for unary ") + (e.type == ExprType::Neg ? "-" : "+") + ": '"
            + typeName(v) + "'");
    }
    case ExprType::Not:
        return Value::boolean(!truthy(eval(*e.kids[0], frame)));
    case ExprType::And: {
        Value left = eval(*e.kids[0], frame);
        return truthy(left) ? eval(*e.kids[1], frame) : left;
    }
    case ExprType::Or: {
        Value left = eval(*e.kids[0], frame);
        return truthy(left) ? left : eval(*e.kids[1], frame);
    }
    case ExprType::Binary:
        return binaryOp(*this, e.name, eval(*e.kids[0], frame), eval(*e.kids[1], frame));
    case ExprType::Concat: {
        std::string out;
        for (const ExprPtr& k : e.kids) {
            appendStr(out, eval(*k, frame));
            checkSize(out.size());
        }
        return Value::string(std::move(out));
    }
    case ExprType::Compare: {
        Value left = eval(*e.kids[0], frame);
        for (std::size_t k = 0; k < e.ops.size(); ++k) {
            Value right = eval(*e.kids[k + 1], frame);
            const std::string& op = e.ops[k];
            bool result = false;
            if (op == "==" || op == "!=") {
                result = equals(left, right) == (op == "==");
            } else if (op == "in" || op == "not in") {
                result = contains(right, left) == (op == "in");
            } else {
                if (left.isUndefined())
                    failUndefined(left);
                if (right.isUndefined())
                    failUndefined(right);
                if (op == "<")
                    result = lessThan(left, right);
                else if (op == ">")
                    result = lessThan(right, left);
                else if (op == "<=")
                    result = lessThan(left, right) || equals(left, right);
                else
                    result = lessThan(right, left) || equals(left, right);
            }
            if (!result)
                return Value::boolean(false);
            left = std::move(right);
        }
        return Value::boolean(true);
    }
    case ExprType::CondExpr:
        if (truthy(eval(*e.kids[1], frame)))
            return eval(*e.kids[0], frame);
        if (e.kids[2])
            return eval(*e.kids[2], frame);
        return Value::undefined("the inline if-expression evaluated to false and no else section was defined");
    }
    return Value();
}

} // namespace creditlab::hf::jinja
