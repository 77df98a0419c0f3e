#pragma once

// The policy's tokenizer: pieces of the environment's text plus special tokens. Torch-free.

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace creditlab::learn {

/// A bad tokenizer file or text: `what()` names the file and line.
class TokenizerError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Splits text into pieces the way GPT-2 does, but over words: a piece is an optional single leading
/// space followed by a run of ASCII letters, a run of digits, or one other non-space byte; a newline
/// is its own piece, and a run of spaces not followed by a word is one piece per space. A word that mixes
/// letters and digits (an item id such as B02V40CNJX) is one piece per character (format 2; a format-1 file
/// keeps splitting it into letter and digit runs), so that a policy can copy an id it has never seen. Concatenating
/// the pieces gives the text back byte for byte. The vocabulary holds the special tokens first (fixed
/// ids below), then the pieces seen in a corpus, in byte order. An unknown piece becomes `kUnk`, the
/// only lossy case. Immutable after construction; any thread.
class Tokenizer {
public:
    static constexpr std::int32_t kPad = 0; ///< padding, never attended to
    static constexpr std::int32_t kUnk = 1; ///< a piece outside the vocabulary
    static constexpr std::int32_t kGoal = 2; ///< starts the goal
    static constexpr std::int32_t kObs = 3; ///< starts an observation
    static constexpr std::int32_t kAct = 4; ///< starts an action
    static constexpr std::int32_t kEnd = 5; ///< ends an action: the stop token
    static constexpr std::int32_t kSpecialCount = 6;

    Tokenizer(); ///< only the special tokens
    /// Copies re-index: the lookup table holds views into the token strings.
    Tokenizer(const Tokenizer& other);
    Tokenizer& operator=(const Tokenizer& other);
    /// Moves keep the token strings in place, so the lookup table's views stay valid.
    Tokenizer(Tokenizer&&) noexcept = default;
    Tokenizer& operator=(Tokenizer&&) noexcept = default;
    ~Tokenizer() = default;

    /// Builds the vocabulary from every piece of `texts` (deterministic: pieces sorted by bytes).
    static Tokenizer fromCorpus(std::span<const std::string> texts);

    /// Builds the vocabulary of an environment by rolling out its expert, noisy expert and random policy on
    /// `episodes` seeds of each split and collecting every goal, observation, action and feedback, plus
    /// every admissible command seen, and `extraTexts` (demonstrations from a file). Deterministic. Throws
    /// std::invalid_argument for an unknown env.
    static Tokenizer forEnvironment(std::string_view env,
        const std::vector<std::pair<std::string, std::string>>& envAssignments = {}, int episodes = 200,
        std::span<const std::string> extraTexts = {});

    /// Splits `text` into pieces (see the class comment).
    static std::vector<std::string_view> pieces(std::string_view text);

    std::int32_t size() const { return static_cast<std::int32_t>(m_tokens.size()); }
    /// Appends the ids of `text` to `out`.
    void encode(std::string_view text, std::vector<std::int32_t>& out) const;
    std::vector<std::int32_t> encode(std::string_view text) const;
    /// Concatenates the pieces of `ids`; special tokens decode to "" except kUnk, which decodes to "<unk>".
    /// Throws std::out_of_range for an id outside the vocabulary.
    std::string decode(std::span<const std::int32_t> ids) const;
    /// The piece of `id` ("<pad>", "<unk>", "<goal>", "<obs>", "<act>", "</act>" for the specials); throws
    /// std::out_of_range for an id outside the vocabulary.
    const std::string& token(std::int32_t id) const;
    /// The id of a piece, or kUnk; never a special token (the text "<goal>" is not a piece).
    std::int32_t id(std::string_view piece) const;

    /// A text form: a header line "creditlab-tokenizer <format> <size>", then one JSON string per line, one per id.
    std::string serialize() const;
    /// Parses serialize()'s form; throws TokenizerError naming `source` and the line.
    static Tokenizer deserialize(std::string_view text, const std::string& source = "tokenizer");
    /// Writes atomically; throws std::runtime_error naming the path.
    void save(const std::string& path) const;
    /// Throws TokenizerError naming the path (and line) on a missing or bad file.
    static Tokenizer load(const std::string& path);

    bool operator==(const Tokenizer& other) const
    {
        return m_tokens == other.m_tokens && m_version == other.m_version;
    }
    /// How text is split (see the class comment): 2, or 1 for a vocabulary read from a format-1 file.
    int formatVersion() const { return m_version; }

private:
    void index();
    std::vector<std::string> m_tokens;
    int m_version = 2;
    std::vector<std::pair<std::string_view, std::int32_t>> m_sorted; ///< piece -> id, sorted by piece
};

} // namespace creditlab::learn
