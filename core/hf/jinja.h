#pragma once

// A Jinja engine for the subset of Jinja that Hugging Face chat templates use, rendering byte for byte as transformers'
// apply_chat_template(tokenize=False) does: jinja2's ImmutableSandboxedEnvironment(trim_blocks=True,
// lstrip_blocks=True, extensions=[loopcontrols]) with transformers' `tojson`, `raise_exception` and `strftime_now`.
// docs/hf-chat-templates.md lists the supported subset and how parity with jinja2 is tested.

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace creditlab::hf::jinja {

/// Bounds on one render (and on parsing) for untrusted templates. Exceeding one throws HfError naming the limit
/// ("output limit", "step limit", "depth limit").
struct Limits {
    std::size_t maxOutputBytes = 16u << 20; ///< the output, and any string or list built on the way
    std::size_t maxSteps = 10'000'000; ///< evaluation steps (nodes, calls, 5 per loop iteration, 1 per 64 bytes built)
    int maxDepth = 200; ///< syntax nesting (parse), macro call depth, and 10 × this evaluation frames (render)
};

/// The clock of `strftime_now` (local time, as Python's datetime.now()).
using Clock = std::function<std::chrono::system_clock::time_point()>;

struct Program; // the parsed template (jinja_ast.h)

/// A parsed template. Immutable after parse(): render() may run on any number of threads at once.
class Template {
public:
    /// Parses `source`; `name` names the template in errors, as in "chat template (tokenizer_config.json)". Throws
    /// HfError ("NAME, line N: ...") for a syntax error, an unknown filter or test, or nesting beyond
    /// `limits.maxDepth`.
    static Template parse(std::string_view source, std::string name, const Limits& limits = {});

    /// Renders with `context`'s members as variables (a JSON object). Throws HfError naming the template and line for
    /// a runtime error (jinja2's UndefinedError, TypeError, SecurityError, ...), a template's raise_exception(msg)
    /// (the message is the template's), or an exceeded limit. `clock` drives strftime_now (default: the system
    /// clock). Any thread; never cancels.
    std::string render(const nlohmann::ordered_json& context, const Limits& limits = {}, const Clock& clock = {}) const;

    const std::string& name() const { return m_name; }

private:
    std::shared_ptr<const Program> m_program;
    std::string m_name;
};

} // namespace creditlab::hf::jinja
