"""The one domain exception: a user mistake or an impossible request, said in one line."""


class GpusolveError(Exception):
    """A clear, one-line problem with the user's input; the CLI prints it and exits non-zero."""
