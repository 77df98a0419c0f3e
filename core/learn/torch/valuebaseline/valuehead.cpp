// The value head of TRIAGE's shared-backbone value baseline (App. D, Eq. 11–12); see valuehead.h for the state
// indexing and the boundary choice of shared/methods/triage.md ambiguity 24.
#include "core/learn/torch/valuebaseline/valuehead.h"

#include "core/learn/api/rng.h"
#include "core/learn/torch/dist/dataparallel.h"
#include "core/learn/torch/lm/checkpoint.h"

#include <ATen/CPUGeneratorImpl.h>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace creditlab::learn {

using torch::Tensor;

namespace {

const char* const kHeaderKey = "value_baseline_header";
constexpr int kFormatVersion = 1;

void checkOptions(const ValueBaselineOptions& o)
{
    const auto fail = [](const std::string& why) { throw std::invalid_argument("value baseline: " + why); };
    if (o.width < 1)
        fail("width must be at least 1");
    if (!(o.gamma >= 0.0 && o.gamma <= 1.0))
        fail("gamma must be in [0, 1]");
    if (!(o.lr > 0.0) || !std::isfinite(o.lr))
        fail("lr must be positive");
    if (!(o.emaTau >= 0.0 && o.emaTau <= 1.0))
        fail("emaTau must be in [0, 1]");
    if (o.warmupSteps < 0)
        fail("warmupSteps must not be negative");
}

torch::Device parseDevice(const std::string& name)
{
    try {
        return torch::Device(name);
    } catch (const c10::Error&) {
        throw std::invalid_argument("value baseline: unknown device '" + name + "'");
    }
}

std::string headerText(const ValueBaselineOptions& o, std::int64_t steps)
{
    std::ostringstream out;
    out.precision(17);
    out << "format " << kFormatVersion << "\nwidth " << o.width << "\ngamma " << o.gamma << "\nlr " << o.lr
        << "\nema_tau " << o.emaTau << "\nwarmup_steps " << o.warmupSteps << "\nseed " << o.seed << "\ndevice "
        << o.device << "\nsteps " << steps << "\n";
    return out.str();
}

ValueBaselineOptions parseHeader(const std::string& path, const std::string& text, std::int64_t& steps)
{
    ValueBaselineOptions o;
    std::istringstream in(text);
    std::string key;
    int format = 0;
    const auto fail
        = [&](const std::string& why) { throw std::runtime_error(path + ": value baseline header: " + why); };
    while (in >> key) {
        bool ok = true;
        if (key == "format")
            ok = static_cast<bool>(in >> format);
        else if (key == "width")
            ok = static_cast<bool>(in >> o.width);
        else if (key == "gamma")
            ok = static_cast<bool>(in >> o.gamma);
        else if (key == "lr")
            ok = static_cast<bool>(in >> o.lr);
        else if (key == "ema_tau")
            ok = static_cast<bool>(in >> o.emaTau);
        else if (key == "warmup_steps")
            ok = static_cast<bool>(in >> o.warmupSteps);
        else if (key == "seed")
            ok = static_cast<bool>(in >> o.seed);
        else if (key == "device")
            ok = static_cast<bool>(in >> o.device);
        else if (key == "steps")
            ok = static_cast<bool>(in >> steps);
        else
            fail("unknown key '" + key + "'");
        if (!ok)
            fail("bad value for '" + key + "'");
    }
    if (format != kFormatVersion)
        fail("format " + std::to_string(format) + ", this build reads " + std::to_string(kFormatVersion));
    return o;
}

} // namespace

struct ValueBaseline::Private {
    ValueBaselineOptions options;
    torch::Device device;
    torch::nn::Linear online { nullptr }; ///< φ, trained
    torch::nn::Linear ema { nullptr }; ///< φ̄, read by predict()
    std::unique_ptr<torch::optim::Adam> optimizer;
    std::int64_t steps = 0;

