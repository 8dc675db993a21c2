"""On-disk cache of built arrays: one file each, keyed by content, written atomically,
checked on load (a corrupt, truncated or mismatched file is rebuilt, never trusted)."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import tempfile
import warnings
import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import platformdirs

from .errors import Note
from .limits import mib

MAGIC = b"GPUSOLVE-ARRAY-2\n"
"""The first line of a cached array's file (version 1, checked with BLAKE2b, is not read: its files
were named NAME-KEY.bin, version 2's NAME-KEY.v2.bin, so that the two versions never rebuild each
other's files in a shared cache folder)."""
HEADER_SIZE = 512


def cache_dir() -> Path:
    """Return the cache folder: $GPUSOLVE_CACHE_DIR, else the user cache dir."""
    return Path(os.environ.get("GPUSOLVE_CACHE_DIR") or platformdirs.user_cache_dir("gpusolve"))


def content_key(*parts: object) -> str:
    """Return a hex digest naming the content described by ``parts``."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def digest(array: np.ndarray) -> str:
    """Return a checksum of an array's bytes: CRC-32 (every damage of up to 32 bits in a row found,
    any other but for a chance of 1 in 2**32; a file cut short is found by its size), four times
    the speed of the BLAKE2b before it: the pattern matrix is read at every start (45 MB: 0.08 s
    against 0.37 s on a busy machine)."""
    return f"crc32:{zlib.crc32(np.ascontiguousarray(array).data):08x}"


def umask() -> int:
    """Return this process's file-creation mask."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        pass
    mask = os.umask(0o022)  # pragma: no cover - set and restored at once
    os.umask(mask)  # pragma: no cover
    return mask  # pragma: no cover


def write_atomic(path: Path, data: bytes | Callable[[object], None], make_parent: bool = True) -> None:
    """Write ``data`` (bytes, or a function writing to a file object) to ``path`` atomically, with
    the permissions the user's umask gives a new file; ``make_parent`` creates missing folders."""
    if make_parent:
        path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, 0o666 & ~umask())
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


def fallback_dir() -> Path | None:
    """Return the cache folder used when the usual one cannot be written: a private folder of
    this user's in the temp folder (None if it cannot be made, or someone else owns it)."""
    if not hasattr(os, "getuid"):  # pragma: no cover - not POSIX
        return None
    folder = Path(tempfile.gettempdir()) / f"gpusolve-cache-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        info = folder.lstat()
    except OSError:
        return None
    private = folder.is_dir() and not folder.is_symlink() and info.st_uid == os.getuid()
    return folder if private and not info.st_mode & 0o077 else None


def cached_array(name: str, key: str, build: Callable[[], np.ndarray]
                 ) -> tuple[np.ndarray, Path | None, bool]:
    """Return (array, path, hit): the cached array for ``key``, built and stored if needed. A
    cache folder that cannot be written is replaced by ``fallback_dir()`` with a note (path None:
    nowhere could be written; the array is rebuilt next time)."""
    folders: list[Path | None] = [cache_dir()]
    path = folders[0] / f"{name}-{key}.v2.bin"  # the layout's version: checkouts of version 1 keep theirs
    array = load_array(path, key)
    if array is not None:
        return array, path, True
    if not _writable(folders[0]):
        folders.append(fallback_dir())
        if folders[1] is not None and (array := load_array(folders[1] / path.name, key)) is not None:
            return array, folders[1] / path.name, True
    array = build()
    problems = []
    for folder in filter(None, folders):
        try:
            _check_room(folder, array.nbytes)
            save_array(folder / path.name, key, array)
        except OSError as e:
            problems.append(f"{folder} ({e.strerror or e})")
            if len(folders) == 1:
                folders.append(fallback_dir())
            continue
        if problems:
            warnings.warn(Note(f"the cache folder {problems[0]} cannot be written: cached in {folder} "
                               "instead (set $GPUSOLVE_CACHE_DIR to choose)"), stacklevel=2)
        return array, folder / path.name, False
    warnings.warn(Note(f"nothing cached: cannot write {' or '.join(problems)} (set $GPUSOLVE_CACHE_DIR)"),
                  stacklevel=2)
    return array, None, False


ROOM = 1 << 26
"""Disk space a cached array leaves free (a large matrix is not cached onto a nearly full disk)."""


def _check_room(folder: Path, size: int) -> None:
    """Raise ENOSPC unless the disk of ``folder`` holds ``size`` more bytes and ``ROOM`` to spare."""
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    free = shutil.disk_usage(folder).free
    if free < size + ROOM:
        raise OSError(errno.ENOSPC, f"{mib(free)} free on its disk, {mib(size)} needed and {mib(ROOM)} to "
                      "spare")


def _writable(folder: Path) -> bool:
    """Return whether files can be made in ``folder`` (or in the nearest folder that exists above it)."""
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)
