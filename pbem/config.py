"""Settings: built-in defaults, then pbem.toml, then PBEM_* environment variables.

A setting ``key`` at the top of pbem.toml is ``PBEM_KEY`` in the environment;
``[section] key`` is ``PBEM_SECTION_KEY`` (for example ``PBEM_SMTP_PASSWORD``).
Relative paths are relative to the folder of pbem.toml (or the current folder
when there is none). Passwords never come from the command line: give
``password``, ``password_env`` (the name of a variable holding it) or
``password_command`` (a command that prints it).

TLS certificates are checked against the system's authorities, or against
``ca_file`` (a PEM file) for a server whose certificate a private authority
signed.
"""

import copy
import os
from pathlib import Path
import tomllib

from .identity import address_problem

DEFAULTS = {
    "db": "pbem.db",
    "address": "pbem@localhost",
    "name": "pbem referee",
    "referee": "referee@localhost",
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
        "ca_file": "",
        "folder": "INBOX",
        "processed": "Processed",
        "timeout": 60,
        "idle_seconds": 600,
        "poll_seconds": 60,
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


class ConfigError(ValueError):
    """A setting is missing or malformed."""


class Config:
    """Resolved settings, read as ``config["smtp"]["host"]`` or ``config.path("db")``."""

    def __init__(self, data: dict, base: Path, source: str | None):
        self.data = data
        self.base = base
        self.source = source

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
            import shlex
            import subprocess
            done = subprocess.run(shlex.split(part["password_command"]), capture_output=True,
                                  text=True, check=False)
            if done.returncode != 0:
                raise ConfigError(f"[{section}] password_command failed: {done.stderr.strip()}")
            return done.stdout.strip()
        if part.get("password_env"):
            value = os.environ.get(part["password_env"])
            if value is None:
                raise ConfigError(f"[{section}] password_env: ${part['password_env']} is not set")
            return value
        return part.get("password", "")

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
    merge(data, from_environment(env), "environment")
    merge(data, overrides or {}, "command line")
    for key in ("address", "referee"):
        problem = address_problem(data[key])
        if problem is not None:
            raise ConfigError(f"{key} = {data[key]!r} is not a mail address: {problem}")
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


def typed(default, value, where: str):
    """A value converted to the type of its default."""
    if isinstance(default, bool):
        return str(value).lower() in ("1", "true", "yes", "on")
    try:
        return type(default)(value)
    except (TypeError, ValueError):
        kind = {int: "a whole number", float: "a number"}.get(type(default), "text")
        raise ConfigError(f"{where}: {value!r} is not {kind}") from None


def from_environment(env) -> dict:
    """Settings given as PBEM_* variables."""
    out = {}
    for name, value in env.items():
        if not name.startswith("PBEM_") or name == "PBEM_CONFIG":
            continue
        key = name[5:].lower()
        if key in DEFAULTS and not isinstance(DEFAULTS[key], dict):
            out[key] = value
            continue
        section, _, rest = key.partition("_")
        if section in DEFAULTS and isinstance(DEFAULTS[section], dict) and rest in DEFAULTS[section]:
            out.setdefault(section, {})[rest] = value
    return out
