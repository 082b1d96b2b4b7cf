"""Settings: built-in defaults, then pbem.toml, then PBEM_* environment variables.

A setting ``key`` at the top of pbem.toml is ``PBEM_KEY`` in the environment;
``[section] key`` is ``PBEM_SECTION_KEY`` (for example ``PBEM_SMTP_PASSWORD``).
Relative paths are relative to the folder of pbem.toml (or the current folder
when there is none). Passwords never come from the command line: give
``password``, ``password_env`` (the name of a variable holding it) or
``password_command`` (a command that prints it). For OAuth2 (XOAUTH2 or OAUTHBEARER: Microsoft
365, Outlook.com, Gmail), ``token_command`` is a command that prints a fresh
access token, as for mutt, isync and msmtp; it takes the password's place.

TLS certificates are checked against the system's authorities, or against
``ca_file`` (a PEM file) for a server whose certificate a private authority
signed.
"""

import copy
import os
from pathlib import Path
import tomllib

from .errors import TryLater
from .i18n import LANGUAGES
from .identity import address_problem

DEFAULTS = {
    "db": "pbem.db",
    "address": "pbem@localhost",
    "name": "pbem referee",
    "referee": "referee@localhost",
    "lang": "en",         # the club's language: its archive's pages, strangers' answers
    "publish_dir": "",    # where each tick rewrites the public archive of the games it changed
    "mail": {
        "inbox": "mail/inbox",
        "outbox": "mail/outbox",
        "max_bytes": 1_000_000,
        "rate_per_hour": 30,
        "handle_seconds": 30.0,
        "press_bytes": 20_000,
        "press_bytes_per_hour": 200_000,
    },
    "smtp": {
        "host": "",
        "port": 0,
        "security": "starttls",
        "user": "",
        "password": "",
        "password_env": "",
        "password_command": "",
        "token_command": "",
        "ca_file": "",
        "per_run": 100,
        "timeout": 30,
        "max_attempts": 8,
    },
    "imap": {
        "host": "",
        "port": 0,
        "security": "ssl",
        "user": "",
        "password": "",
        "password_env": "",
        "password_command": "",
        "token_command": "",
        "ca_file": "",
        "folder": "INBOX",
        "processed": "Processed",
        "timeout": 60,
        "idle_seconds": 600,
        "poll_seconds": 60,
    },
    "run": {
        "source": "",
        "maildir_seconds": 1.0,
    },
    "smtpd": {
        "listen": "127.0.0.1:2525",
        "max_bytes": 1_000_000,
        "store_timeout": 20.0,
        "tls_cert": "",
        "tls_key": "",
        "require_tls": False,
    },
}

# Where `pbem run` takes mail from ([run] source): empty means imap when [imap] host is set.
SOURCES = ("imap", "smtpd", "maildir")


LOCAL_HOSTS = ("localhost", "::1", "")


class ConfigError(ValueError):
    """A setting is missing or malformed."""


