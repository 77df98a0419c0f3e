#include "core/env/searchqa_kb.h"
#include "core/env/splitmix.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>

namespace creditlab::env::searchqa {

namespace {

using Rng = SplitMix64;

using R = Relation;

const std::vector<std::string> kOnsets
    = { "b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr", "kr", "st", "tr", "th" };
const std::vector<std::string> kVowels = { "a", "e", "i", "o", "u", "ae", "ei", "ou", "ia" };
const std::vector<std::string> kCodas = { "", "", "n", "r", "s", "l", "th", "m", "x", "nd" };
const std::vector<std::string> kFirstNames = { "Mara", "Tomas", "Ilse", "Jonah", "Petra", "Lucas", "Nadia", "Oskar",
    "Vera", "Felix", "Greta", "Hugo", "Irena", "Milan", "Rosa", "Stefan", "Alma", "Boris", "Clara", "Dario", "Elena",
    "Fabian", "Helga", "Ivo", "Jana", "Karl", "Lena", "Marco", "Nina", "Otto", "Paula", "Rafael", "Sonja", "Theo",
    "Ulla", "Viktor", "Wanda", "Yusuf", "Zora", "Emil" };
const std::vector<std::string> kOccupations = { "chemist", "painter", "novelist", "engineer", "architect", "economist",
    "composer", "physician", "historian", "mathematician", "journalist", "sculptor", "botanist" };
const std::vector<std::string> kCityTypes = { "port", "river", "mountain", "university", "market", "industrial" };
const std::vector<std::string> kIndustries
    = { "software", "shipping", "mining", "textile", "pharmaceutical", "publishing", "aerospace", "food" };
const std::vector<std::string> kCompanySuffixes
    = { "Systems", "Industries", "Labs", "Works", "Holdings", "Group", "Motors", "Foods", "Press", "Energy" };
const std::vector<std::string> kGenres = { "novel", "memoir", "poetry collection", "history", "travelogue", "play" };
const std::vector<std::string> kAdjectives
    = { "Silent", "Golden", "Hidden", "Broken", "Distant", "Crimson", "Quiet", "Burning", "Frozen", "Hollow", "Last",
          "Wandering", "Bitter", "Pale", "Iron", "Velvet", "Restless", "Forgotten", "Endless", "Scarlet" };
const std::vector<std::string> kNouns
    = { "Reef", "Harbor", "Orchard", "Lantern", "Meadow", "Tower", "River", "Garden", "Winter", "Mirror", "Compass",
          "Valley", "Archive", "Voyage", "Citadel", "Forest", "Bridge", "Shore", "Furnace", "Island" };

std::string syllables(Rng& rng, int count)
{
    std::string word;
    for (int i = 0; i < count; ++i)
        word += rng.pick(kOnsets) + rng.pick(kVowels) + (i + 1 == count ? rng.pick(kCodas) : std::string());
    word[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(word[0])));
    return word;
}

std::string generatedName(Rng& rng, Kind kind, int attempt)
{
    switch (kind) {
    case Kind::Person:
        return rng.pick(kFirstNames) + " " + syllables(rng, 2 + rng.below(2));
    case Kind::City:
        return syllables(rng, 2 + rng.below(2));
    case Kind::Country: {
        static const std::vector<std::string> suffixes = { "ia", "land", "stan", "ora" };
        return syllables(rng, 2) + rng.pick(suffixes);
    }
    case Kind::Company:
        return syllables(rng, 2) + " " + rng.pick(kCompanySuffixes);
    case Kind::Book:
        // "The Silent Reef"; once the plain titles run short, "The Silent Reef of Tarvos".
        return "The " + rng.pick(kAdjectives) + " " + rng.pick(kNouns)
            + (attempt > 3 ? " of " + syllables(rng, 2) : std::string());
    }
    return {};
}

std::string yearText(Rng& rng, int low, int high) { return std::to_string(low + rng.below(high - low + 1)); }

} // namespace

std::string normalizeAnswer(std::string_view text)
{
    // SQuAD: white_space_fix(remove_articles(remove_punc(lower(s)))); remove_articles drops \b(a|an|the)\b.
    std::string out;
    std::string word;
    const auto flush = [&] {
        if (!word.empty() && word != "a" && word != "an" && word != "the")
            out += (out.empty() ? "" : " ") + word;
        word.clear();
    };
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isspace(u))
            flush();
        else if (u < 0x80 && std::ispunct(u) && c != '_')
            continue; // removed without a break: "rock'n'roll" -> "rocknroll"
        else if (u < 0x80 && !std::isalnum(u) && c != '_')
            flush(); // a control character: a word boundary
        else
            word.push_back(static_cast<char>(std::tolower(u)));
    }
    flush();
    return out;
}

