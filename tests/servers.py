"""Real mail servers on 127.0.0.1 for the mail tests: Dovecot (IMAP) and an aiosmtpd sink.

Import the fixtures into a test module (``from servers import dovecot, sink``).
``authority`` is a private certificate authority (trustme) whose certificate
for 127.0.0.1 the TLS variants of the servers use.
Dovecot runs as root (it drops to unprivileged users itself); when it is not
installed the tests fail with a message saying how to install it.
"""

import base64
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
import json
import os
from pathlib import Path
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from urllib.parse import parse_qs

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from imapclient import IMAPClient
import pytest
import trustme

from pbem.app import Referee
from pbem.config import load
from pbem.store import Store

HERE = Path(__file__).parent
USER, PASSWORD = "tester", "secret"
# Dovecot's own capabilities minus MOVE and IDLE, for the fallback paths.
PLAIN_CAPABILITIES = "IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ UIDPLUS"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, timeout: float = 10.0) -> None:
    """Return once something accepts connections on 127.0.0.1:port."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class Authority:
    """A private certificate authority, and its certificate for 127.0.0.1, as PEM files."""

    def __init__(self, folder: Path):
        ca = trustme.CA()
        issued = ca.issue_cert("127.0.0.1")
        self.ca_file = folder / "ca.pem"
        self.cert_file = folder / "cert.pem"
        self.key_file = folder / "key.pem"
        ca.cert_pem.write_to_path(str(self.ca_file))
        issued.private_key_pem.write_to_path(str(self.key_file))
        for number, blob in enumerate(issued.cert_chain_pems):
            blob.write_to_path(str(self.cert_file), append=number > 0)

    def server_context(self) -> ssl.SSLContext:
        """TLS for a test server that presents the 127.0.0.1 certificate."""
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.cert_file, self.key_file)
        return context

    def client_context(self) -> ssl.SSLContext:
        """TLS for a test client that trusts this authority only."""
        return ssl.create_default_context(cafile=str(self.ca_file))


@pytest.fixture
def authority(tmp_path_factory):
    """A fresh private certificate authority."""
    return Authority(tmp_path_factory.mktemp("authority"))


class Dovecot:
    """A Dovecot instance in its own temp dir, with one user (tester/secret).

    With an `authority`, it speaks TLS (STARTTLS on `port`, IMAPS on
    `tls_port`) with that authority's certificate.
    """

    def __init__(self, root: Path, extra: str = "", authority: Authority | None = None,
                 files: dict | None = None):
        self.root = root
        self.port = free_port()
        self.tls_port = free_port() if authority else 0
        self.process = None
        tls = (f"ssl = yes\nssl_cert = <{authority.cert_file}\nssl_key = <{authority.key_file}"
               if authority else "ssl = no")
        conf = (HERE / "dovecot.conf.in").read_text(encoding="utf-8")
        conf = (conf.replace("@DIR@", str(root)).replace("@PORT@", str(self.port))
                .replace("@SSL@", tls).replace("@IMAPS_PORT@", str(self.tls_port)))
        (root / "dovecot.conf").write_text(conf + extra.replace("@DIR@", str(root)),
                                           encoding="utf-8")
        for name, text in (files or {}).items():
            (root / name).write_text(text, encoding="utf-8")
        for sub in ("run", "state", "mail"):
            (root / sub).mkdir()
        shutil.chown(root / "mail", "nobody", "nogroup")
        (root / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}::::::\n", encoding="utf-8")

    def start(self) -> None:
        """Start Dovecot in the foreground and wait until it listens."""
        self.process = subprocess.Popen(
            ["dovecot", "-F", "-c", str(self.root / "dovecot.conf")],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        try:
            wait_for_port(self.port)
        except OSError:
            self.stop()
            pytest.fail(f"dovecot did not start: {self.log()}")

    def stop(self) -> None:
        """Kill Dovecot and every session it has open, at once (as a crash would)."""
        if self.process is None:
            return
        os.killpg(self.process.pid, signal.SIGKILL)  # SIGTERM makes the master linger 1 s
        self.process.wait()
        self.process.stderr.close()
        self.process = None
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            except OSError:
                return
            time.sleep(0.02)

    def log(self) -> str:
        """Dovecot's log file and its standard error, for failure messages."""
        path = self.root / "dovecot.log"
        text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
        if self.process is not None and self.process.poll() is not None:
            text += self.process.stderr.read().decode(errors="replace")
        return text

    @property
    def maildir(self) -> Path:
        """The user's Maildir on disk."""
        return self.root / "mail" / USER / "Maildir"

    def client(self) -> IMAPClient:
        """A logged-in IMAP connection (close it with logout())."""
        client = IMAPClient("127.0.0.1", self.port, ssl=False, timeout=10)
        client.login(USER, PASSWORD)
        return client

    def append(self, raw: bytes, folder: str = "INBOX") -> None:
        """Deliver one message into a folder, as an MTA would."""
        client = self.client()
        try:
            if not client.folder_exists(folder):
                client.create_folder(folder)
            client.append(folder, raw)
        finally:
            client.logout()

    def messages(self, folder: str = "INBOX") -> list[bytes]:
        """The raw messages in a folder, in UID order ([] if there is no such folder)."""
        client = self.client()
        try:
            if not client.folder_exists(folder):
                return []
            client.select_folder(folder, readonly=True)
            found = client.fetch(client.search("ALL"), ["BODY.PEEK[]"])
            return [found[uid][b"BODY[]"] for uid in sorted(found)]
        finally:
            client.logout()

    def uidvalidity(self, folder: str = "INBOX") -> int:
        """The folder's current UIDVALIDITY."""
        client = self.client()
        try:
            return client.folder_status(folder, ["UIDVALIDITY"])[b"UIDVALIDITY"]
        finally:
            client.logout()

    def settings(self, **extra) -> dict:
        """An [imap] section for pbem.toml that reaches this server."""
        return {"host": "127.0.0.1", "port": self.port, "security": "none", "user": USER,
                "password": PASSWORD, "timeout": 10, **extra}


