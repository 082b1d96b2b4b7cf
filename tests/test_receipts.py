"""Receipts: the acknowledgement's hash proves later which orders a phase used."""

import hashlib
import json
import re

from click.testing import CliRunner

from pbem.cli import main
from pbem.replay import replay

from conftest import START
from players import answer_to, reply, text_of
from test_rollback import play_phase


def cli(referee, *args, code=0) -> str:
    result = CliRunner().invoke(main, [*args, "--db", referee.store.path],
                                catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def receipt_of(ack: str) -> tuple[str, str]:
    """(the SHA-256 an acknowledgement gives, the lines it says it is the hash of)."""
    digest = re.search(r"SHA-256 of the lines between the rules .*:\s+([0-9a-f]{64})",
                       ack).group(1)
    lines = ack.split("\n-----\n")[1]
    return digest, lines + "\n"


def test_the_acknowledgement_gives_a_receipt_any_sha256_tool_checks(auguste_game, tmp_path):
    referee = auguste_game
    ack = text_of(answer_to(referee, reply(referee, "rome", "ann",
                                           "Hello\nred: pass   \n\nREADY\nAnn", START)))
    digest, lines = receipt_of(ack)
    assert lines == "red: pass\n"
    assert hashlib.sha256(lines.encode()).hexdigest() == digest
    assert "(log event 3, " in " ".join(ack.split())
    referee.tick(referee.table("rome").state["engine"]["deadline"], send=False)
    saved = tmp_path / "ann.txt"
    saved.write_text(lines)
    out = cli(referee, "receipt", "rome", "--check", str(saved))
    assert "phase 1 of game rome used exactly these orders of ann" in out and digest in out
    listed = cli(referee, "receipt", "rome", "--seat", "ann")
    assert f"phase    1 ann          {digest}" in listed
    assert replay(referee.store, "rome", verify=True).ok


def test_orders_a_phase_did_not_use_have_no_receipt(auguste_game, tmp_path):
    referee = auguste_game
    reply(referee, "rome", "ann", "red: pass", START)
    reply(referee, "rome", "ann", "red: move XXX YYY\nred: pass\ngreen: pass", START)
    referee.tick(referee.table("rome").state["engine"]["deadline"], send=False)
    first = tmp_path / "first.txt"
    first.write_text("red: pass\n")
    assert "no phase of game rome used these orders" in cli(
        referee, "receipt", "rome", "--check", str(first), code=1)
    [used] = [r for r in json.loads(cli(referee, "receipt", "rome", "--json"))
              if r["seat"] == "ann"]
    assert used["sha256"] != hashlib.sha256(b"red: pass\n").hexdigest()


def test_a_rollback_takes_back_the_receipts_of_the_phases_it_undid(auguste_game):
    referee = auguste_game
    play_phase(referee)
    play_phase(referee)
    assert {r["phase"] for r in json.loads(cli(referee, "receipt", "rome", "--json"))} == {1, 2}
    referee.rollback("rome", 2, "a mistake", "2026-12-10T00:00:00Z")
    assert {r["phase"] for r in json.loads(cli(referee, "receipt", "rome", "--json"))} == {1}
