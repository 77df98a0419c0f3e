// The sweep file: parsing its keys, expansion into trials (grid × random samples × seeds) and validation of every
// trial's config before anything runs; reading its YAML values (types, lines, distributions) is sweepparser.cpp.
// Torch-free.
#include "core/learn/api/rng.h"
#include "core/learn/api/sweep.h"
#include "core/learn/api/sweepparser_p.h"
#include "core/learn/torch/pair/probepipeline.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

namespace creditlab::learn {

namespace fs = std::filesystem;

using namespace detail;

namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ConfigError(path + ": cannot read the file");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Where a base config named in a sweep file lives: next to the sweep, else in the shipped config folders.
std::string findBase(const std::string& name, const std::string& baseDir, std::string& looked)
{
    std::vector<std::string> names { name };
    if (fs::path(name).extension().empty())
        names.push_back(name + ".yaml");
    std::vector<std::string> dirs;
    if (!baseDir.empty())
        dirs.push_back(baseDir);
    for (const auto& d : shippedConfigDirs())
        dirs.push_back(d);
    if (fs::path(name).is_absolute())
        dirs = { "" };
    for (const auto& dir : dirs)
        for (const auto& n : names) {
            const fs::path p = dir.empty() ? fs::path(n) : fs::path(dir) / n;
            std::error_code ec;
            if (fs::is_regular_file(p, ec))
                return p.lexically_normal().string();
        }
    for (const auto& dir : dirs)
        looked += (looked.empty() ? "" : ", ") + (dir.empty() ? name : dir);
    return {};
}

/// A point of the trial space: its keys and values in the order of SweepSpec::keys.
using Point = std::vector<std::pair<std::string, std::string>>;

/// Every point of `points` extended by each of `extensions`, the extensions varying fastest.
std::vector<Point> cross(const std::vector<Point>& points, const std::vector<Point>& extensions)
{
    std::vector<Point> out;
    for (const auto& point : points)
        for (const auto& extension : extensions) {
            out.push_back(point);
            out.back().insert(out.back().end(), extension.begin(), extension.end());
        }
    return out;
}

/// Reads one sweep file into a SweepSpec, in the stages SweepSpec::parse runs: each top-level key as it comes
/// (readKey), then the checks and the experiment's parts that need all of them (finish), then the trials (expand) and
/// every trial's config (validate). Every error is a ConfigError naming the file's line.
class SweepReader {
public:
    SweepReader(SweepSpec& spec, const SweepParser& p, std::string baseDir)
        : m_spec(spec)
        , m_p(p)
        , m_baseDir(std::move(baseDir))
    {
    }

    void readKey(const YAML::Node& keyNode, const YAML::Node& v);
    void finish(const std::optional<std::string>& scaleArgument);
    void expand();
    void validate() const;

private:
    void readBase(const YAML::Node& keyNode, const YAML::Node& v);
    void readArms(const YAML::Node& v, int line);
    void readSft(const YAML::Node& v, int line);
    void readGrid(const YAML::Node& v, int line);
    void readRandom(const YAML::Node& v, int line);
    void applySmoke();
    void resolveClaims();
    void resolveProbeClaim(Claim c, const std::string& text, int line);
    void addSeeds();
    void checkSft() const;

    std::vector<std::string> seedList(const YAML::Node& v, int line, const std::string& key) const;
    SweepSpec::Probes probesOf(const YAML::Node& v, int line, const std::string& key) const;
    /// Records a swept or set key's line; a key given twice, or one the sweep sets itself, is an error.
    void claim(const Located& at);
    /// The line of the longest recorded key that `message` names; 0 when it names none.
    int keyLine(const std::string& message) const;

