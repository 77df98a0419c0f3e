"""A small client for `creditlab-cli serve`, CreditLab's live ingestion server.

A trainer (verl, verl-agent, rLLM, your own loop) posts its rollouts into a CreditLab database while it trains,
and asks CreditLab's credit estimators for per-turn advantages inside its own loop. Python 3.9+, standard library
only: copy this one file next to your trainer.

    from creditlab_client import Client, CreditLabError, advantages_by_index

    client = Client("http://127.0.0.1:8765")        # token, if any, from $CREDITLAB_SERVE_TOKEN
    run_id = client.create_run("grpo qwen-3b", config={"lr": 1e-6}, tags=["verl"])
    for step, batch in enumerate(rollouts):          # batch: records of verl's rollout dump shape
        client.post_iteration(run_id, step, batch, format="verl",
                              metrics={"critic/score/mean": mean_score})
        credits = client.credit("gigpo", batch, format="verl")
        adv = advantages_by_index(credits)           # {(id, message_index): advantage}
    client.finish_run(run_id)

The token: when the server was started with a token (`CREDITLAB_SERVE_TOKEN` set in its environment), the client
reads the same token from its own environment variable (`token_env`, default `CREDITLAB_SERVE_TOKEN`), or takes it
as the `token` argument. Never put it on a command line, where `ps` and shell histories show it. The client sends
it only in the `Authorization` header; it never prints or logs it, and `repr(client)` does not show it.

Errors: any reply that is not 2xx raises `CreditLabError` with the HTTP status, the server's message and, when the
server names one, the field of the request that is wrong ("trajectories[3].turns[0].action"). Connection failures
raise it with status 0. Connection failures and replies 429 (rate limit; Retry-After honoured) and 503 are retried
`retries` times with exponential backoff from 0.5 s. Timeouts are not retried: the server may still be working on
the request.
"""

import http.client
import json
import math
import os
import socket
import ssl
import time
import urllib.parse
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

__all__ = ["Client", "CreditLabError", "advantages_by_index"]

DEFAULT_URL = "http://127.0.0.1:8765"


class CreditLabError(Exception):
    """A request the server refused, or one that never reached it.

    Attributes:
        status: the HTTP status (401, 404, 409, 413, 422, 429, 500, ...); 0 when the server could not be reached.
        message: the server's explanation ("expected a string, got a number").
        field: where in the request body the problem is ("trajectories[3].turns[0].action"), or None.
    """

    def __init__(self, status: int, message: str, field: Optional[str] = None):
        self.status = int(status)
        self.message = message
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.field + ": " if self.field else ""
        if self.status == 0:
            return "connection failed: " + where + self.message
        return "HTTP %d: %s%s" % (self.status, where, self.message)


def _to_json_value(value: Any) -> Any:
    """json.dumps' fallback: numpy scalars and arrays (anything with .item() or .tolist()) become plain values."""
    if hasattr(value, "item") and getattr(value, "shape", ()) == ():
        return value.item()
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError("%s is not JSON serialisable" % type(value).__name__)


def _encode(body: Mapping[str, Any], what: str) -> bytes:
    try:
        text = json.dumps(body, separators=(",", ":"), allow_nan=False, default=_to_json_value)
    except ValueError as e:
        raise ValueError("%s: the body holds NaN or an infinity, which JSON cannot carry (%s)" % (what, e)) from None
    return text.encode("utf-8")


def _metrics(metrics: Mapping[str, Any]) -> Dict[str, float]:
    """Finite floats by name; numpy scalars and other number-likes go through float()."""
    out = {}
    for name, value in metrics.items():
        if not isinstance(name, str) or not name:
            raise ValueError("metric names must be non-empty strings, got %r" % (name,))
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise ValueError("metric %r: expected a number, got %r" % (name, value)) from None
        if not math.isfinite(number):
            raise ValueError("metric %r is %r; metric values must be finite" % (name, number))
        out[name] = number
    return out


