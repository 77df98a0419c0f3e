#pragma once

// The `searchqa` knowledge base: entities (people, cities, countries, companies, books) with functional relations
// between them, generated from a seed; one encyclopedia passage per entity, indexed with SQLite FTS5/BM25 (the
// shop's SearchIndex); and the multi-hop questions drawn over it, each a chain of one to three relations whose
// every link is stated in one passage. Internal to core/env.

#include "core/env/environment.h"
#include "core/env/shop_search.h"

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace creditlab::env::searchqa {

enum class Kind : std::uint8_t { Person, City, Country, Company, Book };

/// The relations; each maps a subject to one entity or, for years and languages, to a literal.
enum class Relation : std::uint8_t {
    BornIn, ///< person -> city
    Employer, ///< person -> company
    BirthYear, ///< person -> year
    InCountry, ///< city -> country
    Capital, ///< country -> city
    Language, ///< country -> language
    Founder, ///< company -> person
    Headquarters, ///< company -> city
    FoundedYear, ///< company -> year
    Author, ///< book -> person
    Published, ///< book -> year
};
inline constexpr std::size_t kRelationCount = 11;

/// One entity. Its passage has the entity's name as title and states every relation of the entity.
struct Entity {
    std::string name; ///< unique in the knowledge base after answer normalisation
    Kind kind = Kind::Person;
    std::array<int, kRelationCount> links {}; ///< target entity per relation, -1 where none
    std::string year; ///< birth, founding or publication year
    std::string language; ///< countries only
    std::string descriptor; ///< occupation, city type, industry or genre
    Split split = Split::Train; ///< questions starting here belong to this split
};

/// A question: a chain of relations from a start entity. Reading the passage of chain[j] reveals chain[j + 1]
/// (and the passage of the last one reveals the answer), so it needs one search per hop.
struct Question {
    int templateId = -1;
    std::string text; ///< "In which country was the author of The Silent Reef born?"
    std::string answer; ///< the gold answer, as the passage states it
    std::vector<int> chain; ///< entities whose passages must be read, start first; size() is the hop count

    int hops() const { return static_cast<int>(chain.size()); }
    /// "author.born_in.in_country/The Silent Reef": decides nothing by itself, but names the question.
    std::string spec(const class KnowledgeBase& kb) const;
};

/// A generated knowledge base with its search index. Immutable after construction, so one instance is shared
/// read-only by every environment of the same (seed, size) on any thread (the index serialises its queries).
class KnowledgeBase {
public:
    /// Generates `size` entities (at least 60) from `seed` and indexes their passages. About a millisecond per
    /// hundred entities. Throws std::invalid_argument for a size below 60.
    KnowledgeBase(std::uint64_t seed, int size);

    /// The knowledge base of (seed, size), built on first use and shared while anyone holds it. Any thread.
    static std::shared_ptr<const KnowledgeBase> shared(std::uint64_t seed, int size);

    std::uint64_t seed() const { return m_seed; }
    const std::vector<Entity>& entities() const { return m_entities; }
    const Entity& entity(int index) const { return m_entities[static_cast<std::size_t>(index)]; }
    /// The passage text of entity `index` (its title is the entity's name).
    const std::string& passage(int index) const { return m_passages[static_cast<std::size_t>(index)]; }
    /// The entities a passage names (besides its own), in the order it names them.
    const std::vector<int>& mentions(int index) const { return m_mentions[static_cast<std::size_t>(index)]; }
    /// The literals (year, language) a passage states.
    std::vector<std::string> literals(int index) const;
    /// The target of `relation` from `subject` as text: the entity's name or the literal; empty when none.
    std::string object(int subject, Relation relation) const;

    /// Passage indices for `query`, at most `limit`: the passage whose title equals the query word for word first,
    /// then by BM25 over contentWords(query) (SearchIndex::search), ties by index; remembered per (words, limit).
    /// Any thread.
    std::vector<int> search(std::string_view query, int limit) const;
    /// The words the engine ranks by: the query's lower-case words without Lucene's 33 English stop words, as
    /// the BM25 retrievers of the Search-QA setups (Pyserini/Anserini's default English analyzer) drop them.
    /// Without them a question's "in", "was" and "the" would match nearly every passage.
    static std::string contentWords(std::string_view query);
    const shop::SearchIndex& index() const { return *m_index; }

    /// Draws the question of episode `seed` in `split`: one, two or three hops with equal chance, a template
    /// of that length, and a start entity of the split. Deterministic. Any thread.
    Question drawQuestion(std::uint64_t seed, Split split) const;
    /// The question of template `templateId` from entity `start` (which must be of the template's kind).
    Question makeQuestion(int templateId, int start) const;
    /// The number of question templates, and a template's start kind, hop count and relation tag.
    static int templateCount();
    static Kind templateKind(int templateId);
    static int templateHops(int templateId);
    static std::string templateTag(int templateId);

private:
    void generate();
    void writePassages();

    std::uint64_t m_seed;
    int m_size;
    std::vector<Entity> m_entities;
    std::vector<std::string> m_passages;
    std::vector<std::vector<int>> m_mentions;
    /// Per kind and split, the entities questions may start from.
    std::array<std::array<std::vector<int>, 2>, 5> m_starts;
    std::unordered_map<std::string, int> m_titles; ///< title words joined -> entity
    std::unique_ptr<shop::SearchIndex> m_index;
    mutable shop::QueryCache m_cache { 200000 };
};

/// SQuAD's answer normalisation (normalize_answer of the SQuAD v1.1 evaluation script): lower case, ASCII
/// punctuation removed, the articles a, an and the removed, whitespace collapsed. Bytes from 0x80 count as word
/// characters.
std::string normalizeAnswer(std::string_view text);

} // namespace creditlab::env::searchqa
