"""The mails pbem writes: structure, threading, escaping, the board, local times."""

import email
from email import policy
import io
import json
import os
import stat

from PIL import Image
import pytest

import pbem.games
from pbem import inbound, render
from pbem.adjudicator import engine
from pbem.app import SeatSpec
from pbem.mail import maildir
from pbem.mail import outbox as outbox_module

from conftest import START


def outbox(referee, kind):
    rows = referee.store.all("SELECT * FROM outbox WHERE kind = ? ORDER BY id", [kind])
    return [email.message_from_bytes(referee.store.outbox_mail(r), policy=policy.default)
            for r in rows]


def parts(msg):
    plain = msg.get_body(preferencelist=("plain",)).get_content()
    html = msg.get_body(preferencelist=("html",)).get_content()
    return plain, html


def test_mails_are_multipart_alternative_with_the_board_as_an_inline_png(auguste_game):
    welcome = outbox(auguste_game, "welcome")[0]
    assert welcome.get_content_type() == "multipart/mixed", "the welcome has the rules attached"
    body, rules = welcome.get_payload()
    assert body.get_content_type() == "multipart/alternative"
    assert (rules.get_content_type(), rules.get_content_disposition(), rules.get_filename()) == \
        ("text/plain", "attachment", "auguste-rules.txt")
    assert welcome["Message-ID"].startswith("<rome.ann.")
    plain, html = parts(welcome)
    assert "The rules in short are attached to this mail: auguste-rules.txt." in plain
    related = body.get_payload()[1]
    assert related.get_content_type() == "multipart/related"
    image = next(p for p in related.iter_parts() if p.get_content_type() == "image/png")
    assert image["Content-ID"] == "<board@pbem>" and image.get_content().startswith(b"\x89PNG")
    assert 'src="cid:board@pbem"' in html and "<svg" not in html and "MOC" in html
    assert "MOC" in plain and "<svg" not in plain
    assert plain.startswith("## pbem: write your reply above this line ##")
    inbound.submit(auguste_game, "rome", "ann", "status", START)
    assert outbox(auguste_game, "status")[0].get_content_type() == "multipart/alternative"


def test_answers_thread_under_the_welcome_mail(auguste_game):
    root = outbox(auguste_game, "welcome")[0]["Message-ID"]
    inbound.submit(auguste_game, "rome", "ann", "pass", START)
    ack = outbox(auguste_game, "ack")[0]
    assert root in ack["References"]
    assert ack["Auto-Submitted"] == "auto-generated"


def test_player_text_is_escaped_in_html(auguste_game):
    inbound.submit(auguste_game, "rome", "ann", '<script>alert("x")</script> <b>bold</b>', START)
    plain, html = parts(outbox(auguste_game, "ack")[0])
    assert "<script>" not in html and "<b>bold" not in html
    assert "&lt;script&gt;" in html
    assert "line 1: <script>alert(\"x\")</script> <b>bold</b>" in " ".join(plain.split()), \
        "a remark, as written"


def test_deadlines_are_shown_in_each_seat_timezone(referee):
    referee.new_game("auguste", "tz", [SeatSpec("ann", "ann@x.example", "Europe/Paris"),
                                       SeatSpec("bob", "bob@x.example")], START, seed="s")
    ann, bob = outbox(referee, "welcome")
    assert "Deadline: Thu 3 Dec 2026 13:00 (Europe/Paris)" in parts(ann)[0]
    assert "Deadline: Thu 3 Dec 2026 12:00 (UTC)" in parts(bob)[0]


def test_report_names_the_cells_of_what_happened(auguste_game):
    from pbem.games.auguste.bot import legal_moves
    state = auguste_game.table("rome").state["game"]
    move = legal_moves(state, "ann", "red")[0]
    inbound.submit(auguste_game, "rome", "ann", f"red: move {move['from']} {move['to']}", START)
    auguste_game.tick("2026-12-03T12:00:00Z", send=False)
    plain, html = parts(outbox(auguste_game, "report")[0])
    line = f"red: a legionary moved from {move['from']} to {move['to']}"
    assert line in plain and line in html