class Client:
    """One CreditLab server. Thread-safe: every call is its own HTTP request.

    Args:
        base_url: the server, as `creditlab-cli serve` prints it ("http://127.0.0.1:8765", a trailing "/v1" is fine).
        token: the bearer token; None reads it from the environment variable `token_env`.
        token_env: the environment variable that holds the token (CREDITLAB_SERVE_TOKEN).
        timeout: seconds to wait for one reply.
        retries: how many times a connection failure, 429 or 503 is retried (0: never).
    """

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        token: Optional[str] = None,
        token_env: str = "CREDITLAB_SERVE_TOKEN",
        timeout: float = 60.0,
        retries: int = 3,
    ):
        url = base_url.rstrip("/")
        if url.endswith("/v1"):
            url = url[: -len("/v1")]
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError("base_url must look like http://HOST:PORT, got %r" % (base_url,))
        self.base_url = url
        self.timeout = float(timeout)
        self.retries = max(0, int(retries))
        if token is None and token_env:
            token = os.environ.get(token_env) or None
        self._token = token
        self._https = parts.scheme == "https"
        self._host = parts.hostname or ""
        self._port = parts.port
        self._prefix = parts.path  # a server behind a reverse proxy at http://host/creditlab

    def __repr__(self) -> str:
        return "Client(%r, token=%s, timeout=%r, retries=%r)" % (
            self.base_url,
            "<set>" if self._token else "None",
            self.timeout,
            self.retries,
        )

    # -- the API -------------------------------------------------------------------------------------------------

    def health(self) -> Dict[str, Any]:
        """GET /v1/health: {"status": "ok", "version": ..., "api": "v1"}. Needs no token."""
        return self._call("GET", "/v1/health")

    def create_run(
        self,
        name: str,
        config: Optional[Mapping[str, Any]] = None,
        tags: Union[Sequence[str], str, None] = None,
    ) -> int:
        """POST /v1/runs: creates a running run and returns its id.

        config: the trainer's configuration (any JSON object), stored with the run.
        tags: a list of strings, or one string of comma-separated tags.
        """
        body: Dict[str, Any] = {"name": name}
        if config is not None:
            body["config"] = dict(config)
        if tags is not None:
            body["tags"] = tags if isinstance(tags, str) else list(tags)
        return int(self._call("POST", "/v1/runs", body)["id"])

    def runs(self) -> List[Dict[str, Any]]:
        """GET /v1/runs: every run of the database, as dicts (id, name, status, kind, trajectories, turns, ...)."""
        return self._call("GET", "/v1/runs")["runs"]

    def run(self, run_id: int) -> Dict[str, Any]:
        """GET /v1/runs/{id}: one run, with "iterations" (the iterations stored so far)."""
        return self._call("GET", "/v1/runs/%d" % int(run_id))

    def post_iteration(
        self,
        run_id: int,
        iteration: int,
        trajectories: Iterable[Mapping[str, Any]],
        metrics: Optional[Mapping[str, Any]] = None,
        format: Optional[str] = None,
        markers: Optional[Sequence[str]] = None,
    ) -> Dict[str, Any]:
        """POST /v1/runs/{id}/iterations: stores one iteration's trajectories and metrics in one transaction.

        trajectories: records in any format the server imports: "native" ({"id", "group", "reward", "turns": [...]}),
            "chat", "sharegpt", "verl" (rollout dumps: {"input", "output", "score", "step", "uid"}), "steps"
            (verl-agent per-step rows); `format` names it, or None lets the server detect it from the first record.
        metrics: {name: value}; each value must be a finite number (numpy scalars are fine). NaN or an infinity
            raises ValueError naming the metric before anything is sent.
        markers: [begin, end], the chat template's message markers when they are neither ChatML nor Llama 3.

        Returns {"run", "iteration", "trajectories", "turns", "metrics"} (the counts stored).

        Each iteration is posted once, in one transaction: all of it is stored or none. CreditLabError with status
        409 means the post conflicts with what the run holds, and is raised, never swallowed:
          - field "iteration": the run already has this iteration. After a retry (a connection that failed after
            the server had committed the post) it means the first attempt was stored; do not post it again.
          - field "trajectories[i].id": that record's trajectory id is already in the run (ids are unique per run,
            across iterations); "trajectories" for step rows, where records are not trajectories.
          - field "status": the run is no longer running (finished, failed or cancelled).
        run(run_id)["iterations"] lists every posted iteration, those posted with metrics only included.
        Records without an id of their own are stored as "it<iteration>-<N>", N their 1-based position.
        """
        body: Dict[str, Any] = {"iteration": int(iteration), "trajectories": list(trajectories)}
        if metrics is not None:
            body["metrics"] = _metrics(metrics)
        if format is not None:
            body["format"] = format
        if markers is not None:
            body["markers"] = list(markers)
        return self._call("POST", "/v1/runs/%d/iterations" % int(run_id), body)

    def finish_run(self, run_id: int, status: str = "finished") -> Dict[str, Any]:
        """POST /v1/runs/{id}/finish: marks the run "finished", "failed" or "cancelled". Returns {"id", "status"}.

        Finishing a run again with the same status is accepted; with another status it is a 409.
        """
        return self._call("POST", "/v1/runs/%d/finish" % int(run_id), {"status": status})

    def credit(
        self,
        method: str,
        trajectories: Iterable[Mapping[str, Any]],
        params: Optional[Mapping[str, Any]] = None,
        format: Optional[str] = None,
        details: bool = False,
        markers: Optional[Sequence[str]] = None,
    ) -> List[Dict[str, Any]]:
        """POST /v1/credit: per-turn credit with one method ("grpo", "gigpo", "triage", ...); stores nothing.

        params: the method's parameters by name ({"gamma": 0.9}); `creditlab-cli methods` lists them.
        Returns one dict per trajectory, in the order posted: {"id", "advantages": [one per turn]}, plus
        "message_index" (chat, ShareGPT, verl) or "step_index" (per-step rows) parallel to the advantages for
        records of those formats, and "details" when asked for. Records without an id of their own are named
        "line-N", N their 1-based position in `trajectories`. advantages_by_index() joins them back on.
        """
        body: Dict[str, Any] = {"method": method, "trajectories": list(trajectories)}
        if params is not None:
            body["params"] = dict(params)
        if format is not None:
            body["format"] = format
        if markers is not None:
            body["markers"] = list(markers)
        if details:
            body["details"] = True
        return self._call("POST", "/v1/credit", body)["credits"]

    # -- HTTP ----------------------------------------------------------------------------------------------------

    def _call(self, method: str, path: str, body: Optional[Mapping[str, Any]] = None) -> Any:
        data = _encode(body, method + " " + path) if body is not None else None
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if self._token:
            headers["Authorization"] = "Bearer " + self._token
        url = self.base_url + path
        delay = 0.5
        attempt = 0
        while True:
            try:
                status, reply_headers, raw = self._exchange(method, self._prefix + path, data, headers)
            except (socket.timeout, TimeoutError):
                # Not retried: the server may still be working on the request (a post may yet be stored).
                raise CreditLabError(0, "no reply from %s within %g s" % (url, self.timeout)) from None
            except (OSError, http.client.HTTPException) as e:
                error = CreditLabError(0, "cannot reach %s: %s" % (url, str(e) or type(e).__name__))
                wait = None
            else:
                if 200 <= status < 300:
                    return json.loads(raw.decode("utf-8")) if raw else {}
                error = _error_of(status, raw)
                wait = _retry_after(reply_headers.get("Retry-After")) if status in (429, 503) else None
            if error.status not in (0, 429, 503) or attempt >= self.retries:
                raise error
            time.sleep(delay if wait is None else wait)
            delay *= 2.0
            attempt += 1

    def _exchange(self, method: str, path: str, data: Optional[bytes], headers: Dict[str, str]):
        """One request on a fresh connection: (status, headers, body). Redirects are not followed (the API has
        none, and following one would carry the token elsewhere), and no proxy is used.

        The connection is HTTP/1.1 keep-alive, not "Connection: close" as urllib sends: a server that refuses a
        request before reading its body (401, 429) then still reads the body and the reply arrives, where with
        "close" it drops the connection mid-body and the client sees only a broken pipe."""
        if self._https:
            conn: http.client.HTTPConnection = http.client.HTTPSConnection(
                self._host, self._port, timeout=self.timeout, context=ssl.create_default_context()
            )
        else:
            conn = http.client.HTTPConnection(self._host, self._port, timeout=self.timeout)
        try:
            try:
                conn.request(method, path, body=data, headers=headers)
            except (BrokenPipeError, ConnectionResetError) as sending:
                # The server answered and closed before taking the whole body: its reply may still be readable.
                try:
                    reply = conn.getresponse()
                    return reply.status, reply.headers, reply.read()
                except (OSError, http.client.HTTPException):
                    raise sending from None
            reply = conn.getresponse()
            return reply.status, reply.headers, reply.read()
        finally:
            conn.close()


