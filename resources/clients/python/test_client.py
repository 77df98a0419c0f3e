#!/usr/bin/env python3
"""End-to-end test of creditlab_client.py against a real `creditlab-cli serve`.

    python3 resources/clients/python/test_client.py --cli build/release/bin/creditlab-cli [unittest options]

Each test starts its own server on a free port with a database in a temporary folder, and stops it with SIGINT.
Standard library only; about 10 s.
"""

import argparse
import json
import math
import os
import queue
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from creditlab_client import Client, CreditLabError, advantages_by_index  # noqa: E402

CLI = None  # set from --cli
TOKEN_ENV = "CREDITLAB_SERVE_TOKEN"
UNSET_ENV = "CREDITLAB_TEST_CLIENT_UNSET_VARIABLE"


def native_records():
    """Two groups of native records, 1 to 3 turns each."""

    def rec(id_, group, reward, actions):
        return {
            "id": id_,
            "group": group,
            "reward": reward,
            "turns": [{"observation": "state %d of %s" % (k, group), "action": a} for k, a in enumerate(actions)],
        }

    return [
        rec("a0", "g0", 1.0, ["left", "left", "open"]),
        rec("a1", "g0", 0.0, ["right", "wait"]),
        rec("a2", "g0", 0.5, ["left"]),
        rec("b0", "g1", 0.0, ["up", "up"]),
        rec("b1", "g1", 1.0, ["down", "take", "go"]),
    ]


def server_env(token=None):
    env = dict(os.environ)
    env.pop(TOKEN_ENV, None)
    if token is not None:
        env[TOKEN_ENV] = token
    return env


