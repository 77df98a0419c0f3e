// Chat templates (core/hf/jinja.h, core/hf/chatrender.h): arbitrary template text, optionally followed by a line "%%"
// and a JSON context, parsed and rendered under tight limits. Parsing and rendering either succeed or throw HfError
// naming the template; any other exception, a crash, a hang or a leak is a finding.

#include "core/hf/chatrender.h"
#include "core/hf/error.h"
#include "core/hf/jinja.h"
#include "tests/fuzz/fuzzutil.h"

using namespace creditlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto parts = fuzz::parts(fuzz::text(data, size), 2);
    hf::jinja::Limits limits;
    limits.maxOutputBytes = 1 << 16;
    limits.maxSteps = 20000;
    limits.maxDepth = 40;

    nlohmann::ordered_json context = nlohmann::ordered_json::parse(parts[1], nullptr, false);
    if (!context.is_object()) {
        const auto messages = nlohmann::ordered_json::parse(R"([{"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Hi <think>"}, {"role": "assistant", "content": "<think>\nx\n</think>\n\nHello",
            "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": {"a": [1, 2.5, null]}}}]},
            {"role": "tool", "content": "{\"ok\": true}"}])");
        hf::ChatTokens tokens;
        tokens.bos = "<s>";
        tokens.eos = "</s>";
        context = hf::chatContext(messages, true, { { "enable_thinking", false } }, tokens);
    }
    try {
        const auto t = hf::jinja::Template::parse(parts[0], "chat template (fuzz)", limits);
        const std::string out = t.render(context, limits, [] { return std::chrono::system_clock::time_point(); });
        if (out.size() > limits.maxOutputBytes)
            fuzz::finding("the output passes maxOutputBytes");
    } catch (const hf::HfError& e) {
        fuzz::note(e.what());
        if (!fuzz::names(e.what(), "chat template (fuzz)"))
            fuzz::finding("an HfError does not name the template", e.what());
    } catch (const std::exception& e) {
        fuzz::unexpected("Template::parse/render", e);
    }
    return 0;
}