    SweepSpec& m_spec;
    const SweepParser& m_p;
    std::string m_baseDir;
    std::map<std::string, int> m_lines; ///< every swept or set key and its line
    std::vector<std::pair<Located, std::vector<std::string>>> m_grid;
    std::vector<RandomParam> m_random;
    long long m_randomTrials = 0;
    std::uint64_t m_randomSeed = 0;
    std::optional<std::vector<std::string>> m_seeds;
    std::vector<std::string> m_addedSeeds;
    YAML::Node m_smoke;
    std::vector<std::pair<std::string, int>> m_claimTexts;
    int m_baseLine = 0, m_armsLine = 0, m_gridLine = 0, m_scaleLine = 0, m_probesLine = 0, m_sftLine = 0,
        m_addedSeedsLine = 0, m_smokeLine = 0;
};

/// The names of `items` (by `name`), comma-separated: what an error lists as known.
template <typename Items, typename Name> std::string known(const Items& items, Name&& name)
{
    std::string out;
    for (const auto& item : items)
        out += (out.empty() ? "" : ", ") + name(item);
    return out;
}

bool setBySweep(const std::string& key) { return key == "seed" || key == "name" || key == "threads"; }

std::vector<std::string> SweepReader::seedList(const YAML::Node& v, int line, const std::string& key) const
{
    if (!v.IsSequence() || v.size() == 0)
        m_p.fail(line, key + ": expected a list of integers, e.g. [0, 1, 2]");
    std::vector<std::string> out;
    for (const auto& s : v)
        out.push_back(std::to_string(m_p.integer(s, key, 0, 1LL << 62)));
    return out;
}

SweepSpec::Probes SweepReader::probesOf(const YAML::Node& v, int line, const std::string& key) const
{
    if (!v.IsMap())
        m_p.fail(line, key + ": expected seeds: and episodes:, e.g. {seeds: [42, 43, 44], episodes: 600}");
    SweepSpec::Probes plan;
    for (const auto& item : v) {
        const std::string k = item.first.Scalar();
        if (k == "seeds") {
            for (const auto& seed : seedList(item.second, lineOf(item.first), key + ".seeds"))
                plan.seeds.push_back(std::stoll(seed));
        } else if (k == "episodes") {
            plan.episodes = m_p.integer(item.second, key + ".episodes", 10, 1000000);
        } else {
            m_p.fail(lineOf(item.first), key + ": unknown key '" + k + "' (known: seeds, episodes)");
        }
    }
    if (plan.seeds.empty())
        m_p.fail(line, key + ".seeds: missing (one probe table per contamination seed, e.g. [42, 43, 44])");
    return plan;
}

void SweepReader::claim(const Located& at)
{
    if (setBySweep(at.key))
        m_p.fail(
            at.line, at.key + ": set by the sweep (use " + (at.key == "seed" ? "seeds:" : "the top-level key") + ")");
    if (!m_lines.emplace(at.key, at.line).second)
        m_p.fail(at.line, at.key + ": given twice (also on line " + std::to_string(m_lines.at(at.key)) + ")");
}

void SweepReader::readKey(const YAML::Node& keyNode, const YAML::Node& v)
{
    const std::string key = keyNode.Scalar();
    const int line = lineOf(keyNode);
    SweepSpec& spec = m_spec;
    if (key == "name") {
        spec.name = m_p.scalar(v, key);
    } else if (key == "base") {
        readBase(keyNode, v);
    } else if (key == "set") {
        if (!v.IsMap())
            m_p.fail(line, "set: expected a map of keys to values");
        m_p.flatten(v, "", [&](const Located& at, const YAML::Node& value) {
            claim(at);
            spec.fixed.emplace_back(at.key, value.IsNull() ? std::string() : m_p.scalar(value, at.key));
        });
    } else if (key == "arms") {
        readArms(v, line);
    } else if (key == "metrics") {
        if (!v.IsSequence() || v.size() == 0)
            m_p.fail(line, "metrics: expected a list of metric names, e.g. [eval/success, eval/invalid_rate]");
        for (const auto& m : v)
            spec.metrics.push_back(m_p.scalar(m, key));
    } else if (key == "claims") {
        if (!v.IsSequence())
            m_p.fail(line, "claims: expected a list, e.g. - triage > grpo on eval/success at end");
        for (const auto& c : v)
            m_claimTexts.emplace_back(m_p.scalar(c, key), lineOf(c));
    } else if (key == "paper") {
        spec.paper = m_p.scalar(v, key);
    } else if (key == "quote") {
        spec.quote = m_p.scalar(v, key);
    } else if (key == "scale") {
        m_scaleLine = line;
        spec.scale = m_p.scalar(v, key);
        if (spec.scale != "full" && spec.scale != "smoke")
            m_p.fail(line, "scale: expected full or smoke, got '" + spec.scale + "'");
    } else if (key == "sft") {
        readSft(v, line);
    } else if (key == "added_seeds") {
        m_addedSeedsLine = line;
        m_addedSeeds = seedList(v, line, key);
    } else if (key == "probes") {
        m_probesLine = line;
        spec.probes = probesOf(v, line, "probes");
    } else if (key == "smoke") {
        m_smokeLine = line;
        if (!v.IsMap())
            m_p.fail(line, "smoke: expected set: and seeds: for --scale smoke");
        m_smoke = v;
    } else if (key == "grid") {
        readGrid(v, line);
    } else if (key == "random") {
        readRandom(v, line);
    } else if (key == "seeds") {
        m_seeds = seedList(v, line, key);
    } else if (key == "objective") {
        spec.objective = m_p.scalar(v, key);
    } else if (key == "objective_mode") {
        spec.objectiveMode = m_p.scalar(v, key);
        if (spec.objectiveMode != "best" && spec.objectiveMode != "last")
            m_p.fail(line, "objective_mode: expected best or last, got '" + spec.objectiveMode + "'");
    } else if (key == "workers") {
        spec.workers = static_cast<int>(m_p.integer(v, key, 1, 256));
    } else if (key == "threads") {
        spec.threads = static_cast<int>(m_p.integer(v, key, 0, 256));
    } else {
        m_p.fail(line,
            "unknown key '" + key
                + "' (known: name, base, set, grid, random, seeds, objective, objective_mode, workers, threads; "
                  "experiments: arms, metrics, claims, sft, smoke, scale, paper, quote, probes, added_seeds)");
    }
}

void SweepReader::readBase(const YAML::Node& keyNode, const YAML::Node& v)
{
    const int line = lineOf(keyNode);
    m_baseLine = line;
    if (v.IsMap()) {
        m_spec.basePath = "inline";
        m_spec.baseText = YAML::Dump(v);
        return;
    }
    const std::string name = m_p.scalar(v, "base");
    // Where storedText() can put the base's text in its place: a sweep it could not store would fail at its start.
    if (keyNode.Mark().column != 0 || v.Mark().line != keyNode.Mark().line)
        m_p.fail(line, "base: write it as 'base: FILE' at the start of a line of its own");
    std::string looked;
    m_spec.basePath = findBase(name, m_baseDir, looked);
    if (m_spec.basePath.empty())
        m_p.fail(line, "base: cannot find '" + v.Scalar() + "' (looked in " + looked + ")");
    m_spec.baseText = readFile(m_spec.basePath);
}

void SweepReader::readArms(const YAML::Node& v, int line)
{
    m_armsLine = line;
    if (!v.IsMap() || v.size() == 0)
        m_p.fail(line, "arms: expected a map of arm names to their overrides, e.g. grpo: {credit.method: grpo}");
    for (const auto& a : v) {
        SweepArm arm;
        arm.name = m_p.scalar(a.first, "arms");
        arm.line = lineOf(a.first);
        const bool nameOk = !arm.name.empty() && std::all_of(arm.name.begin(), arm.name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
        });
        if (!nameOk)
            m_p.fail(arm.line, "arms: '" + arm.name + "': an arm name is letters, digits, '_', '-' and '.'");
        for (const auto& other : m_spec.arms)
            if (other.name == arm.name)
                m_p.fail(
                    arm.line, "arms: '" + arm.name + "' given twice (also on line " + std::to_string(other.line) + ")");
        if (a.second.IsMap()) {
            m_p.flatten(a.second, "", [&](const Located& at, const YAML::Node& value) {
                if (setBySweep(at.key))
                    m_p.fail(at.line, "arms." + arm.name + "." + at.key + ": set by the experiment");
                arm.overrides.emplace_back(at.key, value.IsNull() ? std::string() : m_p.scalar(value, at.key));
                m_lines.emplace(at.key, at.line);
            });
        } else if (!a.second.IsNull() && !(a.second.IsScalar() && a.second.Scalar().empty())) {
            m_p.fail(arm.line, "arms: " + arm.name + ": expected a map of overrides ({} for the base as it is)");
        }
        m_spec.arms.push_back(std::move(arm));
    }
}

