"""Press: players write to each other through pbem, by mail, in English and in French.

Every message goes through real RFC 822 mails on a real SQLite file. Press
reaches its recipients and nobody else, never shows an address, and is part
of the history of exactly the seats it was between.
"""

import json
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
    assert "press must be open, anonymous, either, none: 'loud'" in result.output


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


# ------------------------------------------------------------------ press blocks

BALKANS = {"phase": "spring 1902 movement",
           "powers": {"austria": "fay", "turkey": "gus", "russia": "hal"},
           "units": {"austria": ["A SER", "F GRE", "A VIE"], "turkey": ["A BUL", "F BLA"],
                     "russia": ["A WAR", "F SEV"]},
           "centres": {"austria": ["VIE", "BUD", "TRI", "SER", "GRE"],
                       "turkey": ["ANK", "CON", "SMY", "BUL"],
                       "russia": ["MOS", "WAR", "SEV", "STP"]}}


@pytest.fixture
def balkans(referee):
    """fay (French, Austria), gus (Turkey) and hal (Russia) in spring 1902."""
    referee.new_game("diplomacy", "d", [SeatSpec("fay", "fay@players.example", lang="fr"),
                                        SeatSpec("gus", "gus@players.example"),
                                        SeatSpec("hal", "hal@players.example")],
                     START, {}, seed="club", position=BALKANS)
    return referee


def press_to(referee, seat: str) -> list[str]:
    """The messages a seat got as press, as their text parts."""
    return [text_of(row) for row in outbox(referee, kind="press", seat=seat)]


def test_orders_below_a_press_block_are_orders_and_never_travel_as_press(balkans):
    """`PRESS bob` / `SECRET` / blank line / `A PAR - BUR` sent the order to bob."""
    referee = balkans
    row = reply(referee, "d", "gus", f"PRESS fay\n{SECRET}\n\nA Bul - Ser\nF Bla H", START)
    [message] = press_to(referee, "fay")
    assert SECRET in message and "Bul" not in message and "BLA" not in message.upper()
    assert referee.current_submission("d", "gus", 1)["text"].split() == \
        "A Bul - Ser F Bla H".split()
    said = flat(answer_to(referee, row))
    assert "Press sent to fay." in said
    assert "Line by line: 1-2 press to fay; 4-5 orders." in said, said


def test_each_press_block_goes_to_its_own_recipients_and_only_all_is_public(balkans,
                                                                            tmp_path):
    """`PRESS ALL` / text / blank / `PRESS bob` / private words: the second message went to
    every seat, and the public archive published it."""
    from pbem.publish import publish
    referee = balkans
    body = ("Hello everyone, peace in the Black Sea?\n\nPRESS fay\nLet us split Russia, "
            "quietly.\nENDPRESS\nA Bul H")
    row = reply(referee, "d", "gus", "PRESS ALL\n" + body, START)
    assert [m.count("peace in the Black Sea") for m in press_to(referee, "hal")] == [1]
    assert all("split Russia" not in m for m in press_to(referee, "hal"))
    first, second = press_to(referee, "fay")
    assert "peace in the Black Sea" in first and "split Russia" not in first
    assert "split Russia" in second and "ENDPRESS" not in second and "Bul" not in second
    sent = [e for e in referee.events("d", "referee") if e["type"] == "press"]
    assert [(e["payload"].get("all", False), e["visible_to"]) for e in sent] == \
        [(True, ["fay", "gus", "hal"]), (False, ["fay", "gus"])]
    publish(referee, tmp_path / "site")
    archive = " ".join(p.read_text(encoding="utf-8") for p in (tmp_path / "site").rglob("*.html"))
    assert "peace in the Black Sea" in archive and "split Russia" not in archive
    said = flat(answer_to(referee, row))
    assert "Line by line: 1-2 press to fay, hal; 4-6 press to fay; 7 order." in said, said
    assert referee.current_submission("d", "gus", 1) is not None


def test_a_command_ends_a_press_block_and_the_judges_endpress_is_not_relayed(balkans):
    referee = balkans
    row = reply(referee, "d", "hal", "PRESS gus\nShall we stop?\nDRAW\nPRESS fay\nHi Fay\n"
                "ENDPRESS\nGood luck to all of you!", START)
    [to_gus] = press_to(referee, "gus")
    assert "Shall we stop?" in to_gus and "DRAW" not in to_gus
    [to_fay] = press_to(referee, "fay")
    assert "Hi Fay" in to_fay and "ENDPRESS" not in to_fay and "Good luck" not in to_fay
    assert referee.table("d").state["engine"]["draw"]["votes"] == ["hal"]
    said = flat(answer_to(referee, row))
    assert "Line by line: 1-2 press to gus; 3 DRAW; 4-6 press to fay; 7 remark." in said, said


