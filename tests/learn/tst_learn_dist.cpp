// The communicator of data-parallel runs (core/learn/torch/dist, issue 36) on Gloo over loopback: ranks as threads of
// this process, rendezvousing through a FileStore or a TCPStore. Collectives agree with a sum / root computed here;
// buckets split and join tensors of several dtypes; a rank that never arrives is named; launchers' environments
// (torchrun, srun) are read, and their mistakes refused by name. (The learned credit models over ranks:
// tst_learn_distcredit.)
#include "core/learn/torch/dist/communicator.h"
#include "core/learn/torch/dist/dataparallel.h"
#include "tests/learn/rankthreads.h"

#include <QTemporaryDir>
#include <QtTest/QTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

using namespace creditlab::learn::dist;
using creditlab::testing::fileEnv;
using creditlab::testing::generatorLock;
using creditlab::testing::onRanks;

class TestLearnDist : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        const QByteArray name = QTest::currentTestFunction();
        if (!Communicator::available() && !name.endsWith("Environment") && name != "badEnvironmentIsNamed"
            && name != "bucketsSplitAndJoin")
            QSKIP("this build has no distributed engine (no Gloo headers)");
    }
    void torchrunEnvironment();
    void slurmEnvironment();
    void badEnvironmentIsNamed_data();
    void badEnvironmentIsNamed();
    void bucketsSplitAndJoin();
    void collectivesAgree_data();
    void collectivesAgree();
    void tcpRendezvous();
    void oneRankGroupOnRequest();
    void missingRankAtStartIsNamed();
    void monitoredBarrierNamesTheMissingRank();
    void dataParallelEqualsOneProcess_data();
    void dataParallelEqualsOneProcess();
    void withoutTheBroadcastReplicasDiverge();
};

namespace {

using Env = std::map<std::string, std::string>;

LaunchEnv fromMap(const Env& env)
{
    return LaunchEnv::fromEnvironment([&](const char* name) -> std::optional<std::string> {
        const auto it = env.find(name);
        return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
    });
}

int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    ::close(fd);
    return ntohs(a.sin_port);
}

} // namespace

void TestLearnDist::torchrunEnvironment()
{
    const LaunchEnv single = fromMap({});
    QCOMPARE(single.world, 1);
    QVERIFY(!single.distributed());
    const LaunchEnv env
        = fromMap({ { "RANK", "3" }, { "WORLD_SIZE", "8" }, { "LOCAL_RANK", "1" }, { "LOCAL_WORLD_SIZE", "2" },
            { "MASTER_ADDR", "node7" }, { "MASTER_PORT", "29511" }, { "TORCHELASTIC_USE_AGENT_STORE", "True" } });
    QCOMPARE(env.source, std::string("torchrun"));
    QCOMPARE(env.rank, 3);
    QCOMPARE(env.world, 8);
    QCOMPARE(env.localRank, 1);
    QCOMPARE(env.localWorld, 2);
    QCOMPARE(env.masterAddr, std::string("node7"));
    QCOMPARE(env.masterPort, 29511);
    QVERIFY(env.agentStore);
    QCOMPARE(env.threadsPerRank(16), 8); // cores ÷ local ranks
    QCOMPARE(env.threadsPerRank(1), 1);
    // torchrun's variables win over Slurm's when both are set (torchrun inside an allocation).
    QCOMPARE(
        fromMap({ { "RANK", "0" }, { "WORLD_SIZE", "2" }, { "SLURM_NTASKS", "4" }, { "SLURM_PROCID", "3" } }).world, 2);
}

