"""Digit images as token sequences: MNIST's IDX files and scikit-learn's bundled 8×8 digits.

Paper O (§3.1, Fig. 1–5, App. E.1) feeds a linear RNN the flattened 28×28 MNIST digits [24] as a
one-dimensional sequence of L = 784 tokens. MNIST cannot be downloaded on the project's machines,
so it is read from the user's copy of the standard IDX files; scikit-learn's 8×8 digits (L = 64,
shipped inside the package, ``pip install 'recmem[data]'``) are the embedded default.

IDX format (LeCun's page for MNIST): a big-endian 32-bit magic number 0x0000TTDD (TT the element
type, 0x08 = unsigned byte; DD the number of dimensions), then DD big-endian 32-bit sizes, then
the elements in row-major order. MNIST images have magic 0x00000803 (n × rows × cols) and labels
0x00000801 (n). Files may be gzip-compressed (as distributed) or raw. Every malformation (bad
magic, truncated or overlong data, zero or wrong sizes, image/label count mismatch, a corrupt gzip
stream) raises ValueError with a one-line message naming the file.

Images come out scaled to [0, 1] (MNIST bytes / 255, the 8×8 digits' counts / 16) and flattened
row-major, so token t is pixel (t // cols, t % cols): the first tokens are the top rows.
"""

from __future__ import annotations

import gzip
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

IDX_IMAGES = 0x00000803  # unsigned bytes, 3 dimensions: count × rows × cols
IDX_LABELS = 0x00000801  # unsigned bytes, 1 dimension: count
MNIST_SHAPE = (28, 28)
_GZIP_MAGIC = b"\x1f\x8b"
# Names of the MNIST files in a --data folder, test set first: paper O's 10k images are the
# t10k set. Both the original names (t10k-images-idx3-ubyte) and the common variant with a dot
# (t10k-images.idx3-ubyte) are accepted, gzip-compressed or not.
_SPLITS = ("t10k", "train")
_DATA_EXTRA = "pip install 'recmem[data]'"


@dataclass(frozen=True)
class DigitImages:
    """Digit images as token sequences: ``pixels`` (n × L, float64 in [0, 1], each image
    flattened row-major), the ``shape`` (rows, cols) with rows·cols = L, the ``labels`` (n digits)
    when known, and where they came from (``source``)."""

    pixels: np.ndarray
    shape: tuple[int, int]
    source: str
    labels: np.ndarray | None = None

    @property
    def length(self) -> int:
        """L, the number of tokens of one image (rows·cols)."""
        return self.shape[0] * self.shape[1]

    def __len__(self) -> int:
        return int(self.pixels.shape[0])

    def head(self, count: int) -> DigitImages:
        """The first ``count`` images (all of them when there are fewer)."""
        labels = None if self.labels is None else self.labels[:count]
        return DigitImages(self.pixels[:count], self.shape, self.source, labels)


