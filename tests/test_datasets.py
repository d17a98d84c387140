"""The digit readers (recmem.numerics.datasets): IDX files written here, gzip and raw, read back
exactly; every malformation refused with a one-line ValueError naming the file, and through
`recmem reproduce O-mnist --data` with exit status 2 and no traceback; the 8×8 digits default."""

from __future__ import annotations

import gzip
import re
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

from recmem.numerics.datasets import (
    IDX_IMAGES,
    IDX_LABELS,
    load_idx_images,
    load_mnist,
    load_sklearn_digits,
    read_idx,
)


def idx_bytes(arr: np.ndarray, magic: int, dims: tuple[int, ...] | None = None) -> bytes:
    """An IDX file's bytes: big-endian magic, sizes (``dims``, default the array's), then data."""
    dims = arr.shape if dims is None else dims
    return struct.pack(f">I{len(dims)}I", magic, *dims) + arr.astype(np.uint8).tobytes()


def write(path: Path, content: bytes, gz: bool = False) -> Path:
    path.write_bytes(gzip.compress(content) if gz else content)
    return path


@pytest.fixture
def digits() -> tuple[np.ndarray, np.ndarray]:
    """Five 28×28 images with distinct pixels (row-major order is checkable) and their labels."""
    rng = np.random.default_rng(7)
    images = rng.integers(0, 256, size=(5, 28, 28), dtype=np.uint8)
    images[:, 0, 0], images[:, 27, 27] = 0, 255
    return images, np.array([3, 1, 4, 1, 5], dtype=np.uint8)


# ---- round trips -----------------------------------------------------------------------------------
@pytest.mark.parametrize("gz", [False, True])
def test_round_trip(tmp_path: Path, digits: tuple[np.ndarray, np.ndarray], gz: bool) -> None:
    images, labels = digits
    ext = ".gz" if gz else ""
    img = write(tmp_path / f"t10k-images-idx3-ubyte{ext}", idx_bytes(images, IDX_IMAGES), gz)
    lab = write(tmp_path / f"t10k-labels-idx1-ubyte{ext}", idx_bytes(labels, IDX_LABELS), gz)
    assert np.array_equal(read_idx(img, IDX_IMAGES), images)
    assert np.array_equal(read_idx(lab, IDX_LABELS), labels)
    data = load_idx_images(img, lab)
    assert data.shape == (28, 28) and data.length == 784 and len(data) == 5
    assert data.pixels.dtype == np.float64 and data.pixels.shape == (5, 784)
    assert data.pixels.min() == 0.0 and data.pixels.max() == 1.0
    # row-major flattening: token t is pixel (t // 28, t % 28), scaled by 1/255
    t = 3 * 28 + 17
    assert data.pixels[2, t] == images[2, 3, 17] / 255.0
    np.testing.assert_array_equal(data.pixels * 255.0, images.reshape(5, 784).astype(float))
    assert data.labels is not None and data.labels.tolist() == [3, 1, 4, 1, 5]


def test_folder_prefers_test_set_and_finds_dot_names(tmp_path: Path,
                                                     digits: tuple[np.ndarray, np.ndarray]) -> None:
    images, labels = digits
    write(tmp_path / "train-images-idx3-ubyte.gz", idx_bytes(images[:2], IDX_IMAGES), gz=True)
    write(tmp_path / "t10k-images.idx3-ubyte", idx_bytes(images[2:], IDX_IMAGES))
    write(tmp_path / "t10k-labels.idx1-ubyte", idx_bytes(labels[2:], IDX_LABELS))
    data = load_mnist(tmp_path)
    assert len(data) == 3 and "t10k" in data.source
    assert data.labels is not None and data.labels.tolist() == [4, 1, 5]
    assert data.head(2).pixels.shape == (2, 784) and len(data.head(10)) == 3


def test_single_file_reads_labels_beside_it(tmp_path: Path,
                                            digits: tuple[np.ndarray, np.ndarray]) -> None:
    images, labels = digits
    img = write(tmp_path / "my-images-idx3-ubyte", idx_bytes(images, IDX_IMAGES))
    data = load_mnist(img)
    assert data.labels is None and len(data) == 5
    write(tmp_path / "my-labels-idx1-ubyte", idx_bytes(labels, IDX_LABELS))
    assert load_mnist(img).labels is not None


