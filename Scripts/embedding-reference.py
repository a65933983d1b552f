#!/usr/bin/env python3
"""Reference embeddings for TextEmbedding's tests and benchmark.

A plain numpy forward pass of a BERT sentence embedder (all-MiniLM-L6-v2: mean pooling, L2
normalisation), in float64, with token ids from Hugging Face `tokenizers` reading the same
tokenizer.json. It is the yardstick the Swift forward pass is checked against.

    pip install numpy tokenizers safetensors
    python3 Scripts/embedding-reference.py fixture MODEL_DIR Tests/TextEmbeddingTests/Fixtures/minilm-reference.json
    python3 Scripts/embedding-reference.py bench MODEL_DIR   # items/s and tokens/s, one JSON line

The fixture holds, for a fixed set of texts (English, Japanese, empty, 500 words, emoji, mixed
scripts, 1 MB of text that truncation cuts to 256 tokens), the token ids and the reference vector,
plus token ids alone for tokenizer edge cases. Texts too long to store are described by a
generator (`repeat` a string to a byte count) that the tests expand the same way.
"""

import json
import math
import sys
import time

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

MAX_TOKENS = 256


def repeat_to(text, byte_count):
    """The text repeated, then cut to `byte_count` UTF-8 bytes at a character boundary."""
    data = (text * (byte_count // len(text.encode()) + 1)).encode()[:byte_count]
    return data.decode("utf-8", errors="ignore")


def expand(case):
    if "text" in case:
        return case["text"]
    return repeat_to(case["repeat"], case["bytes"])


FIVE_HUNDRED_WORDS = " ".join(
    ["The", "lighthouse", "keeper", "wrote", "about", "storms,", "gulls", "and", "the", "slow", "turn", "of", "tides."][i % 13]
    for i in range(500)
)

EMBEDDED = [
    {"name": "english", "text": "Morning run by the river before the office opens."},
    {"name": "food", "text": "A man is eating food."},
    {"name": "bread", "text": "A man is eating a piece of bread."},
    {"name": "japanese", "text": "嵐山の紅葉を見に京都へ行きました。ウィンドサーフィンは江ノ島で。"},
    {"name": "empty", "text": ""},
    {"name": "five hundred words", "text": FIVE_HUNDRED_WORDS},
    {"name": "emoji", "text": "Sunny day 🌞 at the beach 🏄‍♀️ with friends 👩‍👩‍👧 🥲"},
    {"name": "mixed scripts", "text": "Café Müller — 東京 2024, Привет мир, مرحبا, 안녕하세요, naïve façade"},
    {"name": "one megabyte", "repeat": "Sourdough, third try: the crumb was open and the crust crackled. ", "bytes": 1_000_000},
    {"name": "single letter", "text": "x"},
]

TOKENIZED_ONLY = [
    {"name": "accents", "text": "Ångström résumé Crème Brûlée ÉCOLE İstanbul"},
    {"name": "full and half width", "text": "ＡＢＣ１２３ ｶﾀｶﾅ カタカナ"},
    {"name": "dakuten", "text": "関連ビデオ ガギグゲゴ パピプペポ"},
    {"name": "control and spacing", "text": "tab\there\nnew line\r\x00nul \x07bell\u00a0nbsp\u3000ideographic"},
    {"name": "format characters", "text": "soft\u00adhyphen zero\u200bwidth join\u200dme bom\ufeff"},
    {"name": "chinese korean arabic", "text": "我们今天去公园。한국어 텍스트 العربية"},
    {"name": "long word", "text": "a" * 130 + " short"},
    {"name": "punctuation", "text": "Hello, world! (test) [x] {y} «quoted» ¿qué? ¡sí! 1.5 e-mail @home #tag $5 50%"},
    {"name": "special token text", "text": "look at [MASK] and [CLS] here [unk]"},
    {"name": "newer emoji", "text": "🫠 🥹 🫶 🪿 🧋"},
    {"name": "replacement character", "text": "bad \ufffd byte"},
    {"name": "vietnamese", "text": "Tiếng Việt có dấu: người, được, những"},
    {"name": "greek cyrillic", "text": "Ελληνικά ΣΊΣΥΦΟΣ Ёлка ПРИВЕТ"},
    {"name": "digits and symbols", "text": "½ ² ℃ № ™ ① Ⅻ ﬁ"},
    {"name": "cjk extensions", "text": "𠀀𠀁 㐀 丽 𪜀 𫝀 𫠠 𬺰"},
]


class Model:
    def __init__(self, directory):
        with open(f"{directory}/config.json") as file:
            self.config = json.load(file)
        raw = load_file(f"{directory}/model.safetensors")
        self.w = {name.removeprefix("bert."): value.astype(np.float64) for name, value in raw.items()}
        self.tokenizer = Tokenizer.from_file(f"{directory}/tokenizer.json")
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=MAX_TOKENS)

    def layer_norm(self, x, prefix):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        eps = self.config.get("layer_norm_eps", 1e-12)
        return (x - mean) / np.sqrt(var + eps) * self.w[prefix + ".weight"] + self.w[prefix + ".bias"]

    def linear(self, x, prefix):
        return x @ self.w[prefix + ".weight"].T + self.w[prefix + ".bias"]

    def ids(self, text):
        return self.tokenizer.encode(text).ids

    def gelu(self, h):
        if h.dtype == np.float64:
            return 0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))
        # Abramowitz and Stegun 7.1.26 (error below 1.5e-7), vectorised, for the float32 benchmark.
        z = np.abs(h) / np.float32(math.sqrt(2))
        t = 1 / (1 + np.float32(0.3275911) * z)
        poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
        erf = np.sign(h) * (1 - poly * np.exp(-z * z))
        return (0.5 * h * (1 + erf)).astype(h.dtype)

    def embed_ids(self, ids):
        w, config = self.w, self.config
        n = len(ids)
        heads = config["num_attention_heads"]
        hidden = config["hidden_size"]
        size = hidden // heads
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n]
        x = x + w["embeddings.token_type_embeddings.weight"][0]
        x = self.layer_norm(x, "embeddings.LayerNorm")
        for layer in range(config["num_hidden_layers"]):
            p = f"encoder.layer.{layer}."
            q = self.linear(x, p + "attention.self.query").reshape(n, heads, size).transpose(1, 0, 2)
            k = self.linear(x, p + "attention.self.key").reshape(n, heads, size).transpose(1, 0, 2)
            v = self.linear(x, p + "attention.self.value").reshape(n, heads, size).transpose(1, 0, 2)
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(1, 0, 2).reshape(n, hidden)
            x = self.layer_norm(self.linear(context, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
            h = self.linear(x, p + "intermediate.dense")
            h = self.gelu(h)
            x = self.layer_norm(self.linear(h, p + "output.dense") + x, p + "output.LayerNorm")
        pooled = x.mean(0)
        return pooled / np.linalg.norm(pooled)


def fixture(directory, output):
    model = Model(directory)
    embedded = []
    for case in EMBEDDED:
        ids = model.ids(expand(case))
        vector = model.embed_ids(ids)
        embedded.append({**case, "ids": ids, "vector": [float(f"{value:.9g}") for value in vector]})
    tokenized = [{**case, "ids": model.ids(expand(case))} for case in TOKENIZED_ONLY]
    vectors = {case["name"]: np.array(case["vector"]) for case in embedded}
    document = {
        "about": "Made by Scripts/embedding-reference.py from all-MiniLM-L6-v2 (tokenizer.json sha256 be50c362…2037, "
        "model.safetensors sha256 53aa5117…d9db); token ids from Hugging Face tokenizers with truncation at "
        f"{MAX_TOKENS} tokens and no padding; vectors from a float64 numpy forward pass.",
        "maxTokens": MAX_TOKENS,
        "foodBreadCosine": float(vectors["food"] @ vectors["bread"]),
        "embedded": embedded,
        "tokenized": tokenized,
    }
    with open(output, "w") as file:
        json.dump(document, file, ensure_ascii=False, indent=1)
        file.write("\n")
    print(f"wrote {output}: {len(embedded)} vectors, {len(tokenized)} token lists, "
          f"cos(food, bread) = {document['foodBreadCosine']:.4f}")


def bench(directory):
    """Items/s and tokens/s of the float32 numpy forward pass, one text at a time, short and long."""
    model = Model(directory)
    model.w = {name: value.astype(np.float32) for name, value in model.w.items()}
    short = ["Morning run by the river", "Sourdough, third try", "Tide pools at Point Lobos", "Reading on the porch"]
    long = [FIVE_HUNDRED_WORDS]
    result = {}
    for label, texts, seconds in (("short", short, 2.0), ("long", long, 3.0)):
        encoded = [model.ids(text) for text in texts]
        items = tokens = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for ids in encoded:
                model.embed_ids(ids)
                items += 1
                tokens += len(ids)
        elapsed = time.perf_counter() - start
        result[label] = {"itemsPerSecond": items / elapsed, "tokensPerSecond": tokens / elapsed}
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "fixture":
        fixture(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "bench":
        bench(sys.argv[2])
    else:
        sys.exit(__doc__)
