#include "core/learn/torch/lm/tokenizer.h"

#include "core/env/environment.h"
#include "core/env/policy.h"
#include "core/storage/atomicfile.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <unordered_set>

namespace creditlab::learn {

namespace {

const std::array<std::string, Tokenizer::kSpecialCount> kSpecialNames
    = { "<pad>", "<unk>", "<goal>", "<obs>", "<act>", "</act>" };

/// Lets an unordered_set<std::string> be searched with a std::string_view, without a copy.
struct StringHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view> {}(text); }
};

constexpr std::string_view kHeaderMagic = "creditlab-tokenizer";
/// 2: a word mixing letters and digits (an item id: B02V40CNJX) is split into single characters, which a policy
/// can copy from what it saw; 1 (still read): it was split into letter and digit runs.
constexpr int kFormatVersion = 2;

bool isLetter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// The end of the word starting at `i` (a letter run, a digit run or one other byte); `text[i]` is neither
/// a space nor a newline.
std::size_t wordEnd(std::string_view text, std::size_t i)
{
    const char c = text[i];
    if (isLetter(c) || isDigit(c)) {
        const bool letters = isLetter(c);
        while (i < text.size() && (letters ? isLetter(text[i]) : isDigit(text[i])))
            ++i;
        return i;
    }
    return i + 1;
}

/// Where the run of letters and digits starting at `i` ends, and whether it mixes the two.
std::pair<std::size_t, bool> alnumRun(std::string_view text, std::size_t i)
{
    bool letters = false, digits = false;
    for (; i < text.size() && (isLetter(text[i]) || isDigit(text[i])); ++i)
        (isLetter(text[i]) ? letters : digits) = true;
    return { i, letters && digits };
}

/// Calls `sink` with every piece of `text`, in order, as tokenizer format `version` splits it.
template <typename Sink> void forEachPiece(std::string_view text, int version, Sink&& sink)
{
    std::size_t i = 0;
    std::size_t mixedEnd = 0; // inside a word mixing letters and digits (version 2): one character per piece
    while (i < text.size()) {
        const std::size_t start = i;
        const char c = text[i];
        if (i < mixedEnd || c == '\n') {
            i = start + 1;
        } else if (c == ' ' && (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n')) {
            i = start + 1; // a space not followed by a word stands alone
        } else {
            // A space attaches to the word after it, as in GPT-2.
            const std::size_t word = c == ' ' ? i + 1 : i;
            const auto [end, mixed] = alnumRun(text, word);
            if (end == word) {
                i = word + 1; // one byte that is neither a letter nor a digit
            } else if (!mixed) {
                i = end; // a letter run or a digit run
            } else if (version >= 2) {
                mixedEnd = end;
                i = word + 1;
            } else {
                i = wordEnd(text, word); // format 1: the word's first letter or digit run
            }
        }
        sink(text.substr(start, i - start));
    }
}

void appendJsonString(std::string& out, std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    out += '"';
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (ch == '"' || ch == '\\') {
            out += '\\';
            out += ch;
        } else if (ch == '\n' || ch == '\r' || ch == '\t') {
            out += ch == '\n' ? "\\n" : ch == '\r' ? "\\r" : "\\t";
        } else if (c < 0x20 || c == 0x7f) {
            out += "\\u00";
            out += kHex[c >> 4];
            out += kHex[c & 0xf];
        } else {
            out += ch; // bytes >= 0x80 pass through raw: pieces may split UTF-8 sequences
        }
    }
    out += '"';
}

void appendUtf8(std::string& out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
        return;
    }
    const int continuation = cp < 0x800 ? 1 : cp < 0x10000 ? 2 : 3;
    static constexpr unsigned char kLead[] = { 0, 0xc0, 0xe0, 0xf0 };
    out += static_cast<char>(kLead[continuation] | (cp >> (6 * continuation)));
    for (int k = continuation - 1; k >= 0; --k)
        out += static_cast<char>(0x80 | ((cp >> (6 * k)) & 0x3f));
}

/// Parses the 4 hex digits at `text[i]`; false when they are not there.
bool parseHex4(std::string_view text, std::size_t i, std::uint32_t& out)
{
    if (i + 4 > text.size())
        return false;
    const char* begin = text.data() + i;
    const auto [end, error] = std::from_chars(begin, begin + 4, out, 16);
    return error == std::errc() && end == begin + 4;
}

