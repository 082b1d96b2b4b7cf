"""pbem: a play-by-email referee for board games."""

__version__ = "0.1.0"
