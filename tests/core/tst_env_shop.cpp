// The shop environment: the expert solves every seed of both splits, games and catalogs are deterministic, the
// reward follows WebShop's formula on hand-computed cases, the FTS5 engine ranks by BM25, and the state keys,
// oracle roles, splits, admissible commands and registry behave.
#include "core/env/environment.h"
#include "core/env/episode.h"
#include "core/env/policy.h"
#include "core/env/shop.h"

#include <QtTest/QTest>

#include <algorithm>
#include <atomic>
#include <set>
#include <string>
#include <thread>

using namespace creditlab;
using namespace creditlab::env;
using namespace creditlab::env::shop;

namespace {

/// A rain jacket and a goal it satisfies perfectly: the base of the reward cases.
Product jacket()
{
    Product p;
    p.asin = "B0TESTTEST";
    p.title = "Acme Hooded Rain Jacket";
    p.name = "rain jacket";
    p.query = "rain jacket";
    p.category = "clothing \xE2\x80\xBA men \xE2\x80\xBA jackets";
    p.attributes = { "hooded", "water resistant", "packable" };
    p.bullets = { "Hooded.", "Water resistant.", "Packable." };
    p.description = "A jacket for wet days.";
    p.options = { { "size", { "small", "large", "x-large" } }, { "color", { "black", "navy" } } };
    p.price = 45.99;
    return p;
}

Goal jacketGoal()
{
    Goal g;
    g.name = "rain jacket";
    g.query = "rain jacket";
    g.category = "clothing \xE2\x80\xBA men \xE2\x80\xBA jackets";
    g.attributes = { "hooded", "water resistant" };
    g.options = { { "size", "large" }, { "color", "black" } };
    g.priceUpper = 50.0;
    return g;
}

using Options = std::vector<std::pair<std::string, std::string>>;

} // namespace

class TestEnvShop : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void expertSolvesEverySeed_data();
    void expertSolvesEverySeed();
    void searchExpertReadsBeforeBuying();
    void sameSeedSameGame();
    void rewardEdgeCases();
    void typeRewardBranches();
    void tokenSetRatioMatchesTheFuzz();
    void ftsRanksExactTitleFirstInBm25Order();
    void stateKeysAndOracleRoles();
    void purchaseRewardAndEnd();
    void splitsHoldDisjointTasks();
    void admissibleCommandsAreValid();
    void registryAndSharing();
    void concurrentEpisodesShareOneCatalog();
};

void TestEnvShop::expertSolvesEverySeed_data()
{
    QTest::addColumn<int>("split");
    QTest::addColumn<int>("seeds");
    QTest::newRow("train") << static_cast<int>(Split::Train) << 200;
    QTest::newRow("eval") << static_cast<int>(Split::Eval) << 100;
}

void TestEnvShop::expertSolvesEverySeed()
{
    QFETCH(int, split);
    QFETCH(int, seeds);
    ShopEnv env;
    ExpertPolicy expert;
    int longest = 0;
    for (int seed = 0; seed < seeds; ++seed) {
        const Trajectory t = runEpisode(env, expert, static_cast<std::uint64_t>(seed), static_cast<Split>(split));
        const std::string where = env.taskKey() + " " + env.taskSpec() + " | " + env.goal();
        QVERIFY2(t.success.value_or(false), where.c_str());
        QCOMPARE(env.purchase().total, 1.0);
        QVERIFY2(static_cast<int>(t.turns.size()) <= env.maxSteps(), where.c_str());
        longest = std::max(longest, static_cast<int>(t.turns.size()));
        double previous = 0.0;
        for (const Turn& u : t.turns) {
            // Legal actions only, progress never falls; decisive steps, or exploration while paging on.
            QVERIFY2(u.valid.value_or(false), (where + ": " + u.action).c_str());
            QVERIFY2(*u.role == Role::D || (*u.role == Role::E && u.action == "click[next >]"),
                (where + ": " + u.action).c_str());
            QVERIFY(*u.progress >= previous);
            previous = *u.progress;
        }
        QCOMPARE(t.turns.front().action.rfind("search[", 0), std::size_t(0));
        QCOMPARE(t.turns.back().action, std::string("click[buy now]"));
        QCOMPARE(t.turns.back().progress.value(), 1.0);
    }
    QVERIFY(longest <= 10); // search, at most four pages on, open, at most three options, buy
}