/// Parses a line that holds exactly one JSON string literal; returns an error message or "" on success.
std::string parseJsonString(std::string_view line, std::string& out)
{
    out.clear();
    if (line.size() < 2 || line.front() != '"')
        return "expected a JSON string";
    std::size_t i = 1;
    while (i < line.size() && line[i] != '"') {
        const char c = line[i];
        if (static_cast<unsigned char>(c) < 0x20)
            return "unescaped control character in string";
        if (c != '\\') {
            out += c;
            ++i;
            continue;
        }
        if (++i >= line.size())
            return "unterminated escape";
        const char e = line[i++];
        static constexpr std::string_view kEscapes = "\"\\/bfnrt";
        static constexpr std::string_view kEscaped = "\"\\/\b\f\n\r\t";
        if (const std::size_t k = kEscapes.find(e); k != std::string_view::npos) {
            out += kEscaped[k];
            continue;
        }
        if (e != 'u')
            return std::string("bad escape \\") + e;
        std::uint32_t cp = 0;
        if (!parseHex4(line, i, cp))
            return "bad \\u escape";
        i += 4;
        if (cp >= 0xd800 && cp < 0xdc00) {
            std::uint32_t low = 0;
            if (i + 2 > line.size() || line[i] != '\\' || line[i + 1] != 'u' || !parseHex4(line, i + 2, low)
                || low < 0xdc00 || low >= 0xe000)
                return "unpaired surrogate in \\u escape";
            i += 6;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        } else if (cp >= 0xdc00 && cp < 0xe000) {
            return "unpaired surrogate in \\u escape";
        }
        appendUtf8(out, cp);
    }
    if (i >= line.size())
        return "unterminated string";
    if (i + 1 != line.size())
        return "text after the string";
    return {};
}

} // namespace

Tokenizer::Tokenizer()
    : m_tokens(kSpecialNames.begin(), kSpecialNames.end())
{
    index();
}

Tokenizer::Tokenizer(const Tokenizer& other)
    : m_tokens(other.m_tokens)
    , m_version(other.m_version)
{
    index();
}

Tokenizer& Tokenizer::operator=(const Tokenizer& other)
{
    if (this != &other) {
        m_tokens = other.m_tokens;
        m_version = other.m_version;
        index();
    }
    return *this;
}

void Tokenizer::index()
{
    // Specials are not pieces: text never encodes to them, even text that spells "<goal>".
    m_sorted.clear();
    m_sorted.reserve(m_tokens.size() - kSpecialCount);
    for (std::size_t i = kSpecialCount; i < m_tokens.size(); ++i)
        m_sorted.emplace_back(m_tokens[i], static_cast<std::int32_t>(i));
    std::sort(m_sorted.begin(), m_sorted.end());
}

Tokenizer Tokenizer::fromCorpus(std::span<const std::string> texts)
{
    std::unordered_set<std::string_view> seen;
    for (const std::string& text : texts)
        forEachPiece(text, kFormatVersion, [&](std::string_view piece) { seen.insert(piece); });
    std::vector<std::string_view> sorted(seen.begin(), seen.end());
    std::sort(sorted.begin(), sorted.end());
    Tokenizer t;
    t.m_tokens.insert(t.m_tokens.end(), sorted.begin(), sorted.end());
    t.index();
    return t;
}

Tokenizer Tokenizer::forEnvironment(std::string_view env,
    const std::vector<std::pair<std::string, std::string>>& envAssignments, int episodes,
    std::span<const std::string> extraTexts)
{
    if (episodes < 0)
        throw std::invalid_argument("forEnvironment: episodes must be >= 0, got " + std::to_string(episodes));
    const std::unique_ptr<env::Environment> environment = env::makeEnvironment(env, envAssignments);
    std::vector<std::unique_ptr<env::Policy>> policies;
    for (const char* name : { "expert", "noisy-expert", "random" })
        policies.push_back(env::makePolicy(name));

    // Texts repeat a lot (admissible commands above all), so dedupe them before splitting into pieces.
    std::unordered_set<std::string, StringHash, std::equal_to<>> texts;
    const auto collect = [&](std::string_view text) {
        if (!texts.contains(text))
            texts.emplace(text);
    };
    std::string action;
    for (const env::Split split : { env::Split::Train, env::Split::Eval }) {
        for (int seed = 0; seed < episodes; ++seed) {
            for (const auto& policy : policies) {
                collect(environment->reset(static_cast<std::uint64_t>(seed), split));
                // An environment without an expert gets only the random policy.
                if (policy->name() != "random" && !environment->expertAction(action))
                    continue;
                collect(environment->goal());
                policy->reset(static_cast<std::uint64_t>(seed));
                while (!environment->done()) {
                    for (const std::string& command : environment->admissibleCommands())
                        collect(command);
                    action = policy->act(*environment);
                    collect(action);
                    collect(environment->step(action).feedback);
                }
            }
        }
    }
    for (const std::string& text : extraTexts)
        collect(text);
    const std::vector<std::string> corpus(texts.begin(), texts.end());
    return fromCorpus(corpus);
}

std::vector<std::string_view> Tokenizer::pieces(std::string_view text)
{
    std::vector<std::string_view> out;
    forEachPiece(text, kFormatVersion, [&](std::string_view piece) { out.push_back(piece); });
    return out;
}

std::int32_t Tokenizer::id(std::string_view piece) const
{
    const auto it = std::lower_bound(m_sorted.begin(), m_sorted.end(), piece,
        [](const std::pair<std::string_view, std::int32_t>& entry, std::string_view key) { return entry.first < key; });
    return it != m_sorted.end() && it->first == piece ? it->second : kUnk;
}

void Tokenizer::encode(std::string_view text, std::vector<std::int32_t>& out) const
{
    forEachPiece(text, m_version, [&](std::string_view piece) { out.push_back(id(piece)); });
}

