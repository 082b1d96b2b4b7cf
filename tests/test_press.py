"""Press: players write to each other through pbem, by mail, in English and in French.

Every message goes through real RFC 822 mails on a real SQLite file. Press
reaches its recipients and nobody else, never shows an address, and is part
of the history of exactly the seats it was between.
"""

import re

from click.testing import CliRunner
import pytest

from pbem.app import SeatSpec
from pbem.cli import main
from pbem.replay import replay

from conftest import START, seats
from players import answer_to, flat, outbox, parsed, reply, text_of

SECRET = "Let us take the crown together, and tell nobody."


def addresses(referee, game="rome") -> set[str]:
    return {s["email"] for s in referee.store.seats(game)}


def carrying(referee, phrase: str) -> list[dict]:
    """The outbox rows whose text holds the phrase."""
    return [r for r in outbox(referee) if phrase in flat(r)]


def test_press_reaches_its_recipient_alone_and_shows_no_address(auguste_game):
    referee = auguste_game
    row = reply(referee, "rome", "ann", f"PRESS bob\n{SECRET}\nAnn", START)
    assert (row["status"], row["reason"]) == ("done", "commands press")
    assert "Press sent to bob." in flat(answer_to(referee, row))
    [press] = outbox(referee, kind="press")
    mail = parsed(press)
    assert press["to_addr"] == "bob@players.example" and press["seat"] == "bob"
    assert mail["From"].addresses[0].addr_spec == "pbem@referee.example"
    assert str(mail["Subject"]).endswith("press from ann")
    body = flat(press)
    assert SECRET in body and "ann sent this message to bob." in body
    assert "Ann" in text_of(press), "the message is relayed whole, signature and all"
    reached = {r["to_addr"] for r in carrying(referee, SECRET)}
    assert reached == {"bob@players.example", "boss@referee.example"}
    for row in outbox(referee):
        others = addresses(referee) - {row["to_addr"]}
        assert not any(a.encode() in row["raw"] for a in others), \
            f"mail {row['id']} to {row['to_addr']} shows another player's address"
    [event] = [e for e in referee.events("rome", "referee") if e["type"] == "press"]
    assert event["visible_to"] == ["ann", "bob"]
    assert [e["type"] for e in referee.events("rome", "cat")].count("press") == 0
    assert replay(referee.store, "rome", verify=True).ok


def test_presse_en_francais_a_tous(referee):
    referee.new_game("auguste", "lyon", [SeatSpec("ann", "ann@players.example", lang="fr"),
                                          SeatSpec("bob", "bob@players.example", lang="fr"),
                                          SeatSpec("cat", "cat@players.example")], START,
                     {"preset": "3-3"}, seed="s")
    row = reply(referee, "lyon", "ann", "Bonjour,\nPRESSE tous\nQui veut s'allier ?", START)
    assert "Message envoyé à bob, cat." in flat(answer_to(referee, row))
    to_bob, to_cat = outbox(referee, kind="press")
    assert "ann a envoyé ce message à bob, cat." in flat(to_bob)
    assert "ann sent this message to bob, cat." in flat(to_cat)
    assert "Qui veut s'allier ?" in text_of(to_bob)


def test_a_reply_to_press_goes_back_through_pbem_and_holds_no_orders(auguste_game):
    referee = auguste_game
    reply(referee, "rome", "ann", f"PRESS bob\n{SECRET}", START)
    [press] = outbox(referee, kind="press")
    row = reply(referee, "rome", "bob", "Agreed. orange: move XXX YYY", START, answering=press)
    assert (row["status"], row["seat"], row["reason"]) == ("done", "bob", "reply to press")
    back = [r for r in outbox(referee, kind="press") if r["seat"] == "ann"]
    assert len(back) == 1 and "Agreed. orange: move XXX YYY" in text_of(back[0])
    assert SECRET not in text_of(back[0]), "the quoted history is not relayed"
    assert referee.current_submission("rome", "bob", 1) is None
    assert carrying(referee, "Agreed.") == back + [r for r in outbox(referee, kind="press-copy")
                                                   if "Agreed." in flat(r)]
    assert "Your mail answers the press of ann and holds no orders, so it went to ann alone, " \
        "as press." in flat(answer_to(referee, row))


