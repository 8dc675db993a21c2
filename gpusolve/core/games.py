"""The games: a small frozen spec per game, the pure-Python reply rules (the test oracle),
and the text forms of replies. No global state: ``make_game`` builds a spec on request."""

from __future__ import annotations

import itertools
import math
import re
import warnings
from collections import Counter
from dataclasses import dataclass, replace
from string import ascii_uppercase
from typing import TYPE_CHECKING

from .errors import GpusolveError, Note
from .words import Word, read_words, shorten

if TYPE_CHECKING:
    import numpy as np

    from .symmetry import SymmetryGroup

WORDLE, JOTTO, MASTERMIND, BLACK_PEGS = 0, 1, 2, 3  # the kernels' reply rules (kernels/replies.py)
GAMES = ("wordle", "jotto", "mastermind", "bulls")
"""The reply rules (each compiled in ``kernels/replies.py``); ``bulls`` (Bulls and Cows) plays
Mastermind's over codes of different digits, replies named bulls and cows."""
GAME_OPTIONS = ("repeats", "black_only")
"""The options of the code games, as ``make_game`` and ``Game.options`` name them."""
CODE_GAMES = (MASTERMIND, BLACK_PEGS)
"""Reply rules of the code games (Mastermind, Bulls and Cows): every code is listed, no word list."""


@dataclass(frozen=True)
class Variant:
    """A game that plays a rule of ``GAMES`` at a fixed length over its own word lists: one entry
    in ``VARIANTS`` (and its list in ``data/``, named ``data:FILE``) makes a new ``--game``."""

    rule: str
    length: int
    answers: str
    guesses: str
    about: str


VARIANTS: dict[str, Variant] = {
    "wordle3": Variant("wordle", 3, "data:wordle3.txt", "data:wordle3.txt",
                       "Wordle with 3-letter words (a toy: 284 common words, answers and guesses alike)"),
}
"""The registered variants by name (docs/architecture.md: adding a game)."""

GREEN, YELLOW, MISS = "G", "Y", "."
REPLY_SYMBOLS = {
    "G": 2, "Y": 1, ".": 0, "2": 2, "1": 1, "0": 0, "-": 0, "_": 0, "X": 0, "B": 0,
    "🟩": 2, "🟧": 2, "🟨": 1, "🟦": 1, "⬛": 0, "⬜": 0,
}  # fmt: skip
"""Every accepted spelling of a Wordle reply square: GY. text, 210 digits, emoji squares."""


def wordle_reply(guess: Word, answer: Word) -> str:
    """Return the Wordle reply (e.g. 'Y.G..'): greens first, then yellows left to right."""
    reply = [GREEN if g == a else MISS for g, a in zip(guess, answer)]
    unmatched = Counter(a for g, a in zip(guess, answer) if g != a)
    for i, g in enumerate(guess):
        if reply[i] == MISS and unmatched[g] > 0:
            unmatched[g] -= 1
            reply[i] = YELLOW
    return "".join(reply)


def jotto_reply(guess: Word, answer: Word) -> int:
    """Return the number of distinct letters the two words share."""
    return len(set(guess) & set(answer))


def mastermind_reply(guess: Word, answer: Word) -> tuple[int, int]:
    """Return (black, white): right colour in the right place, right colour elsewhere (Bulls
    and Cows: bulls and cows)."""
    black = sum(g == a for g, a in zip(guess, answer))
    common = sum((Counter(guess) & Counter(answer)).values())
    return black, common - black


PEG_RE = re.compile(r"(\d)\s*B?\s*[,/ ]?\s*(\d)\s*[WC]?")
"""A reply of black and white pegs (bulls and cows) as users type it: 2B1W, 2B1C, 2,1, 2 1, 21."""


JOTTO_ORDERS = ("sorted", "file")
"""Orders of a Jotto list: alphabetical (seed 000), or each anagram set where it first appears
in the file (seed 001's dict: its last spelling at its first spelling's place)."""


