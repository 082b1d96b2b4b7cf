"""What players do by mail besides their orders: press, absences, history, draws, concessions.

Each ``*_command`` is a mail command's handler (see ``COMMAND_HANDLERS`` in
pbem/inbound.py): it gets the mail being acted on and the command read from
it, records what it changes (an event, in the mail's transaction), queues any
mail it causes, and adds to the answer, in the seat's language, what it did.
"""

from difflib import get_close_matches
import re

from . import letters
from .adjudicator import engine
from .adjudicator.contract import private
from .i18n import N_, _, speaking
from .reading import plain

EVERYONE = ("all", "tous", "toutes", "everyone", "everybody", "tout-le-monde")


def note(mail, message: str, **values) -> None:
    """Add a sentence to the answer, in the seat's language."""
    with speaking(mail.seat["lang"]):
        mail.answer.notes.append(_(message).format(**values))


# ------------------------------------------------------------------ press


def teams(table) -> dict:
    """{team name, as players write it: [seats]} when the game has teams, else {}."""
    named = getattr(table.game, "teams", None)
    return {plain(team): sorted(seats) for team, seats in (named(table.state["game"]) if named
                                                          else {}).items()}


def recipients(table, sender: str, words: str) -> tuple[list, list]:
    """(seats, unknown words) for "bob", "bob,cat", a team, or ALL."""
    seats = table.state["engine"]["seats"]
    groups = teams(table)
    chosen, unknown = set(), []
    for word in (plain(w) for w in re.split(r"[,;]", words) if plain(w)):
        if word in EVERYONE:
            chosen.update(seats)
        elif word in seats:
            chosen.add(word)
        elif word in groups:
            chosen.update(groups[word])
        else:
            unknown.append(word)
    return sorted(chosen - {sender}), unknown


def addressees(words: list[str]) -> tuple[str, str]:
    """The PRESS line's words as (whom, the start of the message): "bob,cat: hello" gives
    ("bob,cat", "hello"); names go on only after a comma."""
    taken = 0
    while taken < len(words) and (taken == 0 or words[taken - 1].endswith(",")
                                  or words[taken].startswith(",")):
        taken += 1
    return " ".join(words[:taken]).strip(":"), " ".join(words[taken:]).strip()


def press_command(mail, command) -> None:
    """PRESS <seat|team|ALL>: the rest of the mail is a message, relayed by pbem."""
    table, sender = mail.table, mail.seat["name"]
    if engine.setting(table.state, "press") == "none":
        note(mail, N_("Press is off in this game, so your message was not sent."))
        return
    target, first = addressees(command.args)
    text = "\n".join(part for part in (first, command.text.strip("\n")) if part).strip()
    if not target:
        note(mail, N_("Say whom your press is for: PRESS followed by a seat, a team or ALL, "
                      "then your message on the next lines."))
        return
    to, unknown = recipients(table, sender, target)
    if unknown:
        names = table.state["engine"]["seats"] + sorted(teams(table)) + ["all"]
        close = get_close_matches(unknown[0], names, n=1)
        with speaking(mail.seat["lang"]):
            mail.answer.notes.append(_("Line {line}: there is no seat or team called {word}, "
                                       "so your message was not sent").format(
                                           line=command.line, word=unknown[0])
                                     + (_("; did you mean {name}?").format(name=close[0])
                                        if close else "."))
        return
    if not to:
        note(mail, N_("Your press names only yourself, so it was not sent."))
        return
    if not text:
        note(mail, N_("Your press to {seats} was empty, so it was not sent: write the message "
                      "on the lines below PRESS."), seats=", ".join(to))
        return
    send_press(mail, to, text)


def send_press(mail, to: list, text: str) -> None:
    """Record a press event from the mail's seat to `to` and mail it to them."""
    table, sender = mail.table, mail.seat["name"]
    anonymous = engine.setting(table.state, "press") == "anonymous"
    event = private([sender, *to], "press", to=to, text=text, anonymous=anonymous,
                    phase=table.state["engine"]["phase"], **{"from": sender})
    mail.table = mail.referee.record(table, [event], mail.now)
    letters.press(mail.table, mail.table.game_row["last_seq"], mail.now)
    if anonymous:
        note(mail, N_("Press sent to {seats}, without your name."), seats=", ".join(to))
    else:
        note(mail, N_("Press sent to {seats}."), seats=", ".join(to))


def answers_press(mail) -> bool:
    """Is this mail a reply to a press mail? Then its whole text goes back to the press's
    sender, and True."""
    incoming = mail.incoming
    if incoming is None:
        return False
    game_id = mail.table.game_row["id"]
    pattern = re.compile(rf"^<{re.escape(game_id)}\.press\.(\d+)\.[0-9a-f]+@")
    for reference in reversed(incoming.references):
        found = pattern.match(reference)
        if not found or mail.referee.store.one(
                "SELECT 1 FROM outbox WHERE message_id = ? AND game = ? AND seat = ? "
                "AND kind = 'press'", [reference, game_id, mail.seat["name"]]) is None:
            continue
        row = next(mail.referee.store.event_rows(game_id, after=int(found.group(1)) - 1,
                                                 upto=int(found.group(1))))
        text = incoming.text.strip()
        if engine.setting(mail.table.state, "press") == "none":
            note(mail, N_("Press is off in this game, so your message was not sent."))
        elif not text:
            note(mail, N_("Your reply to the press was empty, so nothing was sent."))
        else:
            send_press(mail, [row["payload"]["from"]], text)
        return True
    return False
