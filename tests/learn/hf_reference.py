#!/usr/bin/env python3
"""An independent float64 reference of the Hugging Face decoders CreditLab runs (Llama, Qwen2, Qwen3).

Written from the architectures' definitions, not from CreditLab's code: its own safetensors reader (struct + numpy),
rotary embeddings as complex rotations of the pairs (i, i + d/2), attention one query row at a time. Debian's
python3-torch (1.13) and python3-numpy only.

usage: hf_reference.py MODEL_DIR SEQS.jsonl OUT.jsonl
Each input line is a JSON array of token ids; each output line holds the natural-log probabilities of tokens 2..n.
"""
import json
import math
import os
import struct
import sys

import numpy as np
import torch


def read_safetensors(path):
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n])
    base = 8 + n
    out = {}
    for name, e in header.items():
        if name == "__metadata__":
            continue
        b, end = e["data_offsets"]
        buf = raw[base + b:base + end]
        shape = e["shape"]
        if e["dtype"] == "F32":
            a = np.frombuffer(buf, dtype="<f4").astype(np.float64)
        elif e["dtype"] == "F16":
            a = np.frombuffer(buf, dtype="<f2").astype(np.float64)
        elif e["dtype"] == "BF16":
            a = (np.frombuffer(buf, dtype="<u2").astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        else:
            raise SystemExit(f"{path}: {name}: dtype {e['dtype']}")
        out[name] = torch.from_numpy(a.reshape(shape).copy())
    return out


def load_weights(folder):
    index = os.path.join(folder, "model.safetensors.index.json")
    if os.path.exists(index):
        with open(index) as f:
            shards = sorted(set(json.load(f)["weight_map"].values()))
        w = {}
        for s in shards:
            w.update(read_safetensors(os.path.join(folder, s)))
        return w
    return read_safetensors(os.path.join(folder, "model.safetensors"))


def inv_freq(cfg, head_dim):
    rope = cfg.get("rope_scaling") or cfg.get("rope_parameters") or {}
    theta = rope.get("rope_theta", cfg.get("rope_theta", 10000.0))
    freqs = [1.0 / (theta ** (2.0 * i / head_dim)) for i in range(head_dim // 2)]
    kind = rope.get("rope_type", rope.get("type", "default"))
    if kind == "linear":
        freqs = [f / rope["factor"] for f in freqs]
    elif kind == "llama3":
        factor, low, high = rope["factor"], rope["low_freq_factor"], rope["high_freq_factor"]
        old = rope["original_max_position_embeddings"]
        adjusted = []
        for f in freqs:
            wavelen = 2 * math.pi / f
            if wavelen < old / high:
                adjusted.append(f)
            elif wavelen > old / low:
                adjusted.append(f / factor)
            else:
                smooth = (old / wavelen - low) / (high - low)
                adjusted.append((1 - smooth) * f / factor + smooth * f)
        freqs = adjusted
    return freqs


def rms(x, w, eps):
    return w * (x / torch.sqrt((x * x).mean(-1, keepdim=True) + eps))


def rotate(x, pos, freqs):
    # x: (heads, d); pairs (i, i + d/2) rotated by pos * freqs[i]
    half = x.shape[-1] // 2
    out = x.clone()
    for i, f in enumerate(freqs):
        c, s = math.cos(pos * f), math.sin(pos * f)
        a, b = x[:, i].clone(), x[:, i + half].clone()
        out[:, i] = a * c - b * s
        out[:, i + half] = b * c + a * s
    return out


def logprob_matrix(cfg, w, ids):
    """log-softmax of every position's logits (n, vocab); differentiable in the weights of `w`."""
    arch = cfg["architectures"][0]
    hidden, heads = cfg["hidden_size"], cfg["num_attention_heads"]
    kv = cfg.get("num_key_value_heads", heads)
    hd = cfg.get("head_dim", hidden // heads)
    eps = cfg.get("rms_norm_eps", 1e-6)
    freqs = inv_freq(cfg, hd)
    x = w["model.embed_tokens.weight"][ids]
    n = len(ids)
    def lin(h, name):
        y = h @ w[name + ".weight"].T
        if name + ".bias" in w:
            y = y + w[name + ".bias"]
        return y
    for l in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{l}."
        h = rms(x, w[p + "input_layernorm.weight"], eps)
        q = lin(h, p + "self_attn.q_proj").reshape(n, heads, hd)
        k = lin(h, p + "self_attn.k_proj").reshape(n, kv, hd)
        v = lin(h, p + "self_attn.v_proj").reshape(n, kv, hd)
        if arch == "Qwen3ForCausalLM":
            q = rms(q, w[p + "self_attn.q_norm.weight"], eps)
            k = rms(k, w[p + "self_attn.k_norm.weight"], eps)
        q = torch.stack([rotate(q[t], t, freqs) for t in range(n)])
        k = torch.stack([rotate(k[t], t, freqs) for t in range(n)])
        out = torch.zeros(n, heads, hd, dtype=torch.float64)
        group = heads // kv
        for t in range(n):
            for hh in range(heads):
                kk = k[: t + 1, hh // group]
                scores = (kk @ q[t, hh]) / math.sqrt(hd)
                prob = torch.softmax(scores, 0)
                out[t, hh] = prob @ v[: t + 1, hh // group]
        x = x + lin(out.reshape(n, heads * hd), p + "self_attn.o_proj")
        h = rms(x, w[p + "post_attention_layernorm.weight"], eps)
        gate = lin(h, p + "mlp.gate_proj")
        x = x + lin(gate * torch.sigmoid(gate) * lin(h, p + "mlp.up_proj"), p + "mlp.down_proj")
    x = rms(x, w["model.norm.weight"], eps)
    head = w["model.embed_tokens.weight"] if cfg.get("tie_word_embeddings", False) else w["lm_head.weight"]
    return torch.log_softmax(x @ head.T, -1)


def logprobs(cfg, w, ids):
    lp = logprob_matrix(cfg, w, ids)
    return [lp[t, ids[t + 1]].item() for t in range(len(ids) - 1)]


def main():
    folder, seqs, out = sys.argv[1:4]
    with open(os.path.join(folder, "config.json")) as f:
        cfg = json.load(f)
    w = load_weights(folder)
    with open(seqs) as f, open(out, "w") as o:
        for line in f:
            if line.strip():
                o.write(json.dumps(logprobs(cfg, w, json.loads(line))) + "\n")


if __name__ == "__main__":
    with torch.no_grad():
        main()
