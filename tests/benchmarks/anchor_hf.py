#!/usr/bin/env python3
"""The Python PyTorch anchor of bench_hf.cpp: the row "Pretrained LLM, CPU" of TARGETS.md.

Plain PyTorch (Debian's 1.13 with OpenBLAS; no transformers, which Debian does not package) doing what bench_hf does,
written as a straightforward user would: a Llama decoder at SmolLM2-135M's shape (hidden 576, MLP 1536, 30 layers,
9 heads, 3 key/value heads, head_dim 64, vocab 49,152, tied embeddings, RMSNorm, RoPE, SiLU-gated MLP), explicit
attention (1.13 has no SDPA), float32 on the CPU.
- generation: ROWS prompts of PROMPT tokens, one prompt pass into a KV cache, then NEW cached steps, each sampling
  from the full softmax (temperature 1);
- update: ROWS sequences of PROMPT + NEW tokens, in MICRO-row micro-batches accumulated into one AdamW step, a
  policy-gradient loss on the NEW action tokens (logits at every position, as a plain loop computes them), the
  global gradient norm clipped at 1.0.

usage: anchor_hf.py THREADS REPEATS [ROWS PROMPT NEW MICRO]
prints one JSON line per repeat: {"generate_tok_s": ..., "train_tok_s": ...}
The caller exports OMP_WAIT_POLICY=passive (libgomp reads it at load); OPENBLAS_NUM_THREADS is set here and the script
re-executes itself, as OpenBLAS reads it at load.
"""
import json, math, os, sys, time

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 2
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
ROWS, PROMPT, NEW, MICRO = (int(x) for x in sys.argv[3:7]) if len(sys.argv) > 6 else (8, 128, 32, 4)
if os.environ.get("OPENBLAS_NUM_THREADS") != str(THREADS):
    os.environ["OPENBLAS_NUM_THREADS"] = str(THREADS)
    os.execv(sys.executable, [sys.executable] + sys.argv)

import torch
import torch.nn as nn
import torch.nn.functional as F

HIDDEN, MLP, LAYERS, HEADS, KV, HD, VOCAB, THETA, EPS = 576, 1536, 30, 9, 3, 64, 49152, 100000.0, 1e-5


class RMSNorm(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(n))

    def forward(self, x):
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS))


def rotate_half(x):
    a, b = x.chunk(2, -1)
    return torch.cat((-b, a), -1)


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = RMSNorm(HIDDEN), RMSNorm(HIDDEN)
        self.q = nn.Linear(HIDDEN, HEADS * HD, bias=False)
        self.k = nn.Linear(HIDDEN, KV * HD, bias=False)
        self.v = nn.Linear(HIDDEN, KV * HD, bias=False)
        self.o = nn.Linear(HEADS * HD, HIDDEN, bias=False)
        self.gate = nn.Linear(HIDDEN, MLP, bias=False)
        self.up = nn.Linear(HIDDEN, MLP, bias=False)
        self.down = nn.Linear(MLP, HIDDEN, bias=False)

    def forward(self, x, cos, sin, mask, cache, past):
        B, T, _ = x.shape
        h = self.ln1(x)
        q = self.q(h).view(B, T, HEADS, HD).transpose(1, 2)
        k = self.k(h).view(B, T, KV, HD).transpose(1, 2)
        v = self.v(h).view(B, T, KV, HD).transpose(1, 2)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        if cache is not None:
            cache[0][:, :, past:past + T] = k
            cache[1][:, :, past:past + T] = v
            k, v = cache[0][:, :, :past + T], cache[1][:, :, :past + T]
        k = k.repeat_interleave(HEADS // KV, 1)
        v = v.repeat_interleave(HEADS // KV, 1)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(HD)
        att = torch.softmax(scores.masked_fill(~mask, float("-inf")), -1)
        x = x + self.o((att @ v).transpose(1, 2).reshape(B, T, HEADS * HD))
        h = self.ln2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, HIDDEN)
        self.layers = nn.ModuleList(Layer() for _ in range(LAYERS))
        self.norm = RMSNorm(HIDDEN)
        inv = 1.0 / (THETA ** (torch.arange(0, HD, 2).float() / HD))
        self.register_buffer("inv", inv)

    def forward(self, ids, start, caches=None):
        B, T = ids.shape
        pos = torch.arange(start, start + T).float()
        freqs = pos[:, None] * self.inv[None, :]
        emb = torch.cat((freqs, freqs), -1)
        cos, sin = emb.cos()[None, None], emb.sin()[None, None]
        mask = torch.ones(T, start + T, dtype=torch.bool).tril(start)[None, None]
        x = self.embed(ids)
        for i, layer in enumerate(self.layers):
            x = layer(x, cos, sin, mask, caches[i] if caches else None, start)
        return self.norm(x) @ self.embed.weight.t()


def main():
    torch.set_num_threads(THREADS)
    torch.manual_seed(0)
    model = Model()
    for p in model.parameters():
        if p.dim() > 1:
            nn.init.normal_(p, std=0.02)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-6, weight_decay=0.0)
    g = torch.Generator().manual_seed(1)
    prompts = torch.randint(0, VOCAB, (ROWS, PROMPT), generator=g)
    for _ in range(REPEATS):
        # Generation: prompt pass, then one cached step per token.
        start = time.perf_counter()
        with torch.no_grad():
            caches = [(torch.zeros(ROWS, KV, PROMPT + NEW, HD), torch.zeros(ROWS, KV, PROMPT + NEW, HD))
                      for _ in range(LAYERS)]
            logits = model(prompts, 0, caches)[:, -1]
            out = []
            for step in range(NEW):
                tok = torch.multinomial(torch.softmax(logits, -1), 1, generator=g)
                out.append(tok)
                if step + 1 < NEW:
                    logits = model(tok, PROMPT + step, caches)[:, -1]
        gen = time.perf_counter() - start
        seqs = torch.cat([prompts] + out, 1)
        # Update: micro-batches accumulated into one clipped AdamW step.
        start = time.perf_counter()
        with torch.no_grad():
            old = torch.randn(ROWS, NEW) * 0.1 - 5.0
            adv = torch.randn(ROWS, NEW)
        opt.zero_grad()
        for r in range(0, ROWS, MICRO):
            s = seqs[r:r + MICRO]
            lp = torch.log_softmax(model(s, 0)[:, PROMPT - 1:-1], -1).gather(-1, s[:, PROMPT:, None]).squeeze(-1)
            ratio = torch.exp(lp - old[r:r + MICRO])
            loss = -(ratio * adv[r:r + MICRO]).mean() * (s.size(0) / ROWS)
            loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        train = time.perf_counter() - start
        print(json.dumps({"generate_tok_s": ROWS * NEW / gen, "train_tok_s": ROWS * (PROMPT + NEW) / train}), flush=True)


if __name__ == "__main__":
    main()
