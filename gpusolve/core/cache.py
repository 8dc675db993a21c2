"""On-disk cache of built arrays: one file each, keyed by content, written atomically,
checked on load (a corrupt, truncated or mismatched file is rebuilt, never trusted)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import platformdirs

MAGIC = b"GPUSOLVE-ARRAY-1\n"
HEADER_SIZE = 512


def cache_dir() -> Path:
    """Return the cache folder: $GPUSOLVE_CACHE_DIR, else the user cache dir."""
    return Path(os.environ.get("GPUSOLVE_CACHE_DIR") or platformdirs.user_cache_dir("gpusolve"))


def content_key(*parts: object) -> str:
    """Return a hex digest naming the content described by ``parts``."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def digest(array: np.ndarray) -> str:
    """Return a checksum of an array's bytes."""
    return hashlib.blake2b(np.ascontiguousarray(array).data, digest_size=16).hexdigest()


def write_atomic(path: Path, data: bytes | Callable[[object], None]) -> None:
    """Write ``data`` (bytes, or a function writing to a file object) to ``path`` atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            if isinstance(data, bytes):
                f.write(data)
            else:
                data(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_array(path: Path, key: str, array: np.ndarray) -> None:
    """Write ``array`` with its key and checksum to ``path`` atomically."""
    header = json.dumps(
        {"key": key, "shape": list(array.shape), "dtype": array.dtype.str, "digest": digest(array)}
    ).encode()
    head = MAGIC + header.ljust(HEADER_SIZE - len(MAGIC), b" ")

    def write(f) -> None:
        f.write(head)
        f.write(np.ascontiguousarray(array).data)

    write_atomic(path, write)


def load_array(path: Path, key: str) -> np.ndarray | None:
    """Return the array stored at ``path`` under ``key``, or None if absent or not trustworthy."""
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER_SIZE)
            if not head.startswith(MAGIC):
                return None
            meta = json.loads(head[len(MAGIC) :])
            if meta["key"] != key:
                return None
            dtype = np.dtype(meta["dtype"])
            shape = tuple(meta["shape"])
            count = int(np.prod(shape))
            array = np.fromfile(f, dtype=dtype, count=count)
            if array.size != count or f.read(1):
                return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    array = array.reshape(shape)
    return array if digest(array) == meta["digest"] else None


def cached_array(name: str, key: str, build: Callable[[], np.ndarray]) -> tuple[np.ndarray, Path, bool]:
    """Return (array, path, hit): the cached array for ``key``, built and stored if needed."""
    path = cache_dir() / f"{name}-{key}.bin"
    array = load_array(path, key)
    if array is not None:
        return array, path, True
    array = build()
    with contextlib.suppress(OSError):  # an unwritable cache only costs a rebuild next time
        save_array(path, key, array)
    return array, path, False