void SweepReader::readSft(const YAML::Node& v, int line)
{
    m_sftLine = line;
    std::string& sft = m_spec.sft;
    if (v.IsMap()) {
        // per_seed with the starts given so far: what the stored text records as each seed's SFT trains.
        sft = "per_seed";
        for (const auto& item : v) {
            const auto seed = m_p.integer(item.first, "sft", 0, 1LL << 62);
            m_spec.sftRuns[seed] = m_p.integer(item.second, "sft." + std::to_string(seed), 1, 1LL << 62);
        }
        return;
    }
    sft = m_p.scalar(v, "sft");
    const bool named = sft == "shared" || sft == "per_seed" || sft == "none";
    if (!named && sft.find_first_not_of("0123456789") != std::string::npos)
        m_p.fail(
            line, "sft: expected shared, per_seed, none, a run id or a map of seeds to run ids, got '" + sft + "'");
    if (!named)
        sft = std::to_string(m_p.integer(v, "sft", 1, 1LL << 62));
}

void SweepReader::readGrid(const YAML::Node& v, int line)
{
    m_gridLine = line;
    if (!v.IsMap())
        m_p.fail(line, "grid: expected a map of keys to lists of values");
    m_p.flatten(v, "", [&](const Located& at, const YAML::Node& values) {
        claim(at);
        if (!values.IsSequence() || values.size() == 0)
            m_p.fail(at.line, at.key + ": expected a list of values, e.g. [0.25, 0.5]");
        std::vector<std::string> list;
        for (const auto& x : values)
            list.push_back(m_p.scalar(x, at.key));
        m_grid.emplace_back(at, std::move(list));
    });
}

