// Benchmark: data-parallel training's gradient allreduce (issue 36) against the update it serves, on the CPU with Gloo
// over loopback (TARGETS.md, "Data-parallel overhead": allreduce <= 10% of an update at the 135M shape on the CPU).
//
// Per model: every trainable parameter's gradient summed over 2 ranks by allreduceGradients() (flat buckets of
// 25 MiB, CommOptions' default, and of a second size), against one optimizer step of the same model: forward and
// backward of one micro-batch, clipping and Adam. Models: the built-in policies of the shipped configs (micro-batch
// filled as the trainer fills it: rl.micro_batch 32 rows, at most rl.micro_tokens 16,384 tokens, rows at full
// context) and SmolLM2-135M's shape (4 x 256 tokens). A quarter of each row's tokens are trained (log-probs, as a
// policy-gradient update takes them); float32.
//
// The 1-rank baseline runs in this process with every core (the trainer's `threads: 0`). The 2 ranks are this program
// run twice (fork and exec, torchrun's variables RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR=127.0.0.1,
// MASTER_PORT on a free port), each with LaunchEnv::threadsPerRank(cores) threads: on a 2-core machine the ranks share
// the cores, so their update time is inflated and both are reported. Raw allreduces of 4 MB and 64 MB float32
// (../shared/reference/distributed.md §1.4's sizes) are timed before and after, in the same run.
//
// With --cuda: one rank on the GPU, the 135M shape's step without a communicator and with a one-rank NCCL process
// group reducing its gradients (TARGETS.md: NCCL with one rank <= 3%). Needs a LibTorch with CUDA and NCCL.
//
// Usage: bench_allreduce [--only NAME[,NAME]] [--bucket2-mib N=1] [--scale F=1] [--cuda]
// Prints one line per model and bucket size; every time is the median of the repetitions each line names.
#include "core/hf/config.h"
#include "core/learn/api/runtime.h"
#include "core/learn/torch/dist/dataparallel.h"
#include "core/learn/torch/dist/launchenv.h"
#include "core/learn/torch/hf/hfupdate.h"
#include "core/learn/torch/lm/tokenizer.h"
#include "core/learn/torch/lm/transformer.h"

#include <torch/version.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

using namespace creditlab;
using namespace creditlab::learn;
using namespace creditlab::learn::dist;
using Clock = std::chrono::steady_clock;

namespace {

double ms(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

double median(std::vector<double> v)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// One model and its micro-batch.
struct Shape {
    std::string name; ///< short, no spaces
    std::string what; ///< where the size comes from
    bool pretrained = false; ///< the 135M shape (else a built-in policy of `builtin`)
    TransformerOptions builtin;
    std::int64_t rows = 0, tokens = 0; ///< the micro-batch
    int updateReps = 3; ///< timed optimizer steps, after one warm-up step
    bool smallWarmUp = false; ///< warm up on 1 x 64 tokens (Adam's state) rather than the whole micro-batch
    int allreduceReps = 10; ///< timed gradient allreduces per bucket size (after one warm-up)
};

TransformerOptions policy(std::int64_t width, std::int64_t layers, std::int64_t heads, std::int64_t context)
{
    TransformerOptions o;
    o.vocab = 512; // bench_train's size; the household vocabulary is of this order
    o.width = width;
    o.layers = layers;
    o.heads = heads;
    o.context = context;
    return o;
}

/// rl.micro_batch (32) rows of full context, at most rl.micro_tokens (16,384) tokens.
Shape builtinShape(std::string name, std::string what, TransformerOptions o, int updateReps)
{
    Shape s;
    s.name = std::move(name);
    s.what = std::move(what);
    s.builtin = o;
    s.tokens = o.context;
    s.rows = std::min<std::int64_t>(32, 16384 / o.context);
    s.updateReps = updateReps;
    return s;
}

std::vector<Shape> shapes()
{
    std::vector<Shape> v;
    v.push_back(builtinShape("tiny", "household-tiny.yaml: 64 x 2, 2 heads, context 768", policy(64, 2, 2, 768), 3));
    v.push_back(
        builtinShape("quick", "household-quick.yaml: 128 x 2, 4 heads, context 512", policy(128, 2, 4, 512), 3));
    v.push_back(
        builtinShape("default", "trainconfig defaults: 128 x 4, 4 heads, context 384", policy(128, 4, 4, 384), 2));
    v.push_back(builtinShape("pair", "household-pair.yaml and the method configs: 256 x 2, 8 heads, context 1024",
        policy(256, 2, 8, 1024), 1));
    Shape smol;
    smol.name = "smol135m";
    smol.what = "SmolLM2-135M shape: 576 x 30, 9 heads, 3 kv heads, MLP 1536, vocab 49152, tied";
    smol.pretrained = true;
    smol.rows = 4;
    smol.tokens = 256;
    smol.updateReps = 1; // about 15 s a step on 2 quiet cores, 2-3 times that per rank with 2 ranks
    smol.smallWarmUp = true;
    smol.allreduceReps = 5;
    v.push_back(smol);
    return v;
}

hf::ModelConfig smolLm2()
{
    return hf::parseModelConfig(R"({"architectures": ["LlamaForCausalLM"], "vocab_size": 49152, "hidden_size": 576,
        "intermediate_size": 1536, "num_hidden_layers": 30, "num_attention_heads": 9, "num_key_value_heads": 3,
        "rope_theta": 100000.0, "rms_norm_eps": 1e-5, "tie_word_embeddings": true, "max_position_embeddings": 8192})",
        "SmolLM2-135M shape");
}

