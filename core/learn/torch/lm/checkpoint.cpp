#include "core/learn/torch/lm/checkpoint.h"

#include "core/storage/atomicfile.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <type_traits>

namespace creditlab::learn {

namespace fs = std::filesystem;

namespace {

/// torch::load replaces parameters whatever their shape; a file of another model must be refused instead.
std::vector<std::pair<std::string, std::vector<std::int64_t>>> shapes(Transformer& module)
{
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> out;
    for (const auto& p : module->named_parameters())
        out.emplace_back(p.key(), p.value().sizes().vec());
    return out;
}

void requireSameShapes(const std::string& path,
    const std::vector<std::pair<std::string, std::vector<std::int64_t>>>& before, Transformer& module)
{
    const auto after = shapes(module);
    for (std::size_t k = 0; k < before.size() && k < after.size(); ++k)
        if (before[k] != after[k]) {
            const auto text = [](const std::vector<std::int64_t>& sizes) {
                std::ostringstream out;
                for (std::size_t i = 0; i < sizes.size(); ++i)
                    out << (i > 0 ? "x" : "") << sizes[i];
                return out.str();
            };
            const std::string expected = text(before[k].second), found = text(after[k].second);
            throw std::runtime_error(path + ": parameter " + before[k].first + " is " + found + " in the file, "
                + expected + " in this model (another policy.* shape or vocabulary)");
        }
}

} // namespace

void saveArchiveWithHeader(torch::serialize::OutputArchive& archive, const std::string& path, const char* headerKey,
    const std::string& header, const char* what)
{
    archive.write(headerKey, c10::IValue(header));
    const std::string temporary = path + ".tmp";
    try {
        archive.save_to(temporary);
    } catch (const c10::Error& e) {
        throw std::runtime_error(
            path + ": cannot write the " + what + " checkpoint (" + e.what_without_backtrace() + ")");
    }
    fs::rename(temporary, path);
}

std::string loadArchiveWithHeader(
    torch::serialize::InputArchive& archive, const std::string& path, const char* headerKey, const char* what)
{
    if (!fs::exists(path))
        throw std::runtime_error(path + ": missing " + what + " checkpoint");
    try {
        archive.load_from(path, torch::Device(torch::kCPU));
    } catch (const c10::Error& e) {
        throw std::runtime_error(path + ": cannot load the " + what + " checkpoint (" + e.what_without_backtrace() + ")");
    }
    c10::IValue header;
    if (!archive.try_read(headerKey, header) || !header.isString())
        throw std::runtime_error(path + ": not a " + what + " checkpoint (no header)");
    return header.toStringRef();
}

void saveModule(const std::string& path, Transformer& module)
{
    const std::string temporary = path + ".tmp";
    torch::save(module, temporary);
    fs::rename(temporary, path);
}

namespace {

/// Why a model file does not load, with what an earlier CreditLab wrote spelled out: its built-in policy was a GPT-style
/// decoder ("tok.weight", "block0_qkv.weight", ...), which no longer exists since every policy is a Llama decoder.
std::string loadFailure(const std::string& path, const c10::Error& e)
{
    std::string why = e.what_without_backtrace();
    try {
        torch::serialize::InputArchive archive;
        archive.load_from(path, torch::Device(torch::kCPU));
        torch::Tensor probe;
        if (archive.try_read("tok.weight", probe))
            return path + ": written by an earlier CreditLab whose built-in policy was a GPT-style decoder (learned "
                          "positions, LayerNorm, GELU); every policy is now a Llama decoder (RMSNorm, rotary positions, "
                          "SwiGLU), so these weights cannot be read: train the run again (its rollouts, metrics and "
                          "labels stay readable)";
    } catch (const c10::Error&) {
    }
    return path + ": cannot load the model (" + why + ")";
}

} // namespace

void loadModule(const std::string& path, Transformer& module)
{
    if (!fs::exists(path))
        throw std::runtime_error(path + ": missing model file");
    const auto before = shapes(module);
    try {
        // Mapped onto the module's device: a policy trained on CUDA loads on a CPU-only build and the other way round.
        torch::load(module, path, module->parameters().front().device());
    } catch (const c10::Error& e) {
        throw std::runtime_error(loadFailure(path, e));
    }
    requireSameShapes(path, before, module);
}

void saveCheckpoint(const std::string& dir, Transformer& policy, torch::optim::Optimizer& optimizer,
    Transformer* critic, torch::optim::Optimizer* criticOptimizer, const TrainState& state)
{
    const fs::path target(dir);
    const fs::path temporary = target.string() + ".tmp";
    fs::remove_all(temporary);
    fs::create_directories(temporary);
    torch::save(policy, (temporary / "policy.pt").string());
    torch::save(optimizer, (temporary / "optimizer.pt").string());
    if (critic) {
        torch::save(*critic, (temporary / "critic.pt").string());
        torch::save(*criticOptimizer, (temporary / "critic_optimizer.pt").string());
    }
    std::ostringstream text;
    text.precision(17);
    text << "iteration " << state.iteration << "\nrng " << state.rng << "\nkl_coef " << state.klCoef << "\n";
    writeFileAtomically((temporary / "state.txt").string(), text.str());
    fs::remove_all(target);
    fs::rename(temporary, target);
}

TrainState loadCheckpoint(const std::string& dir, Transformer& policy, torch::optim::Optimizer& optimizer,
    Transformer* critic, torch::optim::Optimizer* criticOptimizer)
{
    const fs::path base(dir);
    // Every tensor is mapped onto the policy's device, whatever device wrote it (a run trained on CUDA resumes on
    // the CPU); the critic and both optimizers live on that device too.
    const auto device = policy->parameters().front().device();
    const auto load = [&](auto& object, const char* file) {
        const auto path = (base / file).string();
        if (!fs::exists(path))
            throw std::runtime_error(path + ": missing checkpoint file");
        try {
            torch::load(object, path, device);
        } catch (const c10::Error& e) {
            if constexpr (std::is_same_v<std::decay_t<decltype(object)>, Transformer>)
                throw std::runtime_error(loadFailure(path, e));
            throw std::runtime_error(path + ": cannot load (" + std::string(e.what_without_backtrace()) + ")");
        }
    };
    const auto policyShapes = shapes(policy);
    load(policy, "policy.pt");
    requireSameShapes((base / "policy.pt").string(), policyShapes, policy);
    load(optimizer, "optimizer.pt");
    if (critic) {
        load(*critic, "critic.pt");
        load(*criticOptimizer, "critic_optimizer.pt");
    }
    const auto statePath = (base / "state.txt").string();
    std::ifstream in(statePath);
    TrainState state;
    std::string key;
    int seen = 0;
    while (in >> key) {
        if (key == "iteration" && (in >> state.iteration))
            ++seen;
        else if (key == "rng" && (in >> state.rng))
            ++seen;
        else if (key == "kl_coef" && (in >> state.klCoef))
            ++seen;
        else
            throw std::runtime_error(statePath + ": unexpected '" + key + "'");
    }
    if (seen != 3)
        throw std::runtime_error(statePath + ": incomplete checkpoint state");
    return state;
}

} // namespace creditlab::learn
