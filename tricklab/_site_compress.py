"""Precompressed copies of the static site's files: run by the build tools' Python, not by tricklab.

A host that serves them (nginx ``gzip_static``/``brotli_static``, Caddy ``precompressed``,
``tricklab site serve``) sends a browser that accepts Brotli or gzip the smaller file instead of
compressing on the fly, or not at all: Pyodide's WebAssembly is 10 MB, 2.3 MB as Brotli.
``main(folder, cache)`` writes ``NAME.br`` and ``NAME.gz`` beside each file ``NAME`` that they
make at least a tenth smaller (never for what is compressed already: wheels, zips, fonts,
pictures), made at the highest settings (Brotli 11, gzip 9: a minute for the runtime's
WebAssembly) once per content, kept in ``cache`` under the content's digest.
"""

from __future__ import annotations

import gzip
import hashlib
import sys
from pathlib import Path

import brotli  # type: ignore[import-untyped, import-not-found, unused-ignore]

#: the smallest file worth a compressed copy
SMALLEST = 1024
#: a compressed copy is kept when it is at most this share of the file
AT_MOST = 0.9
#: the two encodings: the name a browser accepts, the file's ending, how it is made
ENCODINGS = (
    ("br", ".br", lambda data: brotli.compress(data, quality=11)),
    ("gzip", ".gz", lambda data: gzip.compress(data, compresslevel=9, mtime=0)),
)


def main(folder: Path, cache: Path) -> tuple[int, int]:
    """Write the compressed copies; returns (files given copies, bytes of the Brotli copies)."""
    cache.mkdir(parents=True, exist_ok=True)
    files = [path for path in folder.rglob("*") if path.is_file() and path.suffix not in (".br", ".gz")]
    given = brotli_bytes = 0
    for path in files:
        data = path.read_bytes()
        if len(data) < SMALLEST:
            continue
        digest = hashlib.sha256(data).hexdigest()
        kept = False
        for _, ending, make in ENCODINGS:
            stored = cache / f"{digest}{ending}"
            if not stored.exists():
                stored.write_bytes(make(data))
            packed = stored.read_bytes()
            if len(packed) <= AT_MOST * len(data):
                path.with_name(path.name + ending).write_bytes(packed)
                kept = True
                if ending == ".br":
                    brotli_bytes += len(packed)
        given += kept
    return given, brotli_bytes


if __name__ == "__main__":
    done, size = main(Path(sys.argv[1]), Path(sys.argv[2]))
    print(f"{done} files compressed ({size / 2**20:.1f} MiB as Brotli)")