/// A model of `shape` with Adam, and one optimizer step on a micro-batch.
class Model {
public:
    Model(const Shape& shape, const torch::Device& device)
        : m_device(device)
    {
        torch::manual_seed(0); // the same weights on every rank, as after the trainer's broadcast
        if (shape.pretrained) {
            m_decoder = HfDecoder(smolLm2());
            torch::NoGradGuard noGrad;
            for (auto& p : m_decoder->parameters())
                if (p.dim() > 1)
                    p.normal_(0.0, 0.02);
        } else {
            m_policy = Transformer(shape.builtin);
            m_decoder = m_policy->decoder();
        }
        m_decoder->to(device);
        for (auto& p : m_decoder->parameters())
            if (p.requires_grad())
                m_params.push_back(p);
        m_adam = std::make_unique<torch::optim::Adam>(m_params, torch::optim::AdamOptions(1e-5));
        m_vocab = shape.pretrained ? 49152 : shape.builtin.vocab;
    }

    const std::vector<torch::Tensor>& params() const { return m_params; }
    std::int64_t parameterCount() const
    {
        std::int64_t n = 0;
        for (const auto& p : m_params)
            n += p.numel();
        return n;
    }

    /// Forward and backward of `rows` x `tokens` (the last quarter of each row trained), then `reduce` (the
    /// gradients' allreduce, or nothing), clipping at 1.0 and Adam. Returns the milliseconds of the whole step.
    double step(std::int64_t rows, std::int64_t tokens, int seed, const std::function<void()>& reduce = {})
    {
        torch::manual_seed(static_cast<std::uint64_t>(seed));
        const auto ids = torch::randint(Tokenizer::kSpecialCount, m_vocab, { rows, tokens }, torch::kInt64);
        const std::int64_t trained = std::max<std::int64_t>(1, tokens / 4);
        const auto from
            = torch::arange(tokens - trained - 1, tokens - 1, torch::kInt64).unsqueeze(0).expand({ rows, trained });
        const auto targets = ids.narrow(1, tokens - trained, trained);
        const auto advantage = torch::randn({ rows, trained });
        const auto x = ids.to(m_device), valid = torch::ones_like(x, torch::kBool);
        synchronize();
        const auto start = Clock::now();
        m_adam->zero_grad();
        const auto lp = hfTargetLogProbs(m_decoder, x, valid, from.to(m_device), targets.to(m_device));
        (-(torch::exp(lp - lp.detach()) * advantage.to(m_device)).mean()).backward();
        if (reduce)
            reduce();
        torch::nn::utils::clip_grad_norm_(m_params, 1.0);
        m_adam->step();
        synchronize();
        return ms(start);
    }