def test_a_team_hears_press_sent_to_its_name(auguste_game):
    reply(auguste_game, "rome", "ann", "PRESS Pompey\nWe offer peace.", START)
    assert sorted(r["seat"] for r in outbox(auguste_game, kind="press")) == ["bob", "dan"]


def test_anonymous_press_names_no_sender(referee):
    referee.new_game("auguste", "anon", seats("ann", "bob", "cat", "dan"), START,
                     {"preset": "4-2", "press": "anonymous"}, seed="s")
    row = reply(referee, "anon", "ann", f"PRESS ALL\n{SECRET}", START)
    assert "Press sent to bob, cat, dan, without your name." in flat(answer_to(referee, row))
    for press in outbox(referee, kind="press"):
        said = flat(press).split(SECRET)[0]
        assert "A player sent you this message without their name." in said
        assert not re.search(r"\bann\b", said) and "anonymous press" in str(
            parsed(press)["Subject"])
    [copy] = outbox(referee, kind="press-copy")
    assert "Anonymous press from ann to bob, cat, dan" in flat(copy)


def test_a_game_without_press_sends_none(referee):
    referee.new_game("auguste", "mute", seats("ann", "bob"), START, {"press": "none"}, seed="s")
    row = reply(referee, "mute", "ann", f"PRESS bob\n{SECRET}", START)
    assert "Press is off in this game" in flat(answer_to(referee, row))
    assert carrying(referee, SECRET) == []


@pytest.mark.parametrize("body,said", [
    (f"PRESS bbo\n{SECRET}", "there is no seat or team called bbo, so your message was not "
                             "sent; did you mean bob?"),
    ("PRESS bob", "Your press to bob was empty"),
    ("PRESS\nhello", "Say whom your press is for"),
    (f"PRESS ann\n{SECRET}", "Your press names only yourself"),
])
def test_press_that_cannot_go_says_why_and_sends_nothing(auguste_game, body, said):
    row = reply(auguste_game, "rome", "ann", body, START)
    assert said in flat(answer_to(auguste_game, row))
    assert outbox(auguste_game, kind="press") == []


def test_press_option_must_make_sense(referee):
    result = CliRunner().invoke(main, ["new", "auguste", "--id", "x", "--seat", "a=a@x.example",
                                       "--seat", "b=b@x.example", "--option", "press=loud",
                                       "--db", referee.store.path])
    assert result.exit_code == 1
    assert "press must be open, anonymous, none: 'loud'" in result.output


def test_a_reply_to_press_of_a_turn_that_is_over_still_goes_back(auguste_game):
    referee = auguste_game
    reply(referee, "rome", "ann", f"PRESS bob\n{SECRET}", START)
    [press] = outbox(referee, kind="press")
    referee.tick(referee.table("rome").state["engine"]["deadline"], send=False)
    row = reply(referee, "rome", "bob", "Late, but agreed.", START, answering=press)
    assert (row["status"], row["reason"]) == ("done", "reply to press")
    assert [r["seat"] for r in outbox(referee, kind="press")] == ["bob", "ann"]
    assert "Late, but agreed." in text_of(outbox(referee, kind="press")[-1])


def test_press_in_reply_to_an_old_turns_mail_is_not_refused(auguste_game):
    referee = auguste_game
    welcome = outbox(referee, kind="welcome", seat="ann")[0]
    referee.tick(referee.table("rome").state["engine"]["deadline"], send=False)
    row = reply(referee, "rome", "ann", f"PRESS bob\n{SECRET}", START, answering=welcome)
    assert row["status"] == "done"
    assert len(outbox(referee, kind="press")) == 1


