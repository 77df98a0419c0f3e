#pragma once

// The Jinja evaluator (internal): one Renderer per render() call, so a Template can render on many threads at once.

#include "core/hf/jinja.h"
#include "core/hf/jinja_ast.h"

#include <string>
#include <string_view>
#include <vector>

namespace creditlab::hf::jinja {

class Renderer {
public:
    Renderer(const Program& program, const nlohmann::ordered_json& context, const Limits& limits, const Clock& clock);
    ~Renderer();
    Renderer(const Renderer&) = delete;
    Renderer& operator=(const Renderer&) = delete;

    std::string run();

    /// Counts `n` evaluation steps; throws at maxSteps.
    void step(std::size_t n = 1);
    /// Throws where a string or list of `size` bytes or items would pass maxOutputBytes; counts its copying as steps.
    void checkSize(std::size_t size);
    Value call(const Value& callee, const Args& args);
    std::chrono::system_clock::time_point now() const;
    /// Registers a namespace so that the references it holds are dropped after the render (they may form cycles).
    void track(const Value& ns);

private:
    struct Frame {
        std::vector<std::pair<std::string, Value>> vars;
        const Frame* parent = nullptr;
        const Value* find(std::string_view name) const;
        void set(const std::string& name, Value v);
    };
    enum class Flow { Normal, Break, Continue };

    Flow exec(const Body& body, Frame& frame);
    Flow execOne(const Stmt& s, Frame& frame);
    void execFor(const Stmt& s, Frame& frame, Flow& flow);
    void assign(const Target& t, Value v, Frame& frame);
    std::string capture(const Body& body, Frame& frame);
    Value evalFilterChain(const Expr& e, const Value& subject, Frame& frame);
    Value makeMacro(const Stmt& s, const Frame& frame);
    Value callMacro(const Stmt& s, const std::vector<std::pair<std::string, Value>>& closure, const Args& args);

    Value eval(const Expr& e, Frame& frame);
    Value evalInner(const Expr& e, Frame& frame);
    Args evalArgs(const Expr& e, Frame& frame, std::size_t first);
    Value lookup(const std::string& name, const Frame& frame) const;
    struct Nest {
        explicit Nest(Renderer& r);
        ~Nest() { --m_r.m_evalDepth; }
        Renderer& m_r;
    };
    void append(std::string_view text);

    const Program& m_program;
    const Limits& m_limits;
    const Clock& m_clock;
    Frame m_globals;
    Frame m_root;
    std::string m_output;
    std::string* m_out = &m_output;
    std::size_t m_steps = 0;
    int m_callDepth = 0;
    int m_evalDepth = 0; ///< nested statements and expressions, macro calls included
    std::vector<std::weak_ptr<Dict>> m_namespaces;
};

/// `obj.name` and `obj[key]` as the immutable sandbox resolves them; `obj[a:b:c]`.
Value getAttr(const Value& obj, const std::string& name);
Value getItem(const Value& obj, const Value& key);
Value getSlice(const Value& obj, const Value& start, const Value& stop, const Value& step);
/// The items `for x in v` visits (dict keys, a string's characters; none for Undefined).
List iterate(const Value& v);
bool contains(const Value& container, const Value& item);
/// Python's binary operators + - * / // % ** on two values.
Value binaryOp(Renderer& r, const std::string& op, const Value& a, const Value& b);
/// Throws jinja2's UndefinedError for an Undefined operand.
[[noreturn]] void failUndefined(const Value& v);
std::string limitMessage(const char* limit, std::size_t value);

} // namespace creditlab::hf::jinja