def _read_bytes(path: Path) -> bytes:
    """The file's content, decompressed when it is a gzip stream (recognised by its magic)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not raw.startswith(_GZIP_MAGIC):
        return raw
    try:
        return gzip.decompress(raw)
    except (OSError, EOFError, zlib.error) as exc:  # BadGzipFile is an OSError
        raise ValueError(f"{path}: corrupt or truncated gzip stream ({exc})") from None


def read_idx(path: str | Path, magic: int) -> np.ndarray:
    """The unsigned-byte array stored in the IDX file ``path`` (gzip or raw), whose magic number
    must be ``magic`` (:data:`IDX_IMAGES` or :data:`IDX_LABELS`); its shape is the header's sizes.

    Raises ValueError (one line, naming the file) on a bad magic number, a header or data shorter
    or longer than the sizes say, or a zero size."""
    path = Path(path)
    data = _read_bytes(path)
    ndim = magic & 0xFF
    if len(data) < 4:
        raise ValueError(f"{path}: truncated IDX file ({len(data)} bytes, no magic number)")
    (found,) = struct.unpack(">I", data[:4])
    if found != magic:
        what = {IDX_IMAGES: "images", IDX_LABELS: "labels"}.get(magic, "IDX")
        raise ValueError(f"{path}: bad magic number 0x{found:08x} (expected 0x{magic:08x} for "
                         f"an IDX {what} file of unsigned bytes)")
    header = 4 + 4 * ndim
    if len(data) < header:
        raise ValueError(f"{path}: truncated IDX header ({len(data)} bytes, need {header} for "
                         f"{ndim} sizes)")
    dims = struct.unpack(f">{ndim}I", data[4:header])
    if any(d == 0 for d in dims):
        raise ValueError(f"{path}: wrong dimensions {'×'.join(map(str, dims))} (a size is 0)")
    expected = int(np.prod(dims, dtype=np.int64))
    body = len(data) - header
    if body < expected:
        raise ValueError(f"{path}: truncated data: {body} bytes after the header, the sizes "
                         f"{'×'.join(map(str, dims))} need {expected}")
    if body > expected:
        raise ValueError(f"{path}: {body - expected} bytes beyond the sizes "
                         f"{'×'.join(map(str, dims))} (wrong dimensions or not an IDX file)")
    return np.frombuffer(data, dtype=np.uint8, offset=header).reshape(dims)


def load_idx_images(images: str | Path, labels: str | Path | None = None,
                    shape: tuple[int, int] | None = MNIST_SHAPE) -> DigitImages:
    """Images (and optionally labels) from IDX files, scaled to [0, 1] and flattened row-major.

    ``shape`` is the image size the caller needs (MNIST's 28×28 by default; None accepts any).
    Raises ValueError on a malformed file (see :func:`read_idx`), images of another size, or a
    label count that differs from the image count."""
    images = Path(images)
    arr = read_idx(images, IDX_IMAGES)
    n, rows, cols = arr.shape
    if shape is not None and (rows, cols) != tuple(shape):
        raise ValueError(f"{images}: wrong dimensions: images are {rows}×{cols}, expected "
                         f"{shape[0]}×{shape[1]}")
    lab = None
    if labels is not None:
        lab = read_idx(labels, IDX_LABELS)
        if lab.shape[0] != n:
            raise ValueError(f"{labels}: {lab.shape[0]} labels for the {n} images of {images}")
        lab = lab.astype(np.int64)
    # bytes 0…255 → [0, 1]; row-major flattening makes token t the pixel (t // cols, t % cols)
    pixels = arr.reshape(n, rows * cols).astype(np.float64) / 255.0
    return DigitImages(pixels, (rows, cols), str(images), lab)


def _find(folder: Path, split: str, kind: str) -> Path | None:
    """The MNIST file of ``split`` (t10k / train) and ``kind`` (images / labels) in ``folder``."""
    ndim = 3 if kind == "images" else 1
    for sep in ("-", "."):
        for ext in ("", ".gz"):
            p = folder / f"{split}-{kind}{sep}idx{ndim}-ubyte{ext}"
            if p.is_file():
                return p
    return None


def _labels_beside(images: Path) -> Path | None:
    """The labels file named like ``images`` (``…-images-idx3…`` → ``…-labels-idx1…``), if any."""
    name = images.name
    if "images" not in name:
        return None
    p = images.with_name(name.replace("images", "labels").replace("idx3", "idx1"))
    return p if p.is_file() else None


def load_mnist(path: str | Path, shape: tuple[int, int] | None = MNIST_SHAPE) -> DigitImages:
    """MNIST from ``path``: a folder holding the standard files (the t10k test set when present,
    else the training set; ``t10k-images-idx3-ubyte`` or ``t10k-images.idx3-ubyte``, gzip or
    raw, labels beside them optional) or a single IDX images file (labels read when a file named
    like it with ``labels``/``idx1`` lies beside it). Raises ValueError on anything malformed or
    missing (one line)."""
    path = Path(path)
    if path.is_dir():
        for split in _SPLITS:
            images = _find(path, split, "images")
            if images is not None:
                return load_idx_images(images, _find(path, split, "labels"), shape)
        raise ValueError(f"{path}: no MNIST images file (expected t10k-images-idx3-ubyte[.gz] or "
                         "train-images-idx3-ubyte[.gz])")
    if not path.is_file():
        raise ValueError(f"{path}: no such file or folder")
    return load_idx_images(path, _labels_beside(path), shape)


def load_sklearn_digits() -> DigitImages:
    """scikit-learn's bundled 8×8 digits (1797 images, counts 0…16 scaled to [0, 1], L = 64): the
    embedded stand-in for MNIST. Raises ImportError naming the extra to install when scikit-learn
    is absent."""
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        raise ImportError("the embedded 8×8 digits need scikit-learn: "
                          f"{_DATA_EXTRA} (or pass MNIST IDX files with --data)") from None
    bunch = load_digits()
    pixels = np.asarray(bunch.data, dtype=np.float64) / 16.0  # counts 0…16 → [0, 1]
    return DigitImages(pixels, (8, 8), "scikit-learn 8×8 digits (sklearn.datasets.load_digits)",
                       np.asarray(bunch.target, dtype=np.int64))


__all__ = ["IDX_IMAGES", "IDX_LABELS", "MNIST_SHAPE", "DigitImages", "load_idx_images",
           "load_mnist", "load_sklearn_digits", "read_idx"]
