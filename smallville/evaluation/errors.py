"""The evaluation's own error: bad input a user can fix, said in one line."""


class EvaluationError(ValueError):
    """An evaluation that cannot run as asked; the message names the option or file and the fix."""