def test_help_lists_the_table_commands_in_each_players_words(referee):
    referee.new_game("auguste", "lyon", [SeatSpec("ann", "ann@players.example", lang="fr"),
                                          SeatSpec("bob", "bob@players.example")], START,
                     {"press": "none"}, seed="s")
    referee.new_game("auguste", "rome", seats("cat", "dan"), START, seed="s")
    reply(referee, "lyon", "ann", "AIDE", START)
    reply(referee, "lyon", "bob", "HELP", START)
    reply(referee, "rome", "cat", "HELP", START)
    french, english, with_press = (flat(outbox(referee, kind="help", seat=s)[0])
                                   for s in ("ann", "bob", "cat"))
    assert "HISTORIQUE 3 : votre compte rendu du tour 3" in french
    assert "NULLE : votre vote" in french and "ABANDON : vous abandonnez" in french
    assert "DRAW: your vote to end the game in a draw" in english
    assert "ABSENCE 2026-12-15 2026-12-21: you are away those days" in english  # 2 weeks on
    assert "PRESS" not in english and "PRESSE" not in french, "this game has no press"
    assert "PRESS dan (or a team, or ALL)" in with_press, "a seat of the game, and its teams"


def test_the_welcome_names_allies_and_how_to_press_them_never_an_address(referee):
    referee.new_game("auguste", "rome", [SeatSpec("ann", "ann@players.example"),
                                         SeatSpec("bob", "bob@players.example"),
                                         SeatSpec("cat", "cat@players.example", lang="fr"),
                                         SeatSpec("dan", "dan@players.example")], START,
                     {"preset": "4-2"}, seed="s")
    to_ann, to_cat = (flat(outbox(referee, kind="welcome", seat=s)[0]) for s in ("ann", "cat"))
    assert "Your allies: cat. Write to them through pbem, which never shows an address: " \
           "PRESS cat at the start of a line" in to_ann
    assert "Vos alliés : ann. Écrivez-leur par pbem" in to_cat and "PRESSE ann" in to_cat
    assert "cat@players.example" not in to_ann and "ann@players.example" not in to_cat
    referee.new_game("auguste", "mute", [SeatSpec("eve", "eve@players.example"),
                                         SeatSpec("fay", "fay@players.example"),
                                         SeatSpec("gus", "gus@players.example"),
                                         SeatSpec("hal", "hal@players.example")], START,
                     {"preset": "4-2", "press": "none"}, seed="s")
    welcome = flat(outbox(referee, kind="welcome", seat="eve")[0])
    assert "Your allies: gus." in welcome and "PRESS" not in welcome


# ------------------------------------------------------------------ replies to press with orders


def test_orders_in_a_reply_to_press_are_recorded_and_never_relayed(auguste_game):
    referee = auguste_game
    reply(referee, "rome", "ann", f"PRESS bob\n{SECRET}", START)
    [press] = outbox(referee, kind="press")
    assert "unless it holds orders or commands, which are read as such and sent to nobody" in \
        flat(press)
    row = reply(referee, "rome", "bob", "Bonjour à tous,\norange: move BIC GOK\nBob", START,
                answering=press)
    assert (row["status"], row["reason"]) == ("done", "orders recorded")
    assert [r["seat"] for r in outbox(referee, kind="press")] == ["bob"], "nothing relayed"
    assert len(outbox(referee, kind="press-copy")) == 1, "nor copied to the referee as press"
    said = flat(answer_to(referee, row))
    assert "Your mail answers the press of ann, but it holds orders or commands: I read them " \
        "as such, and nothing was sent to ann. To write to ann, start a line with PRESS ann." \
        in said
    assert "orange: move the legionary on BIC to GOK" in said
    assert referee.current_submission("rome", "bob", 1)["text"].strip() == "orange: move BIC GOK"


def test_orders_in_a_reply_to_press_of_a_turn_that_is_over_count_for_the_open_one(
        auguste_game):
    """A press asks nothing: the orders a reply to it holds are meant for the turn the player
    is in, not for the one the press was written in."""
    referee = auguste_game
    reply(referee, "rome", "ann", f"PRESS bob\n{SECRET}", START)
    [press] = outbox(referee, kind="press")
    referee.tick(referee.table("rome").state["engine"]["deadline"], send=False)
    row = reply(referee, "rome", "bob", "Agreed!\norange: move BIC GOK", START,
                answering=press)
    said = flat(answer_to(referee, row))
    assert (row["status"], row["reason"]) == ("done", "orders recorded; 1 remark set aside"), \
        said
    assert "is over" not in said and "orange: move the legionary on BIC to GOK" in said