void TestEnvShop::searchExpertReadsBeforeBuying()
{
    // The searching expert opens only listings it was shown, and buys only what earns reward 1; within 15 steps
    // it solves most goals (about 95%), needing more steps than the expert.
    ShopEnv env;
    SearchExpertPolicy search;
    ExpertPolicy expert;
    int solved = 0, purchases = 0;
    double searchSteps = 0.0, expertSteps = 0.0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const Split split = seed % 3 == 0 ? Split::Eval : Split::Train;
        const Trajectory t = runEpisode(env, search, seed, split);
        for (std::size_t k = 0; k < t.turns.size(); ++k) {
            const Turn& u = t.turns[k];
            QVERIFY2(u.valid.value_or(false), u.action.c_str());
            if (u.action.rfind("click[B0", 0) == 0) // an asin: listed in the observation it answered
                QVERIFY(u.observation.find(u.action.substr(5, 12)) != std::string::npos);
        }
        if (env.page() == Page::Done) {
            ++purchases;
            QCOMPARE(env.purchase().total, 1.0);
        }
        solved += t.successOrDefault();
        searchSteps += static_cast<double>(t.turns.size());
        expertSteps += static_cast<double>(runEpisode(env, expert, seed, split).turns.size());
    }
    QCOMPARE(purchases, solved);
    QVERIFY2(solved >= 180, qPrintable(QString::number(solved)));
    QVERIFY(searchSteps > expertSteps);
}

void TestEnvShop::sameSeedSameGame()
{
    // Two catalogs built separately from one seed are identical; another seed gives another catalog.
    const Catalog a(5, 800), b(5, 800), c(6, 800);
    QCOMPARE(a.products().size(), b.products().size());
    for (std::size_t i = 0; i < a.products().size(); ++i) {
        QCOMPARE(a.products()[i].asin, b.products()[i].asin);
        QCOMPARE(a.products()[i].title, b.products()[i].title);
        QCOMPARE(a.products()[i].price, b.products()[i].price);
    }
    QVERIFY(a.products()[0].asin != c.products()[0].asin);
    QCOMPARE(a.search("hooded rain jacket"), b.search("hooded rain jacket"));

    ShopEnv x, y;
    NoisyExpertPolicy px(0.5), py(0.5);
    for (std::uint64_t seed : { 0ull, 17ull, 123456789ull })
        for (Split split : { Split::Train, Split::Eval }) {
            const Trajectory tx = runEpisode(x, px, seed, split, { "", "", 3 });
            const Trajectory ty = runEpisode(y, py, seed, split, { "", "", 3 });
            QVERIFY(tx == ty);
            QCOMPARE(x.goal(), y.goal());
            QVERIFY(runEpisode(x, px, seed, split, { "", "", 3 }) == tx);
        }
    x.reset(1, Split::Train);
    y.reset(2, Split::Train);
    QVERIFY(x.goal() != y.goal());
}