class Server:
    """`creditlab-cli serve --port 0` in a temporary folder; url is http://127.0.0.1:PORT."""

    def __init__(self, folder, token=None):
        self.stderr = open(os.path.join(folder, "serve.stderr"), "w+")
        self.proc = subprocess.Popen(
            [CLI, "serve", "--db", os.path.join(folder, "runs.db"), "--port", "0", "--quiet"],
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            env=server_env(token),
            text=True,
        )
        lines = queue.Queue()
        threading.Thread(target=lambda: lines.put(self.proc.stdout.readline()), daemon=True).start()
        try:
            first = lines.get(timeout=20)
        except queue.Empty:
            self.stop()
            raise RuntimeError("creditlab-cli serve printed nothing within 20 s" + self._stderr_tail())
        prefix = "listening on "
        if not first.startswith(prefix):
            self.stop()
            raise RuntimeError("unexpected first line from serve: %r%s" % (first, self._stderr_tail()))
        url = first[len(prefix) :].split()[0]  # http://127.0.0.1:PORT/v1
        self.url = url[: -len("/v1")] if url.endswith("/v1") else url
        self.banner = first.strip()

    def _stderr_tail(self):
        self.stderr.flush()
        self.stderr.seek(0)
        text = self.stderr.read()[-2000:]
        return ("\nstderr:\n" + text) if text else ""

    def stop(self):
        """SIGINT, up to 10 s for a clean stop, then kill. Returns what stdout said after the banner."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        rest = self.proc.stdout.read()  # the process is gone: reads to the end of its output
        self.proc.stdout.close()
        self.stderr.close()
        return rest


class ServerTest(unittest.TestCase):
    token = None  # the server's token, when it needs one

    def setUp(self):
        self.folder_obj = tempfile.TemporaryDirectory(prefix="creditlab-client-test-")
        self.folder = self.folder_obj.name
        self.server = Server(self.folder, token=self.token)
        self.addCleanup(self.folder_obj.cleanup)

    def tearDown(self):
        rest = self.server.stop()
        self.assertEqual(self.server.proc.returncode, 0, "serve did not stop cleanly on SIGINT")
        self.assertIn("stopped", rest)

    def client(self, **kwargs):
        kwargs.setdefault("token_env", UNSET_ENV)
        return Client(self.server.url, **kwargs)


class OpenServerTest(ServerTest):
    def test_health(self):
        self.assertIn("no token", self.server.banner)
        health = self.client().health()
        self.assertEqual(health["status"], "ok")
        self.assertEqual(health["api"], "v1")
        # The URL as the server prints it works too.
        self.assertEqual(Client(self.server.url + "/v1/", token_env=UNSET_ENV).health()["status"], "ok")

    def test_run_lifecycle(self):
        c = self.client()
        run_id = c.create_run("client test", config={"algorithm": "grpo", "lr": 1e-6}, tags=["test", "native"])
        self.assertIsInstance(run_id, int)
        self.assertIn(run_id, [r["id"] for r in c.runs()])

        records = native_records()
        stored = c.post_iteration(run_id, 0, records, metrics={"reward/mean": 0.5, "loss": 1})
        self.assertEqual(stored, {"run": run_id, "iteration": 0, "trajectories": 5, "turns": 11, "metrics": 2})
        # Ids are per run: the next iteration's records need their own.
        later = [dict(r, id=r["id"] + "-it1") for r in records[:2]]
        self.assertEqual(c.post_iteration(run_id, 1, later, format="native")["trajectories"], 2)

        run = c.run(run_id)
        self.assertEqual(run["name"], "client test")
        self.assertEqual(run["status"], "running")
        self.assertEqual(run["trajectories"], 7)
        self.assertEqual(run["turns"], 16)
        self.assertEqual(run["iterations"], [0, 1])

        # The same iteration again (a retried post that the server had stored) is a 409, not swallowed.
        with self.assertRaises(CreditLabError) as cm:
            c.post_iteration(run_id, 1, later)
        self.assertEqual(cm.exception.status, 409)
        self.assertEqual(cm.exception.field, "iteration")
        self.assertEqual(c.run(run_id)["trajectories"], 7)

        self.assertEqual(c.finish_run(run_id), {"id": run_id, "status": "finished"})
        self.assertEqual(c.run(run_id)["status"], "finished")
        with self.assertRaises(CreditLabError) as cm:
            c.post_iteration(run_id, 2, [dict(records[0], id="late")])
        self.assertEqual(cm.exception.status, 409)

    def test_bad_record_names_its_field(self):
        c = self.client()
        run_id = c.create_run("bad records")
        records = native_records()
        records[1]["turns"][0]["action"] = 5
        with self.assertRaises(CreditLabError) as cm:
            c.post_iteration(run_id, 0, records, format="native")
        e = cm.exception
        self.assertEqual(e.status, 422)
        self.assertTrue(e.field and e.field.startswith("trajectories[1]"), e.field)
        self.assertEqual(e.field, "trajectories[1].turns[0].action")
        self.assertEqual(str(e), "HTTP 422: %s: %s" % (e.field, e.message))
        # Nothing of the refused post was stored.
        self.assertEqual(c.run(run_id)["iterations"], [])
        with self.assertRaises(CreditLabError) as cm:
            c.run(run_id + 1000)
        self.assertEqual(cm.exception.status, 404)

    def test_credit_equals_cli_file_mode(self):
        records = native_records()
        credits = self.client().credit("grpo", records)
        self.assertEqual([c["id"] for c in credits], [r["id"] for r in records])
        for c, r in zip(credits, records):
            self.assertEqual(len(c["advantages"]), len(r["turns"]))

        path = os.path.join(self.folder, "records.jsonl")
        out = os.path.join(self.folder, "credits.jsonl")
        with open(path, "w") as f:
            for r in records:
                f.write(json.dumps(r) + "\n")
        subprocess.run(
            [CLI, "credit", "--method", "grpo", "--input", path, "--output", out],
            check=True,
            timeout=60,
            env=server_env(),
            stdout=subprocess.DEVNULL,
        )
        with open(out) as f:
            from_cli = [json.loads(line) for line in f if line.strip()]
        self.assertEqual([(c["id"], c["advantages"]) for c in credits], [(c["id"], c["advantages"]) for c in from_cli])

        # Native turns carry no index: the join key is the turn's position.
        joined = advantages_by_index(credits)
        self.assertEqual(joined[("a0", 2)], credits[0]["advantages"][2])
        self.assertEqual(len(joined), sum(len(r["turns"]) for r in records))

    def test_example_verl(self):
        done = subprocess.run(
            [sys.executable, os.path.join(HERE, "example_verl.py"), "--url", self.server.url, "--iteration", "3"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            env=server_env(),
        )
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("finished", done.stdout.strip().splitlines()[-1])
        self.assertIn("line-8", done.stdout)
        runs = self.client().runs()
        self.assertEqual([(r["name"], r["status"], r["trajectories"]) for r in runs], [("verl example", "finished", 8)])

    def test_nan_metric_is_refused_before_sending(self):
        records = native_records()
        # A client whose server does not exist: a ValueError, not a connection failure, shows nothing was sent.
        nowhere = Client("http://127.0.0.1:9", token_env=UNSET_ENV, retries=0)
        with self.assertRaises(ValueError) as cm:
            nowhere.post_iteration(1, 0, records, metrics={"reward/mean": 0.5, "loss": float("nan")})
        self.assertIn("loss", str(cm.exception))

        c = self.client()
        run_id = c.create_run("nan")
        with self.assertRaises(ValueError):
            c.post_iteration(run_id, 0, records, metrics={"grad_norm": math.inf})
        # A NaN in the records is caught as well, and numpy-like scalars go through float().
        bad = [dict(records[0], reward=float("nan"))]
        with self.assertRaises(ValueError):
            c.post_iteration(run_id, 0, bad)
        self.assertEqual(c.run(run_id)["iterations"], [])

        class Scalar:  # what a numpy or torch scalar offers
            def __float__(self):
                return 0.25

        stored = c.post_iteration(run_id, 0, records, metrics={"reward/mean": Scalar()})
        self.assertEqual(stored["metrics"], 1)


class TokenServerTest(ServerTest):
    token = "test-" + secrets.token_hex(16)

    def test_token(self):
        self.assertIn("token required", self.server.banner)
        anonymous = self.client(retries=0)
        self.assertEqual(anonymous.health()["status"], "ok")  # health needs no token
        with self.assertRaises(CreditLabError) as cm:
            anonymous.runs()
        self.assertEqual(cm.exception.status, 401)
        with self.assertRaises(CreditLabError) as cm:
            anonymous.create_run("no token")
        self.assertEqual(cm.exception.status, 401)
        with self.assertRaises(CreditLabError) as cm:
            self.client(token="wrong-" + self.token, retries=0).runs()
        self.assertEqual(cm.exception.status, 401)
        self.assertNotIn(self.token, str(cm.exception))

        # The right token, given or read from the environment.
        given = self.client(token=self.token)
        self.assertNotIn(self.token, repr(given))
        self.assertNotIn(self.token, str(given))
        run_id = given.create_run("with token")
        with mock.patch.dict(os.environ, {"CREDITLAB_TEST_CLIENT_TOKEN": self.token}):
            from_env = Client(self.server.url, token_env="CREDITLAB_TEST_CLIENT_TOKEN")
        self.assertNotIn(self.token, repr(from_env))
        self.assertEqual(from_env.post_iteration(run_id, 0, native_records())["trajectories"], 5)
        self.assertEqual(from_env.run(run_id)["iterations"], [0])

        # A large body without the token still gets its 401 (not a broken pipe).
        big = [dict(native_records()[0], id="t%d" % i) for i in range(20000)]
        with self.assertRaises(CreditLabError) as cm:
            anonymous.credit("grpo", big)
        self.assertEqual(cm.exception.status, 401)

        # Nothing in the server's output shows the token.
        self.server.stderr.flush()
        self.server.stderr.seek(0)
        self.assertNotIn(self.token, self.server.stderr.read())
        self.assertNotIn(self.token, self.server.banner)


def main():
    global CLI
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], add_help=False)
    parser.add_argument("--cli", help="path to creditlab-cli (default: $CREDITLAB_CLI)")
    args, rest = parser.parse_known_args()
    CLI = args.cli or os.environ.get("CREDITLAB_CLI")
    if not CLI and "-h" not in rest and "--help" not in rest:
        print("usage: test_client.py --cli PATH_TO_creditlab-cli [unittest options]", file=sys.stderr)
        return 2
    if CLI:
        CLI = os.path.abspath(CLI)
        if not os.access(CLI, os.X_OK):
            print("not an executable: %s" % CLI, file=sys.stderr)
            return 2
    program = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2)
    return 0 if program.result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