void SweepReader::readRandom(const YAML::Node& v, int line)
{
    if (!v.IsMap())
        m_p.fail(line, "random: expected trials, seed and params");
    for (const auto& r : v) {
        const std::string rk = r.first.Scalar();
        if (rk == "trials") {
            m_randomTrials = m_p.integer(r.second, "random.trials", 1, 100000);
        } else if (rk == "seed") {
            m_randomSeed = static_cast<std::uint64_t>(m_p.integer(r.second, "random.seed", 0, 1LL << 62));
        } else if (rk == "params") {
            if (!r.second.IsMap())
                m_p.fail(lineOf(r.first), "random.params: expected a map of keys to distributions");
            m_p.flatten(r.second, "", [&](const Located& at, const YAML::Node& d) {
                claim(at);
                m_random.push_back(m_p.distribution(at, d));
            });
        } else {
            m_p.fail(lineOf(r.first), "random: unknown key '" + rk + "' (known: trials, seed, params)");
        }
    }
    if (m_random.empty() || m_randomTrials == 0)
        m_p.fail(line, "random: needs trials and params");
}

void SweepReader::finish(const std::optional<std::string>& scaleArgument)
{
    SweepSpec& spec = m_spec;
    if (scaleArgument)
        spec.scale = *scaleArgument;
    if (spec.scale != "full" && spec.scale != "smoke")
        m_p.fail(m_scaleLine, "scale: expected full or smoke, got '" + spec.scale + "'");
    if (spec.arms.empty()) {
        for (const auto& [what, given] :
            { std::pair<const char*, bool> { "claims", !m_claimTexts.empty() }, { "metrics", !spec.metrics.empty() },
                { "smoke", m_smokeLine > 0 }, { "probes", m_probesLine > 0 }, { "added_seeds", m_addedSeedsLine > 0 } })
            if (given)
                m_p.fail(1, std::string(what) + ": only an experiment has it (add arms:)");
    } else {
        if (m_gridLine > 0 || !m_random.empty())
            m_p.fail(m_gridLine > 0 ? m_gridLine : m_armsLine,
                "an experiment's trials are its arms x seeds: no grid or random");
        if (spec.scale == "smoke")
            applySmoke();
        if (spec.metrics.empty())
            spec.metrics.push_back(spec.objective);
        resolveClaims();
        addSeeds();
        checkSft();
    }
    if (spec.baseText.empty() && m_baseLine == 0)
        m_p.fail(1, "base: missing (the train config every trial starts from)");
    if (spec.name.empty())
        m_p.fail(1, "name: must not be empty");
}

