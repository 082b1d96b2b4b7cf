"""pbem: a play-by-email referee for board games."""

__version__ = "0.3.0"