    void synchronize() const
    {
        if (m_device.is_cuda())
            m_params.front().sum().item<float>(); // waits for the stream
    }

private:
    torch::Device m_device;
    Transformer m_policy { nullptr };
    HfDecoder m_decoder { nullptr };
    std::vector<torch::Tensor> m_params;
    std::unique_ptr<torch::optim::Adam> m_adam;
    std::int64_t m_vocab = 0;
};

/// One step that is not timed: Adam's state and the allocator's heap.
void warmUp(Model& model, const Shape& shape)
{
    if (shape.smallWarmUp)
        model.step(1, std::min<std::int64_t>(64, shape.tokens), 1);
    else
        model.step(shape.rows, shape.tokens, 1);
}

/// A line between a rank and the launcher: "@ name key=value ...".
using Figures = std::map<std::string, double>;

void emit(const std::string& name, const Figures& f)
{
    std::printf("@ %s", name.c_str());
    for (const auto& [k, v] : f)
        std::printf(" %s=%.6g", k.c_str(), v);
    std::printf("\n");
    std::fflush(stdout);
}

/// Each rank's value of `mine`, gathered through an allreduce.
std::vector<double> gather(Communicator& comm, double mine)
{
    std::vector<torch::Tensor> t { torch::zeros({ comm.world() }, torch::kFloat64) };
    t[0][comm.rank()] = mine;
    comm.allreduce(t);
    return std::vector<double>(t[0].data_ptr<double>(), t[0].data_ptr<double>() + comm.world());
}

/// A raw allreduce of `bytes` of float32, `reps` times after 2 warm-ups, each after a barrier: the median ms.
Figures rawAllreduce(Communicator& comm, std::size_t bytes, int reps)
{
    std::vector<torch::Tensor> t { torch::ones({ static_cast<std::int64_t>(bytes / 4) }) };
    std::vector<double> times;
    for (int i = 0; i < reps + 2; ++i) {
        comm.barrier();
        const auto start = Clock::now();
        comm.allreduce(t);
        t[0].fill_(1.0f);
        if (i >= 2)
            times.push_back(ms(start));
    }
    return { { "bytes", static_cast<double>(bytes) }, { "ms", median(times) },
        { "min", *std::min_element(times.begin(), times.end()) },
        { "max", *std::max_element(times.begin(), times.end()) }, { "reps", reps } };
}

std::string envText(const char* name)
{
    const char* v = std::getenv(name);
    return v ? v : "(unset)";
}

std::string loadAverage()
{
    std::ifstream in("/proc/loadavg");
    std::string a, b, c;
    in >> a >> b >> c;
    return a + " " + b + " " + c;
}

int cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

/// A port nobody listens on now (the kernel's choice).
int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t n = sizeof a;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0
        || ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n) != 0) {
        std::perror("bench_allreduce: free port");
        std::exit(1);
    }
    ::close(fd);
    return ntohs(a.sin_port);
}

struct Options {
    std::vector<std::string> only;
    std::size_t bucket2 = std::size_t(1) << 20;
    double scale = 1.0; ///< multiplies every repetition count (at least 1 each)
    bool cuda = false;
    bool worker = false;
    std::vector<std::string> args; ///< as given, for the ranks
};

int reps(const Options& o, int n) { return std::max(1, static_cast<int>(n * o.scale + 0.5)); }

std::vector<Shape> selected(const Options& o)
{
    std::vector<Shape> v;
    for (auto& s : shapes())
        if (o.only.empty() || std::find(o.only.begin(), o.only.end(), s.name) != o.only.end())
            v.push_back(s);
    return v;
}

