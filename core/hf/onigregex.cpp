#include "core/hf/onigregex.h"

#include "core/hf/bytelevel.h"
#include "core/hf/error.h"

#include <oniguruma.h>

#include <array>

namespace creditlab::hf::detail {

namespace {

void initializeOniguruma()
{
    static const bool initialized = [] {
        std::array<OnigEncoding, 1> encodings { ONIG_ENCODING_UTF8 };
        onig_initialize(encodings.data(), static_cast<int>(encodings.size()));
        return true;
    }();
    (void)initialized;
}

const UChar* bytes(std::string_view text) { return reinterpret_cast<const UChar*>(text.data()); }

} // namespace

RegexRegion::RegexRegion()
    : m_region(onig_region_new())
{
}

RegexRegion::~RegexRegion() { onig_region_free(m_region, 1); }

Regex::Regex(std::string_view pattern, std::string& error)
{
    initializeOniguruma();
    OnigErrorInfo info {};
    const int code = onig_new(&m_regex, bytes(pattern), bytes(pattern) + pattern.size(), ONIG_OPTION_NONE,
        ONIG_ENCODING_UTF8, ONIG_SYNTAX_RUBY, &info);
    if (code != ONIG_NORMAL) {
        std::array<UChar, ONIG_MAX_ERROR_MESSAGE_LEN> message {};
        onig_error_code_to_str(message.data(), code, &info);
        error = reinterpret_cast<const char*>(message.data());
        m_regex = nullptr;
    }
}

Regex::~Regex()
{
    if (m_regex)
        onig_free(m_regex);
}

std::pair<std::size_t, std::size_t> Regex::search(std::string_view text, std::size_t from, RegexRegion& region) const
{
    constexpr auto kNone = std::string_view::npos;
    if (!m_regex)
        return { kNone, kNone };
    const UChar* begin = bytes(text);
    const UChar* end = begin + text.size();
    const int at = onig_search(m_regex, begin, end, begin + from, end, region.get(), ONIG_OPTION_NONE);
    if (at == ONIG_MISMATCH)
        return { kNone, kNone };
    if (at < 0) {
        std::array<UChar, ONIG_MAX_ERROR_MESSAGE_LEN> message {};
        onig_error_code_to_str(message.data(), at);
        throw HfError(std::string("regex search failed: ") + reinterpret_cast<const char*>(message.data()));
    }
    return { static_cast<std::size_t>(region.get()->beg[0]), static_cast<std::size_t>(region.get()->end[0]) };
}

std::size_t Regex::characterLength(std::string_view text, std::size_t at)
{
    std::size_t length = 1;
    decodeUtf8(text, at, length);
    return length;
}

bool isAlphanumericChar(char32_t c)
{
    initializeOniguruma();
    static const unsigned int alphabetic = [] {
        static constexpr std::string_view kName = "Alphabetic";
        return static_cast<unsigned int>(ONIGENC_PROPERTY_NAME_TO_CTYPE(
            ONIG_ENCODING_UTF8, const_cast<UChar*>(bytes(kName)), const_cast<UChar*>(bytes(kName)) + kName.size()));
    }();
    return ONIGENC_IS_CODE_CTYPE(ONIG_ENCODING_UTF8, c, alphabetic) || isNumeric(c);
}

} // namespace creditlab::hf::detail
