#!/usr/bin/env python3
"""Runs hf_checks.py where there is no GPU, transformers or peft (Debian 12's python3-torch 1.13), with a fake backend.

The fake stands in for transformers and peft: it writes the tiny folders itself (config.json with transformers 4's
keys, safetensors) and takes its log-probabilities and LoRA gradients from tests/learn/hf_reference.py, the
independent float64 implementation, with W + (alpha / r) B A as the adapted weight. Everything else is hf_checks.py's
own code against the real CPU programs: the folder and sequence plumbing, `creditlab-cli model score`,
`hf_device_checks lora-grads` and `save-adapter`, the comparisons, the report and the goldens archive.

usage: /usr/bin/python3 tests/device/hf_checks_selftest.py BUILD/bin OUT_DIR
Exits non-zero when a check fails (the CUDA ones are not run: --device cpu).
"""
import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "learn"))

import hf_checks as hc  # noqa: E402
import hf_reference as ref  # noqa: E402


def write_safetensors(path, tensors, dtype="F32"):
    import struct
    header, blobs, offset = {}, [], 0
    for name, t in tensors.items():
        if dtype == "BF16":
            data = t.detach().to(torch.bfloat16).view(torch.int16).contiguous().numpy().tobytes()
        else:
            data = t.detach().to(torch.float32).contiguous().numpy().tobytes()
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


