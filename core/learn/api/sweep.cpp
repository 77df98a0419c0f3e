// Sweep trials: their parameters, names, configs and thread budget, the stored text, the shipped config folders.
// Torch-free (the GUI links it without LibTorch); running a sweep is sweeprunner.cpp.
#include "core/learn/api/sweep.h"


#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

namespace creditlab::learn {

namespace fs = std::filesystem;

std::string SweepTrialSpec::paramsText() const
{
    std::string out;
    for (const auto& [k, v] : point)
        out += (out.empty() ? "" : ",") + k + "=" + v;
    return out;
}

std::vector<std::pair<std::string, std::string>> SweepTrialSpec::parseParams(const std::string& text)
{
    std::vector<std::pair<std::string, std::string>> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw std::invalid_argument("malformed trial params '" + text + "' (expected key=value,key=value)");
        out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
    return out;
}

std::string SweepTrialSpec::value(const std::string& key) const
{
    for (const auto& [k, v] : point)
        if (k == key)
            return v;
    return {};
}

std::string SweepSpec::trialRunName(const SweepTrialSpec& trial) const
{
    std::string out = name;
    for (const auto& [k, v] : trial.point)
        out += "-" + k.substr(k.rfind('.') == std::string::npos ? 0 : k.rfind('.') + 1) + "=" + v;
    return out;
}

int SweepSpec::trialThreads() const
{
    if (threads > 0)
        return threads;
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return std::max(1, cores / std::max(1, workers));
}

void SweepSpec::checkResources() const
{
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    if (cores > 0 && workers * trialThreads() > cores)
        throw ConfigError(source + ": workers (" + std::to_string(workers) + ") × threads ("
            + std::to_string(trialThreads()) + ") = " + std::to_string(workers * trialThreads()) + " exceeds the "
            + std::to_string(cores) + " cores of this machine; lower workers or threads");
}

TrainConfig SweepSpec::trialConfig(const SweepTrialSpec& trial) const
{
    auto overrides = fixed;
    for (const auto& [key, value] : trial.point) {
        if (key != "arm" || arms.empty()) {
            overrides.emplace_back(key, value);
            continue;
        }
        const std::string& name = value; // clang before 16 cannot capture a structured binding
        const auto arm = std::find_if(arms.begin(), arms.end(), [&](const SweepArm& a) { return a.name == name; });
        if (arm == arms.end())
            throw ConfigError(source + ": no arm named '" + value + "'");
        overrides.insert(overrides.end(), arm->overrides.begin(), arm->overrides.end());
    }
    if (isExperiment() && sft == "per_seed") {
        // A seed without a start yet (while its SFT is to be trained, or when parse() validates) has no from_run.
        const std::string seed = trial.value("seed");
        if (!seed.empty())
            if (const auto run = sftRuns.find(std::stoll(seed)); run != sftRuns.end())
                overrides.emplace_back("sft.from_run", std::to_string(run->second));
    } else if (isExperiment() && sft != "shared" && sft != "none") {
        overrides.emplace_back("sft.from_run", sft);
    }
    overrides.emplace_back("threads", std::to_string(trialThreads()));
    overrides.emplace_back("name", trialRunName(trial));
    return TrainConfig::parse(baseText, basePath, overrides);
}

TrainConfig SweepSpec::sftConfig(const std::string& seed) const
{
    auto overrides = fixed;
    overrides.emplace_back("rl.iterations", "0");
    overrides.emplace_back("threads", std::to_string(std::max(1, static_cast<int>(std::thread::hardware_concurrency()))));
    if (!seed.empty())
        overrides.emplace_back("seed", seed);
    overrides.emplace_back("name", sftRunName(seed));
    return TrainConfig::parse(baseText, basePath, overrides);
}

std::string SweepSpec::sftRunName(const std::string& seed) const
{
    return name + "-sft" + (seed.empty() ? std::string() : "-seed=" + seed);
}

std::vector<std::string> SweepSpec::seeds() const
{
    std::vector<std::string> out;
    for (const auto& t : trials)
        if (const std::string seed = t.value("seed");
            !seed.empty() && std::find(out.begin(), out.end(), seed) == out.end())
            out.push_back(seed);
    return out;
}

std::string SweepSpec::sftText() const
{
    if (sft == "shared")
        return "shared (not trained yet)";
    if (sft == "none")
        return "each trial its own";
    if (sft != "per_seed")
        return "run " + sft;
    std::string out;
    for (const auto& seed : seeds()) {
        const auto run = sftRuns.find(std::stoll(seed));
        out += (out.empty() ? "" : ", ") + ("seed " + seed + ": ")
            + (run == sftRuns.end() ? std::string("not trained yet") : "run " + std::to_string(run->second));
    }
    return "one per seed (" + out + ")";
}

std::string SweepSpec::storedText() const
{
    if (!isExperiment())
        return storedSweepText();
    // An experiment's scale, SFT start and added seeds as they are now, on top-level lines of their own at the end.
    // The keys' lines as given go, with the lines that continue them (indented, or a block list's "- "): a file may
    // write `sft:` as a block map.
    std::stringstream in(storedSweepText());
    std::string out;
    bool dropping = false;
    for (std::string line; std::getline(in, line);) {
        const bool continues = line.empty() || line[0] == ' ' || line[0] == '\t' || line[0] == '-';
        if (dropping && continues)
            continue;
        dropping = line.rfind("scale:", 0) == 0 || line.rfind("sft:", 0) == 0 || line.rfind("added_seeds:", 0) == 0;
        if (!dropping)
            out += line + "\n";
    }
    out += "scale: " + scale + "\nsft: ";
    if (sft == "per_seed" && !sftRuns.empty()) {
        std::string runs;
        for (const auto& [seed, run] : sftRuns)
            runs += (runs.empty() ? "" : ", ") + std::to_string(seed) + ": " + std::to_string(run);
        out += "{" + runs + "}\n";
    } else {
        out += sft + "\n";
    }
    if (!addedSeeds.empty()) {
        std::string seeds;
        for (const auto seed : addedSeeds)
            seeds += (seeds.empty() ? "" : ", ") + std::to_string(seed);
        out += "added_seeds: [" + seeds + "]\n";
    }
    return out;
}

std::string SweepSpec::storedSweepText() const
{
    if (basePath == "inline")
        return text;
    const YAML::Node root = YAML::Load(text);
    for (const auto& item : root)
        if (item.first.Scalar() == "base") {
            const int keyLine = item.first.Mark().line;
            if (item.first.Mark().column != 0 || item.second.Mark().line != keyLine)
                break;
            std::string inlined = "base: # " + basePath + "\n";
            std::stringstream lines(TrainConfig::parse(baseText, basePath).toYaml());
            for (std::string line; std::getline(lines, line);)
                inlined += "  " + line + "\n";
            std::stringstream in(text);
            std::string out;
            int n = 0;
            for (std::string line; std::getline(in, line); ++n)
                out += n == keyLine ? inlined : line + "\n";
            return out;
        }
    throw ConfigError(source + ": base: write it as 'base: FILE' on a line of its own");
}

std::vector<std::string> shippedConfigDirs()
{
    std::vector<fs::path> candidates;
    if (const char* env = std::getenv("CREDITLAB_CONFIG_DIR"); env && *env)
        candidates.emplace_back(env);
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        candidates.push_back(exe.parent_path() / "../share/creditlab/configs");
        fs::path dir = exe.parent_path();
        for (int up = 0; up < 5 && dir.has_relative_path(); ++up, dir = dir.parent_path())
            candidates.push_back(dir / "resources/configs");
    }
    candidates.push_back(fs::current_path(ec) / "resources/configs");
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const auto& c : candidates) {
        const auto canonical = fs::weakly_canonical(c, ec);
        if (!ec && fs::is_directory(canonical, ec) && seen.insert(canonical.string()).second)
            out.push_back(canonical.string());
    }
    return out;
}

std::vector<std::string> shippedExperimentDirs()
{
    std::vector<std::string> out;
    for (const auto& dir : shippedConfigDirs()) {
        std::error_code ec;
        const auto experiments = fs::weakly_canonical(fs::path(dir) / "../experiments", ec);
        if (!ec && fs::is_directory(experiments, ec) && std::find(out.begin(), out.end(), experiments.string()) == out.end())
            out.push_back(experiments.string());
    }
    return out;
}

} // namespace creditlab::learn
