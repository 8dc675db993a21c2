"""Bounding one start word's total where the exact search cannot finish: a resumable long run.

The start word splits the answers into buckets (one per reply); its total is the number of
answers plus the least cost V(bucket) of each bucket with one guess fewer to go. The run keeps,
per bucket, a proven lower bound on V and the best subtree found (an upper bound), so that at
any moment

    answers + sum of the lower bounds  <=  the start word's least total  <=  the assembled tree's total.

Three phases, each recorded in a run directory (``gpusolve.runs.runstore``) as it goes, so that
a run stopped at any moment (time limit, Ctrl-C, SIGTERM, even ``kill -9``) loses nothing it
finished and a rerun goes further:

1. **Bucket bounds**: the start word's first-pass and (normal, consistent mode) second-pass
   bounds per bucket (``gpusolve.search.bounds``); unit ``bounds``.
2. **Bucket trees**: a subtree per bucket that finds every answer within the guesses left, the
   quickest first, so that a whole tree (an upper bound) exists early: the greedy entropy tree
   (``gpusolve.search.greedy``) where it fits, else the restricted search's (below;
   ``RESTRICTED_SECONDS``), else a screen's tree (``_Screen``: first guesses
   checked in rounds, every reply's answers by the worst-case search under a node budget
   growing each round, until one works; ``SCREEN_SECONDS``), else the worst-case search's
   (``gpusolve.search.worstcase``, ``TREE_SECONDS``); then, for those, the greedy tree repaired
   where it runs too deep by trying the next best guesses by entropy (``fitted_tree``), where it
   is better. A bucket still without a tree goes on with its screen at every level below,
   before its searches. Units ``upper:REPLY:TOTAL``.
3. **Bucket searches**: first, at each level, the exact search restricted to the bucket's best
   few first guesses by size bound (``RESTRICTED_CANDIDATES``, ``LEVEL_GROWTH`` times more each
   level; each searched alone, in that order, for at most ``RESTRICTED_GUESS_SHARE`` of the time,
   every reply below it exactly, with the best total so far as the cutoff): it finds
   a better tree cheaply where the whole search cannot finish (an upper bound, as any tree is;
   unit ``upper:REPLY:TOTAL``, how ``restricted search``). Then the exact search
   (``gpusolve.search.optimal.solve`` on the position after the start word's reply) with a cutoff
   ``C`` and a time limit; a search given ``SECOND_PASS_SECONDS`` or more first computes the
   second-pass bounds of the bucket's first guesses that the first pass leaves below its tree's
   total (at least ``C``; ``_Run._guess_bounds``, once per bucket), and takes them as the whole
   proof's start words' searches do: they refute guesses without a search and raise the floors
   of the others' buckets. It either finds V < C exactly, with its optimal subtree (units
   ``lower:REPLY:V`` and ``upper:REPLY:V``), or proves V >= C (unit ``lower:REPLY:C``), or runs
   out of time. A bucket's first search has the cutoff of its tree's total (finishing settles
   it: V exactly); later ones raise its lower bound, the cutoff one above the bound, then 2, 4,
   8... above while they succeed. Time goes in rounds
   (levels): each open bucket, largest gap first, gets ``SEARCH_SECONDS * LEVEL_GROWTH ** k``
   seconds at level k (unit ``level:REPLY:K`` once its time is spent), so every bucket is tried
   cheaply before any is tried dearly, and the buckets that settle cheaply settle first.

Every unit is a fact that stays true (a proven bound, a tree's total with the tree), so units
are only ever added: a bucket's bound is the highest recorded, its tree the one of least total.
The exact search's memo is shared by all buckets (their sets are all defined by moves from the
same root set) and its most costly entries go into the store too, so a rerun starts with them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..core.errors import GpusolveError, Infeasible
from ..core.patterns import PatternMatrix
from ..core.treefiles import from_json, to_json
from ..core.trees import Node, Tree, scores
from ..core.verify import verify_tree
from ..core.words import Word
from ..kernels.config import INF
from ..search.plumbing import Budget, OnProgress, Progress
from .runstore import RunStore, default_run_dir
from .subproblems import MIN_WORK, PER_UNIT
from .units import make_job

SEARCH_SECONDS = 20.0
"""The time a bucket's searches get at level 0 (seconds)."""

LEVEL_GROWTH = 4
"""How much more time each level gives a bucket than the one before."""

TREE_WIDTH = 32
"""Guesses tried (best by entropy) where a bucket's greedy tree runs too deep; ``TREE_NARROWING``
times fewer one level down, at least 2."""

TREE_NARROWING = 8

TREE_SECONDS = 60.0
"""The time the worst-case search gets to find a bucket a tree within the guesses left where the
repaired greedy tree and the screen do not (seconds)."""

TREE_PAIR_MB = 64
"""The worst-case search's pair cache there (MiB)."""

RESTRICTED_CANDIDATES = 16
"""First guesses the restricted search of a bucket tries at level 0 (``LEVEL_GROWTH`` times more
each level)."""