void TestEnvShop::rewardEdgeCases()
{
    const Product p = jacket();
    const Goal g = jacketGoal();
    // Perfect: (2 attributes + 2 options + price) / (2 + 2 + 1) = 1.
    RewardParts r = webshopReward(p, g, p.price, { { "size", "large" }, { "color", "black" } });
    QCOMPARE(r.total, 1.0);
    QCOMPARE(r.rType, 1.0);
    QCOMPARE(r.rAtt, 1.0);
    QCOMPARE(*r.rOption, 1.0);
    QCOMPARE(*r.rPrice, 1.0);
    // Price over the limit: 4 / 5.
    r = webshopReward(p, g, 55.0, { { "size", "large" }, { "color", "black" } });
    QCOMPARE(r.total, 0.8);
    QCOMPARE(*r.rPrice, 0.0);
    // A missing option (colour never chosen): (2 + 1 + 1) / 5.
    r = webshopReward(p, g, p.price, { { "size", "large" } });
    QCOMPARE(r.total, 0.8);
    QCOMPARE(*r.rOption, 0.5);
    // Wrong options: size is matched exactly ("x-large" is not "large"), colour fuzzily: (2 + 0 + 1) / 5.
    r = webshopReward(p, g, p.price, { { "size", "x-large" }, { "color", "navy" } });
    QCOMPARE(r.optionMatches, 0);
    QCOMPARE(r.total, 0.6);
    // Partial attributes: a jacket without "water resistant" anywhere in its text: (1 + 2 + 1) / 5.
    Product dry = p;
    dry.attributes = { "hooded", "packable" };
    dry.bullets = { "Hooded.", "Packable." };
    r = webshopReward(dry, g, p.price, { { "size", "large" }, { "color", "black" } });
    QCOMPARE(r.rAtt, 0.5);
    QCOMPARE(r.total, 0.8);
    // ... but an attribute found in the title counts (get_attribute_reward's fallback), and one fuzzily equal.
    dry.title = "Acme Hooded Water Resistant Rain Jacket";
    QCOMPARE(webshopReward(dry, g, p.price, { { "size", "large" }, { "color", "black" } }).total, 1.0);
    Product fuzzy = p;
    fuzzy.attributes = { "hooded", "resistant to water" };
    fuzzy.bullets.clear();
    QCOMPARE(webshopReward(fuzzy, g, p.price, { { "size", "large" }, { "color", "black" } }).attributeMatches, 2);
    // Wrong type: no noun shared with "rain jacket": r_type = 0, so the whole reward is 0.
    Product shoes = p;
    shoes.name = shoes.query = "running shoes";
    shoes.category = "clothing \xE2\x80\xBA women \xE2\x80\xBA sneakers";
    r = webshopReward(shoes, g, p.price, { { "size", "large" }, { "color", "black" } });
    QCOMPARE(r.titleScore, 0.0);
    QCOMPARE(r.rType, 0.0);
    QCOMPARE(r.total, 0.0);
    // No price limit (price_upper 1000000) still counts the price term: a 500-dollar jacket is fine.
    Goal open = g;
    open.priceUpper = 1000000.0;
    QCOMPARE(webshopReward(p, open, 500.0, { { "size", "large" }, { "color", "black" } }).total, 1.0);
}

void TestEnvShop::typeRewardBranches()
{
    // title_score in [0.1, 0.2], no query or category match: r_type 0.5; below 0.1: 0.1; a category match
    // (two shared levels) restores 1.
    Product p = jacket();
    Goal g = jacketGoal();
    p.name = "rain hat";
    p.query = "hat";
    p.category = "accessories \xE2\x80\xBA hats";
    g.name = "rain shell coat liner hood"; // 1 of 5 nouns shared: 0.2, not above 0.2
    RewardParts r = webshopReward(p, g, p.price, { { "size", "large" }, { "color", "black" } });
    QCOMPARE(r.titleScore, 0.2);
    QCOMPARE(r.rType, 0.5);
    QCOMPARE(r.total, 0.5);
    g.name = "rain a b c d e f g h i j"; // 1 of 11: below 0.1
    QCOMPARE(webshopReward(p, g, p.price, {}).rType, 0.1);
    g.name = "rain shell coat liner hood";
    p.category = "clothing \xE2\x80\xBA men \xE2\x80\xBA hats";
    QCOMPARE(webshopReward(p, g, p.price, {}).rType, 1.0);
}

