// The training module (libcreditlab_training.so): the engine of this folder, with LibTorch, behind the
// TrainingBackend interface that the GUI opens on demand (backend.h).
#include "core/learn/api/backend.h"
#include "core/learn/torch/engine/doctor.h"
#include "core/learn/api/experiment.h"

namespace creditlab::learn {

namespace {

class ModuleRun final : public TrainingRun {
public:
    explicit ModuleRun(std::unique_ptr<Trainer> trainer)
        : m_trainer(std::move(trainer))
    {
    }
    std::int64_t runId() const override { return m_trainer->runId(); }
    std::string runName() const override { return m_trainer->config().runName(); }
    std::string device() const override { return m_trainer->device(); }
    std::int64_t parameterCount() const override { return m_trainer->parameterCount(); }
    TrainResult run(const TrainCallback& callback, const std::atomic<bool>* stop) override
    {
        return m_trainer->run(callback, stop);
    }

private:
    std::unique_ptr<Trainer> m_trainer;
};

class ModuleBackend final : public TrainingBackend {
public:
    std::unique_ptr<TrainingRun> create(const TrainConfig& config, const TrainOptions& options) const override
    {
        return std::make_unique<ModuleRun>(std::make_unique<Trainer>(config, options));
    }
    std::unique_ptr<TrainingRun> resume(std::int64_t runId, const TrainOptions& options,
        const std::vector<std::pair<std::string, std::string>>& overrides) const override
    {
        return std::make_unique<ModuleRun>(Trainer::resume(runId, options, overrides));
    }
    SweepResult runSweep(const SweepSpec& spec, const SweepOptions& options, const SweepCallback& callback,
        const std::atomic<bool>* stop) const override
    {
        return learn::runExperiment(spec, options, callback, {}, stop); // an experiment's shared SFT first
    }
    SweepResult resumeSweep(std::int64_t sweepId, const SweepOptions& options, const SweepCallback& callback,
        const std::atomic<bool>* stop) const override
    {
        return learn::resumeSweep(sweepId, options, callback, stop);
    }
    ProbeTable probeTable(
        const ProbeSource& source, const ProbeDataOptions& options, const ProbeCallback& callback) const override
    {
        const ProbeData data = buildProbeData(source, options, callback);
        const ProbeSet set = fitProbes(data, probeNames(), {}, callback);
        ProbeTable table;
        table.rows = evaluateProbes(set, data);
        table.counts = probeSplitCounts(data);
        table.policy = data.policy;
        table.records = static_cast<std::int64_t>(data.dataset.records.size());
        table.dataSeconds = data.dataSeconds;
        table.featureSeconds = data.featureSeconds;
        return table;
    }
    std::vector<std::string> availableDevices() const override { return learn::availableDevices(); }
};

} // namespace

} // namespace creditlab::learn

extern "C" __attribute__((visibility("default"))) const creditlab::learn::TrainingBackend* creditlab_training_backend()
{
    static const creditlab::learn::ModuleBackend backend;
    return &backend;
}
