"""The reference side of hf_checks.py: transformers and peft (on the device machine, PyTorch 2.x).

Only stable public APIs: Qwen2Config, Qwen3Config, LlamaConfig, AutoModelForCausalLM.from_config / from_pretrained,
save_pretrained; peft's LoraConfig, get_peft_model, PeftModel.from_pretrained. transformers 4.5x and 5.x differ in
two keywords, handled here: the dtype argument (`torch_dtype` before 5, `dtype` from 5) and the rope keys
(`rope_theta` + `rope_scaling` before 5, `rope_parameters` from 5).
"""
import copy
import json
import os
import struct
import time

import torch

import hf_checks as hc


def write_safetensors(path, tensors):
    """name -> tensor as F32, header padded to 8 bytes (the format CreditLab reads)."""
    header, blobs, offset = {}, [], 0
    for name, t in tensors.items():
        data = t.detach().to("cpu", torch.float32).contiguous().numpy().tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def sequence_log_probs(model, seq, device):
    """float32 log p of tokens 2..n of one sequence (no padding, no mask)."""
    ids = torch.tensor([seq], device=device)
    logits = model(input_ids=ids).logits[0, :-1].float()
    return torch.log_softmax(logits, -1).gather(-1, ids[0, 1:].unsqueeze(-1)).squeeze(-1)


