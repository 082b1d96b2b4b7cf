"""Files a referee gives pbem: read within a size cap, as text or TOML, refused in one line.

Every command that reads a file the referee names (a position, the settings,
orders typed in, a receipt to check, mails to store) reads it here, so that a
file of the wrong kind (not UTF-8, /dev/zero, a table nested thousands deep,
a number no calendar or counter holds) is one line that names the file and
what is wrong with it, and nothing is done.
"""

import math
import tomllib

from .errors import PbemError

TEXT_BYTES = 1_000_000       # a position, the settings, a seat's orders: far more than any
MAIL_BYTES = 50_000_000      # a mail to store (one over [mail] max_bytes is stored, answered)
TOML_DEPTH = 20              # tables and arrays inside each other
BIGGEST = 2 ** 63 - 1        # a TOML integer: 64 bits, as TOML itself says


def read_bytes(path, limit: int) -> bytes:
    """The bytes of a file; PbemError when it holds more than `limit` (only `limit` and
    one more are ever read: /dev/zero is refused at once) or cannot be read."""
    try:
        with open(path, "rb") as handle:
            return capped(handle, path, limit)
    except OSError as problem:
        raise PbemError(f"{path}: {problem.strerror or problem}") from None


def capped(handle, name, limit: int) -> bytes:
    """All an open binary file holds, at most `limit` bytes; PbemError past it."""
    data = handle.read(limit + 1)
    if len(data) > limit:
        raise PbemError(f"{name}: more than {f'{limit:_}'.replace('_', ' ')} bytes; pbem "
                        "reads no file this large")
    return data


def utf8(data: bytes, name) -> str:
    """The text of a file's bytes, UTF-8 (a byte-order mark allowed); PbemError naming the
    first byte that is not."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        raise PbemError(f"{name}: not UTF-8 text (byte 0x{data[problem.start]:02x} at "
                        f"position {problem.start}); save it as UTF-8") from None


def read_toml(path, limit: int = TEXT_BYTES) -> dict:
    """A TOML file's tables; PbemError for a file too large, not UTF-8, not TOML, nested
    deeper than TOML_DEPTH, or holding a number out of range."""
    text = utf8(read_bytes(path, limit), path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        raise PbemError(f"{path}: {problem}") from None
    except RecursionError:
        raise PbemError(f"{path}: tables or arrays nested too deep (at most "
                        f"{TOML_DEPTH})") from None
    except ValueError:  # an integer of thousands of digits
        raise PbemError(f"{path}: a number too large to read") from None
    problem = out_of_bounds(data)
    if problem:
        raise PbemError(f"{path}: {problem}")
    return data


def out_of_bounds(data) -> str | None:
    """What makes parsed TOML data more than any file pbem reads holds: tables or arrays
    nested deeper than TOML_DEPTH, an integer past 64 bits, a number that is not finite.
    Looked at without recursion, so that depth itself cannot stop it."""
    todo = [(data, "", 0)]
    while todo:
        value, where, depth = todo.pop()
        if isinstance(value, (dict, list)):
            if depth > TOML_DEPTH:
                return f"{where.lstrip('.') or 'the file'}: tables or arrays nested more than " \
                       f"{TOML_DEPTH} deep"
            pairs = value.items() if isinstance(value, dict) else enumerate(value)
            todo += [(item, f"{where}.{key}" if isinstance(key, str) else f"{where}[{key}]",
                      depth + 1) for key, item in pairs]
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int) and abs(value) > BIGGEST:
            return f"{where.lstrip('.')}: a number larger than {BIGGEST}"
        elif isinstance(value, float) and not math.isfinite(value):
            return f"{where.lstrip('.')}: {value} is not a number pbem can use"
    return None