void TestLearnDist::slurmEnvironment()
{
    const LaunchEnv env = fromMap({ { "SLURM_PROCID", "5" }, { "SLURM_NTASKS", "8" }, { "SLURM_LOCALID", "1" },
        { "SLURM_NTASKS_PER_NODE", "4(x2)" }, { "SLURM_LAUNCH_NODE_IPADDR", "10.0.0.3" } });
    QCOMPARE(env.source, std::string("slurm"));
    QCOMPARE(env.rank, 5);
    QCOMPARE(env.world, 8);
    QCOMPARE(env.localRank, 1);
    QCOMPARE(env.localWorld, 4);
    QCOMPARE(env.masterAddr, std::string("10.0.0.3"));
    QCOMPARE(env.masterPort, 29500);
    // MASTER_ADDR, when the job script sets it, wins.
    QCOMPARE(fromMap({ { "SLURM_PROCID", "0" }, { "SLURM_NTASKS", "2" }, { "MASTER_ADDR", "head" },
                         { "SLURM_LAUNCH_NODE_IPADDR", "10.0.0.3" } })
                 .masterAddr,
        std::string("head"));
}

void TestLearnDist::badEnvironmentIsNamed_data()
{
    QTest::addColumn<QStringList>("vars");
    QTest::addColumn<QString>("expected");
    QTest::newRow("rank past the world") << QStringList { "RANK=4", "WORLD_SIZE=4" } << "RANK=4: expected 0 to 3";
    QTest::newRow("not a number") << QStringList { "RANK=one", "WORLD_SIZE=2" } << "RANK=one: expected an integer";
    QTest::newRow("no rank") << QStringList { "WORLD_SIZE=2" } << "WORLD_SIZE is set but RANK is not";
    QTest::newRow("bad port") << QStringList { "RANK=0", "WORLD_SIZE=2", "MASTER_PORT=70000" }
                              << "MASTER_PORT=70000: expected 1 to 65535";
    QTest::newRow("local rank") << QStringList { "RANK=0", "WORLD_SIZE=4", "LOCAL_RANK=2", "LOCAL_WORLD_SIZE=2" }
                                << "LOCAL_RANK=2: expected less than LOCAL_WORLD_SIZE=2";
    QTest::newRow("slurm without procid") << QStringList { "SLURM_NTASKS=2" } << "SLURM_PROCID is not";
}

void TestLearnDist::badEnvironmentIsNamed()
{
    QFETCH(QStringList, vars);
    QFETCH(QString, expected);
    Env env;
    for (const QString& v : vars)
        env[v.section('=', 0, 0).toStdString()] = v.section('=', 1).toStdString();
    try {
        fromMap(env);
        QFAIL("no error");
    } catch (const std::runtime_error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(expected), e.what());
    }
}

void TestLearnDist::bucketsSplitAndJoin()
{
    // Three float tensors and a double, in buckets of at most 40 bytes: [a, b] (16 + 24 bytes), [c] (non-contiguous,
    // sent through a copy), [d] (another dtype). What the sender does to a bucket lands in the tensors.
    std::vector<torch::Tensor> ts { torch::ones({ 4 }), torch::full({ 2, 3 }, 2.0), torch::full({ 3, 2 }, 3.0).t(),
        torch::full({ 2 }, 4.0, torch::kFloat64) };
    std::vector<std::int64_t> sizes;
    forEachBucket(ts, 40, [&](torch::Tensor& flat) {
        sizes.push_back(flat.numel());
        flat.mul_(10);
    });
    QCOMPARE(sizes, (std::vector<std::int64_t> { 10, 6, 2 }));
    QCOMPARE(ts[0].sum().item<double>(), 40.0);
    QCOMPARE(ts[1].sum().item<double>(), 120.0);
    QCOMPARE(ts[2].sum().item<double>(), 180.0);
    QCOMPARE(ts[2].sizes().vec(), (std::vector<std::int64_t> { 2, 3 }));
    QCOMPARE(ts[3].sum().item<double>(), 80.0);
}

void TestLearnDist::collectivesAgree_data()
{
    QTest::addColumn<int>("world");
    QTest::newRow("2 ranks") << 2;
    QTest::newRow("4 ranks") << 4;
}