def test_a_mistyped_order_in_a_reply_to_press_is_an_error_and_not_press(auguste_game):
    referee = auguste_game
    reply(referee, "rome", "ann", f"PRESS bob\n{SECRET}", START)
    [press] = outbox(referee, kind="press")
    row = reply(referee, "rome", "bob", "orange: moev BIC GOK", START, answering=press)
    assert row["reason"] == "orders not recorded: no line could be used (1 error)"
    assert "did you mean move?" in flat(answer_to(referee, row))
    assert [r["seat"] for r in outbox(referee, kind="press")] == ["bob"], "nothing relayed"


def test_a_command_in_a_reply_to_press_is_done_and_not_relayed(auguste_game):
    referee = auguste_game
    reply(referee, "rome", "ann", "PRESS ALL\nShall we call it a draw?", START)
    to_bob = [r for r in outbox(referee, kind="press") if r["seat"] == "bob"][0]
    row = reply(referee, "rome", "bob", "Yes.\nDRAW", START, answering=to_bob)
    assert row["reason"] == "no orders: 1 remark set aside; commands draw"
    assert referee.table("rome").state["engine"]["draw"]["votes"] == ["bob"]
    assert [r["seat"] for r in outbox(referee, kind="press")] == ["bob", "cat", "dan"], \
        "the vote is a vote, not a message"


def attila_game(referee) -> None:
    """Attila between ann and bob, ann to play first."""
    referee.new_game("attila", "huns", seats("ann", "bob"), START, seed="s", position={
        "first": "ann", "hands": {"ann": ["goths", "goths", "huns", "franks", "saxons",
                                          "saxons"],
                                  "bob": ["huns", "huns", "teutons", "teutons", "vandals",
                                          "franks"]}})


def test_a_seat_asked_nothing_never_relays_its_orders_as_press(referee):
    attila_game(referee)
    reply(referee, "huns", "ann", "PRESS bob\nPannonia is mine.", START)
    [press] = outbox(referee, kind="press")
    row = reply(referee, "huns", "bob", "play huns dacia", START, answering=press)
    assert row["reason"] == "orders not recorded: nothing asked of this seat"
    assert [r["seat"] for r in outbox(referee, kind="press")] == ["bob"]
    said = flat(answer_to(referee, row))
    assert "nothing was sent to ann" in said and "Nothing is asked of you now" in said
    row = reply(referee, "huns", "bob", "Good luck with that, Ann!", START, answering=press)
    assert row["reason"] == "reply to press", "chat from a seat asked nothing is press"


def test_chat_from_a_seat_asked_nothing_is_not_told_its_orders_were_lost(referee):
    """'Nothing for me this winter, I know.' got 'so these orders were not recorded'."""
    attila_game(referee)
    row = reply(referee, "huns", "bob", "Nothing for me this turn, I know. Just saying hi.",
                START)
    said = flat(answer_to(referee, row))
    assert "Nothing is asked of you now (waiting for ann), and your mail holds no orders: " \
           "nothing in it was lost." in said
    assert "these orders were not recorded" not in said
    row = reply(referee, "huns", "bob", "play huns dacia", START)
    assert "so these orders were not recorded" in flat(answer_to(referee, row))


def test_a_reply_to_pbems_answer_to_a_press_reply_answers_pbem_not_the_press(auguste_game):
    """bob replied to ann's press with orders, then to pbem's answer with a word of thanks:
    his mail client kept the press in References, and the thanks went to ann as press."""
    referee = auguste_game
    reply(referee, "rome", "ann", f"PRESS bob\n{SECRET}", START)
    [press] = outbox(referee, kind="press")
    row = reply(referee, "rome", "bob", "orange: move BIC GOK", START, answering=press)
    ack = answer_to(referee, row)
    row = reply(referee, "rome", "bob", "Thanks, got it.", START, answering=ack,
                thread=[press])
    said = flat(answer_to(referee, row))
    assert [r["seat"] for r in outbox(referee, kind="press")] == ["bob"], "nothing relayed"
    assert "press of ann" not in said