def start_dovecot(extra: str = "", authority: Authority | None = None,
                  files: dict | None = None) -> Dovecot:
    """A started Dovecot in a fresh temp dir (with `files` in it: name -> text; `extra`
    settings may name that dir @DIR@); pytest.fail when it cannot run here."""
    if shutil.which("dovecot") is None:
        pytest.fail("dovecot is not installed; the mail tests need a real IMAP server: "
                    "apt-get install dovecot-imapd")
    if os.geteuid() != 0:
        pytest.fail("the mail tests start Dovecot, which must be started as root")
    # not under pytest's 0700 tmp dirs: Dovecot's mail processes run as nobody
    root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
    root.chmod(0o755)
    server = Dovecot(root, extra, authority, files)
    server.start()
    return server


def finish(server: Dovecot) -> None:
    """Stop a Dovecot and remove its temp dir."""
    server.stop()
    shutil.rmtree(server.root, ignore_errors=True)


@pytest.fixture
def dovecot():
    """A real Dovecot IMAP server on 127.0.0.1 with the full capabilities (MOVE, IDLE)."""
    server = start_dovecot()
    yield server
    finish(server)


@pytest.fixture
def plain_dovecot():
    """A real Dovecot that advertises neither MOVE nor IDLE (as some servers do)."""
    server = start_dovecot(f"imap_capability = {PLAIN_CAPABILITIES}\n")
    yield server
    finish(server)


@pytest.fixture
def tls_dovecot(authority):
    """A real Dovecot that speaks TLS with a certificate of `authority`."""
    server = start_dovecot(authority=authority)
    yield server
    finish(server)


