#include "core/hf/jinja_eval.h"

#include "core/hf/jinja_builtins.h"

#include <algorithm>

namespace creditlab::hf::jinja {

std::string limitMessage(const char* limit, std::size_t value)
{
    return std::string(limit) + " exceeded (" + std::to_string(value) + ")";
}

const Value* Renderer::Frame::find(std::string_view name) const
{
    for (const Frame* f = this; f; f = f->parent)
        for (auto it = f->vars.rbegin(); it != f->vars.rend(); ++it)
            if (it->first == name)
                return &it->second;
    return nullptr;
}

void Renderer::Frame::set(const std::string& name, Value v)
{
    for (auto& [n, value] : vars) {
        if (n == name) {
            value = std::move(v);
            return;
        }
    }
    vars.emplace_back(name, std::move(v));
}

Renderer::Renderer(
    const Program& program, const nlohmann::ordered_json& context, const Limits& limits, const Clock& clock)
    : m_program(program)
    , m_limits(limits)
    , m_clock(clock)
{
    if (!context.is_object() && !context.is_null())
        throw JinjaError("the context must be a JSON object");
    if (context.is_object())
        for (const auto& [k, v] : context.items())
            m_globals.set(k, fromJson(v));
    m_root.parent = &m_globals;
}

Renderer::~Renderer()
{
    // Namespaces are the only mutable values, so the only way to a reference cycle: empty them.
    for (const auto& weak : m_namespaces)
        if (auto ns = weak.lock())
            ns->entries.clear();
}

std::string Renderer::run()
{
    exec(m_program.body, m_root);
    return std::move(m_output);
}

void Renderer::step(std::size_t n)
{
    m_steps += n;
    if (m_steps > m_limits.maxSteps)
        throw JinjaError(limitMessage("step limit (maxSteps)", m_limits.maxSteps));
}

void Renderer::checkSize(std::size_t size)
{
    if (size > m_limits.maxOutputBytes)
        throw JinjaError(limitMessage("output limit (maxOutputBytes)", m_limits.maxOutputBytes));
    step(size / 64);
}

std::chrono::system_clock::time_point Renderer::now() const
{
    return m_clock ? m_clock() : std::chrono::system_clock::now();
}

void Renderer::track(const Value& ns) { m_namespaces.push_back(ns.dict); }

void Renderer::append(std::string_view text)
{
    if (m_out->size() + text.size() > m_limits.maxOutputBytes)
        throw JinjaError(limitMessage("output limit (maxOutputBytes)", m_limits.maxOutputBytes));
    m_out->append(text);
}

std::string Renderer::capture(const Body& body, Frame& frame)
{
    std::string buffer;
    std::string* saved = m_out;
    m_out = &buffer;
    try {
        exec(body, frame);
    } catch (...) {
        m_out = saved;
        throw;
    }
    m_out = saved;
    return buffer;
}

Renderer::Flow Renderer::exec(const Body& body, Frame& frame)
{
    for (const StmtPtr& s : body) {
        const Flow flow = execOne(*s, frame);
        if (flow != Flow::Normal)
            return flow;
    }
    return Flow::Normal;
}

Renderer::Nest::Nest(Renderer& r)
    : m_r(r)
{
    // Parsing bounds the syntax's nesting and callMacro() the calls; this bounds both together, so that the stack
    // stays small whatever the mix (10 frames per unit of maxDepth).
    if (++m_r.m_evalDepth > m_r.m_limits.maxDepth * 10) {
        --m_r.m_evalDepth;
        throw JinjaError("depth limit exceeded: evaluation nests deeper than 10 × maxDepth ("
            + std::to_string(m_r.m_limits.maxDepth) + ")");
    }
}

Renderer::Flow Renderer::execOne(const Stmt& s, Frame& frame)
{
    step();
    const Nest nest(*this);
    try {
        switch (s.type) {
        case StmtType::Output:
            append(s.text);
            break;
        case StmtType::Print: {
            const Value v = eval(*s.expr, frame);
            if (v.kind == Kind::String) {
                append(v.s);
            } else {
                std::string text;
                appendStr(text, v);
                append(text);
            }
            break;
        }
        case StmtType::If:
            return exec(truthy(eval(*s.expr, frame)) ? s.body : s.elseBody, frame);
        case StmtType::For: {
            Flow flow = Flow::Normal;
            execFor(s, frame, flow);
            break;
        }
        case StmtType::Set:
            assign(s.target, eval(*s.expr, frame), frame);
            break;
        case StmtType::SetBlock: {
            Value v = Value::string(capture(s.body, frame));
            if (s.cond)
                v = evalFilterChain(*s.cond, v, frame);
            assign(s.target, std::move(v), frame);
            break;
        }
        case StmtType::Macro:
            frame.set(s.text, makeMacro(s, frame));
            break;
        case StmtType::CallBlock: {
            const Expr& call = *s.expr;
            const Value callee = eval(*call.kids[0], frame);
            Args args = evalArgs(call, frame, 1);
            args.kw.emplace_back("caller", makeMacro(s, frame));
            const Value v = this->call(callee, args);
            append(toStr(v));
            break;
        }
        case StmtType::FilterBlock: {
            const Value body = Value::string(capture(s.body, frame));
            append(toStr(evalFilterChain(*s.expr, body, frame)));
            break;
        }
        case StmtType::Scope: {
            Frame inner;
            inner.parent = &frame;
            for (std::size_t k = 0; k < s.params.size(); ++k)
                inner.set(s.params[k], eval(*s.defaults[k], frame));
            return exec(s.body, inner);
        }
        case StmtType::Break:
            return Flow::Break;
        case StmtType::Continue:
            return Flow::Continue;
        }
    } catch (JinjaError& e) {
        if (e.line == 0)
            e.line = s.line;
        throw;
    }
    return Flow::Normal;
}

void Renderer::assign(const Target& t, Value v, Frame& frame)
{
    if (!t.attr.empty()) {
        const Value* ns = frame.find(t.names[0]);
        if (!ns || ns->kind != Kind::Namespace)
            throw JinjaError("cannot assign attribute on non-namespace object");
        ns->dict->set(Value::string(t.attr), std::move(v));
        return;
    }
    if (!t.tuple) {
        frame.set(t.names[0], std::move(v));
        return;
    }
    if (v.isUndefined())
        failUndefined(v);
    const List items = iterate(v);
    if (items.size() != t.names.size())
        throw JinjaError(items.size() > t.names.size()
                ? "too many values to unpack (expected " + std::to_string(t.names.size()) + ")"
                : "not enough values to unpack (expected " + std::to_string(t.names.size()) + ", got "
                    + std::to_string(items.size()) + ")");
    for (std::size_t k = 0; k < items.size(); ++k)
        frame.set(t.names[k], items[k]);
}

void Renderer::execFor(const Stmt& s, Frame& frame, Flow& flow)
{
    const Value iterable = eval(*s.expr, frame);
    if (!iterable.isUndefined() && !iterable.isSequence() && !iterable.isMapping() && !iterable.isString())
        throw JinjaError(std::string("'") + typeName(iterable) + "' object is not iterable");
    List items = iterate(iterable);
    if (s.cond) {
        List kept;
        for (Value& item : items) {
            step();
            Frame probe;
            probe.parent = &frame;
            assign(s.target, item, probe);
            if (truthy(eval(*s.cond, probe)))
                kept.push_back(std::move(item));
        }
        items = std::move(kept);
    }
    if (items.empty()) {
        flow = exec(s.elseBody, frame);
        return;
    }
    const auto n = static_cast<std::int64_t>(items.size());
    // The loop object is rebuilt only when the previous iteration's one was kept somewhere (a namespace, a macro's
    // closure): otherwise it is updated in place, which makes an iteration cheap.
    Value loop;
    auto counter = std::make_shared<std::int64_t>(0);
    auto at = [&](std::int64_t k) { return k >= 0 && k < n ? items[static_cast<std::size_t>(k)] : Value(); };
    for (std::int64_t k = 0; k < n; ++k) {
        step(5); // an iteration costs as much as several expression nodes
        const bool reuse
            = loop.dict && loop.dict.use_count() == 1 && loop.dict->entries.back().second.fn.use_count() == 1;
        if (!reuse) {
            counter = std::make_shared<std::int64_t>(k);
            Dict d;
            d.entries.reserve(12);
            for (const char* key : { "index", "index0", "revindex", "revindex0", "first", "last", "length", "depth",
                     "depth0", "previtem", "nextitem", "cycle" })
                d.entries.emplace_back(Value::string(key), Value());
            auto cycle = std::make_shared<Callable>();
            cycle->name = "cycle";
            cycle->call = [counter](Renderer&, const Args& args) {
                if (args.pos.empty())
                    throw JinjaError("no items for cycling given");
                return args.pos[static_cast<std::size_t>(*counter) % args.pos.size()];
            };
            d.entries.back().second = Value::callable(std::move(cycle));
            loop = Value::makeDict(std::move(d));
        }
        *counter = k;
        auto& e = loop.dict->entries;
        e[0].second = Value::integer(k + 1);
        e[1].second = Value::integer(k);
        e[2].second = Value::integer(n - k);
        e[3].second = Value::integer(n - k - 1);
        e[4].second = Value::boolean(k == 0);
        e[5].second = Value::boolean(k == n - 1);
        e[6].second = Value::integer(n);
        e[7].second = Value::integer(1);
        e[8].second = Value::integer(0);
        e[9].second = k > 0 ? at(k - 1) : Value::undefined("there is no previous item");
        e[10].second = k + 1 < n ? at(k + 1) : Value::undefined("there is no next item");
        Frame body;
        body.parent = &frame;
        body.vars.reserve(4);
        body.vars.emplace_back("loop", loop);
        assign(s.target, items[static_cast<std::size_t>(k)], body);
        const Flow f = exec(s.body, body);
        if (f == Flow::Break)
            break;
    }
}

Value Renderer::makeMacro(const Stmt& s, const Frame& frame)
{
    // A macro sees the template's top level as it is when called, and the enclosing loops' and blocks' variables
    // as they were when it was defined (copied: a Value never points into a frame).
    std::vector<std::pair<std::string, Value>> closure;
    for (const Frame* f = &frame; f && f != &m_root && f != &m_globals; f = f->parent)
        for (const auto& var : f->vars)
            if (std::none_of(closure.begin(), closure.end(), [&](const auto& c) { return c.first == var.first; }))
                closure.push_back(var);
    auto c = std::make_shared<Callable>();
    c->name = s.type == StmtType::Macro ? s.text : "caller";
    const Stmt* stmt = &s;
    c->call = [stmt, closure = std::move(closure)](
                  Renderer& r, const Args& args) { return r.callMacro(*stmt, closure, args); };
    return Value::callable(std::move(c));
}

Value Renderer::callMacro(const Stmt& s, const std::vector<std::pair<std::string, Value>>& closure, const Args& args)
{
    if (m_callDepth >= m_limits.maxDepth)
        throw JinjaError(
            "depth limit exceeded: macro calls nest deeper than maxDepth (" + std::to_string(m_limits.maxDepth) + ")");
    struct DepthGuard {
        int& depth;
        ~DepthGuard() { --depth; }
    } guard { ++m_callDepth };
    Frame scope;
    scope.vars = closure;
    scope.parent = &m_root;
    const std::size_t nParams = s.params.size();
    List varargs;
    for (std::size_t k = 0; k < args.pos.size(); ++k) {
        if (k < nParams)
            scope.set(s.params[k], args.pos[k]);
        else
            varargs.push_back(args.pos[k]);
    }
    Dict kwargs;
    std::vector<bool> given(nParams, false);
    for (std::size_t k = 0; k < args.pos.size() && k < nParams; ++k)
        given[k] = true;
    for (const auto& [name, value] : args.kw) {
        const auto it = std::find(s.params.begin(), s.params.end(), name);
        if (it == s.params.end()) {
            if (name == "caller")
                scope.set("caller", value);
            else
                kwargs.set(Value::string(name), value);
            continue;
        }
        const auto index = static_cast<std::size_t>(it - s.params.begin());
        if (given[index])
            throw JinjaError("macro '" + s.text + "' got multiple values for argument '" + name + "'");
        given[index] = true;
        scope.set(name, value);
    }
    for (std::size_t k = 0; k < nParams; ++k) {
        if (given[k])
            continue;
        if (k < s.defaults.size() && s.defaults[k])
            scope.set(s.params[k], eval(*s.defaults[k], scope));
        else
            scope.set(s.params[k], Value::undefined("parameter '" + s.params[k] + "' was not provided"));
    }
    scope.set("varargs", Value::makeTuple(std::move(varargs)));
    scope.set("kwargs", Value::makeDict(std::move(kwargs)));
    return Value::string(capture(s.body, scope), true);
}

Value Renderer::call(const Value& callee, const Args& args)
{
    step();
    if (callee.kind == Kind::Callable)
        return callee.fn->call(*this, args);
    if (callee.isUndefined())
        failUndefined(callee);
    throw JinjaError(std::string("'") + typeName(callee) + "' object is not callable");
}

Value Renderer::lookup(const std::string& name, const Frame& frame) const
{
    if (const Value* v = frame.find(name))
        return *v;
    Value global = findGlobal(name);
    if (!global.isUndefined())
        return global;
    return Value::undefined("'" + name + "' is undefined");
}

Args Renderer::evalArgs(const Expr& e, Frame& frame, std::size_t first)
{
    Args args;
    for (std::size_t k = first; k < e.kids.size(); ++k)
        args.pos.push_back(eval(*e.kids[k], frame));
    for (std::size_t k = 0; k < e.kwNames.size(); ++k)
        args.kw.emplace_back(e.kwNames[k], eval(*e.kwValues[k], frame));
    return args;
}

Value Renderer::evalFilterChain(const Expr& e, const Value& subject, Frame& frame)
{
    const Value inner = e.kids[0] ? evalFilterChain(*e.kids[0], subject, frame) : subject;
    try {
        return e.filter(*this, inner, evalArgs(e, frame, 1));
    } catch (JinjaError& err) {
        if (err.line == 0)
            err.line = e.line;
        throw;
    }
}

Value Renderer::eval(const Expr& e, Frame& frame)
{
    step();
    const Nest nest(*this);
    try {
        return evalInner(e, frame);
    } catch (JinjaError& err) {
        if (err.line == 0)
            err.line = e.line;
        throw;
    }
}

} // namespace creditlab::hf::jinja