class TransformersBackend:
    def __init__(self):
        import transformers
        self.tf = transformers
        self.major = int(transformers.__version__.split(".")[0])

    def describe(self):
        try:
            import peft
            p = peft.__version__
        except ImportError:
            p = None
        return dict(transformers=self.tf.__version__, peft=p)

    def dtype_kw(self, dtype):
        return {"dtype": dtype} if self.major >= 5 else {"torch_dtype": dtype}

    def rope_kw(self, theta, scaling):
        if self.major >= 5:
            return {"rope_parameters": dict(scaling or {"rope_type": "default"}, rope_theta=theta)}
        return {"rope_theta": theta, "rope_scaling": scaling}

    def config(self, case):
        kw = dict(hc.TINY, tie_word_embeddings=case["tied"])
        if case["arch"] == "llama":
            kw.update(attention_bias=case.get("bias", False), mlp_bias=case.get("bias", False))
            kw.update(self.rope_kw(500000.0, dict(hc.LLAMA3_ROPE) if case.get("llama3") else None))
            return self.tf.LlamaConfig(**kw)
        kw.update(self.rope_kw(1000000.0, None), use_sliding_window=False)
        if case["arch"] == "qwen3":
            return self.tf.Qwen3Config(head_dim=16, **kw)
        return self.tf.Qwen2Config(**kw)

    def make_model(self, case, stored, folder, seed):
        """A random-init model with weights large enough that the log-probabilities are far from uniform, saved as
        safetensors in `stored` (float32 or bfloat16)."""
        torch.manual_seed(seed)
        model = self.tf.AutoModelForCausalLM.from_config(self.config(case)).to(torch.float32)
        g = torch.Generator().manual_seed(seed)
        with torch.no_grad():
            for name, p in model.named_parameters():
                noise = torch.randn(p.shape, generator=g)
                if "norm" in name:
                    p.copy_(1.0 + 0.1 * noise)
                elif name.endswith(".bias"):
                    p.copy_(0.1 * noise)
                else:
                    p.copy_(0.25 * noise)
        if stored == "bfloat16":
            model = copy.deepcopy(model).to(torch.bfloat16)
        try:
            model.save_pretrained(folder, safe_serialization=True)
        except TypeError:  # transformers 5 writes safetensors only
            model.save_pretrained(folder)
        if not os.path.exists(os.path.join(folder, "model.safetensors")):
            raise RuntimeError(f"{folder}: no model.safetensors written ({sorted(os.listdir(folder))})")
        return True

    def load(self, folder, device, dtype, attn="eager"):
        model = self.tf.AutoModelForCausalLM.from_pretrained(folder, attn_implementation=attn,
                                                             **self.dtype_kw(getattr(torch, dtype)))
        return model.to(device).eval()

    def log_probs(self, folder, sequences, device, dtype):
        """transformers' log-probabilities: eager attention for the float32 reference, SDPA for bf16 (what a bf16
        user runs)."""
        model = self.load(folder, device, dtype, "eager" if dtype == "float32" else "sdpa")
        with torch.no_grad():
            return [sequence_log_probs(model, s, device).double().cpu().tolist() if len(s) > 1 else []
                    for s in sequences]

    def lora_config(self, rank):
        from peft import LoraConfig
        return LoraConfig(r=rank, lora_alpha=2 * rank, lora_dropout=0.0, target_modules=list(hc.SEVEN), bias="none",
                          task_type="CAUSAL_LM")

    def peft_adapter_and_grads(self, folder, adapter_dir, sequences, rank, seed):
        """A peft adapter with random A and nonzero B, saved by peft; peft's float32 CPU gradients of the summed NLL
        (also written as peft_grads.safetensors with peft_logprobs.jsonl beside the adapter, for the goldens)."""
        from peft import get_peft_model
        base = self.load(folder, "cpu", "float32")
        model = get_peft_model(base, self.lora_config(rank))
        g = torch.Generator().manual_seed(seed)
        with torch.no_grad():
            for name, p in model.named_parameters():
                if "lora_A" in name:
                    p.copy_(0.2 * torch.randn(p.shape, generator=g))
                elif "lora_B" in name:
                    p.copy_(0.1 * torch.randn(p.shape, generator=g))
        model.save_pretrained(adapter_dir)
        model.eval()
        model.zero_grad()
        scores = []
        for s in sequences:
            lp = sequence_log_probs(model, s, "cpu")
            (-lp.sum()).backward()
            scores.append(lp.detach().double().tolist())
        grads = {}
        for name, p in model.named_parameters():
            if "lora_" in name and p.grad is not None:
                grads[name.replace(".default", "")] = p.grad.detach().double().clone()
        write_safetensors(os.path.join(adapter_dir, "peft_grads.safetensors"), grads)
        hc.write_jsonl(os.path.join(adapter_dir, "peft_logprobs.jsonl"), scores)
        if not os.path.exists(os.path.join(adapter_dir, "adapter_model.safetensors")):
            raise RuntimeError(f"peft wrote {sorted(os.listdir(adapter_dir))}, no adapter_model.safetensors")
        return grads

    def peft_log_probs(self, folder, adapter_dir, sequences):
        from peft import PeftModel
        model = PeftModel.from_pretrained(self.load(folder, "cpu", "float32"), adapter_dir).eval()
        with torch.no_grad():
            return [sequence_log_probs(model, s, "cpu").double().tolist() for s in sequences]

    # --- speed anchors -------------------------------------------------------------------------------------------

    def speed_config(self, quick):
        if quick:
            shape = dict(vocab_size=1000, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                         num_attention_heads=4, num_key_value_heads=2)
        else:  # Qwen2.5-0.5B
            shape = dict(vocab_size=151936, hidden_size=896, intermediate_size=4864, num_hidden_layers=24,
                         num_attention_heads=14, num_key_value_heads=2)
        return self.tf.Qwen2Config(**shape, max_position_embeddings=32768, rms_norm_eps=1e-6,
                                   tie_word_embeddings=True, use_sliding_window=False, hidden_act="silu",
                                   **self.rope_kw(1000000.0, None))

    def speed_model(self, quick, device, dtype):
        torch.manual_seed(1)
        with torch.device(device):
            model = self.tf.AutoModelForCausalLM.from_config(self.speed_config(quick), attn_implementation="sdpa",
                                                             **self.dtype_kw(dtype))
        return model.to(device)

    def speed_anchors(self, device, quick):
        """transformers' generate() and a PyTorch training step, same sizes as hf_device_checks speed-*."""
        rows, prompt, new = (4, 8, 8) if quick else (64, 128, 128)
        urows, length, micro = (4, 16, 2) if quick else (16, 512, 4)
        cuda = device != "cpu"
        bf16 = torch.bfloat16 if cuda else torch.float32
        out = {}

        def sync():
            if cuda:
                torch.cuda.synchronize()

        def peak_reset():
            if cuda:
                torch.cuda.reset_peak_memory_stats()

        def peak():
            return {"peak_allocated_bytes": torch.cuda.max_memory_allocated()} if cuda else {}

        model = self.speed_model(quick, device, bf16).eval()
        vocab = model.config.vocab_size
        ids = torch.randint(vocab, (rows, prompt), device=device)
        mask = torch.ones_like(ids)
        rates = []
        for r in range(3):  # one warm-up, two timed
            sync()
            peak_reset()
            start = time.time()
            with torch.no_grad():
                gen = model.generate(ids, attention_mask=mask, do_sample=True, temperature=1.0, top_k=0, top_p=1.0,
                                     max_new_tokens=new, min_new_tokens=new, pad_token_id=0)
            sync()
            if r > 0:
                rates.append((gen.shape[1] - prompt) * rows / (time.time() - start))
        out["anchor_generate_tok_s"] = dict(value=hc.median(rates), runs=rates, rows=rows,
                                            prompt=prompt, new=new, **peak())
        del model, gen
        if cuda:
            torch.cuda.empty_cache()

        # The update: bf16 weights and gradients as CreditLab's (whose AdamW keeps float32 masters, so this anchor is
        # the lighter one), SDPA, cross-entropy on every next token, clipping at 1.0 like HfOptimizer.
        model = self.speed_model(quick, device, bf16).train()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-6, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0)
        tokens = torch.randint(vocab, (urows, length), device=device)
        rates = []
        for r in range(3):
            sync()
            peak_reset()
            start = time.time()
            total = torch.zeros((), device=device)
            for i in range(0, urows, micro):
                mb = tokens[i:i + micro]
                logits = model(input_ids=mb).logits[:, :-1].float()
                loss = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                                         mb[:, 1:].reshape(-1)) * (mb.shape[0] / urows)
                loss.backward()
                total += loss.detach()
                del logits, loss
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad(set_to_none=True)
            loss_value = float(total)
            sync()
            if r > 0:
                rates.append(urows * length / (time.time() - start))
        out["anchor_update_tok_s"] = dict(value=hc.median(rates), runs=rates, rows=urows,
                                          length=length, micro=micro, loss=loss_value, **peak())
        return out