void TestEnvShop::tokenSetRatioMatchesTheFuzz()
{
    QCOMPARE(tokenSetRatio("fuzzy wuzzy was a bear", "wuzzy fuzzy was a bear"), 100);
    QCOMPARE(tokenSetRatio("water resistant", "Water-Resistant shell"), 100); // one token set inside the other
    // {hand, wash} vs {machine, wash}: max(ratio("wash", "wash hand") = 61.5, ratio("wash", "wash machine") = 50,
    // ratio("wash hand", "wash machine") = 2 * 7 / 21 = 66.7) -> 67, below WebShop's threshold of 85.
    QCOMPARE(tokenSetRatio("hand wash", "machine wash"), 67);
    QCOMPARE(tokenSetRatio("", "wash"), 0);
    QCOMPARE(normalizeColor("dark navy"), std::string("navy"));
    QCOMPARE(normalizeColor("mauve"), std::string("mauve"));
}

void TestEnvShop::ftsRanksExactTitleFirstInBm25Order()
{
    auto catalog = Catalog::shared(0, 3000);
    for (int i = 0; i < 3000; i += 97) {
        const Product& p = catalog->product(i);
        const std::vector<int> hits = catalog->search(p.title);
        QVERIFY(!hits.empty());
        // The product itself, or one with the very same title, ranks first.
        QCOMPARE(catalog->product(hits.front()).title, p.title);
        QVERIFY(std::find(hits.begin(), hits.end(), i) != hits.end());
        // Behind the exact titles, the order is BM25's (FTS5's rank: lower is better), ties by index.
        std::size_t exact = 0;
        while (exact < hits.size() && catalog->product(hits[exact]).title == p.title)
            ++exact;
        QVERIFY(exact >= 1);
        for (std::size_t k = exact + 1; k < hits.size(); ++k) {
            const double before = catalog->index().bm25(p.title, hits[k - 1]);
            const double after = catalog->index().bm25(p.title, hits[k]);
            QVERIFY(before < after || (before == after && hits[k - 1] < hits[k]));
        }
    }
    // A type's words find that type; rarer words count more (BM25's idf): "hooded" outranks "jacket" alone.
    for (int r : catalog->search("rain jacket", 10))
        QCOMPARE(catalog->product(r).name, std::string("rain jacket"));
    const std::vector<int> hooded = catalog->search("hooded rain jacket", 5);
    for (int r : hooded) {
        const auto& a = catalog->product(r).attributes;
        QVERIFY(std::find(a.begin(), a.end(), "hooded") != a.end());
    }
    QCOMPARE(static_cast<int>(catalog->search("jacket").size()), Catalog::kMaxResults);
    // FTS5 syntax in user text is only words; nonsense finds nothing.
    QVERIFY(catalog->search("title: NEAR(\"rain\" AND) *").size() > 0);
    QVERIFY(catalog->search("zzzzqqq").empty());
    QVERIFY(catalog->search("  !!  ").empty());
}

