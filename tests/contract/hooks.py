"""schemathesis hooks for the contract run (loaded through schemathesis.toml's `hooks`)."""

import gzip
import io
import tarfile

import schemathesis
from hypothesis import strategies as st
from hypothesis.internal import lambda_sources

# Some CPython 3.11 releases (3.11.7, this machine's) raise SystemError ("AST constructor recursion
# depth mismatch") when Hypothesis parses a large source file to describe a lambda, which aborts the
# operation being tested. The description is cosmetic (it only names filtered strategies), so an
# unknown one is used instead.
_describe_lambda = lambda_sources.lambda_description


def _lambda_description_or_unknown(f):
    try:
        return _describe_lambda(f)
    except SystemError:
        return "lambda: <unknown>"


lambda_sources.lambda_description = _lambda_description_or_unknown


def _tar_gz(files):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


_names = st.sampled_from(["docs.json", "index.mdx", "guide.md", "a/b.mdx", "snippets/x.mdx", "logo.svg"])
_docs_json = st.one_of(
    st.binary(max_size=64),
    st.builds(
        lambda pages: ('{"name": "Fuzz", "navigation": {"pages": %s}}' % pages).encode(),
        st.sampled_from(['["index"]', '["index", "guide"]', "[]", '"index"', '[{"group": "G", "pages": ["a/b"]}]']),
    ),
)
_archives = st.lists(st.tuples(_names, st.one_of(_docs_json, st.binary(max_size=256))), max_size=4).map(_tar_gz)

# `PUT /v1/sites/{domain}/content` takes a .tar.gz: arbitrary bytes, gzip of arbitrary bytes, and small
# tar.gz folders whose docs.json and pages may or may not make a site.
schemathesis.openapi.media_type(
    "application/gzip",
    st.one_of(st.binary(max_size=512), st.binary(max_size=512).map(gzip.compress), _archives),
)