void TestLearnDist::collectivesAgree()
{
    QFETCH(int, world);
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("store")).toStdString();
    std::vector<std::vector<torch::Tensor>> results(static_cast<std::size_t>(world));
    CommOptions options;
    options.timeout = std::chrono::milliseconds(30000);
    options.bucketBytes = 256; // the two float64 gradients share a bucket; the float32 one has its own
    onRanks(world, [&](int rank) {
        auto comm = Communicator::connect(fileEnv(file, rank, world), options);
        QCOMPARE(comm->rank(), rank);
        // Different on every rank before the broadcast; rank 0's everywhere after.
        std::vector<torch::Tensor> params { torch::full({ 5 }, double(rank + 1), torch::kFloat64),
            torch::arange(12, torch::kFloat32).reshape({ 3, 4 }) * float(rank + 1) };
        comm->broadcast(params, 0);
        // Sum of (rank + 1) * x over the ranks.
        std::vector<torch::Tensor> grads { torch::full({ 7 }, double(rank + 1), torch::kFloat64),
            torch::ones({ 2, 2 }, torch::kFloat64), torch::arange(20, torch::kFloat32) * float(rank + 1) };
        comm->allreduce(grads);
        comm->barrier();
        comm->monitoredBarrier(std::chrono::milliseconds(20000));
        results[static_cast<std::size_t>(rank)] = { params[0], params[1], grads[0], grads[2], grads[1] };
    });
    const double sum = world * (world + 1) / 2.0;
    for (int r = 0; r < world; ++r) {
        const auto& got = results[static_cast<std::size_t>(r)];
        QVERIFY(torch::equal(got[0], torch::full({ 5 }, 1.0, torch::kFloat64)));
        QVERIFY(torch::equal(got[1], torch::arange(12, torch::kFloat32).reshape({ 3, 4 })));
        QVERIFY(torch::equal(got[2], torch::full({ 7 }, sum, torch::kFloat64)));
        QVERIFY(torch::allclose(got[3], torch::arange(20, torch::kFloat32) * float(sum)));
        QVERIFY(torch::equal(got[4], torch::full({ 2, 2 }, double(world), torch::kFloat64)));
        // The replicas are bit-identical.
        for (std::size_t k = 0; k < got.size(); ++k)
            QVERIFY(torch::equal(got[k], results[0][k]));
    }
}

void TestLearnDist::tcpRendezvous()
{
    // torchrun's convention: rank 0 serves a TCPStore at MASTER_ADDR:MASTER_PORT.
    const int port = freePort();
    std::atomic<double> total { 0.0 };
    onRanks(2, [&](int rank) {
        LaunchEnv env = fromMap({ { "RANK", std::to_string(rank) }, { "WORLD_SIZE", "2" },
            { "MASTER_ADDR", "127.0.0.1" }, { "MASTER_PORT", std::to_string(port) } });
        CommOptions options;
        options.timeout = std::chrono::milliseconds(30000);
        auto comm = Communicator::connect(env, options);
        std::vector<torch::Tensor> x { torch::full({ 3 }, double(rank + 1), torch::kFloat64) };
        comm->allreduce(x);
        if (rank == 0)
            total = x[0].sum().item<double>();
    });
    QCOMPARE(total.load(), 9.0);
}

void TestLearnDist::oneRankGroupOnRequest()
{
    // World 1 does nothing by default; CommOptions::groupForOneRank builds the process group anyway (bench_allreduce
    // times a one-rank NCCL allreduce with it), and its collectives leave the values as they are.
    LaunchEnv env;
    env.masterPort = freePort();
    CommOptions options;
    options.timeout = std::chrono::milliseconds(30000);
    options.groupForOneRank = true;
    auto comm = Communicator::connect(env, options);
    QCOMPARE(comm->world(), 1);
    std::vector<torch::Tensor> x { torch::arange(5, torch::kFloat32), torch::full({ 2, 3 }, 7.0, torch::kFloat64) };
    const std::vector<torch::Tensor> before { x[0].clone(), x[1].clone() };
    comm->allreduce(x);
    comm->broadcast(x, 0);
    comm->barrier();
    QVERIFY(torch::equal(x[0], before[0]));
    QVERIFY(torch::equal(x[1], before[1]));
}