KnowledgeBase::KnowledgeBase(std::uint64_t seed, int size)
    : m_seed(seed)
    , m_size(size)
{
    if (size < 60)
        throw std::invalid_argument("searchqa: a knowledge base needs at least 60 entities");
    generate();
    writePassages();
    std::vector<shop::SearchIndex::Document> documents;
    documents.reserve(m_entities.size());
    for (std::size_t i = 0; i < m_entities.size(); ++i) {
        documents.push_back({ m_entities[i].name, m_passages[i] });
        m_titles.emplace(shop::SearchIndex::joinedWords(m_entities[i].name), static_cast<int>(i));
    }
    m_index = std::make_unique<shop::SearchIndex>(documents);
}

void KnowledgeBase::generate()
{
    Rng rng(m_seed * 0x2545F4914F6CDD1Dull + 0x5EA5C4A0ull);
    const int countries = std::max(3, m_size * 4 / 100);
    const int cities = std::max(8, m_size * 16 / 100);
    const int companies = std::max(6, m_size * 14 / 100);
    const int books = std::max(8, m_size * 20 / 100);
    const int people = m_size - countries - cities - companies - books;
    std::array<std::vector<int>, 5> byKind;
    std::set<std::string> taken;
    const auto add = [&](Kind kind, int count) {
        for (int i = 0; i < count; ++i) {
            Entity e;
            e.kind = kind;
            e.links.fill(-1);
            for (int attempt = 0;; ++attempt) {
                e.name = generatedName(rng, kind, attempt);
                if (taken.insert(normalizeAnswer(e.name)).second)
                    break;
            }
            e.split = rng.below(5) == 0 ? Split::Eval : Split::Train;
            byKind[static_cast<std::size_t>(kind)].push_back(static_cast<int>(m_entities.size()));
            m_entities.push_back(std::move(e));
        }
    };
    add(Kind::Country, countries);
    add(Kind::City, cities);
    add(Kind::Company, companies);
    add(Kind::Person, people);
    add(Kind::Book, books);
    const auto& countryIds = byKind[static_cast<std::size_t>(Kind::Country)];
    const auto& cityIds = byKind[static_cast<std::size_t>(Kind::City)];
    const auto& companyIds = byKind[static_cast<std::size_t>(Kind::Company)];
    const auto& personIds = byKind[static_cast<std::size_t>(Kind::Person)];
    const auto link = [&](int subject, Relation r, int object) {
        m_entities[static_cast<std::size_t>(subject)].links[static_cast<std::size_t>(r)] = object;
    };
    for (int c : countryIds) {
        Entity& e = m_entities[static_cast<std::size_t>(c)];
        static const std::vector<std::string> endings = { "ish", "ese", "ic", "i", "an" };
        e.language = syllables(rng, 2) + rng.pick(endings);
        e.descriptor = "country";
    }
    for (std::size_t i = 0; i < cityIds.size(); ++i) {
        // The first cities give every country one, its capital.
        const int country = i < countryIds.size() ? countryIds[i] : rng.pick(countryIds);
        link(cityIds[i], R::InCountry, country);
        if (i < countryIds.size())
            link(country, R::Capital, cityIds[i]);
        m_entities[static_cast<std::size_t>(cityIds[i])].descriptor = rng.pick(kCityTypes);
    }
    for (int c : companyIds) {
        link(c, R::Headquarters, rng.pick(cityIds));
        link(c, R::Founder, rng.pick(personIds));
        m_entities[static_cast<std::size_t>(c)].year = yearText(rng, 1850, 2015);
        m_entities[static_cast<std::size_t>(c)].descriptor = rng.pick(kIndustries);
    }
    for (int p : personIds) {
        link(p, R::BornIn, rng.pick(cityIds));
        link(p, R::Employer, rng.pick(companyIds));
        m_entities[static_cast<std::size_t>(p)].year = yearText(rng, 1920, 2000);
        m_entities[static_cast<std::size_t>(p)].descriptor = rng.pick(kOccupations);
    }
    for (int b : byKind[static_cast<std::size_t>(Kind::Book)]) {
        link(b, R::Author, rng.pick(personIds));
        m_entities[static_cast<std::size_t>(b)].year = yearText(rng, 1900, 2020);
        m_entities[static_cast<std::size_t>(b)].descriptor = rng.pick(kGenres);
    }
    for (std::size_t k = 0; k < byKind.size(); ++k) {
        for (int id : byKind[k])
            m_starts[k][m_entities[static_cast<std::size_t>(id)].split == Split::Eval].push_back(id);
        // Both splits hold questions of every kind, even in a small knowledge base.
        for (int s = 0; s < 2; ++s)
            if (m_starts[k][static_cast<std::size_t>(s)].empty()) {
                auto& other = m_starts[k][static_cast<std::size_t>(1 - s)];
                const int moved = other.back();
                other.pop_back();
                m_starts[k][static_cast<std::size_t>(s)].push_back(moved);
                m_entities[static_cast<std::size_t>(moved)].split = s ? Split::Eval : Split::Train;
            }
    }
}

