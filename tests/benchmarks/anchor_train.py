# The Python PyTorch anchor of bench_train.cpp: the row "RL training, same work (CPU)" of TARGETS.md.
# Plain PyTorch (Debian's 1.13 with OpenBLAS) doing what bench_train does: the built-in policy's Llama decoder (d=128,
# 4 layers, 4 heads, vocab 512, context 512, RMSNorm, rotary positions, SwiGLU MLP of 344, untied LM head, GPT-2 init);
# 128 sequences of 256 prompt tokens sample 12 tokens each with a KV cache (one prompt pass, then one cached step
# per token; explicit attention); then a PPO-clip update with k3 KL to a frozen reference, Adam (lr 1e-5),
# gradient clipping at 1.0, 2 epochs x 4 minibatches of 32 rows (one forward per minibatch, as bench_train's
# micro-batch of 32 rows). Written as a straightforward user would: full attention, logits at every position.
# Run on demand; not part of the test suite.
#
# Needs Debian's python3-torch (apt-get install python3-torch; not in install-deps.sh: no test uses it).
# Usage, in the tuned environment TARGETS.md names (the malloc settings are what prepareProcess() gives CreditLab):
#   export OMP_WAIT_POLICY=passive MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=1073741824 MALLOC_TOP_PAD_=67108864
#   /usr/bin/python3 tests/benchmarks/anchor_train.py [threads=2] [repeats=3]
# The caller must export OMP_WAIT_POLICY=passive: libgomp reads it when it is loaded, before this script runs.
# OPENBLAS_NUM_THREADS is read by OpenBLAS at load, so the script sets it to `threads` and re-executes itself.
# ANCHOR_SMOKE=1 shrinks the work to 8 rows of 32 prompt tokens (a check that the script runs, not a figure).
import math, os, sys, time

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 2
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
if os.environ.get("OPENBLAS_NUM_THREADS") != str(THREADS):
    os.environ["OPENBLAS_NUM_THREADS"] = str(THREADS)
    os.execv(sys.executable, [sys.executable] + sys.argv)
if os.environ.get("OMP_WAIT_POLICY", "").lower() != "passive":
    print("warning: OMP_WAIT_POLICY=passive is not exported; OpenMP threads will spin", file=sys.stderr)

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, WIDTH, LAYERS, HEADS, CONTEXT = 512, 128, 4, 4, 512
SMOKE = os.environ.get("ANCHOR_SMOKE") == "1"
ROWS, PROMPT, ACTION = (8, 32, 12) if SMOKE else (128, 256, 12)
EPOCHS, MINIBATCHES, KL_COEF, CLIP = 2, 4, 0.01, 0.2
GOAL, ACT, SPECIALS = 2, 4, 6  # Tokenizer::kGoal, kAct, kSpecialCount

MLP = ((2 * 4 * WIDTH + 2) // 3 + 7) // 8 * 8  # 344: SwiGLU of 2/3 x 4 x width, as builtinModelConfig
EPS, THETA = 1e-5, 10000.0

class RMSNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(WIDTH))

    def forward(self, x):
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS))

def rotate_half(x):
    half = x.size(-1) // 2
    return torch.cat([-x[..., half:], x[..., :half]], -1)

class Block(nn.Module):  # a Llama decoder layer, as transformers' LlamaDecoderLayer (eager attention)
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = RMSNorm(), RMSNorm()
        self.q, self.k, self.v, self.o = (nn.Linear(WIDTH, WIDTH, bias=False) for _ in range(4))
        self.gate, self.up = nn.Linear(WIDTH, MLP, bias=False), nn.Linear(WIDTH, MLP, bias=False)
        self.down = nn.Linear(MLP, WIDTH, bias=False)

    def forward(self, x, mask, cos, sin, cache, past):
        B, T, hd = x.size(0), x.size(1), WIDTH // HEADS
        h = self.ln1(x)
        q, k, v = (proj(h).view(B, T, HEADS, hd).transpose(1, 2) for proj in (self.q, self.k, self.v))
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        if cache is not None:  # append to the preallocated cache, attend to everything written so far
            cache[0][:, :, past:past + T] = k
            cache[1][:, :, past:past + T] = v
            k, v = cache[0][:, :, :past + T], cache[1][:, :, :past + T]
        scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        attention = torch.softmax(scores.masked_fill(~mask, float("-inf")), dim=-1)
        x = x + self.o((attention @ v).transpose(1, 2).reshape(B, T, WIDTH))
        h = self.ln2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))

class Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, WIDTH)
        self.blocks = nn.ModuleList(Block() for _ in range(LAYERS))
        self.ln_f, self.head = RMSNorm(), nn.Linear(WIDTH, VOCAB, bias=False)
        self.register_buffer("causal", torch.ones(CONTEXT, CONTEXT, dtype=torch.bool).tril())
        hd = WIDTH // HEADS
        self.register_buffer("inv_freq", 1.0 / THETA ** (torch.arange(0, hd, 2).float() / hd))
        with torch.no_grad():  # GPT-2 init: N(0, 0.02), residual projections / sqrt(2 layers), as HfDecoder's
            self.tok.weight.normal_(0.0, 0.02)
            for b in self.blocks:
                for lin in (b.q, b.k, b.v, b.gate, b.up):
                    lin.weight.normal_(0.0, 0.02)
                for lin in (b.o, b.down):
                    lin.weight.normal_(0.0, 0.02 / math.sqrt(2 * LAYERS))
            self.head.weight.normal_(0.0, 0.02)

    def forward(self, tokens, cache=None, past=0):  # final hidden state (B, T, WIDTH)
        T = tokens.size(1)
        freqs = torch.arange(past, past + T).float().unsqueeze(-1) * self.inv_freq
        emb = torch.cat([freqs, freqs], -1)
        cos, sin = emb.cos(), emb.sin()
        x = self.tok(tokens)
        mask = self.causal[past:past + T, :past + T]
        for l, block in enumerate(self.blocks):
            x = block(x, mask, cos, sin, cache[l] if cache is not None else None, past)
        return self.ln_f(x)

    def make_cache(self, rows, capacity):  # (keys, values) of (rows, HEADS, capacity, head width) per layer
        return [tuple(torch.zeros(rows, HEADS, capacity, WIDTH // HEADS) for _ in "kv") for _ in range(LAYERS)]

@torch.no_grad()
def generate(model, prompts):  # prompts (B, P) -> sampled tokens (B, ACTION)
    cache = model.make_cache(prompts.size(0), prompts.size(1) + ACTION)
    last, out = model(prompts, cache)[:, -1], []
    for s in range(ACTION):
        probs = torch.softmax(model.head(last) / 1.0, dim=-1)  # temperature 1; the stop token is never sampled
        out.append(torch.multinomial(probs, 1))
        if s + 1 < ACTION:  # the last token is not fed (bench_train: 1 prompt pass + 11 cached steps)
            last = model(out[-1], cache, prompts.size(1) + s)[:, -1]
    return torch.cat(out, 1)

def action_log_probs(model, sequences):  # log-probs (B, ACTION) of the sampled tokens: logits at every position
    logits = model.head(model(sequences))
    logp = torch.log_softmax(logits[:, PROMPT - 1:-1], dim=-1)
    return logp.gather(-1, sequences[:, PROMPT:].unsqueeze(-1)).squeeze(-1), logp

def ppo_update(policy, reference, optimizer, sequences, advantages):
    plans = [torch.randperm(ROWS).split(ROWS // MINIBATCHES) for _ in range(EPOCHS)]  # reshuffled every epoch
    old, ref = torch.empty(ROWS, ACTION), torch.empty(ROWS, ACTION)
    policy.eval(), reference.eval()
    with torch.no_grad():  # behaviour and reference log-probs, once, on the first epoch's minibatches
        for rows in plans[0]:
            old[rows] = action_log_probs(policy, sequences[rows])[0]
            ref[rows] = action_log_probs(reference, sequences[rows])[0]
    policy.train()
    for plan in plans:
        for rows in plan:
            logp, full = action_log_probs(policy, sequences[rows])
            ratio = torch.exp((logp - old[rows]).clamp(-20.0, 20.0))
            adv = advantages[rows].unsqueeze(1)
            policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - CLIP, 1 + CLIP) * adv).mean()
            log_ratio = (ref[rows] - logp).clamp(-20.0, 20.0)
            kl = (torch.exp(log_ratio) - log_ratio - 1.0).mean()  # k3
            loss = policy_loss + KL_COEF * kl
            entropy = -(full.exp() * full).sum(-1).mean()  # a statistic, as ppoUpdate computes it
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            optimizer.step()
            loss.item(), kl.item(), entropy.item()

def matmul_peak():  # the best float32 1024^2 matmul of 8, GFLOP/s
    a, b, best = torch.randn(1024, 1024), torch.randn(1024, 1024), 0.0
    for _ in range(8):
        start = time.perf_counter()
        (a @ b).sum().item()
        best = max(best, 2.0 * 1024 ** 3 / (time.perf_counter() - start) / 1e9)
    return best

def main():
    torch.set_num_threads(THREADS)
    torch.manual_seed(0)
    policy, reference = Transformer(), Transformer().requires_grad_(False)  # two models, as bench_train builds
    optimizer = torch.optim.Adam(policy.parameters(), lr=1e-5)
    body = torch.randint(SPECIALS, VOCAB, (ROWS, PROMPT - 2))
    prompts = torch.cat([torch.full((ROWS, 1), GOAL), body, torch.full((ROWS, 1), ACT)], 1)
    median = lambda v: sorted(v)[len(v) // 2]
    gen_times, prompt_times, update_times = [], [], []
    for r in range(REPEATS + 1):  # the first round warms up and is not counted
        policy.eval()
        start = time.perf_counter()
        actions = generate(policy, prompts)
        g = time.perf_counter() - start
        start = time.perf_counter()
        with torch.no_grad():  # the prompt pass alone, for the time split
            policy.head(policy(prompts, policy.make_cache(ROWS, PROMPT + ACTION))[:, -1]).sum().item()
        p = time.perf_counter() - start
        sequences, advantages = torch.cat([prompts, actions], 1), torch.rand(ROWS) * 2.0 - 1.0
        start = time.perf_counter()
        ppo_update(policy, reference, optimizer, sequences, advantages)
        if r > 0:
            gen_times.append(g), prompt_times.append(p), update_times.append(time.perf_counter() - start)
    gen, prompt, update = median(gen_times), median(prompt_times), median(update_times)
    trained_tokens = 2.0 * ROWS * (PROMPT + ACTION)  # every sequence token of both epochs, as bench_train counts
    # Model FLOPs, bench_train's formula (it counts the LM head only where bench_train takes logits).
    d, T = float(WIDTH), float(PROMPT + ACTION)
    dense, head = 2.0 * (4.0 * d * d + 3.0 * d * MLP) * LAYERS, 2.0 * d * VOCAB
    attention = lambda keys: 2.0 * 2.0 * keys * d * LAYERS
    gen_flops = ROWS * (PROMPT * (dense + attention(PROMPT / 2.0)) + head)
    gen_flops += sum(ROWS * (dense + attention(PROMPT + s) + head) for s in range(1, ACTION))
    update_flops = ROWS * (T * (dense + attention(T / 2.0)) + ACTION * head) * (2.0 + 2.0 * 3.0)
    peak = matmul_peak()
    gflops = lambda flops, seconds: f"{flops / seconds / 1e9:.1f} GFLOP/s, {100 * flops / seconds / 1e9 / peak:.0f}%"
    print(f"""anchor_train on cpu, {THREADS} threads (OpenBLAS and PyTorch {torch.__version__}), {REPEATS} repeats, \
medians{' (ANCHOR_SMOKE: not a figure)' if SMOKE else ''}
  model: d={WIDTH}, {LAYERS} layers, {HEADS} heads, vocab {VOCAB}, context {CONTEXT}, \
{sum(p.numel() for p in policy.parameters())} parameters
  generation: {ROWS} sequences x {PROMPT} prompt tokens + {ACTION} sampled tokens, KV cache
    {gen:.3f} s, of which the prompt pass {prompt:.3f} s ({100.0 * prompt / gen:.0f}%)
    {ROWS * ACTION / gen:.0f} generated tokens/s
    {gflops(gen_flops, gen)} of the matmul peak
  PPO update: {EPOCHS} epochs x {MINIBATCHES} minibatches, k3 KL to the reference, Adam, clipping
    {update:.3f} s
    {trained_tokens / update:.0f} trained tokens/s
    {gflops(update_flops, update)} of the matmul peak
  matmul peak (1024^2 float32): {peak:.1f} GFLOP/s""")

if __name__ == "__main__":
    main()