/// One rank of the 2-rank run (and its rank 0 reports): raw allreduces, then per model the update and the gradient
/// allreduce at both bucket sizes, then the raw allreduces again.
int runWorker(const Options& o)
{
    const LaunchEnv env = LaunchEnv::fromEnvironment();
    const int threads = env.threadsPerRank(cores());
    configureThreads({ threads });
    CommOptions big;
    big.timeout = std::chrono::milliseconds(300000);
    CommOptions small = big;
    small.bucketBytes = o.bucket2;
    LaunchEnv env2 = env;
    env2.masterPort = std::atoi(envText("CREDITLAB_BENCH_PORT2").c_str());
    auto comm = Communicator::connect(env, big);
    auto comm2 = Communicator::connect(env2, small);
    const bool report = comm->rank() == 0;
    if (report)
        emit("rank", { { "threads", threads }, { "world", comm->world() } });
    const auto raw = [&](const char* when) {
        for (const std::size_t mb : { 4, 64 }) {
            Figures f = rawAllreduce(*comm, mb << 20, mb == 4 ? reps(o, 20) : reps(o, 5));
            if (report)
                emit(std::string("raw") + std::to_string(mb) + "_" + when, f);
        }
    };
    raw("before");
    for (const Shape& shape : selected(o)) {
        Model model(shape, torch::kCPU);
        warmUp(model, shape);
        std::vector<double> update;
        for (int r = 0; r < reps(o, shape.updateReps); ++r) {
            comm->barrier();
            const double t = model.step(shape.rows, shape.tokens, 100 * comm->rank() + r);
            const auto all = gather(*comm, t);
            update.push_back(*std::max_element(all.begin(), all.end())); // the step waits for the slowest rank
        }
        Figures f { { "params", static_cast<double>(model.parameterCount()) }, { "update_ms", median(update) },
            { "update_reps", static_cast<double>(update.size()) } };
        for (auto* c : { comm.get(), comm2.get() }) {
            const std::string key = c == comm.get() ? "ar1" : "ar2";
            allreduceGradients(*c, model.params(), 1.0 / c->world()); // warm-up
            std::vector<double> times;
            for (int r = 0; r < reps(o, shape.allreduceReps); ++r) {
                c->barrier();
                const auto start = Clock::now();
                allreduceGradients(*c, model.params(), 1.0 / c->world());
                times.push_back(ms(start));
            }
            f[key + "_ms"] = median(times);
            f[key + "_min"] = *std::min_element(times.begin(), times.end());
            f[key + "_max"] = *std::max_element(times.begin(), times.end());
            f[key + "_reps"] = static_cast<double>(times.size());
        }
        if (report)
            emit(shape.name, f);
        releaseFreeMemory();
    }
    raw("after");
    comm->barrier();
    return 0;
}

/// The 1-rank baseline of `shape` in this process: the median optimizer step.
Figures baseline(const Options& o, const Shape& shape)
{
    Model model(shape, torch::kCPU);
    warmUp(model, shape);
    std::vector<double> update;
    for (int r = 0; r < reps(o, shape.updateReps); ++r)
        update.push_back(model.step(shape.rows, shape.tokens, r));
    return { { "params", static_cast<double>(model.parameterCount()) }, { "update_ms", median(update) },
        { "update_reps", static_cast<double>(update.size()) } };
}

/// Starts this program as rank `rank` of 2; its stdout goes to `out` (-1: /dev/null).
pid_t spawnRank(int rank, int port, int port2, const Options& o, int out)
{
    std::vector<std::string> env;
    static const char* kOurs[] = { "RANK=", "WORLD_SIZE=", "LOCAL_RANK=", "LOCAL_WORLD_SIZE=", "MASTER_ADDR=",
        "MASTER_PORT=", "CREDITLAB_BENCH_PORT2=", "TORCHELASTIC_USE_AGENT_STORE=", "CREDITLAB_STORE_FILE=" };
    for (char** e = environ; *e != nullptr; ++e) {
        bool ours = false;
        for (const char* k : kOurs)
            ours = ours || std::strncmp(*e, k, std::strlen(k)) == 0;
        if (!ours)
            env.emplace_back(*e);
    }
    for (const std::string& kv :
        { "RANK=" + std::to_string(rank), std::string("WORLD_SIZE=2"), "LOCAL_RANK=" + std::to_string(rank),
            std::string("LOCAL_WORLD_SIZE=2"), std::string("MASTER_ADDR=127.0.0.1"),
            "MASTER_PORT=" + std::to_string(port), "CREDITLAB_BENCH_PORT2=" + std::to_string(port2) })
        env.push_back(kv);
    std::vector<std::string> args { "bench_allreduce", "--worker" };
    args.insert(args.end(), o.args.begin(), o.args.end());
    std::vector<char*> argv, envp;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid == 0) {
        if (out >= 0) {
            ::dup2(out, STDOUT_FILENO);
        } else {
            std::FILE* null = std::freopen("/dev/null", "w", stdout);
            (void)null;
        }
        ::execve("/proc/self/exe", argv.data(), envp.data());
        std::perror("bench_allreduce: exec");
        ::_exit(127);
    }
    return pid;
}