RESTRICTED_SECONDS = 60.0
"""The time the restricted search gets to find a tree for a bucket the greedy tree does not fit
(seconds), in the trees phase."""

RESTRICTED_SHARE = 0.5
"""The share of a level's time the restricted search gets, before the bucket's searches."""

RESTRICTED_GUESS_SHARE = 0.125
"""The most of a restricted search's time one first guess gets (the rest go on without it)."""

SECOND_PASS_SECONDS = 600.0
"""The least time a bucket's search must have for second-pass bounds of the bucket's first guesses
to be computed first (``_Run._guess_bounds``; minutes on the big hidden list's largest buckets,
more than the first levels give a search)."""

SCREEN_CANDIDATES = 160
"""First guesses a bucket's screen tries where the repaired greedy tree runs too deep: the best by
entropy and the best by largest bucket, alternately, this many of each."""

SCREEN_NODES = 1_000
"""The node budget of each check in a screen's first round; ``LEVEL_GROWTH`` times more each round."""

SCREEN_SECONDS = 600.0
"""The time a bucket's screen gets in the trees phase (seconds); a bucket still without a tree goes
on with it at every level, before its searches."""

BOUNDS_PHASE = "bucket bounds"
TREES_PHASE = "bucket trees"
SEARCH_PHASE = "buckets settled"
"""The run's progress phases (``Progress`` events)."""

STATUS = "bounds.json"
"""The run directory's status file: the bounds so far, per bucket (rewritten after every unit)."""


@dataclass
class Bucket:
    """One reply of the start word: its answers, the proven lower bound on their cost V (guesses
    after the start word, summed over them) and the best subtree found."""

    reply: int
    label: str
    answers: np.ndarray
    lower: int = 0
    lower_how: str = ""
    """What proves the lower bound: first-pass, second-pass or search (at a cutoff, or exact)."""
    upper: int | None = None
    upper_how: str = ""
    """Where the subtree comes from: greedy (repaired where too deep), worst-case, screen, restricted
    search or search (exact)."""
    tree: Tree | None = None
    level: int = 0
    """The next level of search time this bucket gets."""

    @property
    def exact(self) -> bool:
        """Return whether V is known exactly (the bound meets the tree's total)."""
        return self.upper is not None and self.lower >= self.upper

    @property
    def gap(self) -> int:
        """Return the tree's total less the bound (INF without a tree)."""
        return INF if self.upper is None else self.upper - self.lower

    def as_dict(self) -> dict:
        """Return the bucket as JSON."""
        return {"reply": self.label, "answers": len(self.answers), "lower": self.lower,
                "lower_how": self.lower_how, "upper": self.upper, "upper_how": self.upper_how,
                "exact": self.exact, "level": self.level}


@dataclass
class Bounds:
    """What a bounding run established about one start word (or, stopped, how far it got)."""

    start: Word
    n_answers: int
    buckets: list[Bucket]
    max_guesses: int
    run_dir: Path
    first_pass: int
    second_pass: int | None
    stopped: str | None = None
    """Why the run stopped before every bucket was exact: 'time limit', 'interrupted' (None: it
    was not stopped)."""
    seconds: float = 0.0
    searches_now: int = 0
    tree: Tree | None = field(default=None, repr=False)

    @property
    def lower(self) -> int:
        """Return the proven lower bound on the start word's total."""
        return min(INF, self.n_answers + sum(b.lower for b in self.buckets))

    @property
    def upper(self) -> int | None:
        """Return the total of the assembled tree (None until every bucket has a subtree)."""
        if any(b.upper is None for b in self.buckets):
            return None
        return self.n_answers + sum(b.upper for b in self.buckets)

    @property
    def gap(self) -> int | None:
        """Return the upper bound less the lower (None without a whole tree)."""
        return None if self.upper is None else self.upper - self.lower

    @property
    def infeasible(self) -> bool:
        """Return whether some bucket is proven to need more guesses than are left."""
        return self.lower >= INF

    @property
    def complete(self) -> bool:
        """Return whether the least total is proven (every bucket exact), or none exists."""
        return self.infeasible or all(b.exact for b in self.buckets)

    def how(self) -> dict[str, int]:
        """Return how many buckets each kind of proof settles: exact by search, exact by bound
        (the bound meets the tree's total), or bounded by search, second pass or first pass."""
        out: dict[str, int] = {}
        for b in self.buckets:
            key = ("exact by search" if b.lower_how == "search" else "exact by bound") if b.exact \
                else f"bounded by {b.lower_how}"
            out[key] = out.get(key, 0) + 1
        return out

    def statement(self) -> str:
        """Return what the run proves, in one sentence."""
        if self.infeasible:
            return (f"{self.start} cannot find every answer within {self.max_guesses} guesses (proven by a "
                    "bucket's bound)")
        how = ", ".join(f"{k} {v}" for k, v in self.how().items())
        parts = f"{len(self.buckets):,} buckets: {how}"
        if self.complete:
            return f"{self.start}'s least total is {self.lower:,}, proven ({parts})"
        if self.upper is None:
            return f"{self.start}'s least total is at least {self.lower:,} ({parts}); no whole tree yet"
        return (f"{self.start}'s least total is at least {self.lower:,} and at most {self.upper:,} "
                f"(a verified tree), gap {self.gap:,} ({parts})")

    def as_dict(self) -> dict:
        """Return the run's result as JSON."""
        return {"start": self.start, "answers": self.n_answers, "max_guesses": self.max_guesses,
                "lower": self.lower, "upper": self.upper, "gap": self.gap, "proven": self.complete,
                "first_pass": self.first_pass, "second_pass": self.second_pass,
                "statement": self.statement(), "stopped": self.stopped, "run_dir": str(self.run_dir),
                "seconds": round(self.seconds, 3), "searches_now": self.searches_now,
                "buckets": [b.as_dict() for b in sorted(self.buckets, key=lambda b: -len(b.answers))]}