def test_finpresse_ends_a_french_press_block(balkans):
    referee = balkans
    row = reply(referee, "d", "fay", "Bonjour,\nPRESSE gus\nOn se partage la Russie ?\n"
                "FINPRESSE\nA Vie - Gal\nA Ser H\nF Gre H\nFay", START)
    [to_gus] = press_to(referee, "gus")
    assert "On se partage la Russie ?" in to_gus and "Gal" not in to_gus
    said = flat(answer_to(referee, row))
    assert "Ligne par ligne : 1 mise de côté ; 2-4 message à gus ; 5-7 ordres ; " \
           "8 mise de côté." in said, said


# ------------------------------------------------------------------ anonymous press


def four_seats(referee, game_id: str, press: str):
    """Auguste between four seats with this press setting; cat reads French."""
    referee.new_game("auguste", game_id, [SeatSpec("ann", "ann@players.example"),
                                          SeatSpec("bob", "bob@players.example"),
                                          SeatSpec("cat", "cat@players.example", lang="fr"),
                                          SeatSpec("dan", "dan@players.example")],
                     START, {"preset": "4-2", "press": press}, seed="s")
    return referee


@pytest.fixture
def masked(referee):
    """Auguste between four seats, press anonymous; cat reads French."""
    return four_seats(referee, "anon", "anonymous")


@pytest.mark.parametrize("signed", ["Gaston", "Amitiés,\nGaston", "Cheers, G.",
                                    "See you,\nGaston\nClub de Lyon"])
def test_anonymous_press_leaves_out_its_writers_signature_and_says_so(masked, signed):
    """Anonymous press named its writer by signature ("Gaston", "Edith", "ivy")."""
    referee = masked
    row = reply(referee, "anon", "cat", f"PRESS bob\nWe could share the north.\n{signed}",
                START, sender="Gaston Lefort <cat@players.example>")
    [press] = outbox(referee, kind="press", seat="bob")
    assert "We could share the north." in text_of(press)
    assert "Gaston" not in text_of(press) and "G." not in text_of(press) \
        and "Lyon" not in text_of(press)
    said = flat(answer_to(referee, row))
    assert "J'ai retiré la fin de votre message, qui vous aurait nommé :" in said
    assert "Message envoyé à bob, sans votre nom." in said


def test_anonymous_press_keeps_a_name_in_its_words(masked):
    referee = masked
    reply(referee, "anon", "ann", "PRESS bob\nI think Ann and Cat are plotting against you, "
          "and Dan knows it.", START)
    [press] = outbox(referee, kind="press", seat="bob")
    assert "I think Ann and Cat are plotting against you, and Dan knows it." in text_of(press)


def test_a_reply_to_anonymous_press_with_orders_can_still_answer_its_sender(masked):
    """A reply to anonymous press that held orders lost its chat, and its writer had no
    way left to answer the unknown sender."""
    referee = masked
    reply(referee, "anon", "ann", "PRESS dan\nShall we hold the centre together?", START)
    [press] = outbox(referee, kind="press", seat="dan")
    row = reply(referee, "anon", "dan", "blue: move JAZ LEK\nPRESS\nYes, gladly.\nDan",
                START, answering=press)
    said = flat(answer_to(referee, row))
    assert "blue: move the legionary on JAZ to LEK" in said, said
    assert "Your answer went to the sender of that press, without your name." in said
    assert "Line by line: 1 order; 2-4 press to the sender of that press." in said, said
    [back] = outbox(referee, kind="press", seat="ann")
    assert "Yes, gladly." in text_of(back) and "Dan" not in text_of(back)
    assert "dan" not in str(parsed(back)["Subject"])
    row = reply(referee, "anon", "dan", "blue: move JAZ LEK\nNice try.", START,
                answering=press)
    assert "To answer its sender, start a line with PRESS alone in a reply to that message" \
        in flat(answer_to(referee, row))