/// Runs the 2 ranks and returns rank 0's figures by name; other lines are passed on.
std::map<std::string, Figures> runRanks(const Options& o)
{
    int fds[2];
    if (::pipe(fds) != 0) {
        std::perror("bench_allreduce: pipe");
        std::exit(1);
    }
    const int port = freePort(), port2 = freePort();
    const pid_t r0 = spawnRank(0, port, port2, o, fds[1]);
    const pid_t r1 = spawnRank(1, port, port2, o, -1);
    ::close(fds[1]);
    std::map<std::string, Figures> got;
    std::FILE* in = ::fdopen(fds[0], "r");
    char line[4096];
    while (std::fgets(line, sizeof line, in) != nullptr) {
        if (line[0] != '@' || line[1] != ' ') {
            std::fputs(line, stdout);
            continue;
        }
        std::istringstream s(line + 2);
        std::string name, kv;
        s >> name;
        while (s >> kv) {
            const auto eq = kv.find('=');
            if (eq != std::string::npos)
                got[name][kv.substr(0, eq)] = std::atof(kv.c_str() + eq + 1);
        }
        std::printf("  [2 ranks] %s done\n", name.c_str());
        std::fflush(stdout);
    }
    std::fclose(in);
    int status0 = 0, status1 = 0;
    ::waitpid(r0, &status0, 0);
    ::waitpid(r1, &status1, 0);
    if (!WIFEXITED(status0) || WEXITSTATUS(status0) != 0 || !WIFEXITED(status1) || WEXITSTATUS(status1) != 0) {
        std::fprintf(stderr, "bench_allreduce: a rank failed (rank 0 status %d, rank 1 status %d)\n", status0, status1);
        std::exit(1);
    }
    return got;
}

/// busbw = algbw x 2(n-1)/n (nccl-tests), GB/s; for n = 2 it is algbw.
double busbw(double bytes, double milliseconds, int n = 2)
{
    return milliseconds > 0 ? bytes / (milliseconds * 1e-3) * 2.0 * (n - 1) / n / 1e9 : 0.0;
}

int runCuda(const Options& o)
{
    configureThreads({ cores() });
    const torch::Device device(resolveDevice("cuda"));
    Shape shape = shapes().back();
    shape.rows = 8;
    shape.tokens = 512;
    LaunchEnv env; // one rank
    env.masterPort = freePort();
    CommOptions co;
    co.cuda = true;
    co.groupForOneRank = true;
    auto comm = Communicator::connect(env, co);
    Model model(shape, device);
    const int n = reps(o, 20);
    std::vector<double> plain, nccl, ar;
    for (int r = 0; r < 3; ++r) { // warm-up both ways
        model.step(shape.rows, shape.tokens, r);
        model.step(shape.rows, shape.tokens, r, [&] { allreduceGradients(*comm, model.params(), 1.0); });
    }
    for (int r = 0; r < n; ++r) { // interleaved, so drift hits both alike
        plain.push_back(model.step(shape.rows, shape.tokens, r));
        nccl.push_back(model.step(shape.rows, shape.tokens, r, [&] {
            model.synchronize();
            const auto start = Clock::now();
            allreduceGradients(*comm, model.params(), 1.0);
            model.synchronize();
            ar.push_back(ms(start));
        }));
    }
    const double p = median(plain), w = median(nccl), a = median(ar);
    const double bytes = 4.0 * static_cast<double>(model.parameterCount());
    std::printf("bench_allreduce --cuda: %s, float32, %lld x %lld tokens, %d interleaved steps each way (medians)\n",
        shape.what.c_str(), static_cast<long long>(shape.rows), static_cast<long long>(shape.tokens), n);
    std::printf("  step without a communicator %.2f ms; with a 1-rank NCCL allreduce of the gradients %.2f ms: "
                "overhead %.1f%% (target <= 3%%); the allreduce alone %.2f ms for %.1f MB\n",
        p, w, 100.0 * (w - p) / p, a, bytes / 1e6);
    std::printf("@ cuda params=%lld step_ms=%.4f step_nccl_ms=%.4f allreduce_ms=%.4f overhead_pct=%.3f\n",
        static_cast<long long>(model.parameterCount()), p, w, a, 100.0 * (w - p) / p);
    return 0;
}

