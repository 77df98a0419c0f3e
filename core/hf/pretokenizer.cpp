#include "core/hf/pretokenizer.h"

#include "core/hf/bytelevel.h"
#include "core/hf/jsonnode.h"

#include <algorithm>

namespace creditlab::hf::detail {

namespace {

// The ByteLevel pre-tokenizer's own split when use_regex is true (GPT-2's pattern, as the Rust crate has it).
constexpr std::string_view kGpt2Pattern
    = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

void parseNormalizer(const JsonNode& node, bool& nfc)
{
    const std::string type = node.at("type").string();
    if (type == "NFC") {
        nfc = true;
    } else if (type == "Sequence") {
        const JsonNode list = node.at("normalizers");
        for (std::size_t i = 0; i < list.arraySize(); ++i)
            parseNormalizer(list[i], nfc);
    } else {
        node.at("type").fail("\"" + type + "\" is not supported (only NFC and Sequence)");
    }
}

SplitBehavior parseBehavior(const JsonNode& node)
{
    const std::string name = node.string();
    if (name == "Removed")
        return SplitBehavior::Removed;
    if (name == "Isolated")
        return SplitBehavior::Isolated;
    if (name == "MergedWithPrevious")
        return SplitBehavior::MergedWithPrevious;
    if (name == "MergedWithNext")
        return SplitBehavior::MergedWithNext;
    if (name == "Contiguous")
        return SplitBehavior::Contiguous;
    node.fail("\"" + name + "\" is not a split behavior");
}

std::unique_ptr<Regex> compile(std::string_view pattern, const JsonNode& node)
{
    std::string error;
    auto regex = std::make_unique<Regex>(pattern, error);
    if (!regex->valid())
        node.fail("the regex does not compile: " + error);
    return regex;
}

using Range = PreTokenizerScratch::Range;
using Span = PreTokenizerScratch::Span;

// The pieces that `behavior` makes of `spans` (which cover one range from `base` on), as the Rust crate's
// NormalizedString::split does; empty pieces are dropped.
void applyBehavior(const std::vector<Span>& spans, SplitBehavior behavior, std::size_t base, std::vector<Range>& out)
{
    const std::size_t first = out.size();
    bool previousMatch = false;
    switch (behavior) {
    case SplitBehavior::Isolated:
    case SplitBehavior::Removed:
        for (const Span& s : spans)
            if (behavior == SplitBehavior::Isolated || !s.match)
                out.push_back({ base + s.begin, base + s.end });
        break;
    case SplitBehavior::Contiguous:
        for (const Span& s : spans) {
            if (s.match == previousMatch && out.size() > first)
                out.back().end = base + s.end;
            else
                out.push_back({ base + s.begin, base + s.end });
            previousMatch = s.match;
        }
        break;
    case SplitBehavior::MergedWithPrevious:
        for (const Span& s : spans) {
            if (s.match && !previousMatch && out.size() > first)
                out.back().end = base + s.end;
            else
                out.push_back({ base + s.begin, base + s.end });
            previousMatch = s.match;
        }
        break;
    case SplitBehavior::MergedWithNext:
        for (auto s = spans.rbegin(); s != spans.rend(); ++s) {
            if (s->match && !previousMatch && out.size() > first)
                out.back().begin = base + s->begin;
            else
                out.push_back({ base + s->begin, base + s->end });
            previousMatch = s->match;
        }
        std::reverse(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
        break;
    }
    out.erase(std::remove_if(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                  [](const Range& r) { return r.begin == r.end; }),
        out.end());
}

// Matches of `regex` in `text` and the gaps between them (the Rust crate's Pattern::find_matches).
void regexSpans(const Regex& regex, std::string_view text, PreTokenizerScratch& scratch)
{
    scratch.spans.clear();
    std::size_t previous = 0;
    regex.forEachMatch(text, scratch.region, [&](std::size_t begin, std::size_t end) {
        if (previous != begin)
            scratch.spans.push_back({ previous, begin, false });
        scratch.spans.push_back({ begin, end, true });
        previous = end;
    });
    if (previous != text.size())
        scratch.spans.push_back({ previous, text.size(), false });
}

} // namespace

Normalizer Normalizer::parse(const std::optional<JsonNode>& node)
{
    Normalizer normalizer;
    if (node)
        parseNormalizer(*node, normalizer.m_nfc);
    return normalizer;
}

bool Normalizer::apply(std::string_view text, std::string& out) const { return m_nfc && nfc(text, out); }

std::string Normalizer::describe() const { return m_nfc ? "NFC" : "no normalizer"; }

struct PreTokenizer::Step {
    enum class Kind { Split, Digits, ByteLevel };
    Kind kind = Kind::Split;
    std::unique_ptr<Regex> regex; // Split with a Regex pattern; ByteLevel with use_regex
    std::string literal; // Split with a String pattern
    SplitBehavior behavior = SplitBehavior::Isolated;
    bool invert = false;
    bool addPrefixSpace = false;
    std::string label;
};

PreTokenizer::PreTokenizer(const JsonNode& node, bool byteLevelModel)
{
    if (node.isNull())
        node.fail(byteLevelModel ? "a byte-level BPE needs a ByteLevel pre-tokenizer, found null"
                                 : "a WordLevel model needs a pre-tokenizer (Split, Digits or a Sequence), found null");
    parseStep(node);
    const auto byteLevels
        = std::count_if(m_steps.begin(), m_steps.end(), [](const auto& s) { return s->kind == Step::Kind::ByteLevel; });
    if (byteLevelModel && (byteLevels != 1 || m_steps.back()->kind != Step::Kind::ByteLevel))
        node.fail("a byte-level BPE needs exactly one ByteLevel pre-tokenizer, as the last step");
    if (!byteLevelModel && (byteLevels != 0 || m_steps.empty()))
        node.fail("a WordLevel model takes no ByteLevel pre-tokenizer (only Split and Digits, in a Sequence or alone)");
}

PreTokenizer::~PreTokenizer() = default;
PreTokenizer::PreTokenizer(PreTokenizer&&) noexcept = default;

void PreTokenizer::parseStep(const JsonNode& node)
{
    const JsonNode typeNode = node.at("type");
    const std::string type = typeNode.string();
    if (type == "Sequence") {
        const JsonNode list = node.at("pretokenizers");
        for (std::size_t i = 0; i < list.arraySize(); ++i)
            parseStep(list[i]);
        return;
    }
    auto step = std::make_unique<Step>();
    if (type == "Split") {
        const JsonNode pattern = node.at("pattern");
        pattern.expectObject();
        if (const auto regex = pattern.find("Regex")) {
            step->regex = compile(regex->stringView(), *regex);
            step->label = "Split(regex, ";
        } else if (const auto literal = pattern.find("String")) {
            step->literal = literal->string();
            if (step->literal.empty())
                literal->fail("an empty split pattern is not supported");
            step->label = "Split(\"" + step->literal + "\", ";
        } else {
            pattern.fail("expected {\"Regex\": ...} or {\"String\": ...}");
        }
        step->behavior = parseBehavior(node.at("behavior"));
        step->invert = node.flag("invert", false);
        step->label += node.at("behavior").string() + (step->invert ? ", inverted)" : ")");
    } else if (type == "Digits") {
        step->kind = Step::Kind::Digits;
        const bool individual = node.flag("individual_digits", false);
        step->behavior = individual ? SplitBehavior::Isolated : SplitBehavior::Contiguous;
        step->label = individual ? "Digits(individual)" : "Digits";
    } else if (type == "ByteLevel") {
        step->kind = Step::Kind::ByteLevel;
        step->addPrefixSpace = node.flag("add_prefix_space", true);
        if (node.flag("use_regex", true))
            step->regex = compile(kGpt2Pattern, typeNode);
        step->label = std::string("ByteLevel") + (step->regex ? "(GPT-2 regex)" : "")
            + (step->addPrefixSpace ? "(prefix space)" : "");
    } else {
        typeNode.fail("\"" + type + "\" is not supported (only Split, Digits, ByteLevel and Sequence)");
    }
    if (!m_steps.empty() && m_steps.back()->kind == Step::Kind::ByteLevel)
        node.fail("a pre-tokenizer after ByteLevel is not supported");
    m_steps.push_back(std::move(step));
}

void PreTokenizer::splitStep(const Step& step, std::string_view text, PreTokenizerScratch& scratch) const
{
    scratch.next.clear();
    for (const Range range : scratch.ranges) {
        const std::string_view piece = text.substr(range.begin, range.end - range.begin);
        if (step.regex) {
            regexSpans(*step.regex, piece, scratch);
        } else if (!step.literal.empty()) {
            scratch.spans.clear();
            std::size_t previous = 0;
            for (std::size_t at = piece.find(step.literal); at != std::string_view::npos;
                 at = piece.find(step.literal, previous)) {
                if (previous != at)
                    scratch.spans.push_back({ previous, at, false });
                scratch.spans.push_back({ at, at + step.literal.size(), true });
                previous = at + step.literal.size();
            }
            if (previous != piece.size())
                scratch.spans.push_back({ previous, piece.size(), false });
        } else { // Digits: each numeric character is a match
            scratch.spans.clear();
            std::size_t previous = 0;
            for (std::size_t at = 0; at < piece.size();) {
                std::size_t length = 1;
                const char32_t c = decodeUtf8(piece, at, length);
                if (isNumeric(c)) {
                    if (previous < at)
                        scratch.spans.push_back({ previous, at, false });
                    scratch.spans.push_back({ at, at + length, true });
                    previous = at + length;
                }
                at += length;
            }
            if (previous < piece.size())
                scratch.spans.push_back({ previous, piece.size(), false });
        }
        if (step.invert)
            for (Span& s : scratch.spans)
                s.match = !s.match;
        applyBehavior(scratch.spans, step.behavior, range.begin, scratch.next);
    }
    scratch.ranges.swap(scratch.next);
}

void PreTokenizer::run(std::string_view text, PreTokenizerScratch& scratch, std::vector<std::string_view>& pieces) const
{
    scratch.owned.clear();
    scratch.ranges.clear();
    if (text.empty())
        return;
    scratch.ranges.push_back({ 0, text.size() });
    const bool endsWithByteLevel = m_steps.back()->kind == Step::Kind::ByteLevel;
    for (std::size_t i = 0; i + (endsWithByteLevel ? 1 : 0) < m_steps.size(); ++i)
        splitStep(*m_steps[i], text, scratch);
    if (!endsWithByteLevel) {
        for (const Range range : scratch.ranges)
            pieces.push_back(text.substr(range.begin, range.end - range.begin));
        return;
    }

    const Step& byteLevel = *m_steps.back();
    for (const Range range : scratch.ranges) {
        std::string_view piece = text.substr(range.begin, range.end - range.begin);
        if (byteLevel.addPrefixSpace && piece.front() != ' ')
            piece = scratch.owned.emplace_back(" " + std::string(piece));
        if (!byteLevel.regex) {
            pieces.push_back(piece);
            continue;
        }
        std::size_t previous = 0;
        byteLevel.regex->forEachMatch(piece, scratch.region, [&](std::size_t begin, std::size_t end) {
            if (previous != begin)
                pieces.push_back(piece.substr(previous, begin - previous));
            if (begin != end)
                pieces.push_back(piece.substr(begin, end - begin));
            previous = end;
        });
        if (previous != piece.size())
            pieces.push_back(piece.substr(previous));
    }
}

std::string PreTokenizer::describe() const
{
    std::string out;
    for (const auto& step : m_steps)
        out += (out.empty() ? "" : " + ") + step->label;
    return out;
}

} // namespace creditlab::hf::detail