def jotto_allowable(words: tuple[Word, ...], order: str = "sorted") -> tuple[Word, ...]:
    """Return the Jotto list: words of distinct letters, the last of each anagram set, in ``order``."""
    if order not in JOTTO_ORDERS:
        raise GpusolveError(f"unknown Jotto list order {order!r}: choose one of {', '.join(JOTTO_ORDERS)}")
    anagrams = {frozenset(w): w for w in words if len(set(w)) == len(w)}
    kept = tuple(anagrams.values())
    return tuple(sorted(kept)) if order == "sorted" else kept


def anagram_class(words: tuple[Word, ...], word: Word) -> list[Word]:
    """Return the words of ``words`` (a list before the Jotto reduction) of distinct letters with
    the letters of ``word``: the answers a Jotto reply of all letters in common leaves."""
    letters = sorted(word)
    return sorted(w for w in words if len(set(w)) == len(w) and sorted(w) == letters) or [word]


@dataclass(frozen=True)
class Game:
    """What the kernels and searches need to know about one game."""

    name: str
    kind: int
    length: int
    alphabet: str
    n_patterns: int
    solved: int
    default_answers: str
    default_guesses: str
    repeats: bool = True
    """Code games: whether a code may hold a symbol more than once."""

    @property
    def colours(self) -> int:
        """Return the number of symbols a position may hold."""
        return len(self.alphabet)

    @property
    def noun(self) -> str:
        """Return what a player guesses: 'code' in the code games, else 'word'."""
        return "code" if self.kind in CODE_GAMES else "word"

    @property
    def title(self) -> str:
        """Return the game's name in messages: 'Mastermind (4 pegs, 6 colours)', ..."""
        if self.name == "bulls":
            kind = ", bulls only" if self.kind == BLACK_PEGS else ""
            repeats = ", repeated digits" if self.repeats else ""
            return f"Bulls and Cows ({self.length} of {self.colours} digits{repeats}{kind})"
        if self.kind in CODE_GAMES:
            kind = ", black pegs only" if self.kind == BLACK_PEGS else ""
            repeats = "" if self.repeats else ", no repeated colours"
            return f"Mastermind ({self.length} pegs, {self.colours} colours{repeats}{kind})"
        return f"{self.name.capitalize()} ({self.length} letters)"

    def options(self) -> dict[str, object]:
        """Return the options that, with name, length and colours, make this game again
        (``make_game(name, length, colours, **options)``): only those off the game's defaults."""
        out: dict[str, object] = {}
        if self.kind in CODE_GAMES and self.repeats != (self.name != "bulls"):
            out["repeats"] = self.repeats
        if self.kind == BLACK_PEGS:
            out["black_only"] = True
        return out

    def symmetries(self) -> SymmetryGroup:
        """Return the symmetries this game's reply rule declares: relabelling the symbols keeps
        every reply in each game; reordering the positions does in all but Wordle (whose
        yellows go left to right)."""
        from .symmetry import SymmetryGroup

        return SymmetryGroup(self.alphabet, self.length, relabel=True, permute=self.kind != WORDLE)

    def reply(self, guess: Word, answer: Word) -> int:
        """Return the reply code by the pure-Python rule (the oracle for every kernel)."""
        if self.kind == WORDLE:
            code = 0
            for square in wordle_reply(guess, answer):
                code = code * 3 + REPLY_SYMBOLS[square]
            return code
        if self.kind == JOTTO:
            return jotto_reply(guess, answer)
        black, white = mastermind_reply(guess, answer)
        return black if self.kind == BLACK_PEGS else black * (self.length + 1) + white

    def format_reply(self, code: int) -> str:
        """Return the text form of a reply code: 'GY..G', '3', '2B1W' (Bulls and Cows '2B1C'),
        or black pegs alone '2B'."""
        if self.kind == WORDLE:
            squares = []
            for _ in range(self.length):
                code, digit = divmod(code, 3)
                squares.append(".YG"[digit])
            return "".join(reversed(squares))
        if self.kind == JOTTO:
            return str(code)
        if self.kind == BLACK_PEGS:
            return f"{code}B"
        black, white = divmod(code, self.length + 1)
        return f"{black}B{white}{'C' if self.name == 'bulls' else 'W'}"

    def parse_reply(self, text: str) -> int:
        """Return the reply code of a reply typed by a user, or raise a one-line error."""
        text = text.strip().upper()
        if self.kind == WORDLE:
            squares = [c for c in text if not c.isspace() and c != "\ufe0f"]
            if len(squares) != self.length or any(c not in REPLY_SYMBOLS for c in squares):
                raise GpusolveError(
                    f"malformed reply {text!r}: expected {self.length} squares of G/Y/. "
                    "(or 2/1/0 digits, or emoji squares)"
                )
            code = 0
            for c in squares:
                code = code * 3 + REPLY_SYMBOLS[c]
            if code not in self.possible_replies():
                raise GpusolveError(f"reply {text!r} can never happen in Wordle")
            return code
        if self.kind == JOTTO:
            if not text.isdigit() or int(text) > self.length:
                raise GpusolveError(f"malformed reply {text!r}: expected a number 0-{self.length}")
            return int(text)
        pegs = "bulls" if self.name == "bulls" else "black pegs"
        if self.kind == BLACK_PEGS:
            match = re.fullmatch(r"(\d)\s*B?", text)
            if not match or int(match[1]) > self.length:
                raise GpusolveError(f"malformed reply {text!r}: expected the number of {pegs} "
                                    f"0-{self.length}, e.g. 2B")
            return int(match[1])
        match = PEG_RE.fullmatch(text)
        if not match:
            example = "2B1C (or 2,1)" if self.name == "bulls" else "2B1W (or 2,1)"
            raise GpusolveError(f"malformed reply {text!r}: expected {pegs} and "
                                f"{'cows' if self.name == 'bulls' else 'white pegs'}, e.g. {example}")
        black, white = int(match[1]), int(match[2])
        if black + white > self.length or (black == self.length - 1 and white == 1):
            raise GpusolveError(f"reply {text!r} can never happen with {self.length} pegs")
        return black * (self.length + 1) + white

    def possible_replies(self) -> frozenset[int]:
        """Return the codes a Wordle reply can take (4 greens and a yellow cannot happen)."""
        codes = set(range(self.n_patterns))
        for k in range(self.length):
            codes.discard(self.solved - 3 ** (self.length - 1 - k))
        return frozenset(codes)

    def parse_word(self, text: str, words: tuple[Word, ...] | frozenset[Word], listed: str = "guess list"
                   ) -> Word:
        """Return ``text`` as a word of this game that is in ``words`` (the ``listed``), or raise a
        one-line error.

        In Jotto only letters count and the lists keep one word per set of letters: another
        word of the same letters is taken as the listed one (with a note saying so)."""
        word = text.strip().upper()
        if len(word) != self.length:
            raise GpusolveError(f"{text!r} has {len(word)} letters; {self.name} words have {self.length}")
        if word in words:
            return word
        if self.kind == JOTTO and len(set(word)) == len(word):
            letters = sorted(word)
            stand_in = next((w for w in words if sorted(w) == letters), None)
            if stand_in is not None:
                warnings.warn(Note(f"{word} is played as {stand_in}: Jotto counts letters only, and its "
                                   "list keeps one word per set of letters"), stacklevel=2)
                return stand_in
        raise GpusolveError(f"unknown word {word}: not in the {listed}")

    def encode(self, words: tuple[Word, ...]) -> np.ndarray:
        """Return the words as a (n, length) uint8 array of symbol indices, for the kernels."""
        import numpy as np  # here: the command line reads the game names without numpy

        index = {c: i for i, c in enumerate(self.alphabet)}
        return np.array([[index[c] for c in w] for w in words], dtype=np.uint8).reshape(
            len(words), self.length
        )

    def n_codes(self, length: int | None = None, colours: int | None = None) -> int:
        """Return how many codes a code game has (of ``length`` pegs of ``colours``, default its own)."""
        length = self.length if length is None else length
        colours = self.colours if colours is None else colours
        return colours**length if self.repeats else math.perm(colours, length)

    def _check_codes(self) -> None:
        """Refuse, before listing them, more codes than a pattern matrix can fit; say what would."""
        from .limits import available_memory, check_memory

        n = self.n_codes()
        free = available_memory() or 0
        pegs = [k for k in range(1, self.length) if matrix_bytes(self, *[self.n_codes(k)] * 2) <= free]
        colours = [c for c in range(2, self.colours) if (self.repeats or c >= self.length)
                   and matrix_bytes(self, *[self.n_codes(colours=c)] * 2) <= free]
        unit = "digits" if self.name == "bulls" else "colours"
        fits = [f"{pegs[-1]} pegs of {self.colours} {unit}"] if pegs else []
        fits += [f"{self.length} pegs of {colours[-1]} {unit}"] if colours else []
        hint = f"at most {' fit, or '.join(fits)}" + (" fit" if len(fits) == 1 else "") if fits else ""
        check_memory(matrix_bytes(self, n, n), f"{self.title} with {n:,} codes (a {n:,} x {n:,} pattern "
                     "matrix)", hint)

    def _codes(self) -> tuple[Word, ...]:
        """Return every code of a code game, in the order of the alphabet."""
        make = itertools.product(self.alphabet, repeat=self.length) if self.repeats else \
            itertools.permutations(self.alphabet, self.length)
        return tuple("".join(p) for p in make)

    def _check_repeats(self, words: tuple[Word, ...], option: str) -> tuple[Word, ...]:
        """Return ``words``, or refuse a code that repeats a symbol where the game allows none."""
        if not self.repeats:
            bad = [w for w in words if len(set(w)) < len(w)]
            if bad:
                raise GpusolveError(f"{option}: {shorten(bad)} repeat a symbol, which {self.title} codes "
                                    "never do")
        return words

    def word_lists(
        self, guesses: str | None, answers: str | None, jotto_order: str = "sorted"
    ) -> tuple[tuple[Word, ...], tuple[Word, ...]]:
        """Return the (guesses, answers) lists for this game from names or paths, validated.

        Jotto reduces both lists (``jotto_allowable``); the guesses are the answers' words and
        the other guesses' words, sorted together, or (order ``file``) the answers first."""
        for option, spec in (("--guesses", guesses), ("--answers", answers)):
            if spec is not None and not spec.strip():
                raise GpusolveError(f"{option} is empty: give a list name (answers, allowed...) or a file")
        if self.kind in CODE_GAMES:
            if guesses is None or answers is None:
                self._check_codes()
            codes = self._codes() if guesses is None or answers is None else ()
            guess_list = codes if guesses is None else self._check_repeats(
                read_words(guesses, self.alphabet), "--guesses")
            answer_list = codes if answers is None else self._check_repeats(
                read_words(answers, self.alphabet), "--answers")
        else:
            guess_list = read_words(guesses or self.default_guesses, self.alphabet)
            answer_list = read_words(answers or self.default_answers, self.alphabet)
            if self.kind == JOTTO:
                answer_list = jotto_allowable(answer_list, jotto_order)
                taken = {frozenset(w) for w in answer_list}
                others = tuple(w for w in guess_list if frozenset(w) not in taken)
                guess_list = answer_list + jotto_allowable(others, jotto_order)
                if jotto_order == "sorted":
                    guess_list = tuple(sorted(guess_list))
        for name, words in (("guess", guess_list), ("answer", answer_list)):
            if not words:  # only Jotto drops words: those with a repeated letter
                source = (guesses or self.default_guesses) if name == "guess" else (
                    answers or self.default_answers)
                raise GpusolveError(f"the {name} list {source} has no word of {self.length} distinct "
                                    "letters, the only words Jotto plays")
            if len(words[0]) != self.length:
                raise GpusolveError(
                    f"the {name} list has {len(words[0])}-letter words; this {self.name} game "
                    f"uses {self.length} (set --length)"
                )
        known = set(guess_list)
        missing = [w for w in answer_list if w not in known]
        if missing:
            raise GpusolveError(
                f"{len(missing)} answers are not in the guess list: {shorten(missing)} "
                "(every answer must also be an allowed guess)"
            )
        return guess_list, answer_list