def bounds_job(pm: PatternMatrix, guesses: str | None, answers: str | None, mode: str,
               max_guesses: int) -> dict[str, object]:
    """Return the run parameters of a bounding run (without the start word)."""
    job = make_job("exact", pm, guesses, answers, mode, max_guesses, "")
    return replace(job, task="bounds").params()


def check_fits(game, n_guesses: int, n_answers: int, workers: int, memo_mb: int, max_guesses: int) -> None:
    """Refuse, before the matrix is built, a bounding run whose matrices, memo and workspaces
    cannot fit in this machine's memory. The compiled search only ever holds sets smaller than
    ``DRIVER_MIN_ANSWERS`` (larger ones are searched guess by guess in Python), so a worker's
    workspace is sized to those, not to the whole answer list."""
    from ..core.games import matrix_bytes
    from ..core.limits import check_memory
    from ..search.optimal import DRIVER_MIN_ANSWERS, workspace_bytes

    small = min(n_answers, DRIVER_MIN_ANSWERS)
    per_worker = workspace_bytes(n_guesses, small, game.n_patterns, max_guesses + 2) + 16 * n_answers * (
        max_guesses + 2)
    need = ((memo_mb + TREE_PAIR_MB) * 2**20 + 2 * matrix_bytes(game, n_guesses, n_answers)
            + workers * per_worker)
    check_memory(need, f"the bounding run ({workers} workers, {n_answers:,} answers, {n_guesses:,} guesses, "
                 f"--memo-mb {memo_mb})", "lower --memo-mb or --workers", total=True)


def bound_start(pm: PatternMatrix, start: str, guesses: str | None = None, answers: str | None = None, *,
                mode: str = "normal", max_guesses: int = 6, run_dir: str | Path | None = None,
                seconds: float | None = None, workers: int | None = None, memo_mb: int | None = None,
                progress: OnProgress | None = None) -> Bounds:
    """Return proven bounds on the least total of the first guess ``start`` and the best tree
    found, from a run that resumes from ``run_dir`` (default: named after the parameters) and
    stops after ``seconds`` (None: when every bucket is exact), or on Ctrl-C or SIGTERM, keeping
    everything finished."""
    from ..search.defaults import DEFAULT_MEMO_MB

    if mode not in ("normal", "consistent"):
        raise GpusolveError(f"bounding a start word plays normal or consistent mode, not {mode}")
    if seconds is not None and seconds <= 0:
        raise GpusolveError(f"the time limit must be positive (got {seconds:g})")
    word = pm.game.parse_word(start, pm.guess_index)
    row = pm.guess_index[word]
    if mode == "consistent" and word not in set(pm.answers):
        raise GpusolveError(f"{word} is not an answer: consistent mode guesses answers only")
    params = {**bounds_job(pm, guesses, answers, mode, max_guesses), "start": word}
    path = Path(run_dir) if run_dir else default_run_dir(params)
    began = time.perf_counter()
    with RunStore(path, params) as store:
        run = _Run(pm, store, word, row, mode, max_guesses, workers, memo_mb or DEFAULT_MEMO_MB, progress,
                   None if seconds is None else time.monotonic() + seconds)
        stopped = None
        try:
            run.bounds()
            run.trees()
            run.searches()
        except KeyboardInterrupt:
            stopped = "interrupted"
        except _TimeUp:
            stopped = "time limit"
        result = run.result(stopped, time.perf_counter() - began, tree=True)
        run.write_status(result)
        return result


class _TimeUp(Exception):
    """The run's time limit passed."""