void TestLearnDist::missingRankAtStartIsNamed()
{
    // Rank 1 of 2 never starts: rank 0 gives up after the timeout with an error that says what to check, not an abort.
    const int port = freePort();
    LaunchEnv env = fromMap({ { "RANK", "0" }, { "WORLD_SIZE", "2" }, { "MASTER_ADDR", "127.0.0.1" },
        { "MASTER_PORT", std::to_string(port) } });
    CommOptions options;
    options.timeout = std::chrono::milliseconds(1500);
    const auto start = std::chrono::steady_clock::now();
    try {
        Communicator::connect(env, options);
        QFAIL("no error");
    } catch (const CommError& e) {
        const std::string what = e.what();
        QVERIFY2(what.starts_with("rank 0 of 2 (torchrun): the ranks did not all meet at 127.0.0.1:"
                     + std::to_string(port) + " within 1500 ms"),
            e.what());
    }
    QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
}

void TestLearnDist::monitoredBarrierNamesTheMissingRank()
{
    // Rank 2 of 3 joins but never reaches the barrier: rank 0's monitored barrier names it within its timeout.
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("store")).toStdString();
    std::string rank0Error;
    std::atomic<bool> done { false };
    CommOptions options;
    options.timeout = std::chrono::milliseconds(20000);
    std::mutex m;
    onRanks(3, [&](int rank) {
        auto comm = Communicator::connect(fileEnv(file, rank, 3), options);
        if (rank == 2) { // alive, but elsewhere: waits until rank 0 has given up
            while (!done)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            return;
        }
        try {
            comm->monitoredBarrier(std::chrono::milliseconds(1500));
        } catch (const CommError& e) {
            std::lock_guard lock(m);
            if (rank == 0)
                rank0Error = e.what();
        }
        if (rank == 0)
            done = true;
    });
    QVERIFY2(rank0Error.starts_with("rank 0: rank(s) 2 did not reach the barrier within 1500 ms"), rank0Error.c_str());
}

namespace {

/// A 6→32→32→3 tanh MLP, seeded per `seed`, in `dtype`.
torch::nn::Sequential mlp(std::uint64_t seed, torch::Dtype dtype)
{
    std::lock_guard lock(generatorLock());
    torch::manual_seed(seed);
    torch::nn::Sequential net(torch::nn::Linear(6, 32), torch::nn::Tanh(), torch::nn::Linear(32, 32), torch::nn::Tanh(),
        torch::nn::Linear(32, 3));
    net->to(dtype);
    return net;
}

struct TrainResult {
    std::vector<torch::Tensor> params;
};

/// `steps` Adam steps (lr 1e-2, global-norm clip 0.5 after the reduction) on global batches of 16 made from a generator
/// seeded by the step; rank r of `world` takes the contiguous shard [r·16/W, (r+1)·16/W), its loss the mean over it.
/// Each rank starts from its own seed; `broadcast` makes rank 0's weights everyone's.
TrainResult trainShard(Communicator& comm, torch::Dtype dtype, int steps, bool broadcast)
{
    auto net = mlp(1000 + static_cast<std::uint64_t>(comm.rank()), dtype);
    std::vector<torch::Tensor> params = net->parameters();
    if (broadcast)
        broadcastFromRoot(comm, params);
    torch::optim::Adam adam(params, torch::optim::AdamOptions(1e-2));
    const int world = comm.world(), batch = 16, shard = batch / world;
    for (int step = 0; step < steps; ++step) {
        torch::Generator gen = at::detail::createCPUGenerator(77 + static_cast<std::uint64_t>(step));
        const torch::Tensor x = at::randn({ batch, 6 }, gen, torch::TensorOptions().dtype(dtype));
        const torch::Tensor y = at::randn({ batch, 3 }, gen, torch::TensorOptions().dtype(dtype));
        const torch::Tensor xs = x.narrow(0, comm.rank() * shard, shard), ys = y.narrow(0, comm.rank() * shard, shard);
        adam.zero_grad();
        torch::mse_loss(net->forward(xs), ys).backward();
        allreduceGradients(comm, params, 1.0 / world);
        torch::nn::utils::clip_grad_norm_(params, 0.5);
        adam.step();
    }
    TrainResult r;
    for (const auto& p : params)
        r.params.push_back(p.detach().clone());
    return r;
}

double maxDiff(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b)
{
    double m = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        m = std::max(m, (a[i] - b[i]).abs().max().item<double>());
    return m;
}

} // namespace

