// agreement: how well two role-label sources of a run agree (judge vs human, human vs human, ...).
#include "commands.h"

#include "core/interchange/jsonscanner.h"
#include "core/judge/agreement.h"
#include "core/judge/labelsources.h"
#include "core/storage/paths.h"
#include "core/storage/store.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <spdlog/spdlog.h>

namespace creditlab::cli {

namespace {

using judge::AlphaResult;
using judge::mirrorsStoredSource;
using judge::PairAgreement;
using judge::RunLabels;

struct AgreementOptions {
    DbOption db;
    std::int64_t run = -1;
    std::string judge;
    std::string human;
    std::string a;
    std::string b;
    bool json = false;
};

struct Pair {
    std::string reference;
    std::string other;
    PairAgreement result;
};

/// Which side is the reference: humans, then oracles, then imported turn roles, then other judges.
int referenceRank(const std::string& source)
{
    if (source.starts_with("human:"))
        return 0;
    if (source.starts_with("judge:oracle")
        || (source.starts_with("turn:") && source.find("oracle") != std::string::npos))
        return 1;
    return source.starts_with("turn:") ? 2 : 3;
}

/// Report order of a pair: judge vs human first, then human vs turn roles, human vs human, and the rest.
int pairRank(const std::string& reference, const std::string& other)
{
    const auto kind = [](const std::string& s) { return s.substr(0, s.find(':')); };
    const std::string k = kind(reference) + "/" + kind(other);
    if (k == "human/judge")
        return 0;
    if (k == "human/turn")
        return 1;
    if (k == "human/human")
        return 2;
    return k.find("turn") != std::string::npos && k.find("judge") != std::string::npos ? 3 : 4;
}

std::int64_t pickRun(Store& store, std::int64_t wanted)
{
    if (wanted >= 0) {
        if (!store.run(wanted))
            throw StoreError(store.path() + ": no run with id " + std::to_string(wanted));
        return wanted;
    }
    // No --run: the newest run with two label sources to compare, else the newest with labels (the Agreement page
    // opens on the same one).
    if (const auto run = judge::defaultAgreementRun(judge::labelledRuns(store)))
        return *run;
    throw StoreError(
        store.path() + (store.runs().empty() ? ": no runs" : ": no run has role labels") + " (pass --run ID)");
}

/// The pairs to compare, each ordered (reference, other), in report order.
std::vector<std::pair<std::string, std::string>> choosePairs(
    const AgreementOptions& o, const RunLabels& labels, const std::vector<std::string>& sources)
{
    std::vector<std::pair<std::string, std::string>> pairs;
    if (!o.a.empty())
        return { { judge::resolveSource(sources, o.a), judge::resolveSource(sources, o.b) } };
    const std::string judgeSource = o.judge.empty() ? std::string() : judge::resolveSource(sources, o.judge, "judge");
    const std::string humanSource = o.human.empty() ? std::string() : judge::resolveSource(sources, o.human, "human");
    if (!judgeSource.empty() && !humanSource.empty())
        return { { humanSource, judgeSource } };
    const std::string fixed = !judgeSource.empty() ? judgeSource : humanSource;
    const auto overlaps = [&](const std::string& x, const std::string& y) {
        const auto* lx = labels.find(x);
        const auto* ly = labels.find(y);
        for (std::size_t i = 0; i < lx->size(); ++i)
            if ((*lx)[i] && (*ly)[i])
                return true;
        return false;
    };
    for (std::size_t i = 0; i < sources.size(); ++i)
        for (std::size_t j = i + 1; j < sources.size(); ++j) {
            if (!fixed.empty() && sources[i] != fixed && sources[j] != fixed)
                continue;
            if ((mirrorsStoredSource(sources[i], sources) && sources[i] != fixed)
                || (mirrorsStoredSource(sources[j], sources) && sources[j] != fixed))
                continue;
            if (!overlaps(sources[i], sources[j]))
                continue;
            auto [x, y] = std::pair { sources[i], sources[j] };
            // A named human stays the reference; otherwise the better-ranked source is.
            const bool swap = (!humanSource.empty() && y == humanSource)
                || (humanSource.empty() && referenceRank(y) < referenceRank(x));
            pairs.emplace_back(swap ? y : x, swap ? x : y);
        }
    std::stable_sort(pairs.begin(), pairs.end(),
        [](const auto& p, const auto& q) { return pairRank(p.first, p.second) < pairRank(q.first, q.second); });
    if (pairs.empty())
        throw std::invalid_argument("run " + std::to_string(labels.runId) + ": no two label sources"
            + (fixed.empty() ? "" : " with " + fixed) + " label the same turns (sources: " +
            [&] {
                std::string s;
                for (const auto& n : sources)
                    s += (s.empty() ? "" : ", ") + n;
                return s;
            }()
            + ")");
    return pairs;
}

std::string fixed3(const std::optional<double>& v)
{
    if (!v)
        return "n/a";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", *v);
    return buf;
}

std::string percent(const std::optional<double>& v)
{
    if (!v)
        return "n/a";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * *v);
    return buf;
}

void appendOpt(std::string& out, const std::optional<double>& v)
{
    if (v)
        appendJsonNumber(out, *v);
    else
        out += "null";
}

std::string roleStr(std::size_t k) { return std::string(roleName(judge::kRoles[k])); }

void printPair(const Pair& p)
{
    const PairAgreement& r = p.result;
    std::printf("\n%s (reference) vs %s\n", p.reference.c_str(), p.other.c_str());
    std::printf("  turns labelled by both   %lld  (reference only %lld, other only %lld)\n",
        static_cast<long long>(r.count), static_cast<long long>(r.onlyReference), static_cast<long long>(r.onlyOther));
    if (r.count == 0) {
        std::printf("  no turn in common\n");
        return;
    }
    std::printf("  accuracy                 %s\n", fixed3(r.accuracy).c_str());
    std::printf("  Cohen's kappa            %s%s\n", fixed3(r.kappa).c_str(),
        r.kappa ? "" : "  (both use one and the same role)");
    std::printf("  confusion (rows: reference, columns: other)\n         D       E       N       R\n");
    for (std::size_t i = 0; i < judge::kRoleCount; ++i) {
        std::printf("    %s", roleStr(i).c_str());
        for (std::size_t j = 0; j < judge::kRoleCount; ++j)
            std::printf(" %7lld", static_cast<long long>(r.confusion[i][j]));
        std::printf("\n");
    }
    std::printf("  role  support  predicted  precision  recall     F1  F1|success  F1|failure\n");
    for (std::size_t k = 0; k < judge::kRoleCount; ++k) {
        const auto& s = r.roles[k];
        std::printf("  %-4s %8lld %10lld %10s %7s %6s %11s %11s\n", roleStr(k).c_str(),
            static_cast<long long>(s.support), static_cast<long long>(s.predicted), fixed3(s.precision).c_str(),
            fixed3(s.recall).c_str(), fixed3(s.f1).c_str(), fixed3(r.cellF1[k][1]).c_str(),
            fixed3(r.cellF1[k][0]).c_str());
    }
    std::printf("  macro F1                 %s\n", fixed3(r.macroF1).c_str());
    std::printf("  conflict cells (TRIAGE)\n");
    std::printf("    R in successful rollouts, labelled otherwise  %lld of %lld  (%s)\n",
        static_cast<long long>(r.regressionInSuccess.missed), static_cast<long long>(r.regressionInSuccess.total),
        percent(r.regressionInSuccess.rate).c_str());
    std::printf("    E in failed rollouts, labelled otherwise      %lld of %lld  (%s)\n",
        static_cast<long long>(r.explorationInFailure.missed), static_cast<long long>(r.explorationInFailure.total),
        percent(r.explorationInFailure.rate).c_str());
}

void appendCell(std::string& out, const char* name, const judge::ConflictCell& c)
{
    out += std::string("\"") + name + "\":{\"total\":" + std::to_string(c.total)
        + ",\"missed\":" + std::to_string(c.missed) + ",\"rate\":";
    appendOpt(out, c.rate);
    out += '}';
}

void appendPairJson(std::string& out, const Pair& p)
{
    const PairAgreement& r = p.result;
    out += "{\"reference\":";
    appendJsonString(out, p.reference);
    out += ",\"other\":";
    appendJsonString(out, p.other);
    out += ",\"count\":" + std::to_string(r.count) + ",\"only_reference\":" + std::to_string(r.onlyReference)
        + ",\"only_other\":" + std::to_string(r.onlyOther) + ",\"accuracy\":";
    appendOpt(out, r.accuracy);
    out += ",\"kappa\":";
    appendOpt(out, r.kappa);
    out += ",\"confusion\":[";
    for (std::size_t i = 0; i < judge::kRoleCount; ++i) {
        out += i ? ",[" : "[";
        for (std::size_t j = 0; j < judge::kRoleCount; ++j)
            out += (j ? "," : "") + std::to_string(r.confusion[i][j]);
        out += ']';
    }
    out += "],\"roles\":{";
    for (std::size_t k = 0; k < judge::kRoleCount; ++k) {
        const auto& s = r.roles[k];
        out += (k ? ",\"" : "\"") + roleStr(k) + "\":{\"support\":" + std::to_string(s.support)
            + ",\"predicted\":" + std::to_string(s.predicted) + ",\"precision\":";
        appendOpt(out, s.precision);
        out += ",\"recall\":";
        appendOpt(out, s.recall);
        out += ",\"f1\":";
        appendOpt(out, s.f1);
        out += ",\"f1_success\":";
        appendOpt(out, r.cellF1[k][1]);
        out += ",\"f1_failure\":";
        appendOpt(out, r.cellF1[k][0]);
        out += '}';
    }
    out += "},\"macro_f1\":";
    appendOpt(out, r.macroF1);
    out += ",\"conflict\":{";
    appendCell(out, "regression_in_success", r.regressionInSuccess);
    out += ',';
    appendCell(out, "exploration_in_failure", r.explorationInFailure);
    out += "}}";
}

void runAgreement(const AgreementOptions& o)
{
    const std::string path = o.db.resolved();
    if (!std::filesystem::exists(path))
        throw StoreError(path + ": no such database (import something first, or pass --db)");
    spdlog::debug("opening {}", path);
    Store store(path, Store::Access::ReadOnly);
    const std::int64_t runId = pickRun(store, o.run);
    const RunLabels labels = judge::loadRunLabels(store, runId);
    const std::vector<std::string>& sources = labels.sources;
    if (sources.empty())
        throw std::invalid_argument(
            "run " + std::to_string(runId) + " has no role labels (no human, judge or imported turn roles)");
    const std::vector<bool> flags = labels.successFlags();

    std::vector<Pair> pairs;
    for (const auto& [ref, other] : choosePairs(o, labels, sources)) {
        Pair p { ref, other, judge::comparePair(*labels.find(ref), *labels.find(other), flags) };
        if (p.result.count == 0)
            throw std::invalid_argument("'" + ref + "' and '" + other + "' label no turn in common");
        pairs.push_back(std::move(p));
    }

    // Krippendorff's alpha across the human annotators when there are two or more, else across all sources.
    const judge::SourcesAlpha across = judge::alphaAcrossSources(labels);
    const std::vector<std::string>& coders = across.coders;
    const bool overHumans = across.overHumans;
    const std::optional<AlphaResult>& alpha = across.result;

    const auto info = store.run(runId);
    std::int64_t successful = 0;
    for (bool f : flags)
        successful += f;
    if (o.json) {
        std::string out = "{\"run\":" + std::to_string(runId) + ",\"name\":";
        appendJsonString(out, info ? info->name : std::string());
        out += ",\"turns\":" + std::to_string(labels.turns.size())
            + ",\"turns_in_successful_rollouts\":" + std::to_string(successful) + ",\"sources\":[";
        for (std::size_t s = 0; s < sources.size(); ++s) {
            out += s ? ",{\"name\":" : "{\"name\":";
            appendJsonString(out, sources[s]);
            out += ",\"labelled\":" + std::to_string(labels.labelledCount(sources[s])) + "}";
        }
        out += "],\"pairs\":[";
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            out += i ? "," : "";
            appendPairJson(out, pairs[i]);
        }
        out += "],\"alpha\":";
        if (alpha) {
            out += std::string("{\"over\":\"") + (overHumans ? "human" : "all") + "\",\"coders\":[";
            for (std::size_t c = 0; c < coders.size(); ++c) {
                out += c ? "," : "";
                appendJsonString(out, coders[c]);
            }
            out += "],\"alpha\":";
            appendOpt(out, alpha->alpha);
            out += ",\"units\":" + std::to_string(alpha->units) + ",\"values\":" + std::to_string(alpha->values) + "}";
        } else {
            out += "null";
        }
        out += "}\n";
        std::fputs(out.c_str(), stdout);
        return;
    }
    std::printf("run %lld \"%s\": %zu turns (%lld in successful rollouts)\nlabel sources (labelled turns):\n",
        static_cast<long long>(runId), info ? info->name.c_str() : "", labels.turns.size(),
        static_cast<long long>(successful));
    for (const auto& s : sources)
        std::printf("  %8lld  %s\n", static_cast<long long>(labels.labelledCount(s)), s.c_str());
    for (const Pair& p : pairs)
        printPair(p);
    if (alpha) {
        std::printf("\nKrippendorff's alpha (nominal) across %zu %s: %s  (%lld units, %lld values)\n", coders.size(),
            overHumans ? "human annotators" : "label sources", fixed3(alpha->alpha).c_str(),
            static_cast<long long>(alpha->units), static_cast<long long>(alpha->values));
    }
}

} // namespace

