"""Errors that end a subcommand with a message and an exit code."""


class HarnessError(Exception):
    """A failure the user must act on; exit code 2 unless told otherwise."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
