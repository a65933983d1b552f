#!/usr/bin/env python3
"""Reference outputs for the Unigram tokenizer and BERT models with it (multilingual-e5).

Hugging Face `tokenizers` gives the token ids; a numpy forward pass (BERT: embeddings, LayerNorm,
self-attention, GELU feed-forward, mean pooling, L2 normalisation) gives the vectors.

  unigram-model-reference.py tokens TOKENIZER_JSON TEXTS_JSON          ids of each text, as JSON
  unigram-model-reference.py tiny-model FOLDER                         writes a random model beside
      FOLDER/tokenizer.json (hidden 32, 2 layers) and FOLDER/expected.json with the ids and vectors
      of FOLDER/texts.json as queries and as documents ("query: " / "passage: " prefixes)
  unigram-model-reference.py journal E5_FOLDER MINILM_FOLDER [OUT_JSON] cosines of queries against
      the Journal's sample entries for both models, as a table (and as JSON)

Needs numpy and tokenizers (pip install numpy tokenizers).
"""
import json
import math
import struct
import sys

import numpy as np
from tokenizers import Tokenizer

_erf = np.vectorize(math.erf, otypes=[np.float64])


def read_safetensors(path):
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + n])
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        start, end = info["data_offsets"]
        dtype = {"F32": np.float32, "I64": np.int64}[info["dtype"]]
        tensors[name] = np.frombuffer(data, dtype=dtype, count=(end - start) // np.dtype(dtype).itemsize, offset=8 + n + start).reshape(info["shape"])
    return tensors


def write_safetensors(path, tensors):
    header, offset, blobs = {}, 0, []
    for name, array in tensors.items():
        blob = np.ascontiguousarray(array, dtype=np.float32).tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape), "data_offsets": [offset, offset + len(blob)]}
        offset += len(blob)
        blobs.append(blob)
    text = json.dumps(header).encode()
    text += b" " * ((8 - (8 + len(text)) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def layer_norm(x, w, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def forward(t, config, ids):
    """Mean-pooled, L2-normalised BERT output of one sequence of ids, in float64."""
    g = lambda name: t[name].astype(np.float64)
    eps = config["layer_norm_eps"]
    heads = config["num_attention_heads"]
    x = t["embeddings.word_embeddings.weight"][ids].astype(np.float64) + g("embeddings.position_embeddings.weight")[: len(ids)] + g("embeddings.token_type_embeddings.weight")[0]
    x = layer_norm(x, g("embeddings.LayerNorm.weight"), g("embeddings.LayerNorm.bias"), eps)
    length, hidden = x.shape
    size = hidden // heads
    for layer in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{layer}."
        lin = lambda v, name: v @ g(p + name + ".weight").T + g(p + name + ".bias")
        q = lin(x, "attention.self.query").reshape(length, heads, size).transpose(1, 0, 2)
        k = lin(x, "attention.self.key").reshape(length, heads, size).transpose(1, 0, 2)
        v = lin(x, "attention.self.value").reshape(length, heads, size).transpose(1, 0, 2)
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        scores /= scores.sum(-1, keepdims=True)
        context = (scores @ v).transpose(1, 0, 2).reshape(length, hidden)
        x = layer_norm(x + lin(context, "attention.output.dense"), g(p + "attention.output.LayerNorm.weight"), g(p + "attention.output.LayerNorm.bias"), eps)
        h = lin(x, "intermediate.dense")
        h = 0.5 * h * (1 + _erf(h / math.sqrt(2)))
        x = layer_norm(x + lin(h, "output.dense"), g(p + "output.LayerNorm.weight"), g(p + "output.LayerNorm.bias"), eps)
    pooled = x.mean(0)
    return pooled / max(np.linalg.norm(pooled), 1e-12)


def tokens(tokenizer_json, texts_json):
    tokenizer = Tokenizer.from_file(tokenizer_json)
    texts = json.load(open(texts_json, encoding="utf-8"))
    print(json.dumps([tokenizer.encode(text).ids for text in texts]))


def tiny_model(folder):
    tokenizer = Tokenizer.from_file(f"{folder}/tokenizer.json")
    texts = json.load(open(f"{folder}/texts.json", encoding="utf-8"))
    config = {
        "architectures": ["BertModel"], "model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute",
        "hidden_size": 32, "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 64,
        "vocab_size": tokenizer.get_vocab_size(), "max_position_embeddings": 64, "type_vocab_size": 2,
        "layer_norm_eps": 1e-12, "pad_token_id": 1,
    }
    rng = np.random.default_rng(14)
    h, f = config["hidden_size"], config["intermediate_size"]
    t = {
        "embeddings.word_embeddings.weight": rng.normal(0, 0.5, (config["vocab_size"], h)),
        "embeddings.position_embeddings.weight": rng.normal(0, 0.5, (config["max_position_embeddings"], h)),
        "embeddings.token_type_embeddings.weight": rng.normal(0, 0.5, (2, h)),
        "embeddings.LayerNorm.weight": 1 + rng.normal(0, 0.1, h),
        "embeddings.LayerNorm.bias": rng.normal(0, 0.1, h),
    }
    shapes = {
        "attention.self.query": (h, h), "attention.self.key": (h, h), "attention.self.value": (h, h),
        "attention.output.dense": (h, h), "intermediate.dense": (f, h), "output.dense": (h, f),
    }
    for layer in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{layer}."
        for name, shape in shapes.items():
            t[p + name + ".weight"] = rng.normal(0, 1 / math.sqrt(shape[1]), shape)
            t[p + name + ".bias"] = rng.normal(0, 0.1, shape[0])
        for norm in ("attention.output.LayerNorm", "output.LayerNorm"):
            t[p + norm + ".weight"] = 1 + rng.normal(0, 0.1, h)
            t[p + norm + ".bias"] = rng.normal(0, 0.1, h)
    t = {name: value.astype(np.float32) for name, value in t.items()}
    write_safetensors(f"{folder}/model.safetensors", t)
    json.dump(config, open(f"{folder}/config.json", "w"), indent=1)
    json.dump({"prompts": {"query": "query: ", "passage": "passage: "}}, open(f"{folder}/config_sentence_transformers.json", "w"))
    expected = {"ids": [], "query": [], "document": []}
    for text in texts:
        expected["ids"].append(tokenizer.encode(text).ids)
        for role, prefix in (("query", "query: "), ("document", "passage: ")):
            ids = tokenizer.encode(prefix + text).ids[: config["max_position_embeddings"]]
            expected[role].append(forward(t, config, ids).tolist())
    json.dump(expected, open(f"{folder}/expected.json", "w"))


JOURNAL = [
    ("Windsurfing in Carmel", "Wind from the northwest all afternoon at Carmel River State Beach. Three hours of windsurfing; the water was cold but the swell was kind.", "windsurfing Carmel beach"),
    ("Tide pools at Point Lobos", "Low tide at Point Lobos, just south of Carmel: anemones, hermit crabs and a sea otter asleep in the kelp.", "Point Lobos tide pools Carmel"),
    ("Sourdough, third try", "The starter finally doubled overnight. The crumb is still tight; next time a longer bulk ferment.", "baking sourdough"),
    ("江ノ島でウィンドサーフィン", "江ノ島の海で初めてのウィンドサーフィン。風が強く、何度も落ちたが楽しかった。", "ウィンドサーフィン 江ノ島 海"),
    ("Reading on the porch", "Finished Where the Crawdads Sing on the porch while it rained. The marsh chapters stay with me.", "reading books"),
    ("Morning run by the river", "Six kilometres along the river before work; herons on the sandbank.", "running river"),
    ("嵐山の紅葉", "朝早く嵐山へ。渡月橋から見る紅葉が見事だった。竹林は人が少なく静か。", "京都 嵐山 紅葉"),
]
QUERIES = [
    ("sailing", "Windsurfing in Carmel"), ("surfing", "Windsurfing in Carmel"), ("windsurfing", "江ノ島でウィンドサーフィン"),
    ("jogging", "Morning run by the river"), ("runs", "Morning run by the river"), ("Kyoto", "嵐山の紅葉"),
    ("autumn leaves", "嵐山の紅葉"), ("autumn leaves in Kyoto", "嵐山の紅葉"), ("baking bread at home", "Sourdough, third try"),
    ("海でスポーツ", "江ノ島でウィンドサーフィン"), ("秋の京都", "嵐山の紅葉"), ("パン作り", "Sourdough, third try"),
    ("読書", "Reading on the porch"), ("川沿いを走る", "Morning run by the river"), ("紅葉", "嵐山の紅葉"),
]


def journal(e5_folder, minilm_folder, output=None):
    documents = [f"{title}. {text} {keywords}" for title, text, keywords in JOURNAL]
    titles = [title for title, _, _ in JOURNAL]
    results = {}
    for name, folder, prefixes in (("multilingual-e5-small", e5_folder, ("query: ", "passage: ")), ("all-MiniLM-L6-v2", minilm_folder, ("", ""))):
        tokenizer = Tokenizer.from_file(f"{folder}/tokenizer.json")
        tokenizer.no_truncation()
        tokenizer.no_padding()
        config = json.load(open(f"{folder}/config.json"))
        t = read_safetensors(f"{folder}/model.safetensors")
        embed = lambda text: forward(t, config, tokenizer.encode(text).ids[:256])
        docs = np.array([embed(prefixes[1] + d) for d in documents])
        results[name] = {q: (docs @ embed(prefixes[0] + q)).tolist() for q, _ in QUERIES}
    if len(sys.argv) > 4:
        json.dump(results, open(sys.argv[4], "w"))
    print("| query | expected entry | " + " | ".join(f"{m}: cosine, rank of expected, top entry" for m in results) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in results) + " |")
    for q, target in QUERIES:
        cells = []
        for m in results:
            scores = results[m][q]
            order = sorted(range(len(scores)), key=lambda i: -scores[i])
            rank = order.index(titles.index(target)) + 1
            cells.append(f"{scores[titles.index(target)]:.3f}, #{rank}, {titles[order[0]]} {scores[order[0]]:.3f}")
        print(f"| {q} | {target} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    {"tokens": tokens, "tiny-model": tiny_model, "journal": journal}[command](*arguments)
