"""The one exception type of the desync tools."""


class DesyncError(Exception):
    """An error the user can fix (bad file, bad window): printed without a traceback, on one line.

    path: the input file the error is about, once a message names it (h5file.input_error sets it,
    so that an enclosing `with open_output(...)` block does not name a second file)."""

    def __init__(self, message, path=None):
        super().__init__(message)
        self.path = path