def _error_of(status: int, raw: bytes) -> CreditLabError:
    """The server's {"error": message, "field": path} as a CreditLabError; any other body as the message."""
    message = None
    field = None
    try:
        parsed = json.loads(raw.decode("utf-8"))
        if isinstance(parsed, dict):
            message = parsed.get("error")
            field = parsed.get("field")
    except (ValueError, UnicodeDecodeError):
        pass
    if not isinstance(message, str) or not message:
        text = raw.decode("utf-8", "replace").strip()
        message = text[:500] if text else (http.client.responses.get(status) or "HTTP %d" % status)
    return CreditLabError(status, message, field if isinstance(field, str) else None)


def _retry_after(value: Optional[str]) -> Optional[float]:
    """Retry-After in seconds (capped at a minute), or None when absent or an HTTP date."""
    if not value:
        return None
    try:
        return min(60.0, max(0.0, float(value)))
    except ValueError:
        return None


def advantages_by_index(credits: Iterable[Mapping[str, Any]]) -> Dict[Tuple[str, int], float]:
    """Joins the credit of credit() back onto a trainer's batch: {(trajectory id, index): advantage}.

    The index is the turn's "message_index" (chat, ShareGPT, verl: the position of its assistant message in the
    record's prompt and response messages) or "step_index" (verl-agent per-step rows: the row's step), when the
    credit carries one; else the turn's position 0..n-1 (native records). A verl-agent trainer looks up
    (traj_uid, step_idx) for each row of its batch; a verl trainer (id, message_index) for each assistant message,
    and broadcasts the advantage onto that message's response tokens.
    """
    out: Dict[Tuple[str, int], float] = {}
    for c in credits:
        advantages = c["advantages"]
        index = c.get("message_index")
        if index is None:
            index = c.get("step_index")
        if index is None:
            index = range(len(advantages))
        elif len(index) != len(advantages):
            raise ValueError("credit of %r has %d advantages but %d indices" % (c["id"], len(advantages), len(index)))
        for i, a in zip(index, advantages):
            out[(c["id"], int(i))] = float(a)
    return out
