#include "core/hf/jinja.h"

#include "core/hf/error.h"
#include "core/hf/jinja_eval.h"
#include "core/hf/jinja_parser.h"

namespace creditlab::hf::jinja {

static HfError located(const std::string& name, const JinjaError& e)
{
    if (e.line > 0)
        return HfError(name + ", line " + std::to_string(e.line) + ": " + e.what());
    return HfError(name + ": " + e.what());
}

Template Template::parse(std::string_view source, std::string name, const Limits& limits)
{
    Template t;
    t.m_name = std::move(name);
    try {
        t.m_program = parseProgram(source, limits.maxDepth);
    } catch (const JinjaError& e) {
        throw located(t.m_name, e);
    }
    return t;
}

std::string Template::render(const nlohmann::ordered_json& context, const Limits& limits, const Clock& clock) const
{
    if (!m_program)
        throw HfError("render() of a template that was never parsed");
    try {
        Renderer renderer(*m_program, context, limits, clock);
        return renderer.run();
    } catch (const JinjaError& e) {
        throw located(m_name, e);
    }
}

} // namespace creditlab::hf::jinja