class _Run:
    """One bounding run: the buckets, the facts the store holds about them, and the searches."""

    def __init__(self, pm: PatternMatrix, store: RunStore, word: Word, row: int, mode: str,
                 max_guesses: int, workers: int | None, memo_mb: int, progress: OnProgress | None,
                 deadline: float | None) -> None:
        from ..search.memo import MemoPool

        self.pm, self.store, self.word, self.row, self.mode = pm, store, word, row, mode
        self.max_guesses, self.workers, self.memo_mb = max_guesses, workers, memo_mb
        self.progress, self.deadline = progress, deadline
        self.pool = MemoPool()
        known = store.load_subproblems()
        self.known = known if len(known) else None
        """The store's subproblem entries, put in the memo by the first search."""
        self.searches_now = 0
        answers = np.arange(pm.shape[1], dtype=np.int32)
        replies = pm.codes[row, answers]
        self.solved_answer = pm.game.solved in replies
        self.buckets = [Bucket(int(p), pm.game.format_reply(int(p)), answers[replies == p])
                        for p in np.unique(replies) if p != pm.game.solved]
        self.by_label = {b.label: b for b in self.buckets}
        self.first_pass = self.second_pass = None
        self.guess_bounds: dict[str, tuple[int, dict[int, np.ndarray]]] = {}
        """Per bucket, the cutoff its first guesses' second-pass bounds were computed for, and
        those bounds (``_guess_bounds``)."""
        self.screens: dict[str, _Screen | None] = {}
        """Each bucket's screen under way (None: the worst-case search cannot play these lists)."""
        self._load()

    # --- the store's facts --------------------------------------------------------------------

    def _load(self) -> None:
        """Take every fact the store holds."""
        for unit, result in self.store.results().items():
            kind, _, rest = unit.partition(":")
            if kind == "bounds":
                self._take_bounds(result)
                continue
            label, _, _ = rest.partition(":")
            self._take(self.by_label[label], kind, result)

    def _take(self, b: Bucket, kind: str, result: dict, tree: Tree | None = None) -> None:
        """Take one fact about bucket ``b`` (``tree``: an upper fact's tree, else read from it)."""
        if kind == "lower":
            self._raise(b, result["bound"], result["how"])
        elif kind == "upper" and (b.upper is None or result["total"] < b.upper):
            b.upper, b.upper_how = int(result["total"]), result["how"]
            b.tree = tree if tree is not None else from_json(result["tree"])[0]
        elif kind == "level":
            b.level = max(b.level, result["level"] + 1)

    def _take_bounds(self, result: dict) -> None:
        """Take the first-pass and second-pass bucket bounds."""
        self.first_pass, self.second_pass = result["first_pass"], result["second_pass"]
        for how in ("first-pass", "second-pass"):
            for label, bound in result["buckets"][how].items():
                self._raise(self.by_label[label], bound, how)

    @staticmethod
    def _raise(b: Bucket, bound: int, how: str) -> None:
        if bound > b.lower:
            b.lower, b.lower_how = int(bound), how

    def _save(self, b: Bucket, facts: list[tuple[str, int, dict, Tree | None]], subproblems=None) -> None:
        """Record facts about bucket ``b`` (unit ``KIND:REPLY:VALUE``, result, an upper fact's tree)
        in one transaction, then take them."""
        self.store.save([(f"{kind}:{b.label}:{value}", b.reply, result) for kind, value, result, _ in facts],
                        subproblems=subproblems)
        for kind, _, result, tree in facts:
            self._take(b, kind, result, tree)
        self.write_status(self.result(None, 0.0))

    def write_status(self, result: Bounds) -> None:
        """Rewrite the run directory's status file (atomically)."""
        import json

        from ..core.cache import write_atomic

        write_atomic(self.store.path / STATUS, (json.dumps(result.as_dict(), indent=1) + "\n").encode())

    def _report(self, phase: str, done: int, total: int) -> None:
        if self.progress:
            result = self.result(None, 0.0)
            upper = "?" if result.upper is None else f"{result.upper:,}"
            self.progress(Progress(phase, done, total, f"lower {result.lower:,}  upper {upper}"))

    def _check_time(self) -> None:
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _TimeUp

    # --- phase 1: bounds ----------------------------------------------------------------------

    def bounds(self) -> None:
        """Record the first-pass and second-pass bounds of every bucket (once)."""
        from ..search.bounds import first_pass, guess_caps, guess_table, second_pass

        if self.first_pass is not None:
            return
        self._report(BOUNDS_PHASE, 0, 1)
        pm = self.pm
        answers = np.arange(pm.shape[1], dtype=np.int32)
        members_only = self.mode == "consistent"
        rows = guesser_rows(pm, answers, self.mode)
        caps = guess_caps(guess_table(pm, answers, rows))
        first = first_pass(pm, answers, np.array([self.row], np.int32), rows, caps, self.max_guesses - 1,
                           members_only=members_only)
        second = second_pass(pm, answers, first, rows, self.max_guesses - 1, pm.branches, members_only)
        result = {"first_pass": int(first.totals[0]), "second_pass": int(second.totals[0]), "buckets": {
            how: {b.label: int(bounds.buckets[0, b.reply]) for b in self.buckets}
            for how, bounds in (("first-pass", first), ("second-pass", second))}}
        self.store.save([("bounds", -1, result)])
        self._take_bounds(result)
        self._report(BOUNDS_PHASE, 1, 1)

    # --- phase 2: trees -----------------------------------------------------------------------

    def trees(self) -> None:
        """Record a subtree within the guesses left for every bucket lacking one, the quickest
        first: the greedy trees that fit of all, smallest first, then the restricted search's,
        the screens' and the worst-case search's trees of the buckets still lacking one; then, for
        those, the repaired greedy tree where it is better."""
        todo = sorted((b for b in self.buckets if b.upper is None and b.lower < INF),
                      key=lambda b: len(b.answers))
        for how, find in (("greedy", lambda b: self._fitted_tree(b, 0)),
                          ("restricted search",
                           lambda b: self._restricted_tree(b, RESTRICTED_CANDIDATES, RESTRICTED_SECONDS)),
                          ("screen", lambda b: self._screened_tree(b, time.monotonic() + SCREEN_SECONDS)),
                          ("worst-case", self._worst_case_tree)):
            for b in [b for b in todo if b.upper is None]:
                self._tree_from(b, how, find)
        for b in [b for b in todo if b.upper is not None and b.upper_how != "greedy"]:
            self._tree_from(b, "greedy", lambda b: self._fitted_tree(b, TREE_WIDTH))
        self._report(TREES_PHASE, sum(b.upper is not None for b in self.buckets), len(self.buckets))

    def _tree_from(self, b: Bucket, how: str, find) -> None:
        """Record the tree ``find(b)`` finds for bucket ``b`` (if any) where it is its best."""
        self._check_time()
        self._report(TREES_PHASE, sum(b.upper is not None for b in self.buckets), len(self.buckets))
        found = find(b)
        if found is not None and (b.upper is None or found[1] < b.upper):
            self._save(b, [self._upper_fact(found[0], found[1], how)])

    def _fitted_tree(self, b: Bucket, width: int) -> tuple[Tree, int] | None:
        """Return (bucket ``b``'s greedy tree, repaired with ``width`` guesses where it runs too
        deep, its total), or None where it still does."""
        return fitted_tree(self.pm, b.answers, self.max_guesses - 1, self.mode, width)

    def _worst_case_tree(self, b: Bucket) -> tuple[Tree, int] | None:
        """Return (a tree of bucket ``b`` within the guesses left, its total) from the worst-case
        search, or None where it finds none in ``TREE_SECONDS`` (the searches find one later)."""
        from ..search.worstcase import worst_case

        left = self.max_guesses - 1
        try:
            found = worst_case(self.pm, b.answers, self.mode, max_depth=left, min_depth=left,
                               budget=Budget(None, TREE_SECONDS), pair_mb=TREE_PAIR_MB)
        except (Infeasible, GpusolveError):  # none within the guesses left, or not in time
            return None
        return found.tree, sum(k for _, k in scores(found.tree))

    def _screened_tree(self, b: Bucket, ends: float) -> tuple[Tree, int] | None:
        """Return (a tree of bucket ``b`` within the guesses left, its total) from its screen, or
        None where it finds none by ``ends`` (``time.monotonic()``; the run's time limit too) or
        cannot (the screen goes on from there next time)."""
        if b.label not in self.screens:
            try:
                self.screens[b.label] = _Screen(self.pm, b.answers, self.max_guesses - 1, self.mode) \
                    if self.max_guesses >= 3 else None
            except GpusolveError:  # the worst-case search needs every answer among the guesses
                self.screens[b.label] = None
        screen = self.screens[b.label]
        if self.deadline is not None:
            ends = min(ends, self.deadline)
        found = None if screen is None else screen.run(ends)
        if found is not None:
            del self.screens[b.label]
        return found

    def _upper_fact(self, tree: Tree, total: int, how: str) -> tuple[str, int, dict, Tree]:
        """Return the fact of a bucket's subtree ``tree`` of ``total`` found by ``how``."""
        return "upper", total, {"total": total, "how": how, "tree": to_json(tree, self.pm.game)}, tree

    # --- phase 3: searches ----------------------------------------------------------------------

    def open(self) -> list[Bucket]:
        """Return the buckets not yet exact, largest gap first."""
        if any(b.lower >= INF for b in self.buckets):
            return []
        return sorted((b for b in self.buckets if not b.exact), key=lambda b: (-b.gap, b.reply))

    def searches(self) -> None:
        """Search the open buckets level by level until every one is exact."""
        level = min((b.level for b in self.open()), default=0)
        while self.open():
            for b in [b for b in self.open() if b.level <= level]:
                self._attempt(b, level)
            level += 1

    def _attempt(self, b: Bucket, level: int) -> None:
        """Spend the level's time on bucket ``b``: its screen first where it has no tree yet, then
        a search at its tree's total the first time, else searches raising its bound by 1, 2, 4,
        ... while they succeed."""
        allowed = SEARCH_SECONDS * LEVEL_GROWTH ** level
        ends = time.monotonic() + allowed
        if b.upper is None:
            found = self._screened_tree(b, ends)
            if found is not None:
                self._save(b, [self._upper_fact(found[0], found[1], "screen")])
        if not b.exact:
            found = self._restricted_tree(b, RESTRICTED_CANDIDATES * LEVEL_GROWTH ** level,
                                          allowed * RESTRICTED_SHARE)
            if found is not None:
                self._save(b, [self._upper_fact(found[0], found[1], "restricted search")])
        step = b.gap if b.level == 0 and b.upper is not None else 1
        while not b.exact:
            self._check_time()
            left = ends - time.monotonic()
            if self.deadline is not None:
                left = min(left, self.deadline - time.monotonic())
            if left <= 0:
                break
            cutoff = min(INF if b.upper is None else b.upper, b.lower + step)
            if not self._search(b, cutoff, left):
                self._check_time()  # the run's time limit cut it: the level is not spent
                break
            step *= 2
        if not b.exact:
            b.level = level + 1
            self._save(b, [("level", level, {"level": level, "seconds": allowed, "bound": b.lower}, None)])

    def _restricted_tree(self, b: Bucket, candidates: int, seconds: float) -> tuple[Tree, int] | None:
        """Return (the best tree the exact search finds for bucket ``b`` with its first guess one of
        the ``candidates`` best by size bound, its total) where it is below the bucket's tree; None
        where none is found within ``seconds``. Each guess is searched alone, in that order, with
        the best total so far as the cutoff, for at most ``RESTRICTED_GUESS_SHARE`` of the time: a
        costly guess (a trap proven only deep down) no longer holds up those after it."""
        ends = time.monotonic() + seconds
        if self.deadline is not None:
            ends = min(ends, self.deadline)
        best, cutoff = None, INF if b.upper is None else b.upper
        for guess, bound in restricted_guesses(self.pm, b.answers, self.mode, self.max_guesses - 1,
                                               candidates):
            left = ends - time.monotonic()
            if bound >= cutoff or left <= 0:
                break
            found = self._tree_under(b, guess, cutoff, min(left, seconds * RESTRICTED_GUESS_SHARE))
            if found is not None:
                best, cutoff = found, found[1]
        return best

    def _tree_under(self, b: Bucket, guess: int, cutoff: int, seconds: float) -> tuple[Tree, int] | None:
        """Return (bucket ``b``'s best tree with first guess row ``guess``, its total) where it is
        below ``cutoff``; None where it is not, or not found within ``seconds``."""
        from ..search.optimal import Options, Question, solve

        budget = Budget(None, seconds)
        options = Options(memo_mb=self.memo_mb, workers=self.workers, memos=self.pool, budget=budget,
                          known=self.known)
        question = Question(start=self.pm.guesses[guess], moves=((self.word, b.reply),), mode=self.mode,
                            max_guesses=self.max_guesses, cutoff=None if cutoff >= INF else cutoff)
        try:
            res = solve(self.pm, question, options)
        except Infeasible:  # no strategy after it finds every answer within the guesses left
            return None
        finally:
            self.known = None  # in the memo now
        if budget.interrupted:
            raise KeyboardInterrupt
        if res.interrupted or res.total is None or res.total >= cutoff:
            return None
        return res.tree, res.total

    def _search(self, b: Bucket, cutoff: int, seconds: float) -> bool:
        """Search bucket ``b`` with ``cutoff`` for at most ``seconds``; record what it proves and
        return whether it finished."""
        from ..search.optimal import Options, Question, solve

        began = time.monotonic()
        # for the tree's total, the highest cutoff any of the bucket's searches has: computed once
        guess_bounds = self._guess_bounds(b, cutoff if b.upper is None else b.upper) \
            if seconds >= SECOND_PASS_SECONDS else None
        budget = Budget(None, max(seconds - (time.monotonic() - began), 0.001))
        options = Options(memo_mb=self.memo_mb, workers=self.workers, memos=self.pool, budget=budget,
                          known=self.known, keep_subproblems=PER_UNIT,
                          min_work=MIN_WORK, bucket_bounds=guess_bounds)
        question = Question(moves=((self.word, b.reply),), mode=self.mode, max_guesses=self.max_guesses,
                            cutoff=cutoff)
        try:
            res = solve(self.pm, question, options)
        except Infeasible:  # every guess refuted by INF: no strategy within the guesses left
            self.known = None
            self.searches_now += 1
            self._save(b, [("lower", INF, {"bound": INF, "how": "search"}, None)])
            return True
        self.known = None  # in the memo now
        if budget.interrupted:
            raise KeyboardInterrupt
        if res.interrupted:
            return False
        self.searches_now += 1
        value = cutoff if res.total is None else res.total  # proven >= the cutoff, or exact
        facts = [("lower", value, {"bound": value, "how": "search"}, None)]
        if res.total is not None and (b.upper is None or res.total < b.upper):
            facts.append(self._upper_fact(res.tree, res.total, "search"))
        self._save(b, facts, res.subproblems)
        self._report(SEARCH_PHASE, sum(x.exact for x in self.buckets), len(self.buckets))
        return True

    def _guess_bounds(self, b: Bucket, cutoff: int) -> dict[int, np.ndarray] | None:
        """Return the second-pass bounds of the buckets of bucket ``b``'s first guesses that its
        first pass leaves below ``cutoff`` (guess row -> a proven bound per reply), for its search,
        as the whole proof gives them to its start words' searches: they refute guesses the first
        pass does not, and give the others' buckets higher floors. None where the search takes
        no first-pass bounds (too few answers, or one guess to go). Kept per bucket, for the
        highest cutoff asked (a lower one needs those of fewer guesses)."""
        from ..search import optimal
        from ..search.bounds import FirstPass, first_pass, guess_caps, guess_table, second_pass

        left = self.max_guesses - 2  # after the start word and the bucket's first guess
        if len(b.answers) < optimal.FIRST_PASS_MIN_ANSWERS or left < 1:
            return None
        kept = self.guess_bounds.get(b.label)
        if kept is not None and kept[0] >= cutoff:
            return kept[1]
        pm = self.pm
        members_only = self.mode == "consistent"
        rows = guesser_rows(pm, b.answers, self.mode)
        caps = guess_caps(guess_table(pm, b.answers, rows))
        first = first_pass(pm, b.answers, rows, rows, caps, left, members_only=members_only, cutoff=cutoff)
        below = np.flatnonzero(first.totals < cutoff)  # complete scans: their bucket bounds are whole
        first = FirstPass(first.starts[below], first.totals[below], first.buckets[below], first.cutoff)
        second = second_pass(pm, b.answers, first, rows, left, pm.branches, members_only)
        found = {int(g): second.buckets[j] for j, g in enumerate(second.starts)}
        self.guess_bounds[b.label] = cutoff, found
        return found

    # --- the result -----------------------------------------------------------------------------

    def result(self, stopped: str | None, seconds: float, tree: bool = False) -> Bounds:
        """Return the bounds known now (with ``tree``: the assembled tree, checked, where every
        bucket has a subtree)."""
        result = Bounds(self.word, self.pm.shape[1], self.buckets, self.max_guesses, self.store.path,
                        self.first_pass or 0, self.second_pass, stopped, seconds, self.searches_now)
        if tree and result.upper is not None and not result.infeasible:
            result.tree = self.assemble(result.upper)
        return result

    def assemble(self, upper: int) -> Tree:
        """Return the whole tree (the start word, each bucket's subtree), checked valid and of total
        ``upper``."""
        pm = self.pm
        node = Node(self.word, pm.shape[1], {b.reply: b.tree for b in self.buckets})
        if self.solved_answer:
            node.branches[pm.game.solved] = self.word
        node.branches = dict(sorted(node.branches.items()))
        problems = verify_tree(node, pm, self.mode, self.max_guesses)
        total = sum(k for _, k in scores(node))
        if problems or total != upper:
            raise GpusolveError(f"internal error: the assembled tree is not valid ({'; '.join(problems[:3])})"
                                f" or its total {total:,} is not {upper:,}")
        return node