void TestLearnDist::dataParallelEqualsOneProcess_data()
{
    QTest::addColumn<int>("world");
    QTest::addColumn<bool>("float64");
    QTest::addColumn<double>("tolerance");
    // ../shared/reference/distributed.md §2.3: equal up to summation order; float32 Adam amplifies that noise on
    // parameters with near-zero gradients, hence 1e-4 there.
    QTest::newRow("2 ranks, float64") << 2 << true << 1e-10;
    QTest::newRow("4 ranks, float64") << 4 << true << 1e-10;
    QTest::newRow("2 ranks, float32") << 2 << false << 1e-4;
}

void TestLearnDist::dataParallelEqualsOneProcess()
{
    // W ranks on shards of each global batch end where one process on the whole batch ends, after a few Adam steps;
    // and every rank holds the same bits.
    QFETCH(int, world);
    QFETCH(bool, float64);
    QFETCH(double, tolerance);
    const torch::Dtype dtype = float64 ? torch::kFloat64 : torch::kFloat32;
    constexpr int kSteps = 6;
    auto one = Communicator::connect(LaunchEnv {});
    const TrainResult reference = trainShard(*one, dtype, kSteps, true);
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("store")).toStdString();
    std::vector<TrainResult> results(static_cast<std::size_t>(world));
    onRanks(world, [&](int rank) {
        CommOptions options;
        options.timeout = std::chrono::milliseconds(30000);
        options.bucketBytes = 4096; // several buckets
        auto comm = Communicator::connect(fileEnv(file, rank, world), options);
        results[static_cast<std::size_t>(rank)] = trainShard(*comm, dtype, kSteps, true);
        verifyReplicas(*comm, results[static_cast<std::size_t>(rank)].params);
    });
    const double diff = maxDiff(results[0].params, reference.params);
    qInfo("max |theta_W - theta_1| = %.3g", diff);
    QVERIFY2(diff < tolerance, qPrintable(QStringLiteral("max |θ_W − θ_1| = %1").arg(diff)));
    for (int r = 1; r < world; ++r)
        QCOMPARE(maxDiff(results[static_cast<std::size_t>(r)].params, results[0].params), 0.0);
}

void TestLearnDist::withoutTheBroadcastReplicasDiverge()
{
    // The negative control: without rank 0's weights broadcast, each rank trains its own initial weights; nothing
    // fails but the replicas differ, which verifyReplicas says, naming the rank.
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("store")).toStdString();
    std::vector<std::string> errors(2);
    std::vector<TrainResult> results(2);
    onRanks(2, [&](int rank) {
        CommOptions options;
        options.timeout = std::chrono::milliseconds(30000);
        auto comm = Communicator::connect(fileEnv(file, rank, 2), options);
        results[static_cast<std::size_t>(rank)] = trainShard(*comm, torch::kFloat64, 3, false);
        try {
            verifyReplicas(*comm, results[static_cast<std::size_t>(rank)].params);
        } catch (const CommError& e) {
            errors[static_cast<std::size_t>(rank)] = e.what();
        }
    });
    QVERIFY(maxDiff(results[0].params, results[1].params) > 1e-3);
    QVERIFY(errors[0].empty());
    QVERIFY2(errors[1].starts_with("rank 1: its parameters differ from rank 0's"), errors[1].c_str());
}

QTEST_GUILESS_MAIN(TestLearnDist)
#include "tst_learn_dist.moc"
