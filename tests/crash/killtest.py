#!/usr/bin/env python3
"""Crash safety as a test: SIGKILL CreditLab processes at random points and check what they leave behind.

    python3 tests/crash/killtest.py --cli build/release/bin/creditlab-cli --bounded     # the ctest, about a minute
    python3 tests/crash/killtest.py --cli build/release/bin/creditlab-cli --kills 130 --experiment-kills 15 \
        --server-kills 15 --variants every1,every2 --experiment-sft-kills --repeat-reference   # the long version

Three kinds of victims, one process of ours at a time; every database starts as a copy of one that holds an imported
run with human labels (`labels import`), and after every kill the checks read a copy of what the kill left (the
database and its WAL), so that the next CreditLab process finds the WAL as the kill left it and recovers it itself.

  train       `creditlab-cli train` on a tiny household config (household-tiny.yaml, 6 iterations after a small SFT,
              about 10 s), killed 1-3 times per run, each kill aimed at a phase: SFT, an iteration's rollout / update
              / evaluation (timed from the uninterrupted run's time/* metrics), the writing of a checkpoint (inotify:
              ckpt-N.tmp appears), the commit (inotify: the -wal file is written while iteration N is open, or ckpt-N
              has just been renamed into place), or a uniformly random moment (--strategies picks some). Where the
              kill landed is read back from the database and the run's folder (a fresh ckpt-N.tmp: checkpoint;
              ckpt-N without its row, or the WAL written since the previous iteration's line: commit; iteration N
              committed but not yet printed: post-commit) or, within an iteration, from the time since the previous
              iteration's line. After each kill: the database opens, PRAGMA integrity_check and foreign_key_check
              pass, the human labels are unchanged (rows and `labels export`), every committed iteration is there
              exactly once and whole (its metrics, as many trajectories as the uninterrupted run has, each with all
              its turns and credits, no trajectory of an uncommitted iteration), the last checkpoint row's files
              exist and name its iteration (an older row whose files are gone is counted as "stale", not failed:
              nothing reads it), and every committed iteration equals the uninterrupted run's. Then
              `train --resume RUN` (or, killed before the run existed, `train --config` again) continues, and the
              finished run must equal the uninterrupted run of the same config and seed: every metric but time/*
              and throughput/* bit for bit, and the trajectories, turns and credits of every iteration.
              --variants: every1 (checkpoint.every=1, the default), every2 (iterations committed after the last
              checkpoint are recomputed by the resume), keep1 (checkpoint.every=1, checkpoint.keep=1).
  experiment  `experiment run triage.yaml --scale smoke -j 1` killed mid-trial, or (long version) in a trial's setup
              (inotify: the trial's run folder appears) or with --experiment-sft-kills during the shared SFT, then
              `experiment resume N` until it finishes: every trial finished exactly once (one run each, no orphan
              trial run), each trial's run whole and equal to the uninterrupted experiment's, the report builds.
  server      `serve --port 0` killed while the Python client (resources/clients/python) posts iterations of ~6 MB
              (the clock starts when the request leaves); after each kill every stored iteration is whole (as many
              trajectories as were posted, every turn, its metrics) and integrity holds; the server is restarted,
              the client looks up whether the iteration in flight landed (posting it again must then be a 409) and
              goes on; at the end every iteration is stored exactly once and the run is finished.

Before any of it, the checks are shown to fail: copies of a finished database with an iteration stored twice, a
partial one, trajectories without their iteration's metrics, a truncated trajectory, a changed or deleted label, a
metric or credit off in the last bits, the last checkpoint without its files and overwritten pages must each be
reported, and so must a trial left running, an orphan trial run and a missing trial iteration; the first server run
checks a lost trajectory, lost metrics and a lost turn. (--selftest-only: just the training and experiment ones.)

A summary follows: kills per kind and phase, kills survived, failures with details (--json writes them all).
Exit status 0 only when every check held. Standard library only (python3 >= 3.8); Linux (inotify through ctypes).
"""

import argparse
import collections
import ctypes
import hashlib
import json
import os
import random
import re
import select
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
RESOURCES = os.path.join(ROOT, "resources")
sys.path.insert(0, os.path.join(RESOURCES, "clients", "python"))

from creditlab_client import Client, CreditLabError  # noqa: E402

TINY_CONFIG = os.path.join(RESOURCES, "configs", "household-tiny.yaml")
EXPERIMENT = os.path.join(RESOURCES, "experiments", "triage.yaml")
SAMPLE = os.path.join(RESOURCES, "samples", "household-sample.jsonl")

# The tiny run: 6 iterations of household-tiny after a small SFT; about 10 s on one free core. rl.lr is raised so that
# the policy visibly moves (a resume that lost state shows in the metrics at once).
TRAIN_SETS = [
    "rl.iterations=6", "eval.every=2", "eval.episodes=4", "sft.expert_episodes=40", "sft.noisy_episodes=40",
    "sft.epochs=3", "tokenizer.episodes=20", "rl.lr=0.001",
]
VARIANTS = {
    # The brief's: a checkpoint with every iteration.
    "every1": ["checkpoint.every=1"],
    # Iterations committed after the last checkpoint are dropped and recomputed by the resume.
    "every2": ["checkpoint.every=2"],
    # One checkpoint kept: the previous one is deleted when the next is written.
    "keep1": ["checkpoint.every=1", "checkpoint.keep=1"],
    # Data-parallel (issue 36): `train --nproc 2`, and a kill hits rank 0, rank 1 or the launcher at random. A dead rank
    # fails the run (its survivor names it in run.notes); the launcher's death takes its ranks with it. The resume runs
    # on two ranks as well, and must equal the uninterrupted two-rank run.
    "nproc2": ["checkpoint.every=1"],
}
# Command-line options a variant adds (besides its --set keys), to the first attempt and to every resume.
LAUNCH = {"nproc2": ["--nproc", "2"]}
# Metrics that measure the machine, not the run: left out of every comparison.
CLOCK_METRICS = ("time/", "throughput/", "device/")  # device/: peak memory, not deterministic

ENV = dict(os.environ, LC_ALL="C.UTF-8", PYTHONDONTWRITEBYTECODE="1")


def log(*args):
    print(*args, flush=True)


# ------------------------------------------------------------------------------------------------ processes


class Proc:
    """A CreditLab process: stdout lines with their times (monotonic and wall clock), stderr to a file."""

    def __init__(self, argv, folder, tag, nice=0, watch=None):
        self.argv = argv
        self.watch = watch  # a file whose (size, mtime) is noted with every line: the WAL
        self.stats = []
        self.t0 = time.monotonic()
        self.wall0 = time.time()
        self.lines = []  # (monotonic, wall, text)
        self.eof = False
        self.cond = threading.Condition()
        self.out_path = os.path.join(folder, tag + ".out")
        self.err_path = os.path.join(folder, tag + ".err")
        self._out = open(self.out_path, "w")
        self._err = open(self.err_path, "w")
        pre = (lambda: os.nice(nice)) if nice else None
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self._err, stdin=subprocess.DEVNULL,
                                  env=ENV, text=True, preexec_fn=pre)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.killed_at = None
        self.ranks = "--nproc" in argv  # data-parallel: the victim is a rank or the launcher
        self.victim = None

    def _read(self):
        for line in self.p.stdout:
            now = time.monotonic()
            wall = time.time()
            if self.watch:
                self.stats.append(self.stat(self.watch))
            self._out.write(line)
            self._out.flush()
            with self.cond:
                self.lines.append((now, wall, line.rstrip("\n")))
                self.cond.notify_all()
        with self.cond:
            self.eof = True
            self.cond.notify_all()

    def alive(self):
        return self.p.poll() is None

    @staticmethod
    def stat(path):
        try:
            st = os.stat(path)
            return (st.st_ino, st.st_size, st.st_mtime_ns)
        except OSError:
            return None

    def wait_line(self, predicate, timeout, start=0):
        """Index of the first line from `start` on that matches, or None at EOF or timeout."""
        deadline = time.monotonic() + timeout
        with self.cond:
            i = start
            while True:
                while i < len(self.lines):
                    if predicate(self.lines[i][2]):
                        return i
                    i += 1
                if self.eof:
                    return None
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.cond.wait(min(left, 0.2))

    def sleep(self, seconds):
        """Sleeps, or returns False at once when the process ends first."""
        deadline = time.monotonic() + max(0.0, seconds)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return self.alive()
            try:
                self.p.wait(timeout=min(left, 0.05))
                return False
            except subprocess.TimeoutExpired:
                pass

    def rank_pids(self):
        """{rank: pid} of the launcher's ranks (children whose environment holds RANK=r)."""
        out = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/status" % entry) as f:
                    if "PPid:\t%d\n" % self.p.pid not in f.read():
                        continue
                with open("/proc/%s/environ" % entry, "rb") as f:
                    for var in f.read().split(b"\0"):
                        if var.startswith(b"RANK="):
                            out[int(var[5:])] = int(entry)
            except (OSError, ValueError):
                continue
        return out

    def kill(self):
        """SIGKILL; False when it had already ended. A data-parallel run's victim is one of its ranks or the
        launcher, at random; after a rank's death the launcher must end by itself (it gives the survivors 30 s)."""
        if not self.alive():
            return False
        target, self.victim = self.p.pid, "launcher"
        if self.ranks:
            ranks = self.rank_pids()
            choice = random.choice(["launcher"] + sorted(ranks))
            if choice != "launcher":
                target, self.victim = ranks[choice], "rank %d" % choice
        try:
            os.kill(target, signal.SIGKILL)
        except ProcessLookupError:
            return False
        self.killed_at = (time.monotonic(), time.time())
        self.finish(90 if target != self.p.pid else 30)
        # Before anything opens the database (the last connection to close checkpoints and removes the WAL).
        self.killed_stat = self.stat(self.watch) if self.watch else None
        return True

    def finish(self, timeout):
        try:
            rc = self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.kill(self.p.pid, signal.SIGKILL)
            rc = self.p.wait()
            self._err.write("\n[killtest: still running after %g s, killed]\n" % timeout)
            rc = "timeout"
        self._reader.join(10)
        self._out.close()
        self._err.close()
        return rc

    def text(self):
        with self.cond:
            return [l[2] for l in self.lines]

    def stderr_tail(self, n=15):
        try:
            with open(self.err_path, errors="replace") as f:
                return "".join(f.readlines()[-n:]).strip()
        except OSError:
            return ""