class TokenIssuer:
    """An OAuth2 authority's token introspection endpoint (RFC 7662) on 127.0.0.1.

    It knows the access tokens in `valid` (token -> user); any other token,
    an expired one included, is inactive. Dovecot's oauth2 passdb asks it.
    """

    def __init__(self):
        self.valid: dict[str, str] = {}
        self.asked: list[str] = []
        self.down = False  # True: every question gets 503, as from an authority that is down
        issuer = self

        class Introspection(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (the name http.server calls)
                form = parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
                token = form.get("token", [""])[0]
                if issuer.down:
                    self.send_response(503)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                issuer.asked.append(token)
                user = issuer.valid.get(token)
                body = json.dumps({"active": True, "username": user} if user
                                  else {"active": False}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                """Quiet."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Introspection)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/introspect"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def issue(self, token: str, user: str = USER) -> str:
        """Make `token` a valid access token of `user`."""
        self.valid[token] = user
        return token

    def expire(self, token: str) -> None:
        """The token is no longer valid (it expired, or was revoked)."""
        self.valid.pop(token, None)

    def stop(self) -> None:
        """Stop answering."""
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def token_issuer():
    """A token introspection endpoint; issue tokens with token_issuer.issue(...)."""
    issuer = TokenIssuer()
    yield issuer
    issuer.stop()


# Dovecot's oauth2 passdb, for XOAUTH2 (and OAUTHBEARER) only; passwords still work.
OAUTH2_SETTINGS = """
auth_mechanisms = plain login xoauth2 oauthbearer
passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = @DIR@/dovecot-oauth2.conf.ext
}
"""


def introspection(issuer: TokenIssuer) -> dict:
    """Dovecot's oauth2 settings file, asking `issuer` about each token."""
    return {"dovecot-oauth2.conf.ext": (
        f"introspection_mode = post\nintrospection_url = {issuer.url}\n"
        "username_attribute = username\nactive_attribute = active\nactive_value = true\n")}


@pytest.fixture
def oauth2_dovecot(token_issuer):
    """A real Dovecot that takes OAuth2 access tokens (XOAUTH2 and OAUTHBEARER) checked by
    `token_issuer`."""
    server = start_dovecot(OAUTH2_SETTINGS, files=introspection(token_issuer))
    yield server
    finish(server)


@pytest.fixture
def oauthbearer_dovecot(token_issuer):
    """A real Dovecot that takes OAuth2 access tokens by OAUTHBEARER (RFC 7628) only."""
    settings = OAUTH2_SETTINGS.replace("xoauth2 oauthbearer", "oauthbearer")
    server = start_dovecot(settings, files=introspection(token_issuer))
    yield server
    finish(server)


@dataclass
class Delivery:
    """One message a sink accepted."""

    mail_from: str
    rcpt_tos: list
    raw: bytes


class SinkHandler:
    """Keeps what it is sent; answers MAIL, RCPT and DATA with canned failures when told to."""

    def __init__(self):
        self.deliveries: list[Delivery] = []
        self.mail_reply: str | None = None  # reply to every MAIL FROM instead of 250
        self.refused: dict[str, str] = {}   # recipient -> reply to its RCPT
        self.data_replies: list[str] = []   # replies to the next DATA commands, in order

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        """Refuse every sender when `mail_reply` is set."""
        if self.mail_reply:
            return self.mail_reply
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        """Refuse the recipients listed in `refused`."""
        if address in self.refused:
            return self.refused[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        """Keep the message, unless a canned reply is queued."""
        if self.data_replies:
            return self.data_replies.pop(0)
        self.deliveries.append(Delivery(envelope.mail_from, list(envelope.rcpt_tos),
                                        envelope.original_content))
        return "250 OK"


class Sink:
    """A real SMTP server (aiosmtpd) on a free port of 127.0.0.1."""

    def __init__(self, users: dict | None = None, tls: ssl.SSLContext | None = None,
                 handler: SinkHandler | None = None, hidden=()):
        self.handler = handler or SinkHandler()
        self.users = users
        self.port = free_port()
        auth = {"authenticator": self.authenticate, "auth_required": True,
                "auth_require_tls": False, "auth_exclude_mechanism": hidden} \
            if users is not None else {}
        self.options = {"tls_context": tls, "require_starttls": tls is not None, **auth}
        self.controller = self.listener()

    def listener(self) -> Controller:
        """A new server on the sink's port, keeping what the sink was sent."""
        return Controller(self.handler, hostname="127.0.0.1", port=self.port,
                          server_hostname="sink.test", **self.options)

    def restart(self) -> None:
        """Start listening again after `controller.stop()`, on the same port."""
        self.controller = self.listener()
        self.controller.start()

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        """Accept the users given, with their passwords (XOAUTH2 is the handler's)."""
        ok = self.users.get(auth_data.login.decode()) == auth_data.password.decode()
        return AuthResult(success=ok, handled=False)  # handled=False: aiosmtpd answers 535

    @property
    def deliveries(self) -> list[Delivery]:
        """The messages accepted so far."""
        return self.handler.deliveries

    def settings(self, **extra) -> dict:
        """An [smtp] section for pbem.toml that reaches this sink."""
        return {"host": "127.0.0.1", "port": self.port, "security": "none", "timeout": 10,
                **extra}


class Xoauth2Handler(SinkHandler):
    """A sink's handler that also takes AUTH XOAUTH2 with the tokens of a TokenIssuer."""

    def __init__(self, issuer: TokenIssuer):
        super().__init__()
        self.issuer = issuer

    async def auth_XOAUTH2(self, server, args):  # noqa: N802 (aiosmtpd's naming)
        """user=U^Aauth=Bearer T^A^A; a bad token gets the JSON error, then 535."""
        answer = base64.b64decode(args[1]) if len(args) > 1 else \
            await server.challenge_auth("")
        fields = dict(part.split("=", 1) for part in answer.decode().split("\x01") if "=" in part)
        user, token = fields.get("user"), fields.get("auth", "").removeprefix("Bearer ")
        if user and self.issuer.valid.get(token) == user:
            return AuthResult(success=True, auth_data=user)
        await server.challenge_auth(b'{"status":"401","schemes":"bearer"}')
        return AuthResult(success=False, handled=False)


class OauthbearerHandler(Xoauth2Handler):
    """A sink's handler that also takes AUTH OAUTHBEARER (RFC 7628) with the same tokens."""

    async def auth_OAUTHBEARER(self, server, args):  # noqa: N802 (aiosmtpd's naming)
        """n,a=U,^Ahost=H^Aport=P^Aauth=Bearer T^A^A; a bad token gets the JSON error, then
        535 once the client answers ^A."""
        answer = base64.b64decode(args[1]) if len(args) > 1 else \
            await server.challenge_auth("")
        header, *pairs = answer.decode().split("\x01")
        user = dict(p.split("=", 1) for p in header.split(",") if "=" in p).get("a")
        fields = dict(pair.split("=", 1) for pair in pairs if "=" in pair)
        token = fields.get("auth", "").removeprefix("Bearer ")
        if user and self.issuer.valid.get(token) == user:
            return AuthResult(success=True, auth_data=user)
        await server.challenge_auth(b'{"status":"invalid_token","schemes":"bearer"}')
        return AuthResult(success=False, handled=False)


@pytest.fixture
def sink():
    """A real SMTP sink; its deliveries are in sink.deliveries."""
    server = Sink()
    server.controller.start()
    yield server
    server.controller.stop()


@pytest.fixture
def tls_sink(authority):
    """A real SMTP sink that takes mail only after STARTTLS, with `authority`'s certificate."""
    server = Sink(tls=authority.server_context())
    server.controller.start()
    yield server
    server.controller.stop()


@pytest.fixture
def auth_sink():
    """A real SMTP sink that requires AUTH as pbem/app-password."""
    server = Sink(users={"pbem": "app-password"})
    server.controller.start()
    yield server
    server.controller.stop()


@pytest.fixture
def oauthbearer_sink(token_issuer):
    """A real SMTP server that requires AUTH OAUTHBEARER, and offers no XOAUTH2."""
    server = Sink(users={}, handler=OauthbearerHandler(token_issuer),
                  hidden=("XOAUTH2", "PLAIN", "LOGIN"))
    server.controller.start()
    yield server
    server.controller.stop()


@pytest.fixture
def oauth2_sink(token_issuer):
    """A real SMTP server that requires AUTH XOAUTH2 with a token of `token_issuer`."""
    server = Sink(users={}, handler=Xoauth2Handler(token_issuer))
    server.controller.start()
    yield server
    server.controller.stop()


def toml_value(value) -> str:
    """A str, bool, int or float as a TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value)


def write_config(folder: Path, **sections) -> Path:
    """pbem.toml in folder (the test referee's addresses, plus the sections given)."""
    lines = ['db = "pbem.db"', 'address = "pbem@referee.example"',
             'referee = "boss@referee.example"']
    for name, values in sections.items():
        lines.append(f"[{name}]")
        lines += [f"{key} = {toml_value(value)}" for key, value in values.items()]
    path = folder / "pbem.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path.chmod(0o600)  # as pbem init makes it: pbem closes an open one, and says so
    return path


def mail_referee(folder: Path, **sections) -> Referee:
    """A Referee in folder whose settings have the sections given (imap=..., smtp=...)."""
    config = load(str(write_config(folder, **sections)), env={})
    return Referee(Store(config.path("db")), config)