def test_a_line_of_a_message_that_starts_with_the_word_press_stays_in_it(balkans):
    referee = balkans
    reply(referee, "d", "gus", "PRESS fay\nPress on with it, Fay:\npress 2: the Black Sea "
          "stays empty\nPRESS hal\nHello Hal", START)
    [to_fay] = press_to(referee, "fay")
    assert "press 2: the Black Sea stays empty" in to_fay and "Hello Hal" not in to_fay
    [to_hal] = press_to(referee, "hal")
    assert "Hello Hal" in to_hal and "Black Sea" not in to_hal


@pytest.fixture
def either(referee):
    """Auguste between four seats, each message open or grey as its writer asks; cat reads
    French."""
    return four_seats(referee, "mixed", "either")


@pytest.mark.parametrize("line", ["PRESS GREY bob", "press grey bob, dan", "PRESSE GRISE bob",
                                  "PRESS anonymous bob"])
def test_grey_press_asked_in_its_press_line_names_no_sender(either, line):
    """The judges' grey press, message by message, where the game lets each writer choose."""
    referee = either
    sender = "cat" if "PRESSE" in line else "ann"
    row = reply(referee, "mixed", sender, f"{line}\n{SECRET}", START)
    said = flat(answer_to(referee, row))
    assert "sans votre nom." in said if sender == "cat" else "without your name." in said
    [to_bob] = outbox(referee, kind="press", seat="bob")
    told = flat(to_bob).split(SECRET)[0]
    assert "A player sent you this message without their name." in told
    assert not re.search(rf"\b{sender}\b", told) and SECRET in text_of(to_bob)
    assert not re.search(r"\b(gr[ea]y|grise|anonymous bob)\b", text_of(to_bob), re.I), \
        "the word that asks for grey press is not part of the message"
    assert [e["payload"]["anonymous"] for e in referee.events("mixed", "referee")
            if e["type"] == "press"] == [True]
    assert replay(referee.store, "mixed", verify=True).ok


def test_press_without_grey_names_its_sender_where_each_message_chooses(either):
    referee = either
    reply(referee, "mixed", "ann", f"PRESS bob\n{SECRET}", START)
    [to_bob] = outbox(referee, kind="press", seat="bob")
    assert "ann sent this message to bob." in flat(to_bob)


def test_an_answer_to_grey_press_goes_back_grey_and_names_neither_side(either):
    referee = either
    reply(referee, "mixed", "ann", f"PRESS GREY bob\n{SECRET}", START)
    [press] = outbox(referee, kind="press", seat="bob")
    row = reply(referee, "mixed", "bob", "Who are you? I accept.", START, answering=press)
    assert "Your answer went to the sender of that press, without your name." in \
        flat(answer_to(referee, row))
    [back] = outbox(referee, kind="press", seat="ann")
    assert "Who are you? I accept." in text_of(back)
    assert not re.search(r"\bbob\b", flat(back).split("Who are you?")[0])
    bob_sees = [e for e in referee.events("mixed", "bob") if e["type"] == "press"]
    assert all("ann" not in json.dumps(e["payload"]) for e in bob_sees)


def test_grey_press_in_a_game_whose_press_is_open_is_not_sent(auguste_game):
    """Where every message names its sender, a writer who asked for grey press is told,
    and nothing goes out with their name against their wish."""
    row = reply(auguste_game, "rome", "ann", f"PRESS GREY bob\n{SECRET}", START)
    assert "Grey press is off in this game (every message names its sender), so your " \
        "message was not sent: write PRESS and the names alone." in flat(answer_to(
            auguste_game, row))
    assert carrying(auguste_game, SECRET) == []


@pytest.mark.parametrize("seat,example", [("ann", "PRESS GREY"), ("cat", "PRESSE GRISE")])
def test_help_shows_grey_press_where_each_message_chooses_and_its_example_is_sent(either, seat,
                                                                                   example):
    referee = either
    said = flat(answer_to(referee, reply(referee, "mixed", seat,
                                         "AIDE" if seat == "cat" else "HELP", START)))
    shown = re.search(rf"{example} (\w+),", said)
    assert shown, said
    row = reply(referee, "mixed", seat, f"{example} {shown.group(1)}\n{SECRET}", START)
    assert re.search(r"without your name|sans votre nom", flat(answer_to(referee, row)))
    [press] = outbox(referee, kind="press", seat=shown.group(1))
    assert "A player sent you this message without their name." in flat(press) or \
        "Un joueur vous a envoyé ce message sans son nom." in flat(press)