void TestEnvShop::stateKeysAndOracleRoles()
{
    ShopEnv env;
    env.reset(3, Split::Train);
    QCOMPARE(env.stateKey(), std::string("page=search|query=|p=0|item=-|opts=-"));
    QVERIFY(env.initialObservation().find("Instruction: " + env.goal()) == 0);
    const std::string query = "search[" + env.goalSpec().expertQuery() + "]";
    StepResult r = env.step(query);
    QCOMPARE(*r.info.role, Role::D); // results hold a perfect product
    QVERIFY(env.stateKey().rfind("page=results|query=" + env.goalSpec().expertQuery() + "|p=0|", 0) == 0);
    QVERIFY(r.feedback.find("Page 1 (Total results: ") != std::string::npos);
    r = env.step("click[back to search]");
    QCOMPARE(*r.info.role, Role::R); // progress falls
    r = env.step(query);
    QCOMPARE(*r.info.role, Role::R); // a repeated identical search
    const std::string page = r.feedback;
    r = env.step("click[nonsense]");
    QVERIFY(!r.info.valid);
    QCOMPARE(r.feedback, "Nothing happens.\n" + page); // the page stays, shown again
    QCOMPARE(*r.info.role, Role::R);
    // A query with nothing perfect in it is exploration; walking through the expert's path is decisive.
    env.reset(3, Split::Train);
    r = env.step("search[zzzzqqq]");
    QCOMPARE(*r.info.role, Role::E);
    QVERIFY(r.info.gainedInformation);
    env.step("click[back to search]");
    std::string action;
    while (env.page() != Page::Item) {
        QVERIFY(env.expertAction(action));
        env.step(action);
    }
    const std::string itemKey = env.stateKey();
    QVERIFY(itemKey.find("|item=" + env.catalog().product(env.item()).asin + "|opts=-") != std::string::npos);
    r = env.step("click[description]");
    QCOMPARE(*r.info.role, Role::E);
    QVERIFY(r.feedback.find("Features:") != std::string::npos);
    r = env.step("click[< prev]");
    QCOMPARE(*r.info.role, Role::R); // back to a state met before, nothing learnt
    QCOMPARE(env.stateKey(), itemKey);
    const Product& item = env.catalog().product(env.item());
    const auto best = bestOptions(item, env.goalSpec()); // the goal's values where the item offers them
    r = env.step("click[" + best.front().second + "]");
    QCOMPARE(*r.info.role, Role::D); // a required option
    QVERIFY(env.stateKey().find("|opts=" + best.front().first + ":" + best.front().second) != std::string::npos);
    for (const std::string& v : item.options.front().values)
        if (v != best.front().second) {
            r = env.step("click[" + v + "]");
            QCOMPARE(*r.info.role, Role::R); // a wrong value replaces it
            break;
        }
}

void TestEnvShop::purchaseRewardAndEnd()
{
    // Buying the first result without options: WebShop's reward of that purchase, success only at 1.
    ShopEnv env;
    int partial = 0;
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
        env.reset(seed, Split::Train);
        env.step("search[" + env.goalSpec().name + "]");
        env.step("click[" + env.catalog().product(env.results().front()).asin + "]");
        const Product& bought = env.catalog().product(env.item());
        const StepResult& r = env.step("click[buy now]");
        QVERIFY(r.done);
        const double expected = webshopReward(bought, env.goalSpec(), bought.price, {}).total;
        QCOMPARE(r.reward, expected);
        QCOMPARE(env.progress(), expected);
        QCOMPARE(r.success, expected >= 1.0);
        QCOMPARE(*r.info.role, r.success ? Role::D : Role::R);
        QVERIFY(r.feedback.find("Thank you for shopping with us!") == 0);
        partial += expected > 0.0 && expected < 1.0;
        QVERIFY_THROWS_EXCEPTION(std::logic_error, env.step("click[buy now]"));
    }
    QVERIFY(partial > 30);

    // A trajectory's reward is that graded outcome, not just success (runEpisode, as the trainer's rollouts).
    class FirstResultBuyer final : public Policy {
    public:
        std::string_view name() const override { return "first-result"; }
        void reset(std::uint64_t) override { m_step = 0; }
        std::string_view act(const Environment& environment) override
        {
            const auto& shop = static_cast<const ShopEnv&>(environment);
            switch (m_step++) {
            case 0:
                m_action = "search[" + shop.goalSpec().name + "]";
                break;
            case 1:
                m_action = "click[" + shop.catalog().product(shop.results().front()).asin + "]";
                break;
            default:
                m_action = "click[buy now]";
            }
            return m_action;
        }

    private:
        int m_step = 0;
        std::string m_action;
    } buyer;
    int graded = 0;
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
        const Trajectory t = runEpisode(env, buyer, seed, Split::Train);
        QCOMPARE(t.reward, env.purchase().total);
        QCOMPARE(t.successOrDefault(), env.purchase().total >= 1.0);
        graded += t.reward > 0.0 && t.reward < 1.0;
    }
    QVERIFY(graded > 30);
}