std::vector<std::int32_t> Tokenizer::encode(std::string_view text) const
{
    std::vector<std::int32_t> out;
    encode(text, out);
    return out;
}

std::string Tokenizer::decode(std::span<const std::int32_t> ids) const
{
    std::string out;
    for (const std::int32_t i : ids) {
        if (i == kUnk)
            out += kSpecialNames[kUnk];
        else if (i >= kSpecialCount)
            out += token(i);
        else if (i < 0)
            token(i); // throws
    }
    return out;
}

const std::string& Tokenizer::token(std::int32_t id) const
{
    if (id < 0 || id >= size())
        throw std::out_of_range(
            "token id " + std::to_string(id) + " outside the vocabulary of " + std::to_string(size()));
    return m_tokens[static_cast<std::size_t>(id)];
}

std::string Tokenizer::serialize() const
{
    std::string out;
    out += kHeaderMagic;
    out += ' ' + std::to_string(m_version) + ' ' + std::to_string(size()) + '\n';
    for (const std::string& t : m_tokens) {
        appendJsonString(out, t);
        out += '\n';
    }
    return out;
}

Tokenizer Tokenizer::deserialize(std::string_view text, const std::string& source)
{
    std::size_t lineNumber = 0;
    std::size_t pos = 0;
    const auto fail = [&](const std::string& what) -> TokenizerError {
        return TokenizerError(source + ":" + std::to_string(lineNumber) + ": " + what);
    };
    // Returns false at the end of the text; a final newline does not start another line.
    const auto nextLine = [&](std::string_view& line) {
        if (pos >= text.size())
            return false;
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNumber;
        return true;
    };

    std::string_view line;
    if (!nextLine(line)) {
        lineNumber = 1;
        throw fail(
            "empty file, expected \"" + std::string(kHeaderMagic) + " " + std::to_string(kFormatVersion) + " <size>\"");
    }
    // Runs keep the tokenizer they were trained with: every version up to this one is read and split its own way.
    std::string expectedPrefix = std::string(kHeaderMagic) + ' ' + std::to_string(kFormatVersion) + ' ';
    int version = kFormatVersion;
    for (; version >= 1; --version) {
        const std::string prefix = std::string(kHeaderMagic) + ' ' + std::to_string(version) + ' ';
        if (line.starts_with(prefix)) {
            expectedPrefix = prefix;
            break;
        }
    }
    if (version < 1)
        throw fail("bad header, expected \"" + expectedPrefix + "<size>\" (or an earlier version than "
            + std::to_string(kFormatVersion) + ")");
    const std::string_view sizeText = line.substr(expectedPrefix.size());
    std::size_t count = 0;
    if (sizeText.empty() || sizeText.size() > 9 || !std::all_of(sizeText.begin(), sizeText.end(), isDigit))
        throw fail("bad vocabulary size \"" + std::string(sizeText) + "\"");
    for (const char c : sizeText)
        count = count * 10 + static_cast<std::size_t>(c - '0');
    if (count < static_cast<std::size_t>(kSpecialCount))
        throw fail("vocabulary size " + std::to_string(count) + " is smaller than the " + std::to_string(kSpecialCount)
            + " special tokens");

    Tokenizer t;
    t.m_version = version;
    t.m_tokens.clear();
    // The header's count is not trusted for the allocation (a damaged "999999999" would ask for gigabytes): each
    // token takes a line of at least three bytes ("x" and a newline).
    t.m_tokens.reserve(std::min(count, text.size() / 3 + 1));
    std::unordered_set<std::string_view> seen;
    std::string token;
    while (t.m_tokens.size() < count) {
        if (!nextLine(line)) {
            ++lineNumber;
            throw fail(
                "truncated: expected " + std::to_string(count) + " tokens, found " + std::to_string(t.m_tokens.size()));
        }
        if (const std::string error = parseJsonString(line, token); !error.empty())
            throw fail(error);
        const std::size_t index = t.m_tokens.size();
        if (index < static_cast<std::size_t>(kSpecialCount)) {
            if (token != kSpecialNames[index])
                throw fail("expected the special token \"" + kSpecialNames[index] + "\"");
        } else if (token.empty()) {
            throw fail("empty token");
        }
        t.m_tokens.push_back(token);
    }
    for (std::size_t i = kSpecialCount; i < t.m_tokens.size(); ++i)
        if (!seen.insert(t.m_tokens[i]).second) {
            lineNumber = i + 2;
            std::string quoted;
            appendJsonString(quoted, t.m_tokens[i]);
            throw fail("duplicate token " + quoted);
        }
    if (nextLine(line))
        throw fail("more tokens than the header's " + std::to_string(count));
    t.index();
    return t;
}

void Tokenizer::save(const std::string& path) const { writeFileAtomically(path, serialize()); }

Tokenizer Tokenizer::load(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw TokenizerError(path + ": cannot open the tokenizer file");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad())
        throw TokenizerError(path + ": cannot read the tokenizer file");
    return deserialize(text, path);
}

} // namespace creditlab::learn