std::string KnowledgeBase::object(int subject, Relation relation) const
{
    const Entity& e = entity(subject);
    if (relation == R::BirthYear || relation == R::FoundedYear || relation == R::Published)
        return e.year;
    if (relation == R::Language)
        return e.language;
    const int target = e.links[static_cast<std::size_t>(relation)];
    return target < 0 ? std::string() : entity(target).name;
}

void KnowledgeBase::writePassages()
{
    m_passages.resize(m_entities.size());
    m_mentions.resize(m_entities.size());
    for (std::size_t i = 0; i < m_entities.size(); ++i) {
        const Entity& e = m_entities[i];
        const int id = static_cast<int>(i);
        const auto name = [&](Relation r) { return object(id, r); };
        const auto a = [](const std::string& word) {
            return std::string("aeiou").find(word[0]) != std::string::npos ? "an " : "a ";
        };
        std::string& text = m_passages[i];
        switch (e.kind) {
        case Kind::Person:
            text = e.name + " is " + a(e.descriptor) + e.descriptor + " born in " + e.year + " in " + name(R::BornIn)
                + ". " + e.name + " works for " + name(R::Employer) + ".";
            m_mentions[i]
                = { e.links[static_cast<std::size_t>(R::BornIn)], e.links[static_cast<std::size_t>(R::Employer)] };
            break;
        case Kind::City:
            text = e.name + " is " + a(e.descriptor) + e.descriptor + " city in " + name(R::InCountry) + ".";
            m_mentions[i] = { e.links[static_cast<std::size_t>(R::InCountry)] };
            break;
        case Kind::Country:
            text = e.name + " is a country whose capital is " + name(R::Capital) + ". Its official language is "
                + e.language + ".";
            m_mentions[i] = { e.links[static_cast<std::size_t>(R::Capital)] };
            break;
        case Kind::Company:
            text = e.name + " is " + a(e.descriptor) + e.descriptor + " company founded in " + e.year + " by "
                + name(R::Founder) + ". It is headquartered in " + name(R::Headquarters) + ".";
            m_mentions[i]
                = { e.links[static_cast<std::size_t>(R::Founder)], e.links[static_cast<std::size_t>(R::Headquarters)] };
            break;
        case Kind::Book:
            text = e.name + " is " + a(e.descriptor) + e.descriptor + " published in " + e.year + ". It was written by "
                + name(R::Author) + ".";
            m_mentions[i] = { e.links[static_cast<std::size_t>(R::Author)] };
            break;
        }
    }
}

std::vector<std::string> KnowledgeBase::literals(int index) const
{
    const Entity& e = entity(index);
    std::vector<std::string> out;
    if (!e.year.empty())
        out.push_back(e.year);
    if (!e.language.empty())
        out.push_back(e.language);
    return out;
}

std::string KnowledgeBase::contentWords(std::string_view query)
{
    // Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.
    static const std::set<std::string, std::less<>> stop = { "a", "an", "and", "are", "as", "at", "be", "but", "by",
        "for", "if", "in", "into", "is", "it", "no", "not", "of", "on", "or", "such", "that", "the", "their", "then",
        "there", "these", "they", "this", "to", "was", "will", "with" };
    std::string out;
    for (const std::string& w : shop::SearchIndex::words(query))
        if (!stop.count(w))
            out += (out.empty() ? "" : " ") + w;
    return out;
}

std::vector<int> KnowledgeBase::search(std::string_view query, int limit) const
{
    const std::string words = shop::SearchIndex::joinedWords(query);
    std::string key = std::to_string(limit) + "|" + words;
    std::vector<int> results;
    if (m_cache.find(key, results))
        return results;
    const auto title = m_titles.find(words);
    const std::string content = contentWords(words);
    if (limit > 0 && !content.empty())
        results = m_index->search(content, limit + 1);
    if (title != m_titles.end()) {
        results.erase(std::remove(results.begin(), results.end(), title->second), results.end());
        results.insert(results.begin(), title->second);
    }
    if (results.size() > static_cast<std::size_t>(std::max(limit, 0)))
        results.resize(static_cast<std::size_t>(std::max(limit, 0)));
    m_cache.put(std::move(key), results);
    return results;
}

std::shared_ptr<const KnowledgeBase> KnowledgeBase::shared(std::uint64_t seed, int size)
{
    return shop::sharedInstance<KnowledgeBase>(seed, size);
}

} // namespace creditlab::env::searchqa
