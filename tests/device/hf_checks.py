#!/usr/bin/env python3
"""issue 34's GPU checks, Python side: CreditLab's Hugging Face decoder against transformers and peft.

Run by tests/device/run.sh on the device machine (PyTorch 2.x with CUDA, transformers, peft). Every check is
independent: one that fails or raises is recorded as FAIL with its error, and the others still run. Each prints
`PASS|FAIL|SKIP name: figure (limit)`; $OUT/figures.json is rewritten after every check, so a run cut short keeps
what it measured.

  parity    tiny random Qwen2 (q/k/v biases), Qwen3 (q/k norm, explicit head_dim) and Llama (llama3 rope, biases)
            models built by transformers itself, tied and untied, saved as fp32 and bf16 safetensors; their
            log-probabilities from `creditlab-cli model score` on the CPU and on CUDA in float32 (<= 1e-4 from
            transformers' CPU float32) and on CUDA in bfloat16 (<= 2e-2 from transformers' CUDA bfloat16, or no worse
            than 1.5 x transformers' own bf16 error).
  lora      a peft adapter (random nonzero A and B) saved by peft: hf_device_checks lora-grads (loadLoraAdapter) on
            CUDA and on the CPU against peft's gradients (<= 1e-4 relative); an adapter saved by CreditLab
            (hf_device_checks save-adapter) loaded by PeftModel.from_pretrained reproduces CreditLab's scores (<= 1e-4).
  speed     at Qwen2.5-0.5B's shape in bf16: generation at batch 64 (128 prompt + 128 new tokens, temperature 1) and
            one update (16 x 512 tokens, micro-batches of 4, AdamW), CreditLab against transformers' generate() and a
            PyTorch training step with SDPA in the same run (TARGETS.md: generation >= 2x, update >= 1.0x, peak memory
            <= PyTorch's).
  goldens   $OUT/goldens.tar.gz: the tiny folders, their sequences and transformers' CPU float32 log-probabilities
            (and a peft adapter with peft's log-probabilities and gradients), for the CPU replay test
            tst_learn_hf_goldens once the file is committed as tests/learn/data/hf_goldens.tar.gz.

usage: hf_checks.py --cli build/cli/bin/creditlab-cli --checks build/cli/bin/hf_device_checks --out $OUT
                    [--work DIR] [--only parity,lora,speed,goldens] [--device cuda] [--quick]
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tarfile
import time
import traceback

import torch

# --- tiny models -----------------------------------------------------------------------------------------------------

# Small enough that nine folders fit in goldens.tar.gz under 2 MB; Qwen3's head_dim is not hidden / heads on purpose.
TINY = dict(vocab_size=512, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
            num_key_value_heads=2, max_position_embeddings=512, rms_norm_eps=1e-6, bos_token_id=1, eos_token_id=2,
            hidden_act="silu")
LLAMA3_ROPE = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
               "original_max_position_embeddings": 64}
SEVEN = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]

# name, architecture, tied, llama3 rope, Llama attention and MLP biases, stored dtypes
CASES = [
    dict(name="qwen2-untied", arch="qwen2", tied=False, dtypes=["float32"]),
    dict(name="qwen2-tied", arch="qwen2", tied=True, dtypes=["float32", "bfloat16"]),
    dict(name="qwen3-tied", arch="qwen3", tied=True, dtypes=["float32"]),
    dict(name="qwen3-untied", arch="qwen3", tied=False, dtypes=["float32", "bfloat16"]),
    dict(name="llama3-untied", arch="llama", tied=False, llama3=True, dtypes=["float32", "bfloat16"]),
    dict(name="llama3-tied-bias", arch="llama", tied=True, llama3=True, bias=True, dtypes=["float32"]),
]


def tiny_sequences(seed=7, vocab=512):
    """Fixed token sequences of several lengths, the longest past llama3's original_max_position_embeddings."""
    rng = random.Random(seed)
    return [[rng.randrange(vocab) for _ in range(n)] for n in (2, 5, 17, 64, 200)]


def folder_name(case, dtype):
    return case["name"] + ("-bf16" if dtype == "bfloat16" else "")


