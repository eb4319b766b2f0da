"""The one exception type of the desync tools."""


class DesyncError(Exception):
    """An error the user can fix (bad file, bad window): printed without a traceback."""
