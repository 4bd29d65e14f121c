"""A run's outcome as an argument: ``passed`` is True or False. ``bool(value)`` took any value, so
``passed="false"`` (a label read from a CSV or JSON as text) was sent as a pass, and the report's tier was a
passing one: now a value that is no boolean raises ``bad_input`` naming it, before anything is sent."""

from __future__ import annotations

from typing import Any

from .errors import SteplensError


def outcome_flag(value: Any, where: str = "passed") -> bool:
    """``value`` as a bool: True, False, 1, 0, or a NumPy boolean (a dataset column's); else ``bad_input``."""
    if isinstance(value, bool):
        return value
    if type(value).__name__ == "bool_" and hasattr(value, "item"):
        return bool(value.item())
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise SteplensError("bad_input", f"{where}: expected True or False (got {value!r})")