void SweepReader::applySmoke()
{
    if (m_smokeLine == 0)
        m_p.fail(m_armsLine, "--scale smoke: this experiment has no smoke: section");
    for (const auto& item : m_smoke) {
        const std::string sk = item.first.Scalar();
        if (sk == "set") {
            if (!item.second.IsMap())
                m_p.fail(lineOf(item.first), "smoke.set: expected a map of keys to values");
            m_p.flatten(item.second, "", [&](const Located& at, const YAML::Node& value) {
                if (setBySweep(at.key))
                    m_p.fail(at.line, "smoke.set." + at.key + ": set by the experiment");
                const std::string text = value.IsNull() ? std::string() : m_p.scalar(value, at.key);
                auto& fixed = m_spec.fixed;
                auto it = std::find_if(fixed.begin(), fixed.end(), [&](const auto& kv) { return kv.first == at.key; });
                if (it != fixed.end())
                    it->second = text;
                else
                    fixed.emplace_back(at.key, text);
                m_lines[at.key] = at.line;
            });
        } else if (sk == "seeds") {
            m_seeds = seedList(item.second, lineOf(item.first), "smoke.seeds");
        } else if (sk == "workers") {
            m_spec.workers = static_cast<int>(m_p.integer(item.second, "smoke.workers", 1, 256));
        } else if (sk == "probes") {
            if (m_probesLine == 0)
                m_p.fail(lineOf(item.first), "smoke.probes: the experiment has no probes:");
            m_spec.probes = probesOf(item.second, lineOf(item.first), "smoke.probes");
        } else {
            m_p.fail(lineOf(item.first), "smoke: unknown key '" + sk + "' (known: set, seeds, workers, probes)");
        }
    }
}

void SweepReader::resolveClaims()
{
    for (const auto& [text, line] : m_claimTexts) {
        Claim c;
        try {
            c = Claim::parse(text);
        } catch (const std::invalid_argument& e) {
            m_p.fail(line, std::string("claims: ") + e.what());
        }
        if (isProbeMetric(c.metric)) {
            resolveProbeClaim(std::move(c), text, line);
            continue;
        }
        for (const auto* arm : { &c.left, &c.right })
            if (std::none_of(m_spec.arms.begin(), m_spec.arms.end(), [&](const SweepArm& a) { return a.name == *arm; }))
                m_p.fail(line,
                    "claims: '" + text + "': no arm named '" + *arm
                        + "' (arms: " + known(m_spec.arms, [](const SweepArm& a) { return a.name; }) + ")");
        if (std::find(m_spec.metrics.begin(), m_spec.metrics.end(), c.metric) == m_spec.metrics.end())
            m_spec.metrics.push_back(c.metric);
        m_spec.claims.push_back(std::move(c));
    }
}

/// A probe claim: its "arms" are probes of the experiment's probe tables, one value per seed.
void SweepReader::resolveProbeClaim(Claim c, const std::string& text, int line)
{
    const auto same = [](const std::string& s) { return s; };
    const auto& metrics = probeClaimMetrics();
    if (std::find(metrics.begin(), metrics.end(), c.metric) == metrics.end())
        m_p.fail(line,
            "claims: '" + text + "': unknown probe metric '" + c.metric + "' (known: " + known(metrics, same) + ")");
    if (!m_spec.probes)
        m_p.fail(line, "claims: '" + text + "': a probe claim needs probes: (the tables it reads)");
    if (c.statistic != ClaimStatistic::End)
        m_p.fail(line, "claims: '" + text + "': a probe table has one value per seed (no 'at' or 'auc')");
    const auto names = probeNames();
    for (const auto* probe : { &c.left, &c.right })
        if (std::find(names.begin(), names.end(), *probe) == names.end())
            m_p.fail(
                line, "claims: '" + text + "': no probe named '" + *probe + "' (probes: " + known(names, same) + ")");
    m_spec.claims.push_back(std::move(c));
}

void SweepReader::addSeeds()
{
    if (m_addedSeedsLine == 0)
        return;
    if (!m_seeds)
        m_p.fail(m_addedSeedsLine, "added_seeds: the experiment has no seeds: to add them to");
    for (const auto& seed : m_addedSeeds) {
        if (std::find(m_seeds->begin(), m_seeds->end(), seed) != m_seeds->end())
            m_p.fail(m_addedSeedsLine, "added_seeds: seed " + seed + " is in the experiment's seeds already");
        m_seeds->push_back(seed);
        m_spec.addedSeeds.push_back(std::stoll(seed));
    }
}

void SweepReader::checkSft() const
{
    const std::string& sft = m_spec.sft;
    if (sft == "per_seed" && !m_seeds)
        m_p.fail(m_sftLine, "sft: per_seed trains an SFT start for each seed, and the experiment has no seeds:");
    if (m_spec.probes && sft == "none")
        m_p.fail(m_probesLine, "probes: the tables read the shared SFT policy, and sft: none has none");
    if (m_spec.probes && sft == "per_seed")
        m_p.fail(m_probesLine, "probes: the tables read the shared SFT policy, and sft: per_seed has one per seed");
    if (sft != "shared" && sft != "per_seed")
        return;
    for (const auto& arm : m_spec.arms)
        for (const auto& [k, value] : arm.overrides)
            for (const char* fixedBySft : { "sft.", "policy.", "env." })
                if (k.rfind(fixedBySft, 0) == 0) {
                    const auto line = m_lines.find(k);
                    m_p.fail(line != m_lines.end() ? line->second : arm.line,
                        "arms." + arm.name + "." + k
                            + ": the shared SFT start fixes it for every arm (sft: none trains one per trial)");
                }
}