Options parse(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "bench_allreduce: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--worker") {
            o.worker = true;
            continue;
        }
        if (a == "--cuda") {
            o.cuda = true;
        } else if (a == "--only") {
            const std::string v = value();
            std::stringstream s(v);
            for (std::string name; std::getline(s, name, ',');)
                o.only.push_back(name);
            o.args.insert(o.args.end(), { a, v });
            continue;
        } else if (a == "--bucket2-mib") {
            const std::string v = value();
            o.bucket2 = static_cast<std::size_t>(std::atof(v.c_str()) * (1 << 20));
            o.args.insert(o.args.end(), { a, v });
            continue;
        } else if (a == "--scale") {
            const std::string v = value();
            o.scale = std::atof(v.c_str());
            o.args.insert(o.args.end(), { a, v });
            continue;
        } else {
            std::fprintf(stderr,
                "usage: bench_allreduce [--only NAME[,NAME]] [--bucket2-mib N] [--scale F] [--cuda]\n"
                "  models: tiny quick default pair smol135m\n");
            std::exit(2);
        }
    }
    return o;
}

} // namespace

int main(int argc, char** argv)
{
    prepareProcess();
    const Options o = parse(argc, argv);
    if (o.worker || o.cuda) {
        try {
            return o.worker ? runWorker(o) : runCuda(o);
        } catch (const std::exception& e) {
            // A rank that dies makes the other's next collective fail at once (Gloo: connection reset).
            std::fprintf(stderr, "bench_allreduce%s: %s\n", o.worker ? " (a rank)" : " --cuda", e.what());
            std::fflush(stderr);
            ::_exit(1);
        }
    }
    if (!Communicator::available()) {
        std::fprintf(stderr, "bench_allreduce: this build has no distributed engine (install libgloo-dev)\n");
        return 1;
    }

    const int n = cores();
    std::printf("bench_allreduce: Gloo over 127.0.0.1, float32 gradients, LibTorch %s, %d cores\n", TORCH_VERSION, n);
    std::printf("  environment: OMP_WAIT_POLICY=%s, OMP_NUM_THREADS=%s, OPENBLAS_NUM_THREADS=%s, GOMP_SPINCOUNT=%s\n",
        describeWaitPolicy(waitPolicySource(), {}).c_str(), envText("OMP_NUM_THREADS").c_str(),
        envText("OPENBLAS_NUM_THREADS").c_str(), envText("GOMP_SPINCOUNT").c_str());
    std::printf("  threads (LibTorch and OpenBLAS, configureThreads): 1 rank %d, 2 ranks %d each "
                "(LaunchEnv::threadsPerRank); buckets 25 MiB and %.3g MiB; load average %s\n",
        n, std::max(1, n / 2), static_cast<double>(o.bucket2) / (1 << 20), loadAverage().c_str());
    std::fflush(stdout);
    const auto start = Clock::now();

    configureThreads({ n });
    std::map<std::string, Figures> one;
    for (const Shape& shape : selected(o)) {
        one[shape.name] = baseline(o, shape);
        releaseFreeMemory();
        std::printf("  [1 rank] %s done (%.1f s so far)\n", shape.name.c_str(), ms(start) / 1e3);
        std::fflush(stdout);
    }
    const auto two = runRanks(o);

    std::printf("\nload average at the end %s; %.0f s in all\n", loadAverage().c_str(), ms(start) / 1e3);
    std::printf(
        "\nraw allreduce, 2 ranks (distributed.md 1.4 quotes busbw 0.86-1.15 GB/s at 4 MB, 0.83-1.45 at 64 MB):\n");
    for (const char* when : { "before", "after" })
        for (const char* size : { "raw4", "raw64" }) {
            const auto it = two.find(std::string(size) + "_" + when);
            if (it == two.end())
                continue;
            const Figures& f = it->second;
            std::printf("  %-6s %-6s %6.1f MB  %8.2f ms (min %.2f, max %.2f; median of %g)  busbw %.2f GB/s\n",
                size + 3, when, f.at("bytes") / 1e6, f.at("ms"), f.at("min"), f.at("max"), f.at("reps"),
                busbw(f.at("bytes"), f.at("ms")));
        }
    const auto rawAfter = two.find("raw64_after");
    const auto rawBefore = two.find("raw64_before");
    const double raw64 = rawBefore != two.end() && rawAfter != two.end() ? 0.5
            * (busbw(rawBefore->second.at("bytes"), rawBefore->second.at("ms"))
                + busbw(rawAfter->second.at("bytes"), rawAfter->second.at("ms")))
                                                                         : 0.0;

    std::printf("\nper model: update = forward + backward + clipping + Adam on the micro-batch (median); allreduce = "
                "allreduceGradients() of every gradient (median);\nratio = allreduce / update; speed-up = 2 ranks' "
                "samples/s over 1 rank's (2 x update_1 / (update_2 + allreduce_25MiB))\n");
    std::printf("%-9s %11s %9s %12s | %10s %10s | %7s %9s %8s %7s %8s %8s | %10s\n", "model", "params", "grad MB",
        "micro-batch", "upd 1r ms", "upd 2r ms", "bucket", "AR ms", "busbw", "vs raw", "AR/upd2r", "AR/upd1r",
        "DP speed-up");
    for (const Shape& shape : selected(o)) {
        const auto a = one.find(shape.name);
        const auto b = two.find(shape.name);
        if (a == one.end() || b == two.end())
            continue;
        const Figures& f1 = a->second;
        const Figures& f2 = b->second;
        const double bytes = 4.0 * f2.at("params");
        for (const char* key : { "ar1", "ar2" }) {
            const double ar = f2.at(std::string(key) + "_ms");
            const double bucket = std::string(key) == "ar1" ? 25.0 : static_cast<double>(o.bucket2) / (1 << 20);
            const double bw = busbw(bytes, ar);
            std::printf("%-9s %11.0f %9.2f %6lldx%-5lld | %10.1f %10.1f | %4.3gMiB %9.2f %6.2fGB/s %6.0f%% %7.1f%% "
                        "%7.1f%% | %9.2fx\n",
                shape.name.c_str(), f2.at("params"), bytes / 1e6, static_cast<long long>(shape.rows),
                static_cast<long long>(shape.tokens), f1.at("update_ms"), f2.at("update_ms"), bucket, ar, bw,
                raw64 > 0 ? 100.0 * bw / raw64 : 0.0, 100.0 * ar / f2.at("update_ms"), 100.0 * ar / f1.at("update_ms"),
                2.0 * f1.at("update_ms") / (f2.at("update_ms") + f2.at("ar1_ms")));
        }
        std::printf("%-9s   reps: update %g (1 rank) / %g (2 ranks, slowest rank per step), allreduce %g per bucket; "
                    "AR min-max %.1f-%.1f ms (25 MiB), %.1f-%.1f ms (2nd size)\n",
            "", f1.at("update_reps"), f2.at("update_reps"), f2.at("ar1_reps"), f2.at("ar1_min"), f2.at("ar1_max"),
            f2.at("ar2_min"), f2.at("ar2_max"));
    }
    std::printf("'vs raw': the gradient allreduce's busbw against the raw 64 MB allreduce's (mean of before and after, "
                "%.2f GB/s) in this run\n",
        raw64);
    return 0;
}
