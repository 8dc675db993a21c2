"""The one domain exception: a user mistake or an impossible request, said in one line."""


class GpusolveError(Exception):
    """A clear, one-line problem with the user's input; the CLI prints it and exits non-zero."""


class Infeasible(GpusolveError):
    """No strategy meets the request: none finds every answer within the guesses allowed (the
    searches prove it; callers that expect it, such as a ranking of start words, catch this
    class and record the start word as impossible)."""


class Note(UserWarning):
    """Something the user should know that is not an error (e.g. an anagram played for a word);
    the CLI prints it as one ``note:`` line on stderr."""
