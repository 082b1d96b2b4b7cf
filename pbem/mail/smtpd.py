"""`pbem smtpd`: receive mail by SMTP (aiosmtpd) for a domain's MX or a forwarder.

Only pbem's own addresses are accepted: the configured ``address`` and its
plus-addresses (``local+anything@domain``); any other recipient gets 550. A
message is stored in the inbox (source "smtpd") before the server answers 250,
so a 250 means the mail is safe on disk. Storing reads nothing but a few
headers and never fails on what a mail holds: a mail pbem cannot parse gets
its 250 too, and ``pbem tick`` sets it aside with the reason. When it cannot
be stored (the database is locked past ``smtpd.store_timeout``, the disk is
full) the answer is 450 and the sending server tries again later. Messages over
``smtpd.max_bytes`` get 552 (aiosmtpd's own size limit, announced in EHLO).

With ``smtpd.tls_cert`` and ``smtpd.tls_key`` the server offers STARTTLS;
with ``smtpd.require_tls`` too, it takes mail only over TLS.

As the final delivery agent, pbem adds ``Return-Path`` (the envelope sender,
``<>`` for bounces) and one ``Delivered-To`` per accepted recipient on top of
the stored message, as a local delivery agent would.
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
import logging
import signal
import threading

from aiosmtpd.controller import Controller

from . import intake
from .parse import read, visible
from ..config import ConfigError
from ..errors import PbemError
from ..store import Store
from ..timeutil import system_now

log = logging.getLogger(__name__)


def ours(recipient: str, address: str) -> bool:
    """Is `recipient` pbem's address or one of its plus-addresses? (case-insensitive)"""
    local, _, domain = address.lower().rpartition("@")
    their_local, _, their_domain = recipient.lower().rpartition("@")
    return their_domain == domain and (their_local == local
                                       or their_local.startswith(local + "+"))


class Handler:
    """aiosmtpd hooks that accept pbem's recipients and store each message before 250.

    SQLite work runs in one worker thread with its own connection, so a slow
    or locked database never stalls the event loop.
    """

    def __init__(self, config, clock=system_now):
        self.db_path = config.path("db")
        self.address = config["address"]
        self.store_timeout = config["smtpd"]["store_timeout"]
        self.clock = clock
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pbem-smtpd-store")
        self.store = None

    def open(self) -> None:
        """Open the database in the worker thread (before the first mail arrives)."""
        self.pool.submit(self._open).result()

    def _open(self) -> None:
        self.store = Store(self.db_path)
        self.store.execute(f"PRAGMA busy_timeout = {int(self.store_timeout * 1000)}")

    def close(self) -> None:
        """Close the database connection and stop the worker thread."""
        if self.store is not None:
            self.pool.submit(self.store.conn.close).result()
        self.pool.shutdown()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        """550 for anyone but pbem."""
        if not ours(address, self.address):
            return f"550 5.1.1 <{address}>: no such recipient here"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        """Store the message, then say 250; 450 when it cannot be stored now."""
        raw = delivery_headers(envelope.mail_from, envelope.rcpt_tos) + envelope.original_content
        loop = asyncio.get_running_loop()
        try:
            row = await loop.run_in_executor(self.pool, self.keep, raw)
        except Exception as problem:  # whatever it is, the sender must keep the mail and retry
            log.error("could not store a message from <%s> (it stays with the sender, who "
                      "tries again): %s: %s", visible(envelope.mail_from),
                      type(problem).__name__, problem)
            return "450 4.3.0 cannot store the message now, try again later"
        log.info("stored inbox %s from <%s>", row, visible(envelope.mail_from))
        return f"250 2.0.0 stored as inbox {row}"

    def keep(self, raw: bytes) -> int:
        """Store one message (in the worker thread); return its inbox id."""
        return intake.ingest(self.store, raw, "smtpd", self.clock(),
                              head=read(raw, headers_only=True))


def delivery_headers(mail_from: str, recipients: list[str]) -> bytes:
    """The Return-Path and Delivered-To lines a delivery agent puts on top of a message."""
    lines = [f"Return-Path: <{mail_from.strip('<>')}>"]  # aiosmtpd gives '<>' for a bounce
    lines += [f"Delivered-To: {r}" for r in recipients]
    return "".join(line + "\r\n" for line in lines).encode("utf-8")


def listen_address(text: str) -> tuple[str, int]:
    """'127.0.0.1:2525' or '[::1]:2525' as (host, port)."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) <= 65535:
        raise ConfigError(f"listen address {text!r}: write HOST:PORT, the port from 1 to "
                          "65535, e.g. 127.0.0.1:2525")
    return host.strip("[]"), int(port)


@contextmanager
def running(config, listen: str, clock=system_now):
    """pbem's SMTP server on `listen` (HOST:PORT), started, with the database open."""
    host, port = listen_address(listen)
    handler = Handler(config, clock)
    domain = config["address"].rpartition("@")[2] or "localhost"
    server = Controller(handler, hostname=host, port=port, server_hostname=domain,
                        data_size_limit=config["smtpd"]["max_bytes"], ident="pbem smtpd",
                        tls_context=config.server_tls(),
                        require_starttls=config["smtpd"]["require_tls"])
    handler.open()
    try:
        server.start()
        try:
            yield server
        finally:
            server.stop()
    finally:
        handler.close()


def serve(config, listen: str) -> None:
    """Receive mail on `listen` until SIGTERM or Ctrl-C (call from the main thread)."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda signum, frame: stop.set())
    # aiosmtpd logs every command of every session: one line per mail (ours) is enough,
    # but its warnings and errors join ours
    aiosmtpd = logging.getLogger("mail.log")
    aiosmtpd.setLevel(max(logging.WARNING, log.getEffectiveLevel()))
    aiosmtpd.handlers[:] = logging.getLogger("pbem").handlers
    aiosmtpd.propagate = False
    try:
        with running(config, listen):
            log.info("pbem smtpd listening on %s for %s", listen, config["address"])
            stop.wait()
    except KeyboardInterrupt:
        pass
    except OSError as problem:
        raise PbemError(f"cannot listen on {listen}: {problem}") from None