    explicit Private(const ValueBaselineOptions& o)
        : options((checkOptions(o), o))
        , device(parseDevice(o.device))
    {
        online = torch::nn::Linear(o.width, 1);
        ema = torch::nn::Linear(o.width, 1);
        {
            // PyTorch's default Linear initialisation (uniform ±1/√fan_in), drawn from a generator seeded by
            // the options alone; φ̄ starts as a copy of φ.
            Rng mix(o.seed ^ 0x76616c7565ULL); // "value"
            auto init = at::make_generator<at::CPUGeneratorImpl>(mix.next());
            torch::NoGradGuard noGrad;
            const double bound = 1.0 / std::sqrt(static_cast<double>(o.width));
            online->weight.uniform_(-bound, bound, init);
            online->bias.uniform_(-bound, bound, init);
            ema->weight.copy_(online->weight);
            ema->bias.copy_(online->bias);
        }
        for (auto& p : ema->parameters())
            p.set_requires_grad(false);
        online->to(device);
        ema->to(device);
        optimizer = std::make_unique<torch::optim::Adam>(online->parameters(), torch::optim::AdamOptions(o.lr));
    }

    /// The optimizer step on the gradients in place, then φ̄ ← τ·φ̄ + (1 − τ)·φ (App. D: the mixing reads the EMA
    /// copy) and the step count.
    void step()
    {
        optimizer->step();
        torch::NoGradGuard noGrad;
        const double tau = options.emaTau;
        ema->weight.mul_(tau).add_(online->weight, 1.0 - tau);
        ema->bias.mul_(tau).add_(online->bias, 1.0 - tau);
        ++steps;
    }

    Tensor rowsTensor(const float* hidden, std::int64_t rows) const
    {
        if (rows < 0)
            throw std::invalid_argument("value baseline: negative row count");
        if (rows > 0 && !hidden)
            throw std::invalid_argument("value baseline: no hidden states");
        if (rows == 0)
            return torch::zeros({ 0, options.width }, torch::TensorOptions().dtype(torch::kFloat).device(device));
        // from_blob does not copy; clone into memory the tensor owns before moving it.
        const auto x = torch::from_blob(const_cast<float*>(hidden), { rows, options.width }, torch::kFloat);
        return x.to(device, /*non_blocking=*/false, /*copy=*/true);
    }

    std::vector<float> run(torch::nn::Linear& head, const float* hidden, std::int64_t rows) const
    {
        torch::NoGradGuard noGrad;
        const Tensor x = rowsTensor(hidden, rows);
        const Tensor v = head->forward(x).reshape({ rows }).to(torch::kCPU).contiguous();
        return std::vector<float>(v.data_ptr<float>(), v.data_ptr<float>() + rows);
    }
};

ValueBaseline::ValueBaseline(const ValueBaselineOptions& options)
    : d(std::make_unique<Private>(options))
{
}

ValueBaseline::~ValueBaseline() = default;
ValueBaseline::ValueBaseline(ValueBaseline&&) noexcept = default;
ValueBaseline& ValueBaseline::operator=(ValueBaseline&&) noexcept = default;

const ValueBaselineOptions& ValueBaseline::options() const { return d->options; }
std::int64_t ValueBaseline::steps() const { return d->steps; }
bool ValueBaseline::warmedUp() const { return d->steps >= d->options.warmupSteps; }
double ValueBaseline::mixingWeight(double lambda) const { return warmedUp() ? lambda : 0.0; }

std::vector<float> ValueBaseline::predict(const float* hidden, std::int64_t rows) const
{
    return d->run(d->ema, hidden, rows);
}

std::vector<float> ValueBaseline::predictOnline(const float* hidden, std::int64_t rows) const
{
    return d->run(d->online, hidden, rows);
}

double ValueBaseline::trainStep(const float* hidden, std::int64_t rows, const std::vector<double>& targets)
{
    if (rows < 1)
        throw std::invalid_argument("value baseline: a training step needs at least one state");
    if (targets.size() != static_cast<std::size_t>(rows))
        throw std::invalid_argument(
            "value baseline: " + std::to_string(targets.size()) + " targets for " + std::to_string(rows) + " states");
    const Tensor x = d->rowsTensor(hidden, rows);
    const Tensor y = torch::tensor(targets, torch::TensorOptions().dtype(torch::kDouble)).to(d->device, torch::kFloat);
    d->online->train();
    const Tensor loss = torch::mse_loss(d->online->forward(x).reshape({ rows }), y); // TRIAGE App. D, Eq. 11
    d->optimizer->zero_grad();
    loss.backward();
    d->step();
    return loss.item<double>();
}