class Config:
    """Resolved settings, read as ``config["smtp"]["host"]`` or ``config.path("db")``."""

    def __init__(self, data: dict, base: Path, source: str | None):
        self.data = data
        self.base = base
        self.source = source
        self.printed: dict[str, int] = {}  # section -> lines its password or token command printed

    def __getitem__(self, key):
        return self.data[key]

    def path(self, *keys) -> Path:
        """A path setting, made absolute against the config's folder."""
        value = self.data
        for key in keys:
            value = value[key]
        path = Path(os.path.expanduser(str(value)))
        return path if path.is_absolute() else self.base / path

    def secret(self, section: str) -> str:
        """The password of a section, from the file, a variable or a command."""
        part = self.data[section]
        if part.get("password_command"):
            return self.command_output(section, "password_command")
        if part.get("password_env"):
            value = os.environ.get(part["password_env"])
            if value is None:
                raise ConfigError(f"[{section}] password_env: ${part['password_env']} is not set")
            return value
        return part.get("password", "")

    def token(self, section: str) -> str | None:
        """A fresh OAuth2 access token from the section's token_command; None without one."""
        if not self.data[section].get("token_command"):
            return None
        return self.command_output(section, "token_command")

    def command_output(self, section: str, key: str) -> str:
        """The first line the command of a setting prints, as mutt, isync and msmtp read it
        (`pass` and token helpers may print more after it).

        ConfigError, with the reason, when the command cannot be run at all (only new
        settings cure that); TryLater when it ran and failed, or printed nothing: a token
        server down, an agent not answering, may work again later.
        """
        import shlex
        import subprocess
        command = self.data[section][key]
        try:
            done = subprocess.run(shlex.split(command), capture_output=True, text=True,
                                  check=False, timeout=60)
        except ValueError as problem:  # shlex: an unclosed quote
            raise ConfigError(f"[{section}] {key}: {problem} in {command!r}") from None
        except OSError as problem:
            raise ConfigError(f"[{section}] {key}: cannot run {command!r}: "
                              f"{problem.strerror}") from None
        except subprocess.TimeoutExpired:
            raise TryLater(f"[{section}] {key} {command!r} gave no answer in 60 s") from None
        said = " ".join(done.stderr.split())[:300]
        if done.returncode != 0:
            raise TryLater(f"[{section}] {key} {command!r} failed with exit status "
                           f"{done.returncode}: {said or 'it printed no reason'}")
        lines = [line.strip() for line in done.stdout.splitlines()]
        self.printed[section] = sum(1 for line in lines if line)
        if not lines or not lines[0]:
            raise TryLater(f"[{section}] {key} {command!r} printed nothing"
                           + (" on its first line" if self.printed[section] else "")
                           + (f": {said}" if said else ""))
        return lines[0]

    def token_hint(self, section: str) -> str:
        """A note for a refused token when the token command printed more than one line."""
        lines = self.printed.get(section, 1)
        if lines <= 1 or not self.data[section].get("token_command"):
            return ""
        return (f"; token_command printed {lines} lines, and pbem takes the first as the "
                "token, as mutt and isync do")

    def clear_text_warning(self, section: str) -> str | None:
        """A warning when a [section] with security = "none" reaches another machine."""
        part = self.data[section]
        if part["security"] != "none" or part["host"] in LOCAL_HOSTS \
                or part["host"].startswith("127."):
            return None
        return (f'[{section}] security = "none": everything, password included, goes in '
                f"clear to {part['host']}; use \"ssl\" or \"starttls\" for a server on "
                "another machine")

    def client_tls(self, section: str):
        """TLS for connecting to the [section] server: verified against ca_file or the system
        (an ssl.SSLContext)."""
        import ssl
        if not self.data[section]["ca_file"]:
            return ssl.create_default_context()
        path = self.path(section, "ca_file")
        try:
            return ssl.create_default_context(cafile=str(path))
        except (OSError, ssl.SSLError) as problem:
            raise ConfigError(f"[{section}] ca_file {path}: {problem}") from None

    def server_tls(self):
        """TLS for `pbem smtpd` from [smtpd] tls_cert and tls_key (an ssl.SSLContext); None
        when neither is set."""
        import ssl
        part = self.data["smtpd"]
        if not part["tls_cert"] and not part["tls_key"]:
            if part["require_tls"]:
                raise ConfigError("[smtpd] require_tls needs tls_cert and tls_key")
            return None
        if not part["tls_cert"] or not part["tls_key"]:
            raise ConfigError("[smtpd] tls_cert and tls_key go together: set both or neither")
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        cert, key = self.path("smtpd", "tls_cert"), self.path("smtpd", "tls_key")
        try:
            context.load_cert_chain(cert, key)
        except (OSError, ssl.SSLError) as problem:
            raise ConfigError(f"[smtpd] tls_cert {cert} / tls_key {key}: {problem}") from None
        return context


