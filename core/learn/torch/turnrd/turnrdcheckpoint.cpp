// TurnRD's checkpoint: the module, its AdamW state and a text header of every option, in one file (lm/checkpoint.h).
#include "core/learn/torch/turnrd/turnrd.h"
#include "core/learn/torch/turnrd/turnrd_p.h"

#include "core/learn/torch/lm/checkpoint.h"

#include <sstream>
#include <stdexcept>

namespace creditlab::learn {

namespace {

const char* const kHeaderKey = "turnrd_header";
constexpr int kFormatVersion = 1;

std::string headerText(const TurnRdOptions& o, std::int64_t rounds)
{
    std::ostringstream out;
    out.precision(17);
    out << "format " << kFormatVersion << "\ninput_width " << o.inputWidth << "\ngoal_width " << o.goalWidth
        << "\nmodel_width " << o.modelWidth << "\nheads " << o.heads << "\nlayers " << o.layers << "\nffn_width "
        << o.ffnWidth << "\nmax_turns " << o.maxTurns << "\ndropout " << o.dropout << "\nfilm " << (o.film ? 1 : 0)
        << "\nseparate_head_film " << (o.separateHeadFilm ? 1 : 0) << "\ncredit_mode " << static_cast<int>(o.creditMode)
        << "\nclamp " << o.clamp << "\nlambda_value " << o.lambdaValue << "\nlambda_rank " << o.lambdaRank
        << "\nlambda_progress " << o.lambdaProgress << "\nrank_margin " << o.rankMargin << "\nprogress_epsilon "
        << o.progressEpsilon << "\nlearning_rate " << o.learningRate << "\nweight_decay " << o.weightDecay
        << "\nepochs " << o.epochs << "\nbatch_size " << o.batchSize << "\ngrad_clip " << o.gradClip << "\nrecency "
        << static_cast<int>(o.recency) << "\nprobe_trajectories " << o.probeTrajectories << "\nseed " << o.seed
        << "\ndevice " << o.device << "\nrounds " << rounds << "\n";
    return out.str();
}

TurnRdOptions parseHeader(const std::string& path, const std::string& text, std::int64_t& rounds)
{
    TurnRdOptions o;
    std::istringstream in(text);
    std::string key;
    int format = 0, film = 1, separate = 0, mode = 0, recency = 0;
    const auto fail = [&](const std::string& why) { throw std::runtime_error(path + ": TurnRD header: " + why); };
    while (in >> key) {
        bool ok = true;
        if (key == "format")
            ok = static_cast<bool>(in >> format);
        else if (key == "input_width")
            ok = static_cast<bool>(in >> o.inputWidth);
        else if (key == "goal_width")
            ok = static_cast<bool>(in >> o.goalWidth);
        else if (key == "model_width")
            ok = static_cast<bool>(in >> o.modelWidth);
        else if (key == "heads")
            ok = static_cast<bool>(in >> o.heads);
        else if (key == "layers")
            ok = static_cast<bool>(in >> o.layers);
        else if (key == "ffn_width")
            ok = static_cast<bool>(in >> o.ffnWidth);
        else if (key == "max_turns")
            ok = static_cast<bool>(in >> o.maxTurns);
        else if (key == "dropout")
            ok = static_cast<bool>(in >> o.dropout);
        else if (key == "separate_head_film")
            ok = static_cast<bool>(in >> separate);
        else if (key == "film")
            ok = static_cast<bool>(in >> film);
        else if (key == "credit_mode")
            ok = static_cast<bool>(in >> mode);
        else if (key == "clamp")
            ok = static_cast<bool>(in >> o.clamp);
        else if (key == "lambda_value")
            ok = static_cast<bool>(in >> o.lambdaValue);
        else if (key == "lambda_rank")
            ok = static_cast<bool>(in >> o.lambdaRank);
        else if (key == "lambda_progress")
            ok = static_cast<bool>(in >> o.lambdaProgress);
        else if (key == "rank_margin")
            ok = static_cast<bool>(in >> o.rankMargin);
        else if (key == "progress_epsilon")
            ok = static_cast<bool>(in >> o.progressEpsilon);
        else if (key == "learning_rate")
            ok = static_cast<bool>(in >> o.learningRate);
        else if (key == "weight_decay")
            ok = static_cast<bool>(in >> o.weightDecay);
        else if (key == "epochs")
            ok = static_cast<bool>(in >> o.epochs);
        else if (key == "batch_size")
            ok = static_cast<bool>(in >> o.batchSize);
        else if (key == "grad_clip")
            ok = static_cast<bool>(in >> o.gradClip);
        else if (key == "recency")
            ok = static_cast<bool>(in >> recency);
        else if (key == "probe_trajectories")
            ok = static_cast<bool>(in >> o.probeTrajectories);
        else if (key == "seed")
            ok = static_cast<bool>(in >> o.seed);
        else if (key == "device")
            ok = static_cast<bool>(in >> o.device);
        else if (key == "rounds")
            ok = static_cast<bool>(in >> rounds);
        else
            fail("unknown key '" + key + "'");
        if (!ok)
            fail("bad value for '" + key + "'");
    }
    if (format != kFormatVersion)
        fail("format " + std::to_string(format) + ", this build reads " + std::to_string(kFormatVersion));
    o.film = film != 0;
    o.separateHeadFilm = separate != 0;
    o.creditMode = mode == 1 ? TurnRdCreditMode::Attention : TurnRdCreditMode::ValueProjection;
    o.recency = recency == 1 ? TurnRdRecency::LossWeighting : TurnRdRecency::Sampling;
    return o;
}

} // namespace

void TurnRd::save(const std::string& path) const
{
    torch::serialize::OutputArchive archive;
    d->net->save(archive);
    torch::serialize::OutputArchive optimizer;
    d->optimizer->save(optimizer);
    archive.write("optimizer", optimizer);
    saveArchiveWithHeader(archive, path, kHeaderKey, headerText(d->options, d->rounds), "TurnRD");
}

TurnRd TurnRd::load(const std::string& path, const std::string& device)
{
    torch::serialize::InputArchive archive;
    const std::string header = loadArchiveWithHeader(archive, path, kHeaderKey, "TurnRD");
    try {
        std::int64_t rounds = 0;
        auto options = parseHeader(path, header, rounds);
        if (!device.empty())
            options.device = device;
        TurnRd model(options);
        model.d->net->to(torch::kCPU);
        model.d->net->load(archive);
        model.d->net->to(model.d->device);
        torch::serialize::InputArchive optimizer;
        archive.read("optimizer", optimizer);
        model.d->optimizer->load(optimizer);
        model.d->rounds = rounds;
        return model;
    } catch (const c10::Error& e) {
        throw std::runtime_error(path + ": cannot load the TurnRD checkpoint (" + e.what_without_backtrace() + ")");
    }
}

} // namespace creditlab::learn