class _Screen:
    """A bucket's search for a first guess after which every reply's answers can be found within
    the guesses left, for buckets whose greedy trees run too deep and whose worst-case search
    takes too long (it proves each guess that does not work, however costly): the candidates are
    checked in rounds, each reply's answers by the worst-case search under a node budget
    (``Within``); a candidate proven not to work is dropped, one not settled goes to the next
    round, with ``LEVEL_GROWTH`` times the budget."""

    def __init__(self, pm: PatternMatrix, answers: np.ndarray, depth: int, mode: str) -> None:
        from ..search.worstcase import Within

        self.pm, self.answers, self.depth, self.mode = pm, answers, depth, mode
        self.within = Within(pm, depth - 1, mode, TREE_PAIR_MB)
        self.todo = screen_candidates(pm, answers, mode)[::-1]
        """This round's candidates (guess rows) left, the next one last."""
        self.kept: list[int] = []
        """This round's candidates not settled, for the next round."""
        self.nodes = SCREEN_NODES
        self.unsettled: dict[bytes, int] = {}
        """The largest budget that did not settle a set of answers (by its columns' bytes)."""

    def run(self, ends: float) -> tuple[Tree, int] | None:
        """Return (a tree of the bucket within the depth, its total) once a candidate works; None
        when none is left or, after at least one candidate, at ``ends`` (``time.monotonic()``)."""
        while self.todo or self.kept:
            if not self.todo:
                self.todo, self.kept = self.kept[::-1], []
                self.nodes *= LEVEL_GROWTH
            guess = self.todo.pop()
            works = self.works(guess)
            if works:
                return self.tree(guess)
            if works is None:
                self.kept.append(guess)
            if time.monotonic() >= ends:
                return None
        return None

    def parts(self, guess: int) -> list[np.ndarray]:
        """Return the answers of each reply to guess row ``guess`` but the solved one, largest first."""
        replies = self.pm.codes[guess, self.answers]
        found, counts = np.unique(replies, return_counts=True)
        return [self.answers[replies == p] for p in found[np.argsort(-counts, kind="stable")]
                if p != self.pm.game.solved]

    def works(self, guess: int) -> bool | None:
        """Return whether every reply's answers after guess row ``guess`` can be found within the
        guesses left (None: not settled within the round's budget)."""
        parts = self.parts(guess)
        if len(parts) == 1 and len(parts[0]) == len(self.answers):
            return False
        for part in parts:
            key = part.tobytes()
            if self.unsettled.get(key, 0) >= self.nodes:
                return None
            found = self.within.check(part, self.nodes)
            if found is None:
                self.unsettled[key] = self.nodes
                return None
            if not found:
                return False
        return True

    def tree(self, guess: int) -> tuple[Tree, int]:
        """Return (the bucket's tree with first guess row ``guess``, which works, its total): each
        reply's greedy tree where it fits in the guesses left, else the worst-case search's."""
        from ..search.greedy import greedy_tree

        pm = self.pm
        node, total = Node(pm.guesses[guess], len(self.answers)), len(self.answers)
        if pm.game.solved in pm.codes[guess, self.answers]:
            node.branches[pm.game.solved] = pm.guesses[guess]
        for part in self.parts(guess):
            sub = greedy_tree(pm, "entropy", self.mode, answers=part)
            found = [k for _, k in scores(sub)]
            if max(found) > self.depth - 1:
                sub = self.within.tree(part)
                found = [k for _, k in scores(sub)]
            node.branches[int(pm.codes[guess, part[0]])] = sub
            total += sum(found)
        node.branches = dict(sorted(node.branches.items()))
        return node, total


