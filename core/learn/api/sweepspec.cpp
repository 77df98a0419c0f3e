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

} // namespace

SweepSpec SweepSpec::parse(const std::string& yamlText, const std::string& source, const std::string& baseDir,
    const std::optional<std::string>& scaleArgument)
{
    SweepParser p(source);
    YAML::Node root;
    try {
        root = YAML::Load(yamlText);
    } catch (const YAML::Exception& e) {
        p.fail(e.mark.line + 1, "malformed YAML: " + e.msg);
    }
    if (!root.IsMap())
        p.fail(1, "a sweep file is a map of keys to values");
    p.requireColons(root);

    SweepSpec spec;
    spec.source = source;
    spec.text = yamlText;
    spec.name = fs::path(source).stem().string();
    std::map<std::string, int> lines; // every swept or set key and its line
    std::vector<std::pair<Located, std::vector<std::string>>> grid;
    std::vector<RandomParam> random;
    long long randomTrials = 0;
    std::uint64_t randomSeed = 0;
    std::optional<std::vector<std::string>> seeds;
    int baseLine = 0;
    int armsLine = 0, gridLine = 0, scaleLine = 0, probesLine = 0, sftLine = 0, addedSeedsLine = 0;
    std::vector<std::string> addedSeeds;
    YAML::Node smoke;
    int smokeLine = 0;
    std::vector<std::pair<std::string, int>> claimTexts;
    const auto seedList = [&](const YAML::Node& v, int line, const std::string& key) {
        if (!v.IsSequence() || v.size() == 0)
            p.fail(line, key + ": expected a list of integers, e.g. [0, 1, 2]");
        std::vector<std::string> out;
        for (const auto& s : v)
            out.push_back(std::to_string(p.integer(s, key, 0, 1LL << 62)));
        return out;
    };
    const auto probesOf = [&](const YAML::Node& v, int line, const std::string& key) {
        if (!v.IsMap())
            p.fail(line, key + ": expected seeds: and episodes:, e.g. {seeds: [42, 43, 44], episodes: 600}");
        SweepSpec::Probes plan;
        for (const auto& item : v) {
            const std::string k = item.first.Scalar();
            if (k == "seeds") {
                for (const auto& seed : seedList(item.second, lineOf(item.first), key + ".seeds"))
                    plan.seeds.push_back(std::stoll(seed));
            } else if (k == "episodes") {
                plan.episodes = p.integer(item.second, key + ".episodes", 10, 1000000);
            } else {
                p.fail(lineOf(item.first), key + ": unknown key '" + k + "' (known: seeds, episodes)");
            }
        }
        if (plan.seeds.empty())
            p.fail(line, key + ".seeds: missing (one probe table per contamination seed, e.g. [42, 43, 44])");
        return plan;
    };
    const auto claim = [&](const Located& at) {
        if (at.key == "seed" || at.key == "name" || at.key == "threads")
            p.fail(at.line,
                at.key + ": set by the sweep (use " + (at.key == "seed" ? "seeds:" : "the top-level key") + ")");
        if (!lines.emplace(at.key, at.line).second)
            p.fail(at.line, at.key + ": given twice (also on line " + std::to_string(lines[at.key]) + ")");
    };

    for (const auto& item : root) {
        const std::string key = item.first.Scalar();
        const YAML::Node& v = item.second;
        const int line = lineOf(item.first);
        if (key == "name") {
            spec.name = p.scalar(v, key);
        } else if (key == "base") {
            baseLine = line;
            if (v.IsMap()) {
                spec.basePath = "inline";
                spec.baseText = YAML::Dump(v);
            } else {
                std::string looked;
                spec.basePath = findBase(p.scalar(v, key), baseDir, looked);
                if (spec.basePath.empty())
                    p.fail(line, "base: cannot find '" + v.Scalar() + "' (looked in " + looked + ")");
                spec.baseText = readFile(spec.basePath);
            }
        } else if (key == "set") {
            if (!v.IsMap())
                p.fail(line, "set: expected a map of keys to values");
            p.flatten(v, "", [&](const Located& at, const YAML::Node& value) {
                claim(at);
                spec.fixed.emplace_back(at.key, value.IsNull() ? std::string() : p.scalar(value, at.key));
            });
        } else if (key == "arms") {
            armsLine = line;
            if (!v.IsMap() || v.size() == 0)
                p.fail(line, "arms: expected a map of arm names to their overrides, e.g. grpo: {credit.method: grpo}");
            for (const auto& a : v) {
                SweepArm arm;
                arm.name = p.scalar(a.first, "arms");
                arm.line = lineOf(a.first);
                const bool nameOk = !arm.name.empty()
                    && std::all_of(arm.name.begin(), arm.name.end(), [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
                       });
                if (!nameOk)
                    p.fail(arm.line, "arms: '" + arm.name + "': an arm name is letters, digits, '_', '-' and '.'");
                for (const auto& other : spec.arms)
                    if (other.name == arm.name)
                        p.fail(arm.line, "arms: '" + arm.name + "' given twice (also on line " + std::to_string(other.line) + ")");
                if (a.second.IsMap()) {
                    p.flatten(a.second, "", [&](const Located& at, const YAML::Node& value) {
                        if (at.key == "seed" || at.key == "name" || at.key == "threads")
                            p.fail(at.line, "arms." + arm.name + "." + at.key + ": set by the experiment");
                        arm.overrides.emplace_back(at.key, value.IsNull() ? std::string() : p.scalar(value, at.key));
                        lines.emplace(at.key, at.line);
                    });
                } else if (!a.second.IsNull() && !(a.second.IsScalar() && a.second.Scalar().empty())) {
                    p.fail(arm.line, "arms: " + arm.name + ": expected a map of overrides ({} for the base as it is)");
                }
                spec.arms.push_back(std::move(arm));
            }
        } else if (key == "metrics") {
            if (!v.IsSequence() || v.size() == 0)
                p.fail(line, "metrics: expected a list of metric names, e.g. [eval/success, eval/invalid_rate]");
            for (const auto& m : v)
                spec.metrics.push_back(p.scalar(m, key));
        } else if (key == "claims") {
            if (!v.IsSequence())
                p.fail(line, "claims: expected a list, e.g. - triage > grpo on eval/success at end");
            for (const auto& c : v)
                claimTexts.emplace_back(p.scalar(c, key), lineOf(c));
        } else if (key == "paper") {
            spec.paper = p.scalar(v, key);
        } else if (key == "quote") {
            spec.quote = p.scalar(v, key);
        } else if (key == "scale") {
            scaleLine = line;
            spec.scale = p.scalar(v, key);
            if (spec.scale != "full" && spec.scale != "smoke")
                p.fail(line, "scale: expected full or smoke, got '" + spec.scale + "'");
        } else if (key == "sft") {
            sftLine = line;
            if (v.IsMap()) {
                // per_seed with the starts given so far: what the stored text records as each seed's SFT trains.
                spec.sft = "per_seed";
                for (const auto& item : v) {
                    const auto seed = p.integer(item.first, "sft", 0, 1LL << 62);
                    spec.sftRuns[seed] = p.integer(item.second, "sft." + std::to_string(seed), 1, 1LL << 62);
                }
            } else {
                spec.sft = p.scalar(v, key);
                if (spec.sft.find_first_not_of("0123456789") != std::string::npos && spec.sft != "shared"
                    && spec.sft != "per_seed" && spec.sft != "none")
                    p.fail(line,
                        "sft: expected shared, per_seed, none, a run id or a map of seeds to run ids, got '" + spec.sft
                            + "'");
                if (spec.sft != "shared" && spec.sft != "per_seed" && spec.sft != "none")
                    spec.sft = std::to_string(p.integer(v, key, 1, 1LL << 62));
            }
        } else if (key == "added_seeds") {
            addedSeedsLine = line;
            addedSeeds = seedList(v, line, key);
        } else if (key == "probes") {
            probesLine = line;
            spec.probes = probesOf(v, line, "probes");
        } else if (key == "smoke") {
            smokeLine = line;
            if (!v.IsMap())
                p.fail(line, "smoke: expected set: and seeds: for --scale smoke");
            smoke = v;
        } else if (key == "grid") {
            gridLine = line;
            if (!v.IsMap())
                p.fail(line, "grid: expected a map of keys to lists of values");
            p.flatten(v, "", [&](const Located& at, const YAML::Node& values) {
                claim(at);
                if (!values.IsSequence() || values.size() == 0)
                    p.fail(at.line, at.key + ": expected a list of values, e.g. [0.25, 0.5]");
                std::vector<std::string> list;
                for (const auto& x : values)
                    list.push_back(p.scalar(x, at.key));
                grid.emplace_back(at, std::move(list));
            });
        } else if (key == "random") {
            if (!v.IsMap())
                p.fail(line, "random: expected trials, seed and params");
            for (const auto& r : v) {
                const std::string rk = r.first.Scalar();
                if (rk == "trials")
                    randomTrials = p.integer(r.second, "random.trials", 1, 100000);
                else if (rk == "seed")
                    randomSeed = static_cast<std::uint64_t>(p.integer(r.second, "random.seed", 0, 1LL << 62));
                else if (rk == "params") {
                    if (!r.second.IsMap())
                        p.fail(lineOf(r.first), "random.params: expected a map of keys to distributions");
                    p.flatten(r.second, "", [&](const Located& at, const YAML::Node& d) {
                        claim(at);
                        random.push_back(p.distribution(at, d));
                    });
                } else
                    p.fail(lineOf(r.first), "random: unknown key '" + rk + "' (known: trials, seed, params)");
            }
            if (random.empty() || randomTrials == 0)
                p.fail(line, "random: needs trials and params");
        } else if (key == "seeds") {
            seeds = seedList(v, line, key);
        } else if (key == "objective") {
            spec.objective = p.scalar(v, key);
        } else if (key == "objective_mode") {
            spec.objectiveMode = p.scalar(v, key);
            if (spec.objectiveMode != "best" && spec.objectiveMode != "last")
                p.fail(line, "objective_mode: expected best or last, got '" + spec.objectiveMode + "'");
        } else if (key == "workers") {
            spec.workers = static_cast<int>(p.integer(v, key, 1, 256));
        } else if (key == "threads") {
            spec.threads = static_cast<int>(p.integer(v, key, 0, 256));
        } else {
            p.fail(line,
                "unknown key '" + key
                    + "' (known: name, base, set, grid, random, seeds, objective, objective_mode, workers, threads; "
                      "experiments: arms, metrics, claims, sft, smoke, scale, paper, quote, probes, added_seeds)");
        }
    }
    if (scaleArgument)
        spec.scale = *scaleArgument;
    if (spec.scale != "full" && spec.scale != "smoke")
        p.fail(scaleLine, "scale: expected full or smoke, got '" + spec.scale + "'");
    if (spec.arms.empty()) {
        for (const auto& [what, given] :
            { std::pair<const char*, bool> { "claims", !claimTexts.empty() }, { "metrics", !spec.metrics.empty() },
                { "smoke", smokeLine > 0 }, { "probes", probesLine > 0 }, { "added_seeds", addedSeedsLine > 0 } })
            if (given)
                p.fail(1, std::string(what) + ": only an experiment has it (add arms:)");
    } else {
        if (gridLine > 0 || !random.empty())
            p.fail(gridLine > 0 ? gridLine : armsLine, "an experiment's trials are its arms x seeds: no grid or random");
        if (spec.scale == "smoke") {
            if (smokeLine == 0)
                p.fail(armsLine, "--scale smoke: this experiment has no smoke: section");
            for (const auto& item : smoke) {
                const std::string sk = item.first.Scalar();
                if (sk == "set") {
                    if (!item.second.IsMap())
                        p.fail(lineOf(item.first), "smoke.set: expected a map of keys to values");
                    p.flatten(item.second, "", [&](const Located& at, const YAML::Node& value) {
                        if (at.key == "seed" || at.key == "name" || at.key == "threads")
                            p.fail(at.line, "smoke.set." + at.key + ": set by the experiment");
                        const std::string text = value.IsNull() ? std::string() : p.scalar(value, at.key);
                        auto it = std::find_if(spec.fixed.begin(), spec.fixed.end(), [&](const auto& kv) { return kv.first == at.key; });
                        if (it != spec.fixed.end())
                            it->second = text;
                        else
                            spec.fixed.emplace_back(at.key, text);
                        lines[at.key] = at.line;
                    });
                } else if (sk == "seeds") {
                    seeds = seedList(item.second, lineOf(item.first), "smoke.seeds");
                } else if (sk == "workers") {
                    spec.workers = static_cast<int>(p.integer(item.second, "smoke.workers", 1, 256));
                } else if (sk == "probes") {
                    if (probesLine == 0)
                        p.fail(lineOf(item.first), "smoke.probes: the experiment has no probes:");
                    spec.probes = probesOf(item.second, lineOf(item.first), "smoke.probes");
                } else {
                    p.fail(lineOf(item.first), "smoke: unknown key '" + sk + "' (known: set, seeds, workers, probes)");
                }
            }
        }
        if (spec.metrics.empty())
            spec.metrics.push_back(spec.objective);
        for (const auto& [text, line] : claimTexts) {
            Claim c;
            try {
                c = Claim::parse(text);
            } catch (const std::invalid_argument& e) {
                p.fail(line, std::string("claims: ") + e.what());
            }
            if (isProbeMetric(c.metric)) {
                // A probe claim: its "arms" are probes of the experiment's probe tables, one value per seed.
                const auto& metrics = probeClaimMetrics();
                if (std::find(metrics.begin(), metrics.end(), c.metric) == metrics.end()) {
                    std::string known;
                    for (const auto& m : metrics)
                        known += (known.empty() ? "" : ", ") + m;
                    p.fail(line, "claims: '" + text + "': unknown probe metric '" + c.metric + "' (known: " + known + ")");
                }
                if (!spec.probes)
                    p.fail(line, "claims: '" + text + "': a probe claim needs probes: (the tables it reads)");
                if (c.statistic != ClaimStatistic::End)
                    p.fail(line, "claims: '" + text + "': a probe table has one value per seed (no 'at' or 'auc')");
                const auto names = probeNames();
                for (const auto* probe : { &c.left, &c.right })
                    if (std::find(names.begin(), names.end(), *probe) == names.end()) {
                        std::string known;
                        for (const auto& n : names)
                            known += (known.empty() ? "" : ", ") + n;
                        p.fail(line, "claims: '" + text + "': no probe named '" + *probe + "' (probes: " + known + ")");
                    }
                spec.claims.push_back(std::move(c));
                continue;
            }
            for (const auto* arm : { &c.left, &c.right })
                if (std::none_of(spec.arms.begin(), spec.arms.end(), [&](const SweepArm& a) { return a.name == *arm; })) {
                    std::string known;
                    for (const auto& a : spec.arms)
                        known += (known.empty() ? "" : ", ") + a.name;
                    p.fail(line, "claims: '" + text + "': no arm named '" + *arm + "' (arms: " + known + ")");
                }
            if (std::find(spec.metrics.begin(), spec.metrics.end(), c.metric) == spec.metrics.end())
                spec.metrics.push_back(c.metric);
            spec.claims.push_back(std::move(c));
        }
        if (addedSeedsLine > 0) {
            if (!seeds)
                p.fail(addedSeedsLine, "added_seeds: the experiment has no seeds: to add them to");
            for (const auto& seed : addedSeeds) {
                if (std::find(seeds->begin(), seeds->end(), seed) != seeds->end())
                    p.fail(addedSeedsLine, "added_seeds: seed " + seed + " is in the experiment's seeds already");
                seeds->push_back(seed);
                spec.addedSeeds.push_back(std::stoll(seed));
            }
        }
        if (spec.sft == "per_seed" && !seeds)
            p.fail(sftLine, "sft: per_seed trains an SFT start for each seed, and the experiment has no seeds:");
        if (spec.probes && spec.sft == "none")
            p.fail(probesLine, "probes: the tables read the shared SFT policy, and sft: none has none");
        if (spec.probes && spec.sft == "per_seed")
            p.fail(probesLine, "probes: the tables read the shared SFT policy, and sft: per_seed has one per seed");
        if (spec.sft == "shared" || spec.sft == "per_seed")
            for (const auto& arm : spec.arms)
                for (const auto& [k, value] : arm.overrides)
                    for (const char* fixedBySft : { "sft.", "policy.", "env." })
                        if (k.rfind(fixedBySft, 0) == 0)
                            p.fail(lines.count(k) ? lines[k] : arm.line,
                                "arms." + arm.name + "." + k + ": the shared SFT start fixes it for every arm (sft: none "
                                "trains one per trial)");
    }
    if (spec.baseText.empty() && baseLine == 0)
        p.fail(1, "base: missing (the train config every trial starts from)");
    if (spec.name.empty())
        p.fail(1, "name: must not be empty");

    // Grid points (first key slowest) × random samples × seeds (fastest); an experiment's arms × seeds.
    std::vector<std::vector<std::pair<std::string, std::string>>> points { {} };
    if (!spec.arms.empty()) {
        spec.keys.push_back("arm");
        points.clear();
        for (const auto& arm : spec.arms)
            points.push_back({ { "arm", arm.name } });
    }
    for (const auto& [at, values] : grid) {
        spec.keys.push_back(at.key);
        std::vector<std::vector<std::pair<std::string, std::string>>> next;
        for (const auto& point : points)
            for (const auto& value : values) {
                next.push_back(point);
                next.back().emplace_back(at.key, value);
            }
        points = std::move(next);
    }
    if (!random.empty()) {
        Rng rng(randomSeed * 0x9e3779b97f4a7c15ULL + 1);
        std::vector<std::vector<std::pair<std::string, std::string>>> samples;
        for (long long t = 0; t < randomTrials; ++t) {
            samples.emplace_back();
            for (const auto& param : random)
                samples.back().emplace_back(param.at.key, sample(param, rng));
        }
        for (const auto& param : random)
            spec.keys.push_back(param.at.key);
        std::vector<std::vector<std::pair<std::string, std::string>>> next;
        for (const auto& point : points)
            for (const auto& s : samples) {
                next.push_back(point);
                next.back().insert(next.back().end(), s.begin(), s.end());
            }
        points = std::move(next);
    }
    if (seeds) {
        spec.keys.push_back("seed");
        std::vector<std::vector<std::pair<std::string, std::string>>> next;
        for (const auto& point : points)
            for (const auto& s : *seeds) {
                next.push_back(point);
                next.back().emplace_back("seed", s);
            }
        points = std::move(next);
    }
    for (auto& point : points)
        spec.trials.push_back({ static_cast<int>(spec.trials.size()), std::move(point) });

    // Every trial's config, validated now: an error names the sweep file's line for the key, and the trial.
    const auto keyLine = [&](const std::string& message) {
        int best = 0;
        std::size_t bestLength = 0;
        for (const auto& [k, line] : lines)
            if (k.size() > bestLength
                && (message.find("'" + k + "'") != std::string::npos || message.find(k + ":") != std::string::npos)) {
                best = line;
                bestLength = k.size();
            }
        return best;
    };
    for (const auto& trial : spec.trials) {
        try {
            (void)spec.trialConfig(trial);
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