def test_help_mail_gives_the_order_syntax_and_the_commands(auguste_game):
    answer = inbound.submit(auguste_game, "rome", "ann", "HELP", START)
    assert answer["errors"] == []
    plain, html = parts(outbox(auguste_game, "help")[0])
    assert "red: move " in plain and "STATUS" in plain and "WAIT" in plain
    assert "red: move " in html


def test_a_board_image_is_as_wide_as_the_html_says_for_every_game():
    for name in pbem.games.names():
        game = pbem.games.load(name)
        seats = list(game.DEMO_SEATS)
        options = game.demo_options(5)
        state = engine.fold(game, engine.creation_events(game, "g", name, options, seats, "w",
                                                         None))
        svg = render.board_svg(name, game, game.view(state["game"], None))
        assert render.board_width(svg) == Image.open(io.BytesIO(render.board_png(svg))).width


def test_a_turns_board_is_kept_once_and_every_mail_reads_back_as_it_was_delivered(
        auguste_game):
    store = auguste_game.store
    seats = [s["name"] for s in store.seats("rome")]
    for name in seats:
        inbound.submit(auguste_game, "rome", name, "pass", START)
    auguste_game.tick(START)
    reports = store.all("SELECT * FROM outbox WHERE kind = 'report' ORDER BY id")
    assert len(reports) == len(seats) and {r["status"] for r in reports} == {"sent"}
    kinds = [[store.one("SELECT kind FROM mail_parts WHERE digest = ?", [key])["kind"]
              for _, key in json.loads(r["parts"])] for r in reports]
    assert kinds == [["board", "close-up"]] * len(seats), "the board, and the seat's close-up"
    boards = {json.loads(r["parts"])[0][1] for r in reports}
    assert len(boards) == 1, "one board for the turn's reports"
    assert len({json.loads(r["parts"])[1][1] for r in reports}) == len(seats), \
        "each seat's own area"
    assert store.one("SELECT COUNT(*) AS n FROM mail_parts WHERE kind = 'board'")["n"] == 2
    folder = auguste_game.config.path("mail", "outbox")
    for row in store.all("SELECT * FROM outbox ORDER BY id"):
        key = maildir.key_for(row["id"], row["message_id"])
        assert (folder / "new" / key).read_bytes() == store.outbox_mail(row)
        assert store.outbox_mail(row) == store.outbox_mail(row)


@pytest.mark.parametrize("batch,syncs", [(1, 4), (outbox_module.MAILDIR_BATCH, 1)])
def test_outgoing_mail_goes_into_the_maildir_in_batches_each_synced_once(
        auguste_game, monkeypatch, batch, syncs):
    monkeypatch.setattr(outbox_module, "MAILDIR_BATCH", batch)
    synced, fsync, whole = [], maildir.os.fsync, []
    monkeypatch.setattr(maildir.os, "fsync", lambda fd: synced.append(
        stat.S_ISDIR(os.fstat(fd).st_mode)) or fsync(fd))
    monkeypatch.setattr(maildir.os, "sync", lambda: whole.append(1))
    assert outbox_module.flush(auguste_game, START).counts() == (4, 0)  # the four welcome mails
    assert synced.count(False) == 4, "each mail's file, as it is written"
    assert synced.count(True) == syncs, "new/, once a batch is linked into it"
    assert whole == [], "never the whole system"
    folder = auguste_game.config.path("mail", "outbox")
    assert len(list((folder / "new").iterdir())) == 4
    assert not list((folder / "tmp").iterdir())


def test_a_results_plain_reason_is_said_in_the_games_own_words():
    from pbem.i18n import speaking
    from pbem.letters import result_text
    seigneurs = pbem.games.load("seigneurs")
    judged = {"winners": ["ann"], "reason": "judged"}
    assert result_text(judged, game=seigneurs) == "ann won (the barbarian's judgement)"
    with speaking("fr"):
        assert result_text(judged, game=seigneurs) == "ann a gagné (le jugement du barbare)"
    assert result_text({"winners": [], "reason": "judged"}) == "no winner (judged)", \
        "without the game, a plain reason is shown as it is"
