"""The error a user can fix (bad input, a bad choice, a missing file): its message is the whole story."""
from __future__ import annotations


class UserError(Exception):
    """Bad input or a bad choice: the command line prints the message as one line and exits 1.

    The message names the file (and line) or the valid choices; no traceback is shown.
    """


class UsageError(UserError):
    """A bad value of an option or argument (an unknown name, a misspelt query): the command line exits 2."""
