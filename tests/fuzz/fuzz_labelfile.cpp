// Human label files (core/interchange/labelfile.h readLabelFile) against a small store in /dev/shm: two runs, where run
// 1 has trajectories "t1" (3 turns) and "t2" (1 turn) and run 2 another "t1" (an id that is ambiguous database-wide).
// The first byte picks the scope (even: run 1, odd: the whole database); the rest is the label file. Errors must be a
// LabelFileError naming the file and line, or a std::runtime_error naming the file.

#include "core/interchange/labelfile.h"
#include "core/storage/store.h"
#include "tests/fuzz/fuzzutil.h"

using namespace creditlab;

namespace {

Store& store()
{
    static const std::string path = "/dev/shm/creditlab-fuzz-" + std::to_string(::getpid()) + "-labels.db";
    static Store* s = [] {
        std::remove(path.c_str());
        auto* st = new Store(path);
        auto tx = st->begin();
        for (int r = 0; r < 2; ++r) {
            const std::int64_t run = st->createRun(NewRun { "run" + std::to_string(r) });
            for (int k = 0; k < (r == 0 ? 2 : 1); ++k) {
                Trajectory t;
                t.id = "t" + std::to_string(k + 1);
                t.group = "g";
                t.turns.resize(k == 0 ? 3 : 1);
                for (auto& turn : t.turns) {
                    turn.observation = "obs";
                    turn.action = "act";
                }
                st->insertTrajectory(run, k, t);
            }
        }
        tx->commit();
        std::atexit([] {
            std::remove(path.c_str());
            std::remove((path + "-wal").c_str());
            std::remove((path + "-shm").c_str());
        });
        return st;
    }();
    return *s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static fuzz::ScratchFile file("labels.jsonl");
    if (size == 0)
        return 0;
    const std::optional<std::int64_t> run = data[0] % 2 == 0 ? std::optional<std::int64_t>(1) : std::nullopt;
    const std::string& path = file.write(fuzz::text(data + 1, size - 1));
    try {
        const auto lines = readLabelFile(store(), run, path);
        for (const LabelLine& l : lines)
            if (l.annotator.empty() || l.turn < 0 || l.trajectoryRowId <= 0 || (!l.role && !l.note))
                fuzz::finding("a label line passed the checks with a bad value", l.trajectory);
    } catch (const JsonlError& e) {
        fuzz::note(e.what());
        if (e.line() == 0 || !fuzz::names(e.what(), path + ":" + std::to_string(e.line())))
            fuzz::finding("a label file error does not name the file and line", e.what());
    } catch (const std::runtime_error& e) {
        fuzz::note(e.what());
        if (!fuzz::names(e.what(), path))
            fuzz::finding("an error does not name the label file", e.what());
    } catch (const std::exception& e) {
        fuzz::unexpected("readLabelFile", e);
    }
    return 0;
}
