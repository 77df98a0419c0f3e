// The searchqa question templates and the drawing of questions over a knowledge base.
#include "core/env/searchqa_kb.h"
#include "core/env/splitmix.h"

#include <stdexcept>

namespace creditlab::env::searchqa {

namespace {

using R = Relation;

using Rng = SplitMix64;

struct Template {
    Kind start;
    std::vector<Relation> chain;
    const char* tag;
    const char* text; ///< "%" stands for the start entity's name
};

// Questions in the style of HotpotQA's bridge questions and 2WikiMultiHopQA's compositional ones: every hop is one
// functional relation, stated in the passage of its subject.
const std::vector<Template>& templates()
{
    static const std::vector<Template> table = {
        { Kind::Person, { R::BornIn }, "born_in", "Where was % born?" },
        { Kind::Person, { R::Employer }, "employer", "Which company does % work for?" },
        { Kind::Person, { R::BirthYear }, "birth_year", "In what year was % born?" },
        { Kind::City, { R::InCountry }, "in_country", "In which country is the city of %?" },
        { Kind::Country, { R::Capital }, "capital", "What is the capital of %?" },
        { Kind::Country, { R::Language }, "language", "What language is spoken in %?" },
        { Kind::Company, { R::Founder }, "founder", "Who founded %?" },
        { Kind::Company, { R::Headquarters }, "headquarters", "In which city is % headquartered?" },
        { Kind::Company, { R::FoundedYear }, "founded_year", "In what year was % founded?" },
        { Kind::Book, { R::Author }, "author", "Who wrote %?" },
        { Kind::Book, { R::Published }, "published", "In what year was % published?" },
        { Kind::Person, { R::BornIn, R::InCountry }, "born_in.in_country", "In which country was % born?" },
        { Kind::Company, { R::Founder, R::BornIn }, "founder.born_in", "Where was the founder of % born?" },
        { Kind::Person, { R::Employer, R::Founder }, "employer.founder", "Who founded the company that % works for?" },
        { Kind::Person, { R::Employer, R::Headquarters }, "employer.headquarters",
            "In which city is the employer of % headquartered?" },
        { Kind::Book, { R::Author, R::BornIn }, "author.born_in", "Where was the author of % born?" },
        { Kind::Book, { R::Author, R::Employer }, "author.employer", "Which company does the author of % work for?" },
        { Kind::Company, { R::Headquarters, R::InCountry }, "headquarters.in_country",
            "In which country is % headquartered?" },
        { Kind::Book, { R::Author, R::BirthYear }, "author.birth_year", "In what year was the author of % born?" },
        { Kind::Book, { R::Author, R::BornIn, R::InCountry }, "author.born_in.in_country",
            "In which country was the author of % born?" },
        { Kind::Company, { R::Founder, R::BornIn, R::InCountry }, "founder.born_in.in_country",
            "In which country was the founder of % born?" },
        { Kind::Person, { R::BornIn, R::InCountry, R::Capital }, "born_in.in_country.capital",
            "What is the capital of the country where % was born?" },
        { Kind::Book, { R::Author, R::Employer, R::Founder }, "author.employer.founder",
            "Who founded the company that the author of % works for?" },
        { Kind::Person, { R::Employer, R::Headquarters, R::InCountry }, "employer.headquarters.in_country",
            "In which country is the company that % works for headquartered?" },
        { Kind::Person, { R::BornIn, R::InCountry, R::Language }, "born_in.in_country.language",
            "What language is spoken in the country where % was born?" },
    };
    return table;
}

} // namespace

std::string Question::spec(const KnowledgeBase& kb) const
{
    return KnowledgeBase::templateTag(templateId) + "/" + kb.entity(chain.front()).name;
}

int KnowledgeBase::templateCount() { return static_cast<int>(templates().size()); }
Kind KnowledgeBase::templateKind(int id) { return templates().at(static_cast<std::size_t>(id)).start; }
int KnowledgeBase::templateHops(int id)
{
    return static_cast<int>(templates().at(static_cast<std::size_t>(id)).chain.size());
}
std::string KnowledgeBase::templateTag(int id) { return templates().at(static_cast<std::size_t>(id)).tag; }

Question KnowledgeBase::makeQuestion(int templateId, int start) const
{
    const Template& t = templates().at(static_cast<std::size_t>(templateId));
    if (entity(start).kind != t.start)
        throw std::invalid_argument("searchqa: the start entity is not of the template's kind");
    Question q;
    q.templateId = templateId;
    q.text = t.text;
    q.text.replace(q.text.find('%'), 1, entity(start).name);
    int current = start;
    for (std::size_t j = 0; j < t.chain.size(); ++j) {
        q.chain.push_back(current);
        if (j + 1 < t.chain.size())
            current = entity(current).links[static_cast<std::size_t>(t.chain[j])];
    }
    q.answer = object(current, t.chain.back());
    return q;
}

Question KnowledgeBase::drawQuestion(std::uint64_t seed, Split split) const
{
    Rng rng((seed * 0x9E3779B97F4A7C15ull) ^ (split == Split::Eval ? 0xE7A1ull : 0x7EA1ull) ^ (m_seed << 17));
    const int hops = 1 + static_cast<int>(rng.next() % 3);
    std::vector<int> candidates;
    for (int t = 0; t < templateCount(); ++t)
        if (templateHops(t) == hops)
            candidates.push_back(t);
    const int templateId = rng.pick(candidates);
    const auto& starts = m_starts[static_cast<std::size_t>(templateKind(templateId))][split == Split::Eval];
    return makeQuestion(templateId, rng.pick(starts));
}

} // namespace creditlab::env::searchqa