double ValueBaseline::trainStep(
    const float* hidden, std::int64_t rows, const std::vector<double>& targets, const ValueStepShard& shard)
{
    if (!shard.comm || shard.comm->world() == 1)
        return trainStep(hidden, rows, targets);
    if (rows < 1)
        throw std::invalid_argument("value baseline: a training step needs at least one state");
    if (targets.size() != static_cast<std::size_t>(rows))
        throw std::invalid_argument(
            "value baseline: " + std::to_string(targets.size()) + " targets for " + std::to_string(rows) + " states");
    if (shard.begin < 0 || shard.begin > shard.end || shard.end > rows)
        throw std::invalid_argument("value baseline: the rank's rows are not within the step's");
    const std::int64_t own = shard.end - shard.begin;
    const Tensor x = d->rowsTensor(hidden + shard.begin * d->options.width, own);
    const std::vector<double> mine(targets.begin() + shard.begin, targets.begin() + shard.end);
    const Tensor y = torch::tensor(mine, torch::TensorOptions().dtype(torch::kDouble)).to(d->device, torch::kFloat);
    d->online->train();
    // The global mean's share: Σ over this rank's rows / all rows, so that the sum over the ranks is Eq. 11's L_V.
    const Tensor loss = (d->online->forward(x).reshape({ own }) - y).pow(2).sum() / static_cast<double>(rows);
    d->optimizer->zero_grad();
    loss.backward();
    dist::allreduceGradients(*shard.comm, d->online->parameters(), 1.0);
    d->step();
    std::vector<double> total { loss.item<double>() };
    dist::allreduceSum(*shard.comm, total);
    return total[0];
}

std::vector<double> ValueBaseline::monteCarloTargets(std::int64_t turns, double reward, double gamma)
{
    if (turns < 0)
        throw std::invalid_argument("value baseline: negative turn count");
    std::vector<double> y(static_cast<std::size_t>(turns) + 1);
    double discount = 1.0; // γ^{T − k}, built from k = T down to 0
    for (std::int64_t k = turns; k >= 0; --k) {
        y[static_cast<std::size_t>(k)] = discount * reward; // TRIAGE App. D, Eq. 11
        discount *= gamma;
    }
    return y;
}

std::vector<double> ValueBaseline::deltas(const std::vector<double>& values)
{
    if (values.empty())
        throw std::invalid_argument("value baseline: deltas need the value of s_0 at least");
    std::vector<double> dv(values.size() - 1);
    for (std::size_t k = 1; k < values.size(); ++k)
        dv[k - 1] = values[k] - values[k - 1]; // TRIAGE App. D, Eq. 12: V(s_k) − V(s_{k−1})
    return dv;
}

std::vector<float> ValueBaseline::parameters(bool ema) const
{
    const auto& head = ema ? d->ema : d->online;
    const Tensor p = torch::cat({ head->weight.detach().reshape({ -1 }), head->bias.detach() }).to(torch::kCPU);
    return std::vector<float>(p.data_ptr<float>(), p.data_ptr<float>() + p.numel());
}

void ValueBaseline::save(const std::string& path) const
{
    torch::serialize::OutputArchive archive, online, ema, optimizer;
    d->online->save(online);
    d->ema->save(ema);
    d->optimizer->save(optimizer);
    archive.write("online", online);
    archive.write("ema", ema);
    archive.write("optimizer", optimizer);
    saveArchiveWithHeader(archive, path, kHeaderKey, headerText(d->options, d->steps), "value baseline");
}

ValueBaseline ValueBaseline::load(const std::string& path, const std::string& device)
{
    torch::serialize::InputArchive archive;
    const std::string header = loadArchiveWithHeader(archive, path, kHeaderKey, "value baseline");
    try {
        std::int64_t steps = 0;
        ValueBaselineOptions options = parseHeader(path, header, steps);
        if (!device.empty())
            options.device = device;
        ValueBaseline model(options);
        torch::serialize::InputArchive online, ema, optimizer;
        archive.read("online", online);
        archive.read("ema", ema);
        archive.read("optimizer", optimizer);
        model.d->online->to(torch::kCPU);
        model.d->ema->to(torch::kCPU);
        model.d->online->load(online);
        model.d->ema->load(ema);
        model.d->online->to(model.d->device);
        model.d->ema->to(model.d->device);
        model.d->optimizer->load(optimizer);
        model.d->steps = steps;
        return model;
    } catch (const c10::Error& e) {
        throw std::runtime_error(
            path + ": cannot load the value baseline checkpoint (" + e.what_without_backtrace() + ")");
    }
}

} // namespace creditlab::learn