class FakeBackend:
    """transformers and peft, faked with the float64 reference (see the module's docstring)."""

    def describe(self):
        return dict(fake="hf_reference.py float64")

    def config(self, case):
        arch = {"qwen2": "Qwen2ForCausalLM", "qwen3": "Qwen3ForCausalLM", "llama": "LlamaForCausalLM"}[case["arch"]]
        c = dict(hc.TINY, architectures=[arch], model_type=case["arch"], tie_word_embeddings=case["tied"],
                 rope_theta=500000.0 if case["arch"] == "llama" else 1000000.0, rope_scaling=None,
                 torch_dtype="float32")
        if case.get("llama3"):
            c["rope_scaling"] = dict(hc.LLAMA3_ROPE)
        if case["arch"] == "llama":
            c.update(attention_bias=case.get("bias", False), mlp_bias=case.get("bias", False))
        if case["arch"] == "qwen3":
            c["head_dim"] = 16
        return c

    def weight_shapes(self, c):
        h, inter, v = c["hidden_size"], c["intermediate_size"], c["vocab_size"]
        hd = c.get("head_dim", h // c["num_attention_heads"])
        q, kv = c["num_attention_heads"] * hd, c["num_key_value_heads"] * hd
        arch = c["architectures"][0]
        shapes = {"model.embed_tokens.weight": [v, h]}
        for layer in range(c["num_hidden_layers"]):
            p = f"model.layers.{layer}."
            shapes[p + "input_layernorm.weight"] = [h]
            shapes[p + "post_attention_layernorm.weight"] = [h]
            for name, (o, i) in dict(q_proj=(q, h), k_proj=(kv, h), v_proj=(kv, h), o_proj=(h, q)).items():
                shapes[p + f"self_attn.{name}.weight"] = [o, i]
                bias = arch == "Qwen2ForCausalLM" and name != "o_proj" or c.get("attention_bias", False)
                if bias:
                    shapes[p + f"self_attn.{name}.bias"] = [o]
            if arch == "Qwen3ForCausalLM":
                shapes[p + "self_attn.q_norm.weight"] = [hd]
                shapes[p + "self_attn.k_norm.weight"] = [hd]
            for name, (o, i) in dict(gate_proj=(inter, h), up_proj=(inter, h), down_proj=(h, inter)).items():
                shapes[p + f"mlp.{name}.weight"] = [o, i]
                if c.get("mlp_bias", False):
                    shapes[p + f"mlp.{name}.bias"] = [o]
        shapes["model.norm.weight"] = [h]
        if not c["tie_word_embeddings"]:
            shapes["lm_head.weight"] = [v, h]
        return shapes

    def make_model(self, case, stored, folder, seed):
        c = self.config(case)
        c["torch_dtype"] = stored
        g = torch.Generator().manual_seed(seed)
        weights = {}
        for name, shape in self.weight_shapes(c).items():
            noise = torch.randn(shape, generator=g)
            weights[name] = 1.0 + 0.1 * noise if "norm" in name else (0.1 if name.endswith(".bias") else 0.25) * noise
        os.makedirs(folder)
        with open(os.path.join(folder, "config.json"), "w") as f:
            json.dump(c, f, indent=1)
        write_safetensors(os.path.join(folder, "model.safetensors"), weights, "BF16" if stored == "bfloat16" else "F32")
        return True

    def folder(self, folder):
        with open(os.path.join(folder, "config.json")) as f:
            return json.load(f), ref.load_weights(folder)

    def log_probs(self, folder, sequences, device, dtype):
        assert device == "cpu" and dtype == "float32", "the fake runs the float32 CPU reference only"
        cfg, w = self.folder(folder)
        with torch.no_grad():
            return [ref.logprobs(cfg, w, s) if len(s) > 1 else [] for s in sequences]

    def adapted(self, cfg, w, lora, rank):
        """The weights with every adapter merged: W + (alpha / r) B A, alpha = 2 r (hf_checks' LoraConfig)."""
        out = dict(w)
        for key in {k.rsplit(".lora_", 1)[0] for k in lora}:
            base = key.replace("base_model.model.", "", 1) + ".weight"
            out[base] = w[base] + 2.0 * lora[key + ".lora_B.weight"] @ lora[key + ".lora_A.weight"]
        return out

    def peft_adapter_and_grads(self, folder, adapter_dir, sequences, rank, seed):
        cfg, w = self.folder(folder)
        g = torch.Generator().manual_seed(seed)
        lora = {}
        for name, shape in self.weight_shapes(cfg).items():
            proj = name.rsplit(".", 2)[-2] if name.endswith(".weight") else ""
            if proj not in hc.SEVEN:
                continue
            key = "base_model.model." + name[: -len(".weight")]
            out_dim, in_dim = shape
            lora[key + ".lora_A.weight"] = (0.2 * torch.randn(rank, in_dim, generator=g)).double().requires_grad_()
            lora[key + ".lora_B.weight"] = (0.1 * torch.randn(out_dim, rank, generator=g)).double().requires_grad_()
        os.makedirs(adapter_dir, exist_ok=True)
        with open(os.path.join(adapter_dir, "adapter_config.json"), "w") as f:
            json.dump(dict(peft_type="LORA", task_type="CAUSAL_LM", r=rank, lora_alpha=2 * rank, lora_dropout=0.0,
                           target_modules=list(hc.SEVEN), bias="none", modules_to_save=None, use_dora=False,
                           use_rslora=False, rank_pattern={}, alpha_pattern={}), f, indent=1)
        write_safetensors(os.path.join(adapter_dir, "adapter_model.safetensors"), lora)
        # The saved adapter is float32: take the gradients at exactly those values.
        lora = {k: v.detach().float().double().requires_grad_() for k, v in lora.items()}
        scores = []
        for s in sequences:
            lp = ref.logprob_matrix(cfg, self.adapted(cfg, w, lora, rank), s)
            picked = torch.stack([lp[t, s[t + 1]] for t in range(len(s) - 1)])
            (-picked.sum()).backward()
            scores.append(picked.detach().tolist())
        grads = {k: v.grad.detach().clone() for k, v in lora.items()}
        write_safetensors(os.path.join(adapter_dir, "peft_grads.safetensors"), grads)
        hc.write_jsonl(os.path.join(adapter_dir, "peft_logprobs.jsonl"), scores)
        return grads

    def peft_log_probs(self, folder, adapter_dir, sequences):
        cfg, w = self.folder(folder)
        lora = hc.read_safetensors(os.path.join(adapter_dir, "adapter_model.safetensors"))
        with open(os.path.join(adapter_dir, "adapter_config.json")) as f:
            rank = json.load(f)["r"]
        merged = self.adapted(cfg, w, lora, rank)
        with torch.no_grad():
            return [ref.logprobs(cfg, merged, s) for s in sequences]

    def speed_anchors(self, device, quick):
        return {"anchor_generate_tok_s": dict(value=1000.0), "anchor_update_tok_s": dict(value=1000.0)}


def main():
    bin_dir, out = sys.argv[1], sys.argv[2]
    return hc.main(["--cli", os.path.join(bin_dir, "creditlab-cli"), "--checks", os.path.join(bin_dir, "hf_device_checks"),
                    "--out", out, "--work", os.path.join(out, "work"), "--device", "cpu", "--quick"],
                   backend=FakeBackend())


if __name__ == "__main__":
    sys.exit(main())
