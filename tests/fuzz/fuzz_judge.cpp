// The http judge's answers (core/judge/httpjudge.h): a chat-completions response body, parsed as the judge does
// (parseChatCompletion), and the same bytes as a message content (parseChatAnswer). Errors must be plain
// std::runtime_error (the judge stores their text as the turn's failure); a role must be D, E, N or R and a
// confidence in [0, 1].

#include "core/judge/httpjudge.h"
#include "tests/fuzz/fuzzutil.h"

#include <cmath>

using namespace creditlab;

namespace {

void check(const judge::ChatAnswer& a)
{
    if (a.role != Role::D && a.role != Role::E && a.role != Role::N && a.role != Role::R)
        fuzz::finding("an answer with an impossible role");
    if (a.confidence && !(*a.confidence >= 0.0 && *a.confidence <= 1.0))
        fuzz::finding("an answer with a confidence outside [0, 1]");
}

template <typename Fn> void expectRuntimeErrors(const char* where, Fn&& fn)
{
    try {
        fn();
    } catch (const std::runtime_error& e) {
        fuzz::note(std::string(where) + ": " + e.what());
        if (typeid(e) != typeid(std::runtime_error))
            fuzz::unexpected(where, e);
    } catch (const std::exception& e) {
        fuzz::unexpected(where, e);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input = fuzz::text(data, size);
    expectRuntimeErrors("parseChatCompletion", [&] { check(judge::parseChatCompletion(input)); });
    expectRuntimeErrors("parseChatAnswer", [&] { check(judge::parseChatAnswer(input)); });
    return 0;
}