def game_names() -> tuple[str, ...]:
    """Return every name ``--game`` takes: the rules, then the registered variants."""
    return GAMES + tuple(VARIANTS)


def matrix_bytes(game: Game, n_guesses: int, n_answers: int) -> int:
    """Return the bytes of a pattern matrix of ``n_guesses`` x ``n_answers`` for ``game``."""
    return n_guesses * n_answers * (1 if game.n_patterns <= 256 else 2)


def make_game(name: str = "wordle", length: int | None = None, colours: int | None = None,
              repeats: bool | None = None, black_only: bool = False) -> Game:
    """Return the spec of a registered game; ``length`` is letters (or pegs) per word
    (default 5, and 4 for Mastermind and Bulls and Cows), ``colours`` the symbols of a code game
    (default 6 colours, 10 digits). Code games only: ``repeats`` whether a code may repeat a
    symbol (default: Mastermind yes, Bulls and Cows no); ``black_only`` replies count black
    pegs (bulls) alone."""
    if name in VARIANTS:
        v = VARIANTS[name]
        if length not in (None, v.length):
            raise GpusolveError(f"{name} words have {v.length} letters (--length {length} is another game)")
        return replace(make_game(v.rule, v.length, colours, repeats, black_only), name=name,
                       default_answers=v.answers, default_guesses=v.guesses)
    if name not in GAMES:
        raise GpusolveError(f"unknown game {name!r}: choose one of {', '.join(game_names())}")
    if name in ("wordle", "jotto") and (repeats is not None or black_only):
        option = "--black-only" if black_only else ("--repeats" if repeats else "--no-repeats")
        raise GpusolveError(f"{option} is an option of mastermind and bulls, not {name}")
    if length is None:
        length = 4 if name in ("mastermind", "bulls") else 5
    if name == "wordle":
        if not 1 <= length <= 7:
            raise GpusolveError(f"Wordle words of {length} letters are not supported (1 to 7)")
        n = 3**length
        return Game("wordle", WORDLE, length, ascii_uppercase, n, n - 1, "answers", "allowed")
    if name == "jotto":
        if not 1 <= length <= 26:
            raise GpusolveError(f"Jotto words of {length} letters are not supported")
        return Game("jotto", JOTTO, length, ascii_uppercase, length + 1, length, "sgb", "sgb")
    bulls = name == "bulls"
    colours = (10 if bulls else 6) if colours is None else colours
    repeats = not bulls if repeats is None else repeats
    most = 10 if bulls else 9
    if not (1 <= length <= 9 and 2 <= colours <= most):
        what = "digits" if bulls else "colours"
        raise GpusolveError(f"{'Bulls and Cows' if bulls else 'Mastermind'} takes 1 to 9 pegs and "
                            f"2 to {most} {what}, not {length} of {colours}")
    if not repeats and length > colours:
        raise GpusolveError(f"codes of {length} different symbols need at least {length} of them, "
                            f"not {colours}")
    symbols = ("0123456789" if bulls else "123456789")[:colours]
    if black_only:
        return Game(name, BLACK_PEGS, length, symbols, length + 1, length, "", "", repeats)
    n = (length + 1) ** 2
    return Game(name, MASTERMIND, length, symbols, n, length * (length + 1), "", "", repeats)