void addAgreementCommand(CLI::App& app)
{
    auto o = std::make_shared<AgreementOptions>();
    CLI::App* cmd = app.add_subcommand("agreement", "How well role-label sources agree (judge vs human, ...)");
    cmd->add_option("--db", o->db.path, "Database file (default: " + defaultDatabasePath() + ")")->type_name("FILE");
    cmd->add_option("--run", o->run,
           "Run id (default: the newest run with two label sources to compare, else the newest with labels)")
        ->check(CLI::NonNegativeNumber)
        ->type_name("ID");
    auto* judgeOpt
        = cmd->add_option("--judge", o->judge, "Judge label source, e.g. noisy or oracle")->type_name("NAME");
    auto* humanOpt = cmd->add_option("--human", o->human, "Human annotator")->type_name("NAME");
    auto* a = cmd->add_option("--a", o->a, "Reference label source, e.g. human:alice")->type_name("SOURCE");
    auto* b = cmd->add_option("--b", o->b, "Label source compared with --a")->type_name("SOURCE");
    cmd->add_flag("--json", o->json, "One JSON object instead of the report");
    a->needs(b);
    b->needs(a);
    a->excludes(judgeOpt)->excludes(humanOpt);
    b->excludes(judgeOpt)->excludes(humanOpt);
    cmd->footer("Label sources: human:<annotator>, judge:<judge and parameters>, turn:<role_source> (roles\n"
                "imported with the trajectories). Without source options every overlapping pair is compared.\n"
                "The reference (A) is the truth for precision, recall and TRIAGE's conflict cells.");
    cmd->callback([o] { runAgreement(*o); });
}

} // namespace creditlab::cli