def run_cli(cli, args, folder, tag, nice=0, timeout=600):
    p = Proc([cli] + args, folder, tag, nice)
    rc = p.finish(timeout)
    return rc, p


class SendClient(Client):
    """The Python client, telling when a request leaves (after its body is encoded)."""

    on_send = None

    def _exchange(self, *args, **kwargs):
        if self.on_send:
            self.on_send()
        return super()._exchange(*args, **kwargs)


class Inotify:
    """inotify through ctypes: the moment a checkpoint folder appears or the WAL is written."""

    IN_MODIFY = 0x2
    IN_MOVED_TO = 0x80
    IN_CREATE = 0x100

    def __init__(self):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")

    def watch(self, path, mask):
        wd = self.libc.inotify_add_watch(self.fd, os.fsencode(path), mask)
        if wd < 0:
            raise OSError(ctypes.get_errno(), "inotify_add_watch " + path)
        return wd

    def events(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return []
        try:
            data = os.read(self.fd, 1 << 16)
        except BlockingIOError:
            return []
        out = []
        i = 0
        while i + 16 <= len(data):
            wd, mask, _cookie, length = struct.unpack_from("iIII", data, i)
            name = data[i + 16:i + 16 + length].split(b"\0", 1)[0].decode(errors="replace")
            out.append((wd, mask, name))
            i += 16 + length
        return out

    def close(self):
        os.close(self.fd)


# ------------------------------------------------------------------------------------------------ database reading


def connect(db):
    # A fresh connection: opening it recovers the WAL as the next CreditLab process would.
    con = sqlite3.connect(db, timeout=30)
    con.execute("PRAGMA busy_timeout = 30000")
    return con


def integrity(db):
    """None when the database opens and both checks pass, else what is wrong."""
    if not os.path.exists(db):
        return "the database file is missing"
    try:
        con = connect(db)
        try:
            rows = [r[0] for r in con.execute("PRAGMA integrity_check")]
            if rows != ["ok"]:
                return "PRAGMA integrity_check: " + "; ".join(map(str, rows[:5]))
            fk = con.execute("PRAGMA foreign_key_check").fetchall()
            if fk:
                return "PRAGMA foreign_key_check: %d violations, first %r" % (len(fk), fk[0])
        finally:
            con.close()
    except sqlite3.Error as e:
        return "cannot read the database: %s" % e
    return None


def frozen_copy(db, folder, tag):
    """What a kill left (the database and its WAL, not the shared-memory index), copied: the checks read the copy,
    so that the next CreditLab process finds the WAL as the kill left it and recovers it itself."""
    dst = os.path.join(folder, "after-kill-%s" % tag)
    shutil.rmtree(dst, ignore_errors=True)
    os.makedirs(dst)
    out = os.path.join(dst, os.path.basename(db))
    for suffix in ("", "-wal"):
        if os.path.exists(db + suffix):
            shutil.copyfile(db + suffix, out + suffix)
    return out


def label_rows(db):
    con = connect(db)
    try:
        return con.execute("SELECT h.trajectory_id, t.ext_id, h.idx, h.annotator, h.role, h.created_at "
                           "FROM human_label h JOIN trajectory t ON t.id = h.trajectory_id "
                           "ORDER BY h.trajectory_id, h.idx, h.annotator").fetchall()
    finally:
        con.close()


def is_clock_metric(name):
    return name.startswith(CLOCK_METRICS)


def snapshot_run(db, rid):
    """Everything the checks compare about one run."""
    con = connect(db)
    try:
        row = con.execute("SELECT status, kind FROM run WHERE id = ?", (rid,)).fetchone()
        if row is None:
            return None
        snap = {"status": row[0], "kind": row[1], "metrics": {}, "names": collections.defaultdict(set),
                "traj": {}, "problems": [], "checkpoints": []}
        for it, name, value in con.execute("SELECT iteration, name, value FROM metric WHERE run_id = ?", (rid,)):
            snap["names"][it].add(name)
            if not is_clock_metric(name):
                snap["metrics"][(it, name)] = value
        snap["iterations"] = sorted(snap["names"])
        per = collections.defaultdict(lambda: {"train": 0, "eval": 0, "turns": 0, "credits": 0,
                                               "digest": hashlib.sha256()})
        turns_of = dict(con.execute(
            "SELECT t.id, count(u.idx) FROM trajectory t LEFT JOIN turn u ON u.trajectory_id = t.id "
            "WHERE t.run_id = ? GROUP BY t.id", (rid,)).fetchall())
        credits_of = dict(con.execute(
            "SELECT t.id, count(c.idx) FROM trajectory t JOIN credit c ON c.trajectory_id = t.id "
            "WHERE t.run_id = ? GROUP BY t.id", (rid,)).fetchall())
        ids = {}
        for (tid, ordinal, ext, group, it, task, reward, success, turn_count, evaluation) in con.execute(
                "SELECT id, ord, ext_id, group_key, iteration, task, reward, success, turn_count, evaluation "
                "FROM trajectory WHERE run_id = ? ORDER BY iteration, evaluation, ord, ext_id", (rid,)):
            e = per[it]
            e["eval" if evaluation else "train"] += 1
            e["turns"] += turns_of.get(tid, 0)
            e["credits"] += credits_of.get(tid, 0)
            if turns_of.get(tid, 0) != turn_count:
                snap["problems"].append("trajectory %s (iteration %s): %d turn rows, turn_count %d"
                                        % (ext, it, turns_of.get(tid, 0), turn_count))
            e["digest"].update(repr((ordinal, ext, group, task, reward, success, turn_count, evaluation)).encode())
            ids[tid] = it
        if ids:
            # Turns and credits of every trajectory, in a stable order, into its iteration's digest.
            for tid, idx, action, obs, reward, valid, role in con.execute(
                    "SELECT u.trajectory_id, u.idx, u.action, u.observation, u.reward, u.valid, u.role FROM turn u "
                    "JOIN trajectory t ON t.id = u.trajectory_id WHERE t.run_id = ? "
                    "ORDER BY t.iteration, t.evaluation, t.ord, t.ext_id, u.idx", (rid,)):
                per[ids[tid]]["digest"].update(repr((idx, action, obs, reward, valid, role)).encode())
            for tid, method, idx, adv in con.execute(
                    "SELECT c.trajectory_id, c.method, c.idx, c.advantage FROM credit c "
                    "JOIN trajectory t ON t.id = c.trajectory_id WHERE t.run_id = ? "
                    "ORDER BY t.iteration, t.evaluation, t.ord, t.ext_id, c.method, c.idx", (rid,)):
                per[ids[tid]]["digest"].update(repr((method, idx, adv)).encode())
        for it, e in per.items():
            e["digest"] = e["digest"].hexdigest()
            snap["traj"][it] = e
        dup = con.execute("SELECT evaluation, iteration, ord, count(*) FROM trajectory WHERE run_id = ? "
                          "GROUP BY evaluation, iteration, ord HAVING count(*) > 1", (rid,)).fetchall()
        for evaluation, it, ordinal, n in dup[:5]:
            snap["problems"].append("iteration %s: %d %s trajectories with ord %d (a duplicate)"
                                    % (it, n, "eval" if evaluation else "train", ordinal))
        snap["checkpoints"] = con.execute("SELECT iteration, path FROM checkpoint WHERE run_id = ? ORDER BY iteration",
                                          (rid,)).fetchall()
        snap["sft_steps"] = con.execute("SELECT count(*) FROM sft_metric WHERE run_id = ?", (rid,)).fetchone()[0]
        return snap
    finally:
        con.close()


def checkpoint_problem(it, path):
    state = os.path.join(path, "state.txt")
    for f in ("policy.pt", "optimizer.pt", "state.txt"):
        if not os.path.isfile(os.path.join(path, f)):
            return "checkpoint row of iteration %d: %s is missing" % (it, os.path.join(path, f))
    try:
        with open(state) as f:
            words = f.read().split()
        if words[:2] != ["iteration", str(it)]:
            return "checkpoint row of iteration %d: %s says %r" % (it, state, " ".join(words[:2]))
    except OSError as e:
        return "checkpoint row of iteration %d: %s" % (it, e)
    return None


def compare_run(snap, ref, finished, every):
    """(problems, divergences): what makes the run's state impossible, and where it differs from the reference."""
    problems = list(snap["problems"])
    diverged = []
    its = snap["iterations"]
    last = its[-1] if its else -1
    if its != list(range(0, last + 1)):
        problems.append("metric iterations are %s, not 0..%d without a gap" % (its, last))
    for it in its:
        want = ref["names"].get(it)
        if want is None:
            problems.append("iteration %d has metrics; the uninterrupted run has no such iteration" % it)
            continue
        have = snap["names"][it]
        if have != want:
            problems.append("iteration %d: metrics missing %s, extra %s" % (it, sorted(want - have)[:4],
                                                                             sorted(have - want)[:4]))
    stray = sorted(set(snap["traj"]) - set(its), key=lambda x: (x is None, x))
    if stray:
        problems.append("trajectories of iteration(s) %s whose iteration has no metrics (a partial iteration)" % stray)
    for it in its:
        have = snap["traj"].get(it)
        want = ref["traj"].get(it)
        if want is None and have is None:
            continue
        if want is None or have is None:
            problems.append("iteration %d: %s trajectories, the uninterrupted run %s"
                            % (it, "no" if have is None else "has", "none" if want is None else "has"))
            continue
        for key in ("train", "eval", "turns", "credits"):
            if have[key] != want[key]:
                problems.append("iteration %d: %d %s rows (the uninterrupted run: %d)" % (it, have[key], {
                    "train": "training trajectory", "eval": "evaluation trajectory", "turns": "turn",
                    "credits": "credit"}[key], want[key]))
        if have["digest"] != want["digest"] and not any(p.startswith("iteration %d:" % it) for p in problems):
            diverged.append((it, "its trajectories, turns or credits differ from the uninterrupted run's"))
    for (it, name), value in sorted(snap["metrics"].items(), key=lambda kv: (kv[0][0], kv[0][1])):
        want = ref["metrics"].get((it, name), "absent")
        if want != "absent" and value != want and not (value != value and want != want):
            diverged.append((it, "%s = %r, uninterrupted %r" % (name, value, want)))
    ckpts = snap["checkpoints"]
    stale = []
    for it, path in ckpts:
        if it > last:
            problems.append("checkpoint row of iteration %d, but the last committed iteration is %d" % (it, last))
        p = checkpoint_problem(it, path)
        if p and (finished or it == ckpts[-1][0]):
            # The last row is the checkpoint `train --resume` loads; a finished run has pruned every stale one.
            problems.append(p)
        elif p:
            # An older row whose files are gone: no reader uses it (resume and the PAIR probe take the last one),
            # and the run's next checkpoint prunes it. Reported, not failed: see stale_checkpoints in the summary.
            stale.append(p)
    snap["stale"] = stale
    if last >= 0 and not ckpts:
        problems.append("iterations 0..%d are committed but no checkpoint row is left" % last)
    if last >= 0 and ckpts and every == 1 and ckpts[-1][0] != last:
        problems.append("checkpoint.every=1 but the last checkpoint row is %d, the last iteration %d"
                        % (ckpts[-1][0], last))
    if finished:
        final = max(ref["names"])
        if snap["status"] != "finished":
            problems.append("run status %r after the last resume, not 'finished'" % snap["status"])
        if last != final:
            problems.append("the finished run's last iteration is %d, the uninterrupted run's %d" % (last, final))
    return problems, diverged


# ------------------------------------------------------------------------------------------------ the harness


class Harness:
    def __init__(self, args):
        self.args = args
        self.cli = os.path.abspath(args.cli)
        self.rng = random.Random(args.seed)
        self.work = args.workdir or tempfile.mkdtemp(prefix="creditlab-killtest-")
        os.makedirs(self.work, exist_ok=True)
        self.kills = []  # dicts: kind, phase, aim, ok, failures
        self.failures = []  # (where, text)
        self.notes = []
        self.stale = []  # checkpoint rows left behind by a kill whose files were already deleted
        self.refs = {}
        self.started = time.monotonic()

    # -- bookkeeping

    def fail(self, where, text):
        self.failures.append((where, text))
        log("  FAIL %s: %s" % (where, text))

    def record(self, kind, phase, aim, failures, detail=""):
        k = {"kind": kind, "phase": phase, "aim": aim, "ok": not failures, "failures": failures, "detail": detail}
        self.kills.append(k)
        log("  kill %d (%s, aimed %s): landed in %s%s -> %s" % (len(self.kills), kind, aim, phase,
                                                                 (" [" + detail + "]") if detail else "",
                                                                 "ok" if not failures else "FAILED"))
        return k

    def cli_args(self, extra):
        return [self.cli] + extra

    def proc(self, extra, folder, tag, watch=None):
        return Proc(self.cli_args(extra), folder, tag, self.args.nice, watch)

    def must(self, extra, folder, tag, timeout=600):
        rc, p = run_cli(self.cli, extra, folder, tag, self.args.nice, timeout)
        if rc != 0:
            raise RuntimeError("creditlab-cli %s exited %s: %s" % (" ".join(extra), rc, p.stderr_tail()))
        return p

    # -- the database every victim starts from: an imported run with human labels

    def template(self):
        if "template" in self.refs:
            return self.refs["template"]
        folder = os.path.join(self.work, "template")
        os.makedirs(folder, exist_ok=True)
        db = os.path.join(folder, "runs.db")
        self.must(["import", SAMPLE, "--db", db, "--name", "labelled sample"], folder, "import")
        con = connect(db)
        rows = con.execute("SELECT ext_id, turn_count FROM trajectory ORDER BY id LIMIT 12").fetchall()
        con.close()
        labels = []
        for n, (ext, count) in enumerate(rows):
            for turn in range(min(count, 4)):
                labels.append({"annotator": "alice", "role": "DENR"[(n + turn) % 4], "trajectory": ext, "turn": turn})
                if turn % 2 == 0:
                    labels.append({"annotator": "bob", "role": "DENR"[(n + 2 * turn + 1) % 4], "trajectory": ext,
                                   "turn": turn})
        path = os.path.join(folder, "labels.jsonl")
        with open(path, "w") as f:
            for l in labels:
                f.write(json.dumps(l) + "\n")
        self.must(["labels", "import", path, "--db", db], folder, "labels-import")
        ref = {"db": db, "labels": label_rows(db), "export": self.export_labels(db, folder)}
        if len(ref["labels"]) != len(labels):
            raise RuntimeError("the template holds %d labels, %d were imported" % (len(ref["labels"]), len(labels)))
        self.refs["template"] = ref
        return ref

    def export_labels(self, db, folder):
        p = self.must(["labels", "export", "--db", db], folder, "labels-export")
        return "\n".join(p.text())

    def copy_template(self, folder):
        os.makedirs(folder, exist_ok=True)
        db = os.path.join(folder, "runs.db")
        shutil.copyfile(self.template()["db"], db)
        return db

    def check_labels(self, db, folder):
        t = self.template()
        out = []
        try:
            rows = label_rows(db)
        except sqlite3.Error as e:
            return ["cannot read the human labels: %s" % e]
        if rows != t["labels"]:
            lost = sorted(set(t["labels"]) - set(rows))
            new = sorted(set(rows) - set(t["labels"]))
            out.append("human labels changed: %d rows lost (first %r), %d new or changed (first %r)"
                       % (len(lost), lost[:1], len(new), new[:1]))
        try:
            if self.export_labels(db, folder) != t["export"]:
                out.append("`labels export` differs from before the kill")
        except RuntimeError as e:
            out.append(str(e))
        return out

    # ------------------------------------------------------------------------------------------- training

    def train_argv(self, variant, db):
        argv = ["train", "--config", TINY_CONFIG, "--db", db] + LAUNCH.get(variant, [])
        for s in TRAIN_SETS + VARIANTS[variant] + self.args.set:
            argv += ["--set", s]
        return argv

    def train_reference(self, variant):
        key = "train-" + variant
        if key in self.refs:
            return self.refs[key]
        folder = os.path.join(self.work, "reference-" + variant)
        db = self.copy_template(folder)
        log("reference: an uninterrupted run (%s) ..." % variant)
        p = self.proc(self.train_argv(variant, db), folder, "train")
        rc = p.finish(900)
        if rc != 0:
            raise RuntimeError("the uninterrupted run failed (%s): %s" % (rc, p.stderr_tail()))
        lines = p.lines
        rid = int(re.match(r"run (\d+) ", lines[0][2]).group(1))
        times = {"first": lines[0][0] - p.t0, "end": lines[-1][0] - p.t0}
        for t, _, text in lines:
            if text.startswith("SFT done"):
                times[0] = t - p.t0
            m = re.match(r"iter\s+(\d+)/(\d+)", text)
            if m:
                times[int(m.group(1))] = t - p.t0
        snap = snapshot_run(db, rid)
        ref = dict(snap, rid=rid, times=times, db=db, folder=folder, variant=variant,
                   every=int([s for s in VARIANTS[variant] if s.startswith("checkpoint.every=")][0].split("=")[1]),
                   last=max(snap["names"]), eval_every=2)
        problems, diverged = compare_run(snap, ref, True, ref["every"])
        if problems or diverged:
            raise RuntimeError("the uninterrupted run fails its own checks: %s" % (problems + diverged)[:3])
        # The time/* metrics of each iteration: where its stages lie.
        con = connect(db)
        stage = collections.defaultdict(dict)
        for it, name, value in con.execute("SELECT iteration, name, value FROM metric WHERE run_id = ? AND name "
                                           "LIKE 'time/%'", (rid,)):
            stage[it][name[5:]] = value or 0.0
        con.close()
        ref["stages"] = stage
        log("reference: run %d, %d iterations in %.1f s (SFT done at %.1f s)" % (rid, ref["last"], times["end"],
                                                                                   times[0]))
        self.refs[key] = ref
        if self.args.repeat_reference:
            # Uninterrupted runs are deterministic: a second one equals the first, or nothing else can be judged.
            folder2 = os.path.join(self.work, "reference-" + variant + "-again")
            db2 = self.copy_template(folder2)
            p2 = self.proc(self.train_argv(variant, db2), folder2, "train")
            if p2.finish(900) != 0:
                raise RuntimeError("the second uninterrupted run failed: %s" % p2.stderr_tail())
            problems, diverged = compare_run(snapshot_run(db2, rid), ref, True, ref["every"])
            if problems or diverged:
                self.fail("reference-" + variant, "two uninterrupted runs differ: %s" % (problems + diverged)[:3])
            else:
                log("reference: a second uninterrupted run equals the first")
        return ref

    @staticmethod
    def stage_windows(ref, it):
        """[(stage, begin, end)] within iteration `it`, seconds from its start (the previous iteration's line)."""
        s = ref["stages"].get(it, {})
        out = []
        t = 0.0
        for stage, keys in (("rollout", ("generation_s", "env_s")), ("credit", ("credit_s", "hidden_s")),
                            ("update", ("update_s",)), ("eval", ("eval_s",)), ("store", ("store_s",))):
            d = sum(s.get(k, 0.0) for k in keys)
            out.append((stage, t, t + d))
            t += d
        return out

    def iteration_start(self, p, k, resumed_from):
        """Index of the line after which iteration k runs (None: k's predecessor is not printed by this attempt)."""
        if k - 1 == resumed_from:
            return p.wait_line(lambda l: l.startswith("run "), 120)
        if k - 1 == 0:
            return p.wait_line(lambda l: l.startswith("SFT done"), 300)
        return p.wait_line(lambda l: re.match(r"iter\s+%d/" % (k - 1), l) is not None, 300)

    def aim(self, p, strategy, ref, state, db, rid_hint):
        """Waits for the aimed moment and kills; returns (aim description, killed?)."""
        resumed_from = state["committed"]  # -1: from the start (first attempt or an SFT restart)
        first = ref["last"]
        scale = state.get("scale", 1.0)
        if strategy == "uniform":
            if resumed_from < 0:
                span = ref["times"]["end"] * scale
            else:
                span = (ref["times"]["first"] + ref["times"]["end"] - ref["times"][resumed_from]) * scale
            delay = self.rng.uniform(0, span)
            alive = p.sleep(delay)
            return "uniform %.2fs" % delay, alive and p.kill()
        if strategy == "sft":
            start = ref["times"]["first"] * 0.5
            delay = self.rng.uniform(start, ref["times"][0] * scale)
            alive = p.sleep(delay)
            return "SFT %.2fs" % delay, alive and p.kill()
        if resumed_from >= first:
            strategy = "uniform-rest"
        if strategy == "uniform-rest":
            delay = self.rng.uniform(0, 3.0 * scale)
            alive = p.sleep(delay)
            return "uniform %.2fs" % delay, alive and p.kill()
        if strategy.startswith("stage:"):
            stage = strategy.split(":", 1)[1]
            ks = list(range(max(1, resumed_from + 1), first + 1))
            if stage == "eval":
                ks = [j for j in ks if j % ref["eval_every"] == 0 or j == first] or ks
            k = self.rng.choice(ks)
            windows = {s: (b, e) for s, b, e in self.stage_windows(ref, k)}
            b, e = windows[stage]
            i = self.iteration_start(p, k, resumed_from)
            if i is None:
                return "iteration %d %s" % (k, stage), False
            # Iteration times on this machine now against the reference's: the last iteration this attempt printed.
            delay = self.rng.uniform(b, e) * scale
            alive = p.sleep(delay - (time.monotonic() - p.lines[i][0]))
            return "iteration %d %s +%.2fs" % (k, stage, delay), alive and p.kill()
        # checkpoint / commit: the run's folder and the WAL, through inotify.
        every = ref["every"]
        files = db + ".files"
        if strategy == "checkpoint":
            ks = [j for j in range(max(0, resumed_from + 1), first + 1) if j % every == 0 or j == first]
            if resumed_from < 0 and self.rng.random() < 0.25:
                ks = [0]  # the checkpoint written with the SFT's commit
            k = self.rng.choice(ks)
        note = Inotify()
        try:
            rundir = None
            deadline = time.monotonic() + 300
            while rundir is None:
                rid = rid_hint or state.get("rid")
                if rid is None:
                    i = p.wait_line(lambda l: l.startswith("run "), 0.05)
                    if i is not None:
                        rid = int(re.match(r"run (\d+) ", p.lines[i][2]).group(1))
                if rid is not None and os.path.isdir(os.path.join(files, "run-%d" % rid)):
                    rundir = os.path.join(files, "run-%d" % rid)
                elif not p.alive() or time.monotonic() > deadline:
                    return strategy, False
                else:
                    time.sleep(0.02)
            note.watch(rundir, Inotify.IN_CREATE | Inotify.IN_MOVED_TO)
            if strategy == "checkpoint":
                target = "ckpt-%d.tmp" % k
                delay = self.rng.uniform(0, 0.002)  # writing a checkpoint takes 1-8 ms here
                while True:
                    if any(name == target and mask & Inotify.IN_CREATE for _, mask, name in note.events(0.1)):
                        alive = p.sleep(delay)
                        return "checkpoint %d +%.0fms" % (k, delay * 1000), alive and p.kill()
                    if not p.alive():
                        return "checkpoint %d" % k, False
            # commit: the first write to the WAL while iteration k is open, or just after ckpt-k is renamed in.
            k = self.rng.randint(max(0, resumed_from + 1), first)
            if resumed_from < 0 and k == 0 and self.rng.random() < 0.5:
                k = 1
            mode = "wal"
            if k == 0 or ((k % every == 0 or k == first) and self.rng.random() < 0.4):
                mode = "rename"  # SFT writes its sft_metric rows as it goes: the WAL does not mark its commit
            if k > 0:
                i = self.iteration_start(p, k, resumed_from)
                if i is None:
                    return "commit %d" % k, False
            else:
                i = p.wait_line(lambda l: l.startswith("run "), 120)
                if i is None:
                    return "commit 0", False
                # SFT writes nothing to the database until its commit; wait until it is nearly done.
                p.sleep(max(0.0, ref["times"][0] * scale * 0.8 - (time.monotonic() - p.t0)))
            note.watch(os.path.dirname(db), Inotify.IN_MODIFY)
            while True:
                for _, mask, name in note.events(0.1):
                    if mode == "wal" and mask & Inotify.IN_MODIFY and name == os.path.basename(db) + "-wal":
                        return "commit %d (WAL written)" % k, p.kill()
                    if mode == "rename" and mask & Inotify.IN_MOVED_TO and name == "ckpt-%d" % k:
                        return "commit %d (checkpoint renamed)" % k, p.kill()
                if not p.alive():
                    return "commit %d" % k, False
        finally:
            note.close()

    def classify(self, p, db, cdb, rid, ref, state):
        """Where the kill landed, from the DB, the run's folder and the time since the previous line."""
        killed_mono = p.killed_at[0]
        lines = [l for l in p.lines if l[0] <= killed_mono]
        if rid is None:
            return "setup (before the run existed)"
        if not lines:
            return "resume setup" if state["attempt"] > 0 else "setup"
        con = connect(cdb)
        try:
            row = con.execute("SELECT max(iteration) FROM metric WHERE run_id = ?", (rid,)).fetchone()
            rows = {r[0] for r in con.execute("SELECT iteration FROM checkpoint WHERE run_id = ?", (rid,))}
        finally:
            con.close()
        c = -1 if row is None or row[0] is None else row[0]
        printed = state["committed"]
        for _, _, text in lines:
            if text.startswith("SFT done"):
                printed = max(printed, 0)
            m = re.match(r"iter\s+(\d+)/", text)
            if m:
                printed = int(m.group(1))
        rundir = os.path.join(db + ".files", "run-%d" % rid)

        def fresh(name):
            path = os.path.join(rundir, name)
            try:
                return os.stat(path).st_mtime >= p.wall0 - 0.01
            except OSError:
                return False

        n = c + 1
        if c >= 0 and c == ref["last"]:
            return "finish (all iterations committed)"
        if c > printed:
            return "post-commit" if c > 0 else "sft post-commit"
        if fresh("ckpt-%d.tmp" % n):
            return "checkpoint" if n > 0 else "sft checkpoint"
        if fresh("ckpt-%d" % n) and n not in rows:
            return "commit (checkpoint written)" if n > 0 else "sft commit (checkpoint written)"
        # The WAL as it was when the last line was printed (after the previous iteration's commit), and now.
        wal_written = len(p.stats) >= len(lines) and p.stats[len(lines) - 1] != p.killed_stat
        if c < 0:
            return "sft"
        if wal_written:
            return "commit (WAL written)"
        since = killed_mono - lines[-1][0]
        scale = state.get("scale", 1.0)
        windows = self.stage_windows(ref, n)
        for stage, b, e in windows:
            if since < e * scale:
                return stage
        return "store, checkpoint or commit"

    def check_train(self, where, db, rid, ref, folder, finished):
        failures = []
        bad = integrity(db)
        if bad:
            return [bad]
        failures += self.check_labels(db, folder)
        if rid is None:
            return failures
        snap = snapshot_run(db, rid)
        if snap is None:
            return failures
        problems, diverged = compare_run(snap, ref, finished, ref["every"])
        failures += problems
        for st in snap["stale"]:
            self.stale.append("%s: %s" % (where, st))
        if diverged:
            its = sorted({d[0] for d in diverged})
            failures.append("DIVERGED from the uninterrupted run at iteration(s) %s: %s" % (
                its, "; ".join(d[1] for d in diverged[:4])))
        return failures

    def train_campaign(self, n, variant, strategies):
        ref = self.train_reference(variant)
        folder = os.path.join(self.work, "train-%03d" % n)
        db = self.copy_template(folder)
        where = "train campaign %d (%s)" % (n, variant)
        log("%s: kills aimed %s" % (where, ", ".join(strategies)))
        state = {"committed": -1, "rid": None, "scale": 1.0, "attempt": 0}
        attempt = 0
        campaign_ok = True
        history = []
        p = self.proc(self.train_argv(variant, db), folder, "attempt-%d" % attempt, db + "-wal")
        for strategy in strategies + [None]:
            if strategy is None:
                rc = p.finish(600)
                if rc != 0:
                    self.fail(where, "the last attempt exited %s: %s" % (rc, p.stderr_tail()))
                    return False
                break
            aim, killed = self.aim(p, strategy, ref, state, db, state["rid"])
            if not killed:
                # The run ended before the aimed moment (or the aim could not be met): no kill, the run is checked
                # as finished below.
                log("  (aim %s missed: the process ended first)" % aim)
                rc = p.finish(600)
                if rc != 0:
                    self.fail(where, "attempt %d exited %s: %s" % (attempt, rc, p.stderr_tail()))
                    return False
                break
            cdb = frozen_copy(db, folder, len(self.kills) + 1)
            rid = state["rid"]
            if rid is None:
                m = [l for l in p.text() if l.startswith("run ")]
                rid = int(re.match(r"run (\d+) ", m[0]).group(1)) if m else None
                if rid is None:
                    con = connect(cdb)
                    r = con.execute("SELECT max(id) FROM run WHERE kind = 'train'").fetchone()
                    con.close()
                    rid = r[0] if r else None
                state["rid"] = rid
            phase = self.classify(p, db, cdb, rid, ref, state)
            failures = self.check_train(where, cdb, rid, ref, folder, False)
            if p.victim and p.victim.startswith("rank ") and p.victim != "rank 0" and rid is not None:
                # Rank 0 survived a dead rank: the run is failed, and its notes name the rank.
                con = connect(cdb)
                row = con.execute("SELECT status, notes FROM run WHERE id = ?", (rid,)).fetchone()
                con.close()
                if row and row[0] != "finished" and not (row[0] == "failed" and ("%s is gone" % p.victim) in row[1]):
                    failures.append("%s was killed; the run is %r with notes %r" % (p.victim, row[0], row[1]))
            if p.victim:
                phase += " (%s)" % p.victim
            c = -1
            if rid is not None:
                con = connect(cdb)
                r = con.execute("SELECT max(iteration) FROM checkpoint WHERE run_id = ?", (rid,)).fetchone()
                con.close()
                c = -1 if r is None or r[0] is None else r[0]
            detail = "committed up to %s, resume from %s" % (
                self._committed(cdb, rid), "checkpoint %d" % c if c >= 0 else "the start")
            self.record("train", phase, aim, failures, detail)
            for f in failures:
                self.fail(where, "after the kill aimed %s (landed: %s): %s" % (aim, phase, f))
            campaign_ok = campaign_ok and not failures
            history.append((aim, phase))
            # Speed of this machine now against the reference's, for the next timed aim.
            times = [l[0] for l in p.lines if re.match(r"iter\s+\d+/", l[2])]
            if len(times) >= 2:
                per = (times[-1] - times[0]) / (len(times) - 1)
                span = ref["times"][ref["last"]] - ref["times"][0]
                state["scale"] = min(4.0, max(0.5, per / max(1e-3, span / ref["last"])))
            state["committed"] = c if rid is not None else -1
            attempt += 1
            state["attempt"] = attempt
            if rid is None:
                p = self.proc(self.train_argv(variant, db), folder, "attempt-%d" % attempt, db + "-wal")
            else:
                p = self.proc(["train", "--resume", str(rid), "--db", db] + LAUNCH.get(variant, []), folder,
                              "attempt-%d" % attempt, db + "-wal")
        rid = state["rid"]
        if rid is None:
            rid = ref["rid"]
        failures = self.check_train(where, db, rid, ref, folder, True)
        for f in failures:
            self.fail(where, "the finished run (kills: %s): %s" % ("; ".join("%s -> %s" % h for h in history), f))
        if failures:
            # The kills of this run did not survive if its end is wrong.
            for k in self.kills[-len(history):] if history else []:
                k["ok"] = False
                k["failures"] = k["failures"] + ["(the resumed run's end) " + f for f in failures]
        ok = campaign_ok and not failures
        if ok and not self.args.keep:
            shutil.rmtree(folder, ignore_errors=True)
        elif not ok:
            log("  kept: %s" % folder)
        return ok

    def _committed(self, db, rid):
        if rid is None:
            return "nothing (no run)"
        con = connect(db)
        r = con.execute("SELECT max(iteration) FROM metric WHERE run_id = ?", (rid,)).fetchone()
        con.close()
        return "nothing" if r is None or r[0] is None else "iteration %d" % r[0]

    # ------------------------------------------------------------------------------------------- experiment

    def experiment_argv(self, db):
        return ["experiment", "run", EXPERIMENT, "--scale", "smoke", "-j", "1", "--db", db]

    def experiment_reference(self):
        if "experiment" in self.refs:
            return self.refs["experiment"]
        folder = os.path.join(self.work, "reference-experiment")
        db = self.copy_template(folder)
        log("reference: an uninterrupted smoke experiment ...")
        p = self.proc(self.experiment_argv(db), folder, "experiment")
        rc = p.finish(900)
        if rc != 0:
            raise RuntimeError("the uninterrupted experiment failed (%s): %s" % (rc, p.stderr_tail()))
        trial_lines = [l[0] - p.t0 for l in p.lines if l[2].startswith("trial ")]
        runs = self.experiment_state(db)
        ref = {"db": db, "trials": runs["trials"], "end": p.lines[-1][0] - p.t0,
               "first_trial": trial_lines[0] if trial_lines else 1.0,
               "per_trial": (trial_lines[-1] - trial_lines[0]) / max(1, len(trial_lines) - 1) if trial_lines else 1.0}
        ref["snaps"] = {params: snapshot_run(db, t["run"]) for params, t in runs["trials"].items()}
        self.refs["experiment"] = ref
        log("reference: %d trials in %.1f s (first trial done at %.1f s)" % (len(ref["trials"]), ref["end"],
                                                                          ref["first_trial"]))
        return ref

    @staticmethod
    def experiment_state(db):
        con = connect(db)
        try:
            sweeps = con.execute("SELECT id, status FROM sweep ORDER BY id").fetchall()
            trials = {}
            for tid, sid, run, params, status in con.execute(
                    "SELECT id, sweep_id, run_id, params, status FROM trial ORDER BY id"):
                trials[params] = {"trial": tid, "sweep": sid, "run": run, "status": status}
            runs = con.execute("SELECT id, name, kind, status FROM run ORDER BY id").fetchall()
            return {"sweeps": sweeps, "trials": trials, "runs": runs}
        finally:
            con.close()

    def check_experiment(self, db, folder, ref, finished):
        failures = []
        bad = integrity(db)
        if bad:
            return [bad]
        failures += self.check_labels(db, folder)
        st = self.experiment_state(db)
        trial_runs = [r for r in st["runs"] if r[2] == "trial"]
        linked = collections.Counter(t["run"] for t in st["trials"].values() if t["run"] is not None)
        for r in trial_runs:
            if linked[r[0]] == 0:
                failures.append("trial run %d (%s, %s) belongs to no trial: an orphan (a trial started twice?)"
                                % (r[0], r[1], r[3]))
        for run, n in linked.items():
            if n > 1:
                failures.append("run %d is the run of %d trials" % (run, n))
        # The shared SFT: one run of kind train, recorded in the experiment's config from the moment it exists (a kill
        # during it leaves it to `experiment resume`, never a second SFT run beside a stranded one).
        sft_runs = [r for r in st["runs"] if r[2] == "train"]
        if len(sft_runs) > 1:
            failures.append("%d shared SFT runs (%s): one was started again instead of resumed"
                            % (len(sft_runs), ", ".join("%d %s" % (r[0], r[3]) for r in sft_runs)))
        if finished and (len(sft_runs) != 1 or sft_runs[0][3] != "finished"):
            failures.append("the shared SFT run at the end: %s (want one, finished)" % sft_runs)
        if st["sweeps"] and sft_runs:
            con = connect(db)
            config = con.execute("SELECT config FROM sweep WHERE id = ?", (st["sweeps"][-1][0],)).fetchone()[0]
            con.close()
            if ("\nsft: %d\n" % sft_runs[-1][0]) not in config:
                failures.append("the experiment's config does not name its SFT run %d" % sft_runs[-1][0])
        for params, t in st["trials"].items():
            if t["run"] is None:
                if finished:
                    failures.append("trial %s has no run" % params)
                continue
            snap = snapshot_run(db, t["run"])
            want = ref["snaps"].get(params)
            if snap is None or want is None:
                failures.append("trial %s: run %s missing (or not in the reference)" % (params, t["run"]))
                continue
            every = 1
            problems, diverged = compare_run(snap, dict(want), finished and t["status"] == "finished", every)
            if t["status"] == "finished" and snap["status"] != "finished":
                problems.append("trial finished, its run %s" % snap["status"])
            failures += ["trial %s (run %d): %s" % (params, t["run"], x) for x in problems]
            if diverged:
                failures.append("trial %s (run %d): DIVERGED from the uninterrupted experiment at %s: %s" % (
                    params, t["run"], sorted({d[0] for d in diverged}), "; ".join(d[1] for d in diverged[:3])))
        if finished:
            if set(st["trials"]) != set(ref["trials"]):
                failures.append("trials %s, the uninterrupted experiment's %s" % (sorted(st["trials"]),
                                                                                   sorted(ref["trials"])))
            for params, t in st["trials"].items():
                if t["status"] != "finished":
                    failures.append("trial %s is %s after the resume" % (params, t["status"]))
        return failures

    def experiment_phase(self, db, p):
        st = self.experiment_state(db)
        if not st["sweeps"]:
            return "experiment start (no experiment yet)"
        if any(r[2] == "train" and r[3] != "finished" for r in st["runs"]):
            return "experiment shared SFT"
        if not any(r[2] == "train" for r in st["runs"]):
            return "experiment created, its shared SFT run not yet"
        statuses = collections.Counter(t["status"] for t in st["trials"].values())
        running = [t for t in st["trials"].values() if t["status"] == "running"]
        linked = {t["run"] for t in st["trials"].values()}
        if any(r[2] == "trial" and r[3] == "running" and r[0] not in linked for r in st["runs"]):
            return "experiment trial setup (its run created, not yet the trial's)"
        if running:
            t = running[0]
            if t["run"] is None:
                return "experiment trial setup"
            con = connect(db)
            r = con.execute("SELECT max(iteration) FROM metric WHERE run_id = ?", (t["run"],)).fetchone()
            con.close()
            c = -1 if r[0] is None else r[0]
            return "experiment mid-trial (its run at iteration %d)" % c if c >= 0 else "experiment trial start"
        if statuses.get("finished", 0) == len(st["trials"]):
            return "experiment end (all trials finished)"
        return "experiment between trials"

    def experiment_campaign(self, n, kills):
        ref = self.experiment_reference()
        folder = os.path.join(self.work, "experiment-%03d" % n)
        db = self.copy_template(folder)
        where = "experiment campaign %d" % n
        ok = True
        p = self.proc(self.experiment_argv(db), folder, "attempt-0")
        sweep = None
        ntrials = len(ref["trials"])
        for j in range(kills + 1):
            if j == kills:
                rc = p.finish(900)
                if rc != 0:
                    self.fail(where, "the last attempt exited %s: %s" % (rc, p.stderr_tail()))
                    return False
                break
            if j == 0 and self.args.experiment_sft_kills and self.rng.random() < self.args.experiment_sft_share:
                # Once the shared SFT's run exists (its folder appears), a moment within its SFT.
                files = db + ".files"
                t0 = time.monotonic()
                while p.alive() and not os.path.isdir(files) and time.monotonic() - t0 < 300:
                    time.sleep(0.01)
                since = time.monotonic() - p.t0
                delay = self.rng.uniform(0, max(0.05, ref["first_trial"] - ref["per_trial"] - since))
                aim = "shared SFT +%.2fs" % delay
                killed = p.sleep(delay) and p.kill()
            elif not self.args.bounded and self.rng.random() < 0.35:
                # A trial's setup: its run folder (DB.files/run-N) appears after the Trainer committed the trial's
                # run row and before the trial records that run (startTrial): kill when the m-th one from now appears.
                files = db + ".files"
                t0 = time.monotonic()
                while p.alive() and not os.path.isdir(files) and time.monotonic() - t0 < 300:
                    time.sleep(0.02)
                counts = self.trial_counts_ro(db)
                left = (counts[2] - counts[1]) if counts else ntrials
                m = self.rng.randint(1, max(1, left - 1))
                aim = "trial setup (the %d. run folder from now)" % m
                killed = False
                note = Inotify()
                try:
                    note.watch(files, Inotify.IN_CREATE)
                    seen = 0
                    while p.alive() and not killed:
                        for _, mask, name in note.events(0.1):
                            if name.startswith("run-"):
                                seen += 1
                                if seen == m:
                                    killed = p.kill()
                                    break
                finally:
                    note.close()
            else:
                # Mid-trial: once a trial runs (a read-only look at the database), a random moment within the
                # trials left.
                t0 = time.monotonic()
                counts = None
                while p.alive() and time.monotonic() - t0 < 300:
                    counts = self.trial_counts_ro(db)
                    if counts and counts[0] > 0:
                        break
                    time.sleep(0.05)
                left = (counts[2] - counts[1]) if counts else ntrials
                delay = self.rng.uniform(0, max(0.1, left * ref["per_trial"] * 0.95))
                aim = "mid-trial +%.2fs (%d trials left)" % (delay, left)
                killed = p.sleep(delay) and p.kill()
            if not killed:
                log("  (aim %s missed: the experiment ended first)" % aim)
                rc = p.finish(900)
                if rc != 0:
                    self.fail(where, "attempt %d exited %s: %s" % (j, rc, p.stderr_tail()))
                    return False
                break
            cdb = frozen_copy(db, folder, len(self.kills) + 1)
            phase = self.experiment_phase(cdb, p)
            failures = self.check_experiment(cdb, folder, ref, False)
            st = self.experiment_state(cdb)
            if st["sweeps"]:
                sweep = st["sweeps"][-1][0]
                p = self.proc(["experiment", "resume", str(sweep), "-j", "1", "--db", db], folder,
                              "attempt-%d" % (j + 1))
                detail = "resume experiment %d" % sweep
            else:
                # Killed before the experiment's rows were committed: nothing was written; the user runs it again.
                trained = [r for r in st["runs"] if r[2] in ("train", "trial")]
                if trained:
                    failures.append("killed before the experiment existed, yet training runs exist: %s" % trained)
                p = self.proc(self.experiment_argv(db), folder, "attempt-%d" % (j + 1))
                detail = "no experiment yet: run it again"
            self.record("experiment", phase, aim, failures, detail)
            for f in failures:
                self.fail(where, "after the kill aimed %s (landed: %s): %s" % (aim, phase, f))
            ok = ok and not failures
        st = self.experiment_state(db)
        sweep = st["sweeps"][-1][0] if st["sweeps"] else None
        failures = self.check_experiment(db, folder, ref, True)
        if sweep is None:
            failures.append("no experiment in the database at the end")
        else:
            out = os.path.join(folder, "report")
            rc, rp = run_cli(self.cli, ["report", "-e", str(sweep), "--db", db, "--output", out], folder, "report",
                             self.args.nice)
            if rc != 0 or not os.path.isfile(os.path.join(out, "report.md")):
                failures.append("the report does not build (exit %s): %s" % (rc, rp.stderr_tail()))
        for f in failures:
            self.fail(where, "at the end: %s" % f)
        if failures:
            for k in self.kills[-kills:]:
                if k["kind"] == "experiment":
                    k["ok"] = False
                    k["failures"] = k["failures"] + ["(at the end) " + f for f in failures]
        ok = ok and not failures
        if ok and not self.args.keep:
            shutil.rmtree(folder, ignore_errors=True)
        elif not ok:
            log("  kept: %s" % folder)
        return ok

    @staticmethod
    def trial_counts_ro(db):
        """(running, finished, all) trials; read-only, while the experiment writes. None before there are any."""
        try:
            con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=5)
        except sqlite3.Error:
            return None
        try:
            row = con.execute("SELECT sum(status = 'running'), sum(status = 'finished'), count(*) FROM trial").fetchone()
            return None if not row or not row[2] else tuple(int(x or 0) for x in row)
        except sqlite3.Error:
            return None
        finally:
            con.close()

    # ------------------------------------------------------------------------------------------- server

    def start_server(self, db, folder, tag):
        p = self.proc(["serve", "--db", db, "--port", "0", "--quiet", "--rate", "0"], folder, tag)
        i = p.wait_line(lambda l: "listening on http://" in l, 60)
        if i is None:
            p.kill()
            raise RuntimeError("serve printed no address: %s" % p.stderr_tail())
        url = re.search(r"(http://[0-9.]+:\d+)/v1", p.lines[i][2]).group(1)
        return p, url

    @staticmethod
    def server_batch(k, size):
        """Iteration k: `size` native trajectories of 8 turns with long observations (a few MB a post)."""
        rng = random.Random(1000 + k)
        words = ["cabinet", "drawer", "countertop", "fridge", "microwave", "sinkbasin", "toaster", "bowl", "apple"]
        out = []
        for j in range(size):
            turns = []
            for t in range(8):
                obs = " ".join(rng.choice(words) + " " + str(rng.randint(1, 9)) for _ in range(140))
                turns.append({"observation": "iteration %d trajectory %d turn %d: %s" % (k, j, t, obs),
                              "action": "go to %s %d" % (rng.choice(words), rng.randint(1, 9)),
                              "reward": 1.0 if t == 7 and j % 3 == 0 else 0.0})
            out.append({"id": "it%d-%d" % (k, j), "group": "it%d-g%d" % (k, j // 4),
                        "reward": 1.0 if j % 3 == 0 else 0.0, "turns": turns})
        return out

    @staticmethod
    def server_size(k):
        return 500 + 7 * k  # ~6 MB a post; another count every iteration: a partial or doubled one cannot hide

    def check_server(self, db, folder, rid, posted, finished, total):
        failures = []
        bad = integrity(db)
        if bad:
            return [bad]
        failures += self.check_labels(db, folder)
        if rid is None:
            return failures
        con = connect(db)
        try:
            traj = dict(con.execute("SELECT iteration, count(*) FROM trajectory WHERE run_id = ? GROUP BY iteration",
                                    (rid,)).fetchall())
            metrics = collections.defaultdict(dict)
            for it, name, value in con.execute("SELECT iteration, name, value FROM metric WHERE run_id = ?", (rid,)):
                metrics[it][name] = value
            short = con.execute("SELECT t.ext_id, t.turn_count, count(u.idx) FROM trajectory t LEFT JOIN turn u "
                                "ON u.trajectory_id = t.id WHERE t.run_id = ? GROUP BY t.id "
                                "HAVING count(u.idx) != t.turn_count OR t.turn_count != 8", (rid,)).fetchall()
            status = con.execute("SELECT status FROM run WHERE id = ?", (rid,)).fetchone()
        finally:
            con.close()
        for ext, tc, n in short[:5]:
            failures.append("trajectory %s: %d turn rows, turn_count %d (8 posted)" % (ext, n, tc))
        for it in sorted(set(traj) | set(metrics)):
            want = self.server_size(it)
            if traj.get(it, 0) != want:
                failures.append("iteration %d: %d trajectories stored, %d posted" % (it, traj.get(it, 0), want))
            m = metrics.get(it, {})
            if m.get("posted") != float(want) or m.get("loss") != round(0.5 / (it + 1), 6):
                failures.append("iteration %d: metrics %r, posted {'posted': %d, 'loss': %r}"
                                % (it, m, want, round(0.5 / (it + 1), 6)))
        for it in posted:
            if it not in traj:
                failures.append("iteration %d was acknowledged (201) but is not stored" % it)
        if finished:
            if sorted(traj) != list(range(total)):
                failures.append("iterations stored: %s, posted 0..%d" % (sorted(traj), total - 1))
            if status is None or status[0] != "finished":
                failures.append("the run is %s, not finished" % (status[0] if status else "missing"))
        return failures

    def server_campaign(self, n, kills):
        folder = os.path.join(self.work, "server-%03d" % n)
        db = self.copy_template(folder)
        where = "server campaign %d" % n
        total = max(6, 3 * kills + 3)
        srv, url = self.start_server(db, folder, "serve-0")
        client = SendClient(url, retries=0, timeout=120)
        rid = client.create_run("killtest %d" % n, config={"campaign": n}, tags=["killtest"])
        kill_at = sorted(self.rng.sample(range(1, total), kills))
        acknowledged = set()
        durations = []
        ok = True
        restarts = 0
        k = 0
        while k < total:
            batch = self.server_batch(k, self.server_size(k))
            metrics = {"posted": self.server_size(k), "loss": round(0.5 / (k + 1), 6)}
            timer = None
            killed = {}
            if kill_at and k == kill_at[0]:
                kill_at.pop(0)
                est = sorted(durations)[len(durations) // 2] if durations else 0.5
                delay = self.rng.uniform(0.1 * est, est * 1.1)

                def shoot(delay=delay):
                    killed["when"] = time.monotonic()
                    killed["ok"] = srv.kill()

                timer = threading.Timer(delay, shoot)
                killed["aim"] = "post of iteration %d +%.2fs (a post takes %.2fs)" % (k, delay, est)
            sent = {}

            def on_send(timer=timer):
                # The body is encoded; the request goes out now: the kill's clock starts here.
                sent["t"] = time.monotonic()
                if timer:
                    timer.start()

            client.on_send = on_send
            error = None
            try:
                client.post_iteration(rid, k, batch, metrics=metrics, format="native")
                durations.append(time.monotonic() - sent["t"])
                acknowledged.add(k)
            except CreditLabError as e:
                error = e
            client.on_send = None
            if timer:
                timer.join()
            if not killed:
                if error:
                    self.fail(where, "post of iteration %d: %s" % (k, error))
                    ok = False
                    break
                k += 1
                continue
            # The server was killed: during this post (no reply) or just after its reply.
            if error is None:
                phase = "server between posts (after the reply)"
            else:
                phase = None
            failures = self.check_server(frozen_copy(db, folder, len(self.kills) + 1), folder, rid, acknowledged, False, total)
            restarts += 1
            srv, url = self.start_server(db, folder, "serve-%d" % restarts)
            client = SendClient(url, retries=0, timeout=120)
            stored = set(client.run(rid)["iterations"])
            if phase is None:
                # How the client saw it: the connection dropped while the body was going out, or once it was sent.
                text = str(error)
                how = ("sending the body" if any(w in text for w in ("Broken pipe", "reset", "Errno 32", "Errno 104"))
                       else "awaiting the reply" if "closed connection" in text or "Remote end" in text
                       else text[-60:])
                phase = ("server mid-post (stored, reply lost)" if k in stored
                         else "server mid-post (not stored; client was %s)" % how)
            if error is not None and k in stored:
                # Posting it again must be refused: it landed once.
                try:
                    client.post_iteration(rid, k, batch, metrics=metrics, format="native")
                    failures.append("iteration %d was stored before the kill and a second post was accepted" % k)
                except CreditLabError as e:
                    if e.status != 409:
                        failures.append("posting stored iteration %d again: %s (expected 409)" % (k, e))
            self.record("server", phase, killed["aim"], failures,
                        "iterations stored: %d of %d" % (len(stored), total))
            for f in failures:
                self.fail(where, "after the kill aimed %s (landed: %s): %s" % (killed["aim"], phase, f))
            ok = ok and not failures
            if k in stored:
                acknowledged.add(k)
                k += 1
            # else: post it again
        try:
            client.finish_run(rid)
        except CreditLabError as e:
            self.fail(where, "finish: %s" % e)
        srv_rc = None
        if srv.alive():
            srv.p.send_signal(signal.SIGINT)
            srv_rc = srv.finish(60)
        failures = self.check_server(db, folder, rid, acknowledged, True, total)
        if srv_rc not in (0, None):
            failures.append("serve exited %s on Ctrl+C" % srv_rc)
        if n == 1 and not failures:
            self.selftest_server(db, folder, rid, acknowledged, total)
        for f in failures:
            self.fail(where, "at the end: %s" % f)
        ok = ok and not failures
        if ok and not self.args.keep:
            shutil.rmtree(folder, ignore_errors=True)
        elif not ok:
            log("  kept: %s" % folder)
        return ok

    # ------------------------------------------------------------------------------------------- self-test

    def selftest(self, variant):
        """The checks must catch what they are there to catch, on copies of a finished run's database."""
        ref = self.train_reference(variant)
        rid = ref["rid"]
        last = ref["last"]
        cases = []

        def case(name, mutate, files=False):
            folder = os.path.join(self.work, "selftest", re.sub(r"\W+", "-", name))
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
            db = os.path.join(folder, "runs.db")
            shutil.copyfile(ref["db"], db)
            if os.path.exists(ref["db"] + "-wal"):
                shutil.copyfile(ref["db"] + "-wal", db + "-wal")
            src = ref["db"] + ".files"
            shutil.copytree(src, db + ".files")
            # Checkpoint rows name the reference's folder: point them at the copy.
            con = connect(db)
            con.execute("UPDATE checkpoint SET path = replace(path, ?, ?)", (src, db + ".files"))
            con.commit()
            con.close()
            if mutate:
                mutate(db)
            # A mutated copy is judged as a killed run would be (finished=False): each check must catch its case
            # on its own, not through the finished run's last-iteration check.
            found = self.check_train("selftest", db, rid, ref, folder, mutate is None)
            cases.append((name, mutate is None, found))
            shutil.rmtree(folder, ignore_errors=True)

        def sql(*statements):
            def run(db):
                con = connect(db)
                con.execute("PRAGMA foreign_keys = ON")
                for s in statements:
                    con.execute(s.replace("RID", str(rid)))
                con.commit()
                con.close()
            return run

        dup_it = min(3, last)
        case("untouched copy", None)
        case("an iteration stored twice", sql(
            "CREATE TEMP TABLE m AS SELECT id AS old, NULL AS new FROM trajectory WHERE run_id = RID AND iteration = %d"
            % dup_it,
            "INSERT INTO trajectory (run_id, ord, ext_id, group_key, iteration, task, env, goal, reward, success, "
            "turn_count, extra, evaluation) SELECT run_id, ord, ext_id || '-again', group_key, iteration, task, env, "
            "goal, reward, success, turn_count, extra, evaluation FROM trajectory WHERE run_id = RID AND iteration = %d"
            % dup_it,
            "UPDATE m SET new = (SELECT t2.id FROM trajectory t1 JOIN trajectory t2 ON t2.ext_id = t1.ext_id || "
            "'-again' AND t2.run_id = t1.run_id WHERE t1.id = m.old)",
            "INSERT INTO turn (trajectory_id, idx, observation, action, feedback, reward, valid, state, progress, role, "
            "role_source, score, token_begin, token_end, extra) SELECT m.new, idx, observation, action, feedback, "
            "reward, valid, state, progress, role, role_source, score, token_begin, token_end, extra FROM turn "
            "JOIN m ON m.old = turn.trajectory_id",
            "INSERT INTO credit (trajectory_id, idx, method, advantage, details, params) SELECT m.new, idx, method, "
            "advantage, details, params FROM credit JOIN m ON m.old = credit.trajectory_id"))
        case("half an iteration's trajectories missing",
             sql("DELETE FROM trajectory WHERE run_id = RID AND iteration = %d AND evaluation = 0 AND ord %% 2 = 1"
                 % last))
        case("trajectories of an iteration without its metrics (uncommitted remains)",
             sql("DELETE FROM metric WHERE run_id = RID AND iteration = %d" % last,
                 "DELETE FROM checkpoint WHERE run_id = RID AND iteration = %d" % last))
        case("a trajectory lost its last turn",
             sql("DELETE FROM turn WHERE trajectory_id = (SELECT min(id) FROM trajectory WHERE run_id = RID AND "
                 "iteration = 1) AND idx = (SELECT max(idx) FROM turn WHERE trajectory_id = (SELECT min(id) FROM "
                 "trajectory WHERE run_id = RID AND iteration = 1))"))
        case("a human label changed", sql("UPDATE human_label SET role = CASE role WHEN 'D' THEN 'E' ELSE 'D' END "
                                          "WHERE rowid = (SELECT min(rowid) FROM human_label)"))
        case("a human label deleted", sql("DELETE FROM human_label WHERE rowid = (SELECT max(rowid) FROM human_label)"))
        case("a metric differs in the last bit", sql(
            "UPDATE metric SET value = value * (1 + 1e-15) + 1e-300 WHERE run_id = RID AND iteration = 2 AND "
            "name = 'train/entropy'"))
        case("a credit differs", sql(
            "UPDATE credit SET advantage = advantage + 1e-9 WHERE rowid = (SELECT min(c.rowid) FROM credit c JOIN "
            "trajectory t ON t.id = c.trajectory_id WHERE t.run_id = RID AND t.iteration = 4)"))

        def drop_checkpoint_file(db):
            con = connect(db)
            path = con.execute("SELECT path FROM checkpoint WHERE run_id = ? ORDER BY iteration DESC LIMIT 1",
                               (rid,)).fetchone()[0]
            con.close()
            os.remove(os.path.join(path, "optimizer.pt"))

        case("the last checkpoint's optimizer file is gone", drop_checkpoint_file)

        def corrupt_page(db):
            con = connect(db)
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            page = con.execute("PRAGMA page_size").fetchone()[0]
            pages = con.execute("PRAGMA page_count").fetchone()[0]
            con.close()
            with open(db, "r+b") as f:
                for p in range(pages // 3, pages // 3 + 4):
                    f.seek(p * page + 100)
                    f.write(b"\x5a" * (page - 200))

        case("four database pages overwritten", corrupt_page)

        ok = True
        for name, clean, found in cases:
            if clean and found:
                self.fail("selftest", "the untouched copy fails the checks: %s" % found[:3])
                ok = False
            elif not clean and not found:
                self.fail("selftest", "the checks miss: %s" % name)
                ok = False
            else:
                log("  selftest: %-70s %s" % (name, "passes" if clean else "caught: " + found[0][:90]))
        # The experiment's and the server's checks too.
        if self.args.experiment_kills:
            ok = self.selftest_experiment() and ok
        return ok

    def selftest_experiment(self):
        ref = self.experiment_reference()
        folder = os.path.join(self.work, "selftest", "experiment")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        results = []
        for name, statements in (
                ("untouched experiment", []),
                ("a trial left running", ["UPDATE trial SET status = 'running' WHERE id = (SELECT max(id) FROM trial)"]),
                ("an orphan trial run (a trial started twice)", [
                    "INSERT INTO run (name, kind, status, created_at) VALUES ('orphan', 'trial', 'running', 'now')"]),
                ("a second shared SFT run (the first stranded)", [
                    "INSERT INTO run (name, kind, status, created_at) VALUES ('triage-sft', 'train', 'running', 'now')"]),
                ("a trial's iteration missing", [
                    "DELETE FROM metric WHERE iteration = 1 AND run_id = (SELECT run_id FROM trial ORDER BY id "
                    "LIMIT 1)"])):
            db = os.path.join(folder, "runs.db")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)
            shutil.copyfile(ref["db"], db)
            con = connect(db)
            for s in statements:
                con.execute(s)
            con.commit()
            con.close()
            found = self.check_experiment(db, folder, ref, True)
            results.append((name, not statements, found))
        ok = True
        for name, clean, found in results:
            if clean == bool(found):
                self.fail("selftest", ("the untouched experiment fails: %s" % found[:2]) if clean
                          else "the checks miss: %s" % name)
                ok = False
            else:
                log("  selftest: %-70s %s" % (name, "passes" if clean else "caught: " + found[0][:90]))
        shutil.rmtree(folder, ignore_errors=True)
        return ok

    def selftest_server(self, db, folder, rid, acknowledged, total):
        """The server checks catch a partial iteration and one without its metrics, in copies."""
        for name, statement in (
                ("a posted iteration lost a trajectory",
                 "DELETE FROM trajectory WHERE id = (SELECT max(id) FROM trajectory WHERE run_id = %d AND "
                 "iteration = 1)" % rid),
                ("a posted iteration lost its metrics", "DELETE FROM metric WHERE run_id = %d AND iteration = 2" % rid),
                ("a trajectory lost a turn",
                 "DELETE FROM turn WHERE trajectory_id = (SELECT min(id) FROM trajectory WHERE run_id = %d) AND "
                 "idx = 3" % rid)):
            copy = frozen_copy(db, folder, "selftest")
            con = connect(copy)
            con.execute("PRAGMA foreign_keys = ON")
            con.execute(statement)
            con.commit()
            con.close()
            found = self.check_server(copy, folder, rid, acknowledged, True, total)
            if found:
                log("  selftest: %-70s caught: %s" % (name, found[0][:90]))
            else:
                self.fail("selftest", "the server checks miss: %s" % name)

    # ------------------------------------------------------------------------------------------- plans

    def random_strategies(self, variant, count):
        weights = [("uniform", 3), ("sft", 1), ("stage:rollout", 2), ("stage:update", 2), ("stage:eval", 1),
                   ("checkpoint", 2), ("commit", 2)]
        names = [w[0] for w in weights]
        out = []
        for i in range(count):
            pool = [(n, w) for n, w in weights if not (n == "sft" and i > 0)]
            total = sum(w for _, w in pool)
            r = self.rng.uniform(0, total)
            for n, w in pool:
                r -= w
                if r <= 0:
                    out.append(n)
                    break
            else:
                out.append(names[0])
        return out

    def run(self):
        a = self.args
        log("killtest: work folder %s, seed %d, cli %s" % (self.work, a.seed, self.cli))
        variants = a.variants.split(",")
        for v in variants:
            if v not in VARIANTS:
                raise SystemExit("unknown variant %r (%s)" % (v, ", ".join(VARIANTS)))
        self.template()
        for v in variants:
            self.train_reference(v)
        if not self.selftest(variants[0]):
            log("the checks cannot tell a broken database from a good one: stopping")
            return self.summary()
        if a.selftest_only:
            return self.summary()
        train_kills = max(0, a.kills - a.experiment_kills - a.server_kills)
        n = 0
        if a.bounded:
            plans = [["sft", "stage:rollout"], ["checkpoint", "commit"], ["stage:update", "uniform"]]
            for plan in plans:
                if self.count("train") >= train_kills:
                    break
                n += 1
                self.train_campaign(n, variants[(n - 1) % len(variants)], plan[:train_kills - self.count("train")])
        while self.count("train") < train_kills and not self.out_of_time():
            n += 1
            want = min(train_kills - self.count("train"), self.rng.choice([1, 2, 2, 3]))
            variant = variants[(n - 1) % len(variants)]
            if a.strategies:
                plan = [a.strategies[(self.count("train") + i) % len(a.strategies)] for i in range(want)]
            else:
                plan = self.random_strategies(variant, want)
            self.train_campaign(n, variant, plan)
        m = 0
        while self.count("experiment") < a.experiment_kills and not self.out_of_time():
            m += 1
            want = min(a.experiment_kills - self.count("experiment"), 1 if a.bounded else self.rng.choice([1, 2]))
            self.experiment_campaign(m, want)
        s = 0
        while self.count("server") < a.server_kills and not self.out_of_time():
            s += 1
            want = min(a.server_kills - self.count("server"), 1 if a.bounded else self.rng.choice([1, 2, 3]))
            self.server_campaign(s, want)
        return self.summary()

    def count(self, kind):
        return len([k for k in self.kills if k["kind"] == kind])

    def out_of_time(self):
        if self.args.max_minutes and time.monotonic() - self.started > self.args.max_minutes * 60:
            self.notes.append("stopped early: --max-minutes %g reached" % self.args.max_minutes)
            return True
        return False

    def summary(self):
        elapsed = time.monotonic() - self.started
        log("")
        log("=" * 100)
        log("killtest summary (seed %d, %.0f s, work folder %s)" % (self.args.seed, elapsed, self.work))
        phases = collections.OrderedDict()
        for k in self.kills:
            key = (k["kind"], k["phase"])
            e = phases.setdefault(key, [0, 0])
            e[0] += 1
            e[1] += 1 if k["ok"] else 0
        log("%-12s %-62s %6s %9s" % ("KIND", "PHASE", "KILLS", "SURVIVED"))
        for (kind, phase), (total, ok) in sorted(phases.items()):
            log("%-12s %-62s %6d %9d" % (kind, phase, total, ok))
        survived = sum(1 for k in self.kills if k["ok"])
        for kind in ("train", "experiment", "server"):
            ks = [k for k in self.kills if k["kind"] == kind]
            if ks:
                log("%-12s %-62s %6d %9d" % (kind, "(all)", len(ks), sum(1 for k in ks if k["ok"])))
        log("kills: %d, survived: %d, failures: %d" % (len(self.kills), survived, len(self.failures)))
        for note in sorted(set(self.notes)):
            log("note: " + note)
        if self.stale:
            log("stale checkpoint rows after a kill (an older checkpoint's files deleted before the commit that "
                "drops its row; harmless while checkpoint.keep >= 2): %d, first: %s" % (len(self.stale),
                                                                                       self.stale[0]))
        if self.failures:
            log("failures:")
            for where, text in self.failures:
                log("  %s: %s" % (where, text))
        if self.args.json:
            with open(self.args.json, "w") as f:
                json.dump({"seed": self.args.seed, "seconds": elapsed, "kills": self.kills,
                           "failures": self.failures, "notes": sorted(set(self.notes)), "stale": self.stale}, f, indent=1)
        passed = not self.failures
        failed = len(self.kills) - survived
        if not passed and failed == 0:
            failed = 1  # a failure outside the kills (the self-test, a reference run, the harness)
        log("%d passed, %d failed" % (survived, failed))
        return 0 if passed else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--cli", required=True, help="creditlab-cli (its training module beside it)")
    ap.add_argument("--kills", type=int, default=100, help="kills in all (default 100)")
    ap.add_argument("--experiment-kills", type=int, default=None, help="of them, experiment kills (default 10%%)")
    ap.add_argument("--server-kills", type=int, default=None, help="of them, server kills (default 10%%)")
    ap.add_argument("--experiment-sft-kills", action="store_true",
                    help="let some experiment kills land in the shared SFT (then `experiment resume` continues it)")
    ap.add_argument("--experiment-sft-share", type=float, default=0.25, metavar="P",
                    help="with --experiment-sft-kills: the share of experiment campaigns whose first kill lands in the "
                         "shared SFT (default 0.25)")
    ap.add_argument("--bounded", action="store_true",
                    help="the ctest: 6 training kills at spread phases, 1 experiment and 1 server kill")
    ap.add_argument("--variants", default="every1",
                    help="training configs, comma-separated: %s (default every1)" % ", ".join(VARIANTS))
    ap.add_argument("--strategies", type=lambda v: v.split(","), default=None,
                    help="aim the training kills only so, in turn, e.g. commit,checkpoint (of: uniform, sft, "
                         "stage:rollout, stage:update, stage:eval, checkpoint, commit)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="another training config override (repeatable), e.g. kl.mode=adaptive")
    ap.add_argument("--repeat-reference", action="store_true",
                    help="run each uninterrupted reference twice and require them equal")
    ap.add_argument("--selftest-only", action="store_true", help="only show that the checks catch broken databases")
    ap.add_argument("--seed", type=int, default=None, help="random seed of the kill points (default: from the time)")
    ap.add_argument("--workdir", help="folder for the databases (default: a new temporary folder)")
    ap.add_argument("--keep", action="store_true", help="keep every database, not only failing ones")
    ap.add_argument("--nice", type=int, default=0, help="niceness of the CreditLab processes")
    ap.add_argument("--max-minutes", type=float, default=0, help="stop starting new campaigns after this long")
    ap.add_argument("--json", help="write every kill and failure to this file")
    args = ap.parse_args()
    if args.bounded:
        args.kills = 8
        args.experiment_kills = 1 if args.experiment_kills is None else args.experiment_kills
        args.server_kills = 1 if args.server_kills is None else args.server_kills
    if args.experiment_kills is None:
        args.experiment_kills = max(1, round(args.kills * 0.1))
    if args.server_kills is None:
        args.server_kills = max(1, round(args.kills * 0.1))
    if args.seed is None:
        args.seed = int(time.time()) % 100000
    random.seed(args.seed)  # which rank a data-parallel kill hits (Proc.kill)
    if not os.access(args.cli, os.X_OK):
        raise SystemExit("not an executable: %s" % args.cli)
    h = Harness(args)
    try:
        rc = h.run()
    except Exception as e:  # noqa: BLE001 - a harness error is a failure with its reason
        import traceback
        traceback.print_exc()
        h.fail("harness", "%s: %s" % (type(e).__name__, e))
        rc = h.summary() or 1
    if rc == 0 and not args.keep and not args.workdir:
        shutil.rmtree(h.work, ignore_errors=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
