"""The pattern matrix: oracle agreement on the real lists, and a cache that is never trusted blindly."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusolve.core.cache import load_array, save_array
from gpusolve.core.games import make_game
from gpusolve.core.patterns import pattern_matrix


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_full_matrix_equals_oracle_on_samples(full_pm, data):
    g = data.draw(st.integers(0, full_pm.shape[0] - 1))
    a = data.draw(st.integers(0, full_pm.shape[1] - 1))
    guess, answer = full_pm.guesses[g], full_pm.answers[a]
    assert full_pm.codes[g, a] == full_pm.game.reply(guess, answer)


def test_full_matrix_shape(full_pm):
    assert full_pm.shape == (12972, 2309)
    assert full_pm.codes.dtype == np.uint8
    solved = full_pm.codes[full_pm.answer_rows, np.arange(2309)]
    assert (solved == full_pm.game.solved).all()


def test_cache_round_trip_and_hit(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUSOLVE_CACHE_DIR", str(tmp_path))
    first = pattern_matrix(make_game("jotto"), "answers", "answers", "cpu")
    assert not first.cache_hit and first.cache_path.exists()
    second = pattern_matrix(make_game("jotto"), "answers", "answers", "cpu")
    assert second.cache_hit and (second.codes == first.codes).all()


def corrupt(path, how):
    data = bytearray(path.read_bytes())
    if how == "truncate":
        data = data[: len(data) - 10]
    elif how == "flip":
        data[-5] ^= 0xFF
    elif how == "header":
        data[:8] = b"garbage!"
    elif how == "append":
        data += b"x"
    path.write_bytes(bytes(data))


def test_corrupt_cache_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUSOLVE_CACHE_DIR", str(tmp_path))
    good = pattern_matrix(make_game("jotto"), "answers", "answers", "cpu")
    for how in ("truncate", "flip", "header", "append"):
        corrupt(good.cache_path, how)
        again = pattern_matrix(make_game("jotto"), "answers", "answers", "cpu")
        assert not again.cache_hit, how
        assert (again.codes == good.codes).all()
        assert pattern_matrix(make_game("jotto"), "answers", "answers", "cpu").cache_hit


def test_stale_key_is_refused(tmp_path):
    path = tmp_path / "a.bin"
    save_array(path, "key-1", np.arange(10, dtype=np.uint8))
    assert load_array(path, "key-1").tolist() == list(range(10))
    assert load_array(path, "key-2") is None
    assert load_array(tmp_path / "missing.bin", "key-1") is None


def test_different_lists_have_different_caches(tmp_path, monkeypatch):
    monkeypatch.setenv("GPUSOLVE_CACHE_DIR", str(tmp_path))
    a = pattern_matrix(make_game(), "answers", "answers", "cpu")
    b = pattern_matrix(make_game(), "answers-2315", "answers-2315", "cpu")
    assert a.cache_path != b.cache_path and b.shape == (2315, 2315)


def test_an_array_of_the_first_layout_is_rebuilt(tmp_path):
    """A file of version 1 (checked with BLAKE2b, a digest this version does not compute) is not
    trusted (version 2's files have names of their own: ``cached_array``)."""
    import hashlib
    import json

    from gpusolve.core.cache import HEADER_SIZE

    array = np.arange(10, dtype=np.uint8)
    header = json.dumps({"key": "k", "shape": [10], "dtype": array.dtype.str,
                         "digest": hashlib.blake2b(array.data, digest_size=16).hexdigest()}).encode()
    magic = b"GPUSOLVE-ARRAY-1\n"
    (tmp_path / "a.bin").write_bytes(magic + header.ljust(HEADER_SIZE - len(magic), b" ") + array.tobytes())
    assert load_array(tmp_path / "a.bin", "k") is None
    save_array(tmp_path / "a.bin", "k", array)
    assert (tmp_path / "a.bin").read_bytes().startswith(b"GPUSOLVE-ARRAY-2\n")
    assert load_array(tmp_path / "a.bin", "k").tolist() == list(range(10))