def guesser_rows(pm: PatternMatrix, answers: np.ndarray, mode: str) -> np.ndarray:
    """Return the guess rows that may be played on ``answers``: in consistent mode the answers'
    own rows, sorted, else every guess."""
    if mode == "consistent":
        return np.sort(pm.answer_rows[answers]).astype(np.int32)
    return np.arange(pm.shape[0], dtype=np.int32)


def restricted_guesses(pm: PatternMatrix, answers: np.ndarray, mode: str, left: int,
                       candidates: int) -> list[tuple[int, int]]:
    """Return the ``candidates`` best first guesses of ``answers`` with ``left`` guesses to go by
    size bound, in the exact search's order: (guess row, its size bound) pairs."""
    from ..kernels.optimal_cpu import sort_keys
    from ..search.bounds import guess_table, size_bound

    rows = guesser_rows(pm, answers, mode)
    table = guess_table(pm, answers, rows)
    most = int((table[:, 0] + table[:, 1]).max())
    useful = (table[:, 0] > 1) | (table[:, 1] == 1) | (len(answers) == 1)
    rows, table = rows[useful], table[useful]
    bounds = size_bound(pm, answers, rows, most, left - 1)
    order = np.argsort(sort_keys(bounds, np.ascontiguousarray(table[:, 2])), kind="stable")[:candidates]
    return [(int(rows[i]), int(bounds[i])) for i in order]