def load(path: str | None = None, env=None, overrides: dict | None = None) -> Config:
    """Settings from defaults, the file (given, $PBEM_CONFIG or ./pbem.toml), env, overrides."""
    env = os.environ if env is None else env
    data = copy.deepcopy(DEFAULTS)
    chosen = path or env.get("PBEM_CONFIG")
    file = Path(chosen) if chosen else Path("pbem.toml")
    source = None
    if file.exists():
        try:
            merge(data, tomllib.loads(file.read_text(encoding="utf-8")), str(file))
        except tomllib.TOMLDecodeError as problem:
            raise ConfigError(f"{file}: {problem}") from None
        source = str(file)
    elif chosen:
        raise ConfigError(f"no settings file at {file}")
    merge(data, from_environment(env, password_variables(data, env)), "environment")
    merge(data, overrides or {}, "command line")
    for key in ("address", "referee"):
        problem = address_problem(data[key])
        if problem is not None:
            raise ConfigError(f"{key} = {data[key]!r} is not a mail address: {problem}")
    if data["lang"] not in LANGUAGES:
        raise ConfigError(f"lang: {data['lang']!r} is not a language pbem writes "
                          f"({' or '.join(LANGUAGES)})")
    return Config(data, file.resolve().parent if source else Path.cwd(), source)


def merge(data: dict, extra: dict, origin: str) -> None:
    """Lay `extra` over `data`, keeping each default's type; ConfigError on unknown keys."""
    for key, value in extra.items():
        if key not in data:
            raise ConfigError(f"{origin}: unknown setting {key!r}")
        if isinstance(data[key], dict):
            if not isinstance(value, dict):
                raise ConfigError(f"{origin}: {key!r} is a section, not a value")
            merge(data[key], value, f"{origin} [{key}]")
        else:
            data[key] = typed(data[key], value, f"{origin}: {key}")


BOOLEANS = {"1": True, "true": True, "yes": True, "on": True,
            "0": False, "false": False, "no": False, "off": False}


def typed(default, value, where: str):
    """A value converted to the type of its default."""
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if str(value).strip().lower() not in BOOLEANS:
            raise ConfigError(f"{where}: {value!r} is not true or false")
        return BOOLEANS[str(value).strip().lower()]
    try:
        return type(default)(value)
    except (TypeError, ValueError):
        kind = {int: "a whole number", float: "a number"}.get(type(default), "text")
        raise ConfigError(f"{where}: {value!r} is not {kind}") from None


def password_variables(data: dict, env) -> set[str]:
    """The variables the file or the environment name as password_env
    (PBEM_MAIL_PASSWORD, say)."""
    named = {part["password_env"] for part in data.values()
             if isinstance(part, dict) and part.get("password_env")}
    return named | {value for name, value in env.items()
                    if name.startswith("PBEM_") and name.endswith("_PASSWORD_ENV")}


def from_environment(env, passwords: set[str] = frozenset()) -> dict:
    """Settings given as PBEM_* variables; ConfigError, with the closest name, for a
    PBEM_* variable that is neither a setting nor a password_env."""
    out = {}
    for name, value in sorted(env.items()):
        if not name.startswith("PBEM_") or name == "PBEM_CONFIG" or name in passwords:
            continue
        key = name[5:].lower()
        if key in DEFAULTS and not isinstance(DEFAULTS[key], dict):
            out[key] = value
            continue
        section, _, rest = key.partition("_")
        if section in DEFAULTS and isinstance(DEFAULTS[section], dict) and rest in DEFAULTS[section]:
            out.setdefault(section, {})[rest] = value
            continue
        raise ConfigError(f"environment: {name} is not a pbem setting{closest(name)}")
    return out


def variable_names() -> list[str]:
    """Every PBEM_* variable pbem reads."""
    names = ["PBEM_CONFIG"]
    for key, value in DEFAULTS.items():
        names += [f"PBEM_{key}_{sub}".upper() for sub in value] if isinstance(value, dict) \
            else [f"PBEM_{key}".upper()]
    return names


def closest(name: str) -> str:
    """' (did you mean PBEM_X?)' for the variable nearest a misspelled one, or ''."""
    import difflib
    found = difflib.get_close_matches(name, variable_names(), n=1, cutoff=0.7)
    return f" (did you mean {found[0]}?)" if found else ""