# --- comparisons (torch only) ----------------------------------------------------------------------------------------

def max_abs_diff(a, b):
    """Largest |a - b| over ragged lists of log-probabilities; inf when the shapes differ or a value is not finite."""
    if len(a) != len(b):
        return float("inf")
    worst = 0.0
    for x, y in zip(a, b):
        if len(x) != len(y):
            return float("inf")
        if x:
            d = (torch.tensor(x, dtype=torch.float64) - torch.tensor(y, dtype=torch.float64)).abs()
            if not bool(torch.isfinite(d).all()):
                return float("inf")
            worst = max(worst, float(d.max()))
    return worst


def relative_grad_error(ours, theirs):
    """max over tensors of max|ours - theirs| / max|theirs|, and the names missing on either side."""
    missing = sorted(set(theirs) ^ set(ours))
    worst = 0.0
    for name in sorted(set(theirs) & set(ours)):
        a, b = ours[name].double(), theirs[name].double()
        if a.shape != b.shape:
            return float("inf"), missing + [name + " (shape)"]
        scale = max(float(b.abs().max()), 1e-12)
        err = float((a - b).abs().max()) / scale
        worst = max(worst, err if err == err else float("inf"))
    return worst, missing


def median(values):
    v = sorted(values)
    return 0.0 if not v else (v[len(v) // 2] if len(v) % 2 else 0.5 * (v[len(v) // 2 - 1] + v[len(v) // 2]))


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def write_jsonl(path, rows):
    with open(path, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")


def read_safetensors(path):
    """name -> float64 tensor, with its own reader (the C++ side writes F32; peft's may be F32 or BF16)."""
    import struct
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        b, end = e["data_offsets"]
        buf = bytearray(raw[8 + n + b:8 + n + end])
        if e["dtype"] == "F32":
            t = torch.frombuffer(buf, dtype=torch.float32) if buf else torch.zeros(0)
        elif e["dtype"] == "BF16":
            t = torch.frombuffer(buf, dtype=torch.bfloat16).float()
        elif e["dtype"] == "F16":
            t = torch.frombuffer(buf, dtype=torch.float16).float()
        else:
            raise ValueError(f"{path}: {name}: dtype {e['dtype']}")
        out[name] = t.double().reshape(e["shape"])
    return out


# --- the report ------------------------------------------------------------------------------------------------------

class Report:
    """Figures and verdicts, written to figures.json after every check."""

    def __init__(self, out_dir, meta):
        self.path = os.path.join(out_dir, "figures.json")
        self.meta = meta
        self.checks = []

    def record(self, name, status, value=None, limit=None, **detail):
        entry = dict(name=name, status=status, value=value, limit=limit, **detail)
        self.checks.append(entry)
        shown = "" if value is None else (f"{value:.3g}" if isinstance(value, float) else str(value))
        print(f"{status} {name}: {shown}" + (f" (limit {limit})" if limit is not None else "")
              + (f" {detail.get('error', '')}" if status == "FAIL" and "error" in detail else ""), flush=True)
        self.save()

    def bound(self, name, value, limit, **detail):
        """PASS when value <= limit (NaN and inf fail)."""
        ok = value is not None and value == value and value <= limit
        self.record(name, "PASS" if ok else "FAIL", value, limit, **detail)
        return ok

    def save(self):
        passed = sum(c["status"] == "PASS" for c in self.checks)
        failed = sum(c["status"] == "FAIL" for c in self.checks)
        with open(self.path, "w") as f:
            json.dump(dict(self.meta, passed=passed, failed=failed, checks=self.checks), f, indent=1)


def guarded(report, name, fn, *args):
    """Runs one check; an exception becomes a FAIL that names it, and the run goes on."""
    start = time.time()
    try:
        return fn(*args)
    except Exception as e:  # every failure is a figure, never the end of the run
        traceback.print_exc()
        report.record(name, "FAIL", error=f"{type(e).__name__}: {e}"[:2000])
    finally:
        print(f"  ({name}: {time.time() - start:.1f} s, ended {time.strftime('%H:%M:%S')})", flush=True)
    return None


# --- the C++ side ----------------------------------------------------------------------------------------------------

class Cpp:
    """creditlab-cli and hf_device_checks as processes, with the carried libraries' path for them alone."""

    def __init__(self, cli, checks, ld_path):
        self.cli, self.checks = cli, checks
        self.env = dict(os.environ)
        if ld_path:
            self.env["LD_LIBRARY_PATH"] = ld_path + (":" + self.env["LD_LIBRARY_PATH"]
                                                     if self.env.get("LD_LIBRARY_PATH") else "")

    def run(self, argv, timeout=300):
        p = subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=timeout)
        if p.returncode != 0:
            raise RuntimeError(f"{os.path.basename(argv[0])} {argv[1]} exited {p.returncode}: {p.stderr[-1500:]}")
        return p.stdout

    def have(self, which):
        path = self.cli if which == "cli" else self.checks
        return bool(path) and os.access(path, os.X_OK)

    def score(self, folder, seqs_path, out_path, device, dtype):
        self.run([self.cli, "model", "score", folder, "--input", seqs_path, "--output", out_path,
                  "--device", device, "--dtype", dtype])
        return read_jsonl(out_path)

    def json_lines(self, argv, timeout=300):
        return [json.loads(line) for line in self.run(argv, timeout).splitlines() if line.startswith("{")]


# --- checks ----------------------------------------------------------------------------------------------------------

def check_parity(report, backend, cpp, work, device, sequences):
    """Every tiny folder: CreditLab's scores on the CPU and CUDA against transformers'."""
    seqs_path = os.path.join(work, "seqs.jsonl")
    write_jsonl(seqs_path, sequences)
    for case in CASES:
        for stored in case["dtypes"]:
            name = folder_name(case, stored)
            folder = os.path.join(work, "models", name)
            if not os.path.isdir(folder):
                continue  # its construction failed and was reported
            ref = guarded(report, f"reference {name}", backend.log_probs, folder, sequences, "cpu", "float32")
            if ref is None:
                continue
            write_jsonl(os.path.join(folder, "logprobs.jsonl"), ref)
            runs = [("cpu", "float32")] + ([(device, "float32"), (device, "bfloat16")] if device != "cpu" else [])
            for dev, dtype in runs:
                label = f"parity {name} {dev} {dtype}"
                if not cpp.have("cli"):
                    report.record(label, "FAIL", error="creditlab-cli was not built")
                    continue
                out = os.path.join(work, f"scores-{name}-{dev}-{dtype}.jsonl")
                ours = guarded(report, label, cpp.score, folder, seqs_path, out, dev, dtype)
                if ours is None:
                    continue
                if dtype == "float32":
                    report.bound(label, max_abs_diff(ours, ref), 1e-4)
                else:
                    guarded(report, label, bf16_verdict, report, label, backend, folder, sequences, dev, ours, ref)


def bf16_verdict(report, label, backend, folder, sequences, device, ours, ref):
    theirs = backend.log_probs(folder, sequences, device, "bfloat16")
    direct = max_abs_diff(ours, theirs)
    our_err, their_err = max_abs_diff(ours, ref), max_abs_diff(theirs, ref)
    ok = direct <= 2e-2 or our_err <= 1.5 * their_err
    report.record(label, "PASS" if ok else "FAIL", direct, 2e-2, creditlab_vs_fp32=our_err,
                  transformers_vs_fp32=their_err)


def check_lora(report, backend, cpp, work, device, sequences):
    """peft's adapter and gradients against loadLoraAdapter and lora-grads; CreditLab's adapter in peft."""
    seqs = sequences[:4]  # the 200-token row makes the CPU side slow for little
    seqs_path = os.path.join(work, "lora-seqs.jsonl")
    write_jsonl(seqs_path, seqs)
    for name in ("qwen2-untied", "qwen3-tied", "llama3-tied-bias"):
        folder = os.path.join(work, "models", name)
        if not os.path.isdir(folder):
            continue
        adapter = os.path.join(work, "adapters", name + "-peft")
        theirs = guarded(report, f"lora peft {name}", backend.peft_adapter_and_grads, folder, adapter, seqs, 4, 11)
        if theirs is None:
            continue
        for dev in ["cpu"] + ([device] if device != "cpu" else []):
            label = f"lora grads {name} {dev}"
            if not cpp.have("checks"):
                report.record(label, "FAIL", error="hf_device_checks was not built")
                continue
            out = os.path.join(work, f"grads-{name}-{dev}.safetensors")
            if guarded(report, label, cpp.run, [cpp.checks, "lora-grads", folder, adapter, seqs_path, out,
                                                "--device", dev]) is None:
                continue
            err, missing = relative_grad_error(read_safetensors(out), theirs)
            report.bound(label, err if not missing else float("inf"), 1e-4, missing=missing[:8])
        label = f"lora creditlab adapter in peft {name}"
        if not cpp.have("checks"):
            report.record(label, "FAIL", error="hf_device_checks was not built")
            continue
        ours_dir = os.path.join(work, "adapters", name + "-creditlab")
        scores = os.path.join(work, f"lora-scores-{name}.jsonl")
        shutil.rmtree(ours_dir, ignore_errors=True)
        if guarded(report, label, cpp.run, [cpp.checks, "save-adapter", folder, ours_dir, "4", "5", seqs_path,
                                            scores, "--device", device]) is None:
            continue
        peft_scores = guarded(report, label, backend.peft_log_probs, folder, ours_dir, seqs)
        if peft_scores is not None:
            report.bound(label, max_abs_diff(read_jsonl(scores), peft_scores), 1e-4)


def check_speed(report, backend, cpp, device, quick):
    """Generation and one update at Qwen2.5-0.5B's shape: CreditLab, then the PyTorch anchors, then the ratios."""
    shape = ["--shape", "tiny", "--rows", "4", "--prompt", "8", "--new", "8"] if quick else []
    upd = ["--shape", "tiny", "--rows", "4", "--length", "16", "--micro", "2"] if quick else []
    common = ["--device", device, "--dtype", "bfloat16" if device != "cpu" else "float32"]
    ours = {}
    if cpp.have("checks"):
        for sub, extra in (("speed-generate", shape), ("speed-update", upd)):
            lines = guarded(report, sub, cpp.json_lines, [cpp.checks, sub] + common + extra, 400)
            for figure in lines or []:
                ours[figure["figure"]] = figure
                report.record(figure["figure"], "INFO", figure["value"], detail=figure)
    else:
        report.record("speed", "FAIL", error="hf_device_checks was not built")
    theirs = guarded(report, "speed anchors", backend.speed_anchors, device, quick) or {}
    for key, figure in theirs.items():
        report.record(key, "INFO", figure["value"], detail=figure)
    for ours_key, theirs_key, target in (("cpp_generate_tok_s", "anchor_generate_tok_s", 2.0),
                                         ("cpp_update_tok_s", "anchor_update_tok_s", 1.0)):
        if ours_key in ours and theirs_key in theirs:
            ratio = ours[ours_key]["value"] / theirs[theirs_key]["value"]
            report.record(ours_key.replace("cpp_", "ratio_"), "PASS" if ratio >= target else "FAIL", ratio,
                          f">= {target}")
    a, b = ours.get("cpp_update_tok_s", {}), theirs.get("anchor_update_tok_s", {})
    if "peak_allocated_bytes" in a and "peak_allocated_bytes" in b:
        ratio = a["peak_allocated_bytes"] / b["peak_allocated_bytes"]
        report.record("ratio_update_peak_memory", "PASS" if ratio <= 1.0 else "FAIL", ratio, "<= 1.0")


def write_goldens(report, work, out_dir, sequences):
    """The fp32 tiny folders with transformers' log-probabilities, and one peft adapter, as goldens.tar.gz."""
    root = os.path.join(work, "goldens")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    manifest = dict(created=time.strftime("%Y-%m-%d"), torch=torch.__version__, cases=[], lora=[])
    try:
        import transformers
        manifest["transformers"] = transformers.__version__
        import peft
        manifest["peft"] = peft.__version__
    except ImportError:
        pass
    write_jsonl(os.path.join(root, "seqs.jsonl"), sequences)
    for case in CASES:
        for stored in case["dtypes"]:
            name = folder_name(case, stored)
            src = os.path.join(work, "models", name)
            if not os.path.exists(os.path.join(src, "logprobs.jsonl")):
                continue
            dst = os.path.join(root, name)
            os.makedirs(dst)
            for f in ("config.json", "model.safetensors", "logprobs.jsonl"):
                shutil.copy(os.path.join(src, f), dst)
            manifest["cases"].append(dict(name=name, stored=stored, tolerance=1e-4))
    for name in ("qwen2-untied", "qwen3-tied", "llama3-tied-bias"):
        src = os.path.join(work, "adapters", name + "-peft")
        if not os.path.exists(os.path.join(src, "peft_grads.safetensors")):
            continue
        dst = os.path.join(root, "adapters", name)
        shutil.copytree(src, dst)
        manifest["lora"].append(dict(model=name, adapter="adapters/" + name, sequences="lora-seqs.jsonl",
                                     tolerance=1e-4))
    write_jsonl(os.path.join(root, "lora-seqs.jsonl"), sequences[:4])
    with open(os.path.join(root, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    path = os.path.join(out_dir, "goldens.tar.gz")
    with tarfile.open(path, "w:gz") as tar:
        tar.add(root, arcname="hf_goldens")
    size = os.path.getsize(path)
    report.bound("goldens size bytes", size, 2_000_000, cases=len(manifest["cases"]), lora=len(manifest["lora"]))


# --- main ------------------------------------------------------------------------------------------------------------

def build_models(report, backend, work):
    for case in CASES:
        for stored in case["dtypes"]:
            name = folder_name(case, stored)
            folder = os.path.join(work, "models", name)
            shutil.rmtree(folder, ignore_errors=True)
            if guarded(report, f"build {name}", backend.make_model, case, stored, folder, 1000 + CASES.index(case)):
                with open(os.path.join(folder, "config.json")) as f:
                    print(f"  {name} config.json: {json.dumps(json.load(f), sort_keys=True)}", flush=True)
                report.record(f"build {name}", "PASS")


def main(argv=None, backend=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", default="", help="creditlab-cli")
    ap.add_argument("--checks", default="", help="hf_device_checks")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--work", default="/tmp/creditlab-hf-checks")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--only", default="parity,lora,speed,goldens")
    ap.add_argument("--quick", action="store_true", help="tiny speed shapes (a CPU smoke run)")
    ap.add_argument("--cpp-ld-library-path", default=os.environ.get("CREDITLAB_CPP_LD_LIBRARY_PATH", ""))
    args = ap.parse_args(argv)
    only = set(args.only.split(","))
    os.makedirs(args.out, exist_ok=True)
    os.makedirs(args.work, exist_ok=True)
    if backend is None:
        from hf_backend import TransformersBackend
        backend = TransformersBackend()
    meta = dict(device=args.device, torch=torch.__version__, backend=backend.describe(),
                gpu=torch.cuda.get_device_name(0) if torch.cuda.is_available() else None)
    print(f"hf_checks: {json.dumps(meta)}", flush=True)
    report = Report(args.out, meta)
    cpp = Cpp(args.cli, args.checks, args.cpp_ld_library_path)
    sequences = tiny_sequences()
    if only & {"parity", "lora", "goldens"}:
        build_models(report, backend, args.work)
    if "parity" in only or "goldens" in only:
        check_parity(report, backend, cpp, args.work, args.device, sequences)
    if "lora" in only or "goldens" in only:
        check_lora(report, backend, cpp, args.work, args.device, sequences)
    if "goldens" in only:
        guarded(report, "goldens", write_goldens, report, args.work, args.out, sequences)
    if "speed" in only:
        check_speed(report, backend, cpp, args.device, args.quick)
    report.save()
    failed = [c["name"] for c in report.checks if c["status"] == "FAIL"]
    print(f"hf_checks: {sum(c['status'] == 'PASS' for c in report.checks)} passed, {len(failed)} failed"
          + (": " + ", ".join(failed) if failed else ""), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