def screen_candidates(pm: PatternMatrix, answers: np.ndarray, mode: str) -> list[int]:
    """Return the guess rows a screen of ``answers`` tries, in order: the best by entropy and the
    best by largest bucket, alternately, ``SCREEN_CANDIDATES`` of each (repeats once)."""
    from ..search.metrics import partition_table, ranking

    rows = guesser_rows(pm, answers, mode)
    table = partition_table(pm, answers, rows)
    both = np.stack([ranking(table, metric)[:SCREEN_CANDIDATES] for metric in ("entropy", "max")], axis=1)
    return list(dict.fromkeys(int(rows[i]) for i in both.ravel()))


def fitted_tree(pm: PatternMatrix, answers: np.ndarray, depth: int, mode: str = "normal",
                width: int = TREE_WIDTH) -> tuple[Tree, int] | None:
    """Return (a tree finding every one of ``answers`` within ``depth`` guesses, its total), or
    None where none is found: the greedy entropy tree, or where it runs too deep, the best of the
    ``width`` best guesses by entropy (none: 0), each with such trees below it (``TREE_NARROWING``
    times fewer guesses tried there)."""
    from ..search.greedy import greedy_tree
    from ..search.metrics import partition_table, ranking

    n = len(answers)
    if n == 1:
        return pm.answers[int(answers[0])], 1
    if depth <= 1:
        return None
    tree = greedy_tree(pm, "entropy", mode, answers=answers)
    found = [k for _, k in scores(tree)]
    if max(found) <= depth:
        return tree, sum(found)
    if not width:
        return None
    rows = guesser_rows(pm, answers, mode)
    best = None
    for g in rows[ranking(partition_table(pm, answers, rows), "entropy")[:width]]:
        replies = pm.codes[g, answers]
        if len(np.unique(replies)) == 1 and replies[0] != pm.game.solved:
            continue
        node, total = Node(pm.guesses[g], n), n
        for p in np.unique(replies):
            if p == pm.game.solved:
                node.branches[int(p)] = pm.guesses[g]
                continue
            sub = fitted_tree(pm, answers[replies == p], depth - 1, mode, max(2, width // TREE_NARROWING))
            if sub is None:
                break
            node.branches[int(p)] = sub[0]
            total += sub[1]
        else:
            if best is None or total < best[1]:
                best = (node, total)
    return best


__all__ = ["Bounds", "Bucket", "bound_start", "check_fits", "fitted_tree"]
