"""The reply rules: pinned examples, text forms, and the kernels against the pure-Python oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpusolve.core.backend import CpuBackend
from gpusolve.core.errors import GpusolveError
from gpusolve.core.games import jotto_allowable, make_game, wordle_reply
from gpusolve.core.patterns import build_codes
from gpusolve.core.words import read_words

WORDLE_REPLIES = [
    ("NINNY", "ANNEX", "Y.G.."), ("ANNEX", "NINNY", ".YG.."), ("HELLO", "WORLD", "...GY"),
    ("WORLD", "HELLO", ".Y.G."), ("HELLO", "ABYSS", "....."), ("EPEES", "GEESE", "Y.GYY"),
    ("GEESE", "EPEES", ".YGYY"), ("WHEEE", "PEEVE", "..GYG"), ("PEEVE", "WHEEE", ".YG.G"),
    ("STARS", "TRAPS", ".YGYG"), ("TRAPS", "STARS", "YYG.G"), ("PALLS", "SPLAT", "YYG.Y"),
    ("BANAL", "MANIA", ".GGY."), ("MANIA", "BANAL", ".GG.Y"),
]  # fmt: skip


@pytest.mark.parametrize(("guess", "answer", "reply"), WORDLE_REPLIES)
def test_wordle_replies_pinned(wordle, guess, answer, reply):
    assert wordle_reply(guess, answer) == reply
    assert wordle.format_reply(wordle.reply(guess, answer)) == reply
    codes = build_codes(wordle, (guess,), (answer,), CpuBackend())
    assert wordle.format_reply(int(codes[0, 0])) == reply


def test_wordle_code_digit_order(wordle):
    assert wordle.parse_reply("G....") == 2 * 81
    assert wordle.parse_reply("....Y") == 1
    assert wordle.solved == wordle.parse_reply("GGGGG") == 242


@pytest.mark.parametrize("text", ["Y.G..", "y.g..", "10200", "🟨⬛🟩⬛⬛", "🟨⬜🟩⬜⬜", "Y-G--"])
def test_reply_syntaxes(wordle, text):
    assert wordle.format_reply(wordle.parse_reply(text)) == "Y.G.."


@pytest.mark.parametrize("text", ["Y.G.", "Y.G...", "ABCDE", "3....", ""])
def test_malformed_replies(wordle, text):
    with pytest.raises(GpusolveError, match="malformed reply"):
        wordle.parse_reply(text)


def test_impossible_reply(wordle):
    with pytest.raises(GpusolveError, match="can never happen"):
        wordle.parse_reply("GGGGY")
    assert len(wordle.possible_replies()) == 238


letters = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=5, max_size=5)
few_letters = st.text(alphabet="ABCDE", min_size=5, max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(letters, few_letters), min_size=1, max_size=6, unique=True),
       st.lists(st.one_of(letters, few_letters), min_size=1, max_size=6, unique=True))
def test_wordle_kernel_equals_oracle(wordle, guesses, answers):
    codes = build_codes(wordle, tuple(guesses), tuple(answers), CpuBackend())
    expected = [[wordle.reply(g, a) for a in answers] for g in guesses]
    assert codes.tolist() == expected


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 7), st.data())
def test_wordle_lengths(length, data):
    game = make_game("wordle", length)
    word = st.text(alphabet="ABCDE", min_size=length, max_size=length)
    guesses = data.draw(st.lists(word, min_size=1, max_size=4, unique=True))
    answers = data.draw(st.lists(word, min_size=1, max_size=4, unique=True))
    codes = build_codes(game, tuple(guesses), tuple(answers), CpuBackend())
    assert codes.dtype == (np.uint8 if length <= 5 else np.uint16)
    assert codes.tolist() == [[game.reply(g, a) for a in answers] for g in guesses]
    for g in guesses:
        for a in answers:
            assert game.format_reply(game.reply(g, a)) == wordle_reply(g, a)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet="ABCDEFGHIJ", min_size=5, max_size=5), min_size=1, max_size=5),
       st.lists(st.text(alphabet="ABCDEFGHIJ", min_size=5, max_size=5), min_size=1, max_size=5))
def test_jotto_kernel_equals_oracle(guesses, answers):
    game = make_game("jotto")
    codes = build_codes(game, tuple(guesses), tuple(answers), CpuBackend())
    assert codes.tolist() == [[len(set(g) & set(a)) for a in answers] for g in guesses]


def test_mastermind_defaults():
    game = make_game("mastermind")
    guesses, answers = game.word_lists(None, None)
    assert len(guesses) == len(answers) == 1296
    assert game.format_reply(game.reply("1122", "1213")) == "1B2W"
    assert game.parse_reply("2b 1w") == game.parse_reply("2,1") == 2 * 5 + 1
    with pytest.raises(GpusolveError, match="can never happen"):
        game.parse_reply("3B1W")


def test_jotto_lists_as_in_the_seeds():
    game = make_game("jotto")
    assert len(jotto_allowable(read_words("answers", game.alphabet))) == 1391
    assert len(jotto_allowable(read_words("sgb", game.alphabet))) == 2845
    guesses, answers = game.word_lists("answers", "answers")
    assert len(guesses) == len(answers) == 1391


def test_jotto_file_order_is_seed_001s():
    game = make_game("jotto")
    sgb = read_words("sgb", game.alphabet)
    in_file = jotto_allowable(sgb, "file")
    # seed 001's wordlist[:22] as its notebook prints it: each anagram set where it first appears
    # (OTHER, FIRST, RIGHT, ...), spelled as its last word in the file (THROE, RIFTS, GIRTH, ...)
    assert in_file[:22] == (
        "THEIR", "ABOUT", "WOULD", "THROE", "SWORD", "CLOUD", "WRITE", "RIFTS", "WATER", "AFTER", "GIRTH",
        "THINK", "RESAY", "PLACE", "SOUND", "GRATE", "FONDU", "ETHOS", "NUDER", "MIGHT", "WHILE", "HOUSE",
    )
    assert sorted(in_file) == list(jotto_allowable(sgb))
    assert game.word_lists("sgb", "sgb", "file") == (in_file, in_file)
    guesses, answers = game.word_lists("allowed", "answers", "file")
    assert guesses[:len(answers)] == answers == jotto_allowable(read_words("answers", game.alphabet), "file")
    assert sorted(guesses) == list(game.word_lists("allowed", "answers")[0])
    with pytest.raises(GpusolveError, match="unknown Jotto list order"):
        game.word_lists("sgb", "sgb", "shuffled")


def test_jotto_answers_keep_their_own_anagram():
    game = make_game("jotto")
    guesses, answers = game.word_lists("allowed", "answers")
    assert set(answers) <= set(guesses)
    assert len({frozenset(w) for w in guesses}) == len(guesses)


@pytest.mark.parametrize(("args", "message"), [
    (("chess",), "unknown game"), (("wordle", 8), "not supported"), (("mastermind", 4, 12), "Mastermind"),
])  # fmt: skip
def test_bad_games(args, message):
    with pytest.raises(GpusolveError, match=message):
        make_game(*args)


def test_parse_word(wordle):
    guesses = ("CRANE", "SLATE")
    assert wordle.parse_word(" crane ", guesses) == "CRANE"
    with pytest.raises(GpusolveError, match="unknown word"):
        wordle.parse_word("XXXXX", guesses)
    with pytest.raises(GpusolveError, match="has 4 letters"):
        wordle.parse_word("CRAN", guesses)
