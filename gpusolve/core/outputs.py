"""Files the user asks for (``--out``, ``--plot``, ``--output``): checked before any long work
starts, written atomically, every problem one line."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from .cache import write_atomic
from .errors import GpusolveError


def check_output(path: str | Path, what: str = "output") -> Path:
    """Return the path to write (a link's target) if a file can be written there, else raise a
    one-line error."""
    path = Path(path)
    if path.is_symlink():  # the file it points to is the one replaced
        path = path.resolve()
    if path.is_dir():
        raise GpusolveError(f"cannot write the {what} to {path}: it is a folder (give a file name)")
    if path.exists() and not path.is_file():
        raise GpusolveError(f"cannot write the {what} to {path}: it is not a regular file (a device or a "
                            "pipe), and gpusolve replaces the file it writes")
    folder = path.parent
    if not folder.exists():
        raise GpusolveError(f"cannot write the {what} to {path}: folder {folder} does not exist")
    if not folder.is_dir():
        raise GpusolveError(f"cannot write the {what} to {path}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise GpusolveError(f"cannot write the {what} to {path}: folder {folder} is not writable")
    try:  # the only sure test (read-only mounts, /proc, quotas): make a file there, then remove it
        fd, probe = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".probe")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        raise GpusolveError(f"cannot write the {what} to {path}: {e.strerror or e}") from None
    return path


def write_output(path: str | Path, data: bytes | Callable[[object], None], what: str = "output") -> None:
    """Write ``data`` to ``path`` atomically (a file the user named), or raise a one-line error."""
    path = check_output(path, what)  # (a link's target)
    try:
        write_atomic(path, data, make_parent=False)
    except OSError as e:
        raise GpusolveError(f"cannot write the {what} to {path}: {e.strerror or e}") from None


def layout_by_suffix(path: str | Path, suffixes: dict[str, str], option: str | None) -> str:
    """Return the layout ``suffixes`` gives the suffix of ``path``; refuse another suffix in one
    line naming the layouts with their suffixes (and ``option``, which names a layout instead)."""
    suffix = Path(path).suffix
    layout = suffixes.get(suffix.lower())
    if layout is None:
        *most, last = [f"{name} ({end})" for end, name in suffixes.items()]
        named = f"; or name the layout with {option}" if option else ""
        raise GpusolveError(f"cannot tell the layout of {path} from its suffix ({suffix or 'none'}): the "
                            f"layouts are {', '.join(most)} and {last}{named}")
    return layout