// Grid points (first key slowest) × random samples × seeds (fastest); an experiment's arms × seeds.
void SweepReader::expand()
{
    SweepSpec& spec = m_spec;
    std::vector<Point> points { {} };
    if (!spec.arms.empty()) {
        spec.keys.push_back("arm");
        points.clear();
        for (const auto& arm : spec.arms)
            points.push_back({ { "arm", arm.name } });
    }
    for (const auto& [at, values] : m_grid) {
        spec.keys.push_back(at.key);
        std::vector<Point> extensions;
        for (const auto& value : values)
            extensions.push_back({ { at.key, value } });
        points = cross(points, extensions);
    }
    if (!m_random.empty()) {
        Rng rng(m_randomSeed * 0x9e3779b97f4a7c15ULL + 1);
        std::vector<Point> samples;
        for (long long t = 0; t < m_randomTrials; ++t) {
            samples.emplace_back();
            for (const auto& param : m_random)
                samples.back().emplace_back(param.at.key, sample(param, rng));
        }
        for (const auto& param : m_random)
            spec.keys.push_back(param.at.key);
        points = cross(points, samples);
    }
    if (m_seeds) {
        spec.keys.push_back("seed");
        std::vector<Point> extensions;
        for (const auto& seed : *m_seeds)
            extensions.push_back({ { "seed", seed } });
        points = cross(points, extensions);
    }
    for (auto& point : points)
        spec.trials.push_back({ static_cast<int>(spec.trials.size()), std::move(point) });
}

int SweepReader::keyLine(const std::string& message) const
{
    int best = 0;
    std::size_t bestLength = 0;
    for (const auto& [k, line] : m_lines)
        if (k.size() > bestLength
            && (message.find("'" + k + "'") != std::string::npos || message.find(k + ":") != std::string::npos)) {
            best = line;
            bestLength = k.size();
        }
    return best;
}

// Every trial's config, validated now: an error names the sweep file's line for the key, and the trial.
void SweepReader::validate() const
{
    const std::string& source = m_spec.source;
    for (const auto& trial : m_spec.trials) {
        try {
            (void)m_spec.trialConfig(trial);
        } catch (const ConfigError& e) {
            std::string message = e.what();
            if (message.rfind("--set: ", 0) == 0)
                message = message.substr(7);
            const int line = keyLine(message);
            const std::string where = line > 0 ? source + ":" + std::to_string(line) + ": " : source + ": ";
            throw ConfigError(where + message + " (trial " + std::to_string(trial.index + 1) + ": "
                + (trial.point.empty() ? std::string("base + set") : trial.paramsText()) + ")");
        }
    }
}

} // namespace

SweepSpec SweepSpec::parse(const std::string& yamlText, const std::string& source, const std::string& baseDir,
    const std::optional<std::string>& scaleArgument)
{
    const SweepParser p(source);
    YAML::Node root;
    try {
        root = YAML::Load(yamlText);
    } catch (const YAML::Exception& e) {
        p.fail(e.mark.line + 1, "malformed YAML: " + e.msg);
    }
    if (!root.IsMap())
        p.fail(1, "a sweep file is a map of keys to values");
    p.checkMaps(root);

    SweepSpec spec;
    spec.source = source;
    spec.text = yamlText;
    spec.name = fs::path(source).stem().string();
    SweepReader reader(spec, p, baseDir);
    for (const auto& item : root)
        reader.readKey(item.first, item.second);
    reader.finish(scaleArgument);
    reader.expand();
    reader.validate();
    return spec;
}

SweepSpec SweepSpec::load(const std::string& path, const std::optional<std::string>& scale)
{
    const std::string text = readFile(path);
    // "sweep.yaml" has no parent: its base is looked for in the working directory.
    const fs::path parent = fs::path(path).parent_path();
    return parse(text, path, parent.empty() ? std::string(".") : parent.string(), scale);
}

} // namespace creditlab::learn