void TestEnvShop::splitsHoldDisjointTasks()
{
    ShopEnv env;
    std::set<std::string> trainSpecs, trainText, trainAsins, evalSpecs, evalText, evalAsins;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        env.reset(seed, Split::Train);
        trainSpecs.insert(env.taskSpec());
        trainText.insert(env.goal());
        trainAsins.insert(env.catalog().product(env.goalSpec().target).asin);
        QCOMPARE(env.catalog().product(env.goalSpec().target).split, Split::Train);
        env.reset(seed, Split::Eval);
        evalSpecs.insert(env.taskSpec());
        evalText.insert(env.goal());
        evalAsins.insert(env.catalog().product(env.goalSpec().target).asin);
        QCOMPARE(attributeSetSplit(env.goalSpec().name, env.goalSpec().attributes), Split::Eval);
    }
    for (const std::string& s : evalSpecs)
        QVERIFY2(!trainSpecs.count(s), s.c_str());
    for (const std::string& s : evalText)
        QVERIFY2(!trainText.count(s), s.c_str());
    for (const std::string& s : evalAsins)
        QVERIFY2(!trainAsins.count(s), s.c_str());
    QVERIFY(trainSpecs.size() > 350);
    QVERIFY(evalSpecs.size() > 300);
}

void TestEnvShop::admissibleCommandsAreValid()
{
    ShopEnv env;
    RandomPolicy random;
    std::set<Page> pages;
    for (std::uint64_t seed = 0; seed < 60; ++seed) {
        const Trajectory t = runEpisode(env, random, seed, Split::Train, { "", "", seed });
        for (const Turn& u : t.turns) {
            QVERIFY2(u.valid.value_or(false), u.action.c_str());
            QVERIFY(u.role.has_value());
        }
        pages.insert(env.page());
    }
    QVERIFY(pages.count(Page::Done)); // random play buys
    env.reset(0, Split::Train);
    QCOMPARE(env.admissibleCommands().size(), std::size_t(3));
}

void TestEnvShop::registryAndSharing()
{
    QVERIFY(findEnvironment("shop") != nullptr);
    auto a = makeEnvironment("shop", { { "max_steps", "5" }, { "catalog_size", "500" }, { "catalog_seed", "9" } });
    auto b = makeEnvironment("shop", { { "catalog_size", "500" }, { "catalog_seed", "9" } });
    QCOMPARE(a->maxSteps(), 5);
    QCOMPARE(b->maxSteps(), 15);
    QCOMPARE(&static_cast<ShopEnv&>(*a).catalog(), &static_cast<ShopEnv&>(*b).catalog());
    QCOMPARE(static_cast<ShopEnv&>(*a).catalog().products().size(), std::size_t(500));
    QVERIFY_THROWS_EXCEPTION(credit::ParamError, makeEnvironment("shop", { { "catalog_size", "3" } }));
    ShopEnv fresh;
    QVERIFY_THROWS_EXCEPTION(std::logic_error, fresh.step("search[x]"));
    a->reset(4, Split::Eval);
    QCOMPARE(a->taskKey(), std::string("shop:seed=4:split=eval:catalog=9/500"));
    ShopEnv plain;
    plain.reset(4, Split::Train);
    QCOMPARE(plain.taskKey(), std::string("shop:seed=4"));
    for (int i = 0; i < 5; ++i)
        a->step("click[nothing]");
    QVERIFY(a->done());
    QVERIFY_THROWS_EXCEPTION(std::logic_error, a->step("click[nothing]"));
}

void TestEnvShop::concurrentEpisodesShareOneCatalog()
{
    std::atomic<int> solved { 0 };
    std::vector<std::thread> threads;
    for (int w = 0; w < 4; ++w)
        threads.emplace_back([w, &solved] {
            ShopEnv env;
            ExpertPolicy expert;
            for (int s = 0; s < 25; ++s)
                solved += runEpisode(env, expert, static_cast<std::uint64_t>(w * 100 + s), Split::Train)
                              .success.value_or(false);
        });
    for (std::thread& t : threads)
        t.join();
    QCOMPARE(solved.load(), 100);
}

QTEST_GUILESS_MAIN(TestEnvShop)
#include "tst_env_shop.moc"