# ---- malformed files -------------------------------------------------------------------------------
def _malformed(tmp_path: Path, images: np.ndarray, labels: np.ndarray) -> dict[str, tuple[Path, str]]:
    """name → (file to load, pattern the message must match)."""
    good = idx_bytes(images, IDX_IMAGES)
    cases: dict[str, tuple[bytes, str, bool]] = {
        "bad magic": (struct.pack(">I", 0x00000802) + good[4:], r"bad magic number 0x00000802",
                      False),
        "labels as images": (idx_bytes(labels, IDX_LABELS), r"bad magic number 0x00000801", False),
        "empty": (b"", r"truncated IDX file", False),
        "truncated header": (good[:10], r"truncated IDX header", False),
        "truncated data": (good[:-1], r"truncated data: 3919 bytes .* need 3920", False),
        "trailing bytes": (good + b"\x00\x00", r"2 bytes beyond the sizes", False),
        "zero size": (idx_bytes(images[:0], IDX_IMAGES), r"wrong dimensions 0×28×28", False),
        "wrong image size": (idx_bytes(images[:, :8, :8], IDX_IMAGES),
                             r"wrong dimensions: images are 8×8, expected 28×28", False),
        "truncated gzip": (gzip.compress(good)[:-12], r"corrupt or truncated gzip", True),
    }
    out = {}
    for i, (name, (content, pattern, raw_gz)) in enumerate(cases.items()):
        path = tmp_path / f"case{i}-images-idx3-ubyte"
        path.write_bytes(content)  # raw_gz: the bytes are already a (damaged) gzip stream
        assert raw_gz == content.startswith(b"\x1f\x8b")
        out[name] = (path, pattern)
    lab_dir = tmp_path / "mismatch"
    lab_dir.mkdir()
    write(lab_dir / "t10k-images-idx3-ubyte", good)
    write(lab_dir / "t10k-labels-idx1-ubyte", idx_bytes(labels[:3], IDX_LABELS))
    out["label count"] = (lab_dir, r"3 labels for the 5 images")
    empty_dir = tmp_path / "nothing"
    empty_dir.mkdir()
    out["no files"] = (empty_dir, r"no MNIST images file")
    return out


def test_malformed_files_raise_one_line_value_errors(tmp_path: Path,
                                                     digits: tuple[np.ndarray, np.ndarray]) -> None:
    for name, (path, pattern) in _malformed(tmp_path, *digits).items():
        with pytest.raises(ValueError, match=pattern) as info:
            load_mnist(path)
        message = str(info.value)
        assert "\n" not in message, name
        assert str(path) in message or path.name in message, name


def test_cli_rejects_malformed_data_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                digits: tuple[np.ndarray, np.ndarray]) -> None:
    """Through the command: exit 2, one line on stderr, no traceback, nothing run."""
    from cli_helpers import one_error_line, run_main

    cases = _malformed(tmp_path, *digits)
    for name in ("bad magic", "truncated data", "label count"):
        path, pattern = cases[name]
        out = tmp_path / f"out-{name.replace(' ', '-')}"
        proc = run_main(capsys, "reproduce", "O-mnist", "--data", str(path), "--out", str(out),
                        "--quiet")
        line = one_error_line(proc)
        assert str(path) in line and re.search(pattern, line), line
        assert not (out / "summary.json").exists()


# ---- the embedded digits ---------------------------------------------------------------------------
def test_sklearn_digits() -> None:
    pytest.importorskip("sklearn")
    data = load_sklearn_digits()
    assert data.shape == (8, 8) and data.length == 64 and len(data) == 1797
    assert data.pixels.min() == 0.0 and data.pixels.max() == 1.0
    assert np.all(np.round(data.pixels * 16) == data.pixels * 16)  # counts 0…16, exactly /16
    assert data.labels is not None and set(data.labels.tolist()) == set(range(10))


def test_missing_scikit_learn_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sklearn.datasets", None)  # import now fails
    with pytest.raises(ImportError, match=r"pip install 'recmem\[data\]'"):
        load_sklearn_digits()
