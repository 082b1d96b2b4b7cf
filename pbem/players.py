"""What players do by mail besides their orders: press, absences, history, draws, concessions.

Each ``*_command`` is a mail command's handler (see ``COMMAND_HANDLERS`` in
pbem/inbound.py): it gets the mail being acted on and the command read from
it, records what it changes (an event, in the mail's transaction), queues any
mail it causes, and adds to the answer, in the seat's language, what it did.
"""

from datetime import date, datetime, time, timedelta, timezone
from difflib import get_close_matches
import json
import re
from zoneinfo import ZoneInfo

from . import letters
from .adjudicator import engine
from .adjudicator.contract import REFEREE, private, public
from .adjudicator.options import MAX_HOURS
from .errors import PbemError
from .i18n import N_, _, again, for_reader, format_date, format_number, speaking
from .mail.parse import shorten
from .reading import plain, sender_names, shown, unsigned
from .store import row_event
from .timeutil import iso, parse_time

EVERYONE = ("all", "tous", "toutes", "everyone", "everybody")
# The word after PRESS that asks for a message without the sender's name (grey press).
GREY = ("grey", "gray", "gris", "grise", "anonymous", "anonyme", "anon")
# A phase's number as written after HISTORY: "3", "#3", "3." (digits of any script, never "²").
TURN_NUMBER = re.compile(r"^#?(\d+)[.,;:!?)]*$")
PRESS_MESSAGE_ID = re.compile(r"^<([a-z0-9-]+)\.press\.(\d+)\.[0-9a-f]+@")  # game, seq


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
    ("bob,cat", "hello"); names go on only after a comma. A GREY before the names is
    not one of them (see asks_grey)."""
    words = words[1:] if asks_grey(words) else words
    taken = 0
    while taken < len(words) and (taken == 0 or words[taken - 1].endswith(",")
                                  or words[taken].startswith(",")):
        taken += 1
    return " ".join(words[:taken]).strip(":"), " ".join(words[taken:]).strip()


def asks_grey(words: list[str]) -> bool:
    """Does the PRESS line ask for grey press, its first word GREY (GRIS, ANONYMOUS)?"""
    return bool(words) and plain(words[0]) in GREY


def addressed(table, sender: str):
    """A function that says whether the words after a PRESS name its recipients (seats, a
    team, ALL) or nobody at all (PRESS alone, answering a press), so that a line of a
    message that starts with the word ("press 0: for bob alone") stays the message's."""
    def names(args) -> bool:
        target, _opening = addressees(args)
        return not target or not recipients(table, sender, target)[1]
    return names


def press_command(mail, command) -> None:
    """PRESS <seat|team|ALL>: the lines below it, to the end of its block (see
    reading.read_text), are a message, relayed by pbem. In a reply to press, PRESS
    alone answers that press's sender (unnamed when it was anonymous)."""
    table, sender = mail.table, mail.seat["name"]
    first, last = command.lines
    lines = range(first, last + 1)
    mail.answer.account(lines, "unsent")
    if engine.setting(table.state, "press") == "none":
        note(mail, N_("Press is off in this game, so your message was not sent."))
        return
    if asks_grey(command.args) and engine.setting(table.state, "press") == "open":
        note(mail, N_("Grey press is off in this game (every message names its sender), so "
                      "your message was not sent: write {press} and the names alone."),
             press=shown("press", mail.seat["lang"]))
        return
    target, opening = addressees(command.args)
    text = "\n".join(part for part in (opening, command.text.strip("\n")) if part).strip()
    answered = None if target else press_answered(mail)
    if not target and answered is None:
        note(mail, N_("Say whom your press is for: PRESS followed by a seat, a team or ALL, "
                      "then your message on the next lines."))
        return
    to, unknown = ([answered["from"]], []) if answered else recipients(table, sender, target)
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
    if answered is not None:
        sent = send_press(mail, to, text, answers=answered["seq"], grey=answered["anonymous"])
    else:
        sent = send_press(mail, to, text, everyone=any(plain(word) in EVERYONE
                                                       for word in re.split(r"[,;]", target)),
                          grey=asks_grey(command.args))
    if sent:
        mail.answer.account(lines, "press", None if answered is not None and
                            answered["anonymous"] else ", ".join(to))


def send_press(mail, to: list, text: str, answers: int | None = None,
               everyone: bool = False, sent: str | None = None, grey: bool = False) -> bool:
    """Record a press event from the mail's seat to `to` and mail it to them; True when
    it was sent (not past the press limits).

    `answers` is the seq of the press this one answers: an answer to
    anonymous press records it, and never names whom it goes to. Press to ALL
    (`everyone`) is public: it says so in its event (``all``), and the club's
    public archive shows it. `sent` is the sentence that tells the sender where
    it went (a msgid with {seats}), by default "Press sent to ...". Press is
    anonymous when the game's press is, or when the game lets each message choose
    (press=either) and this one is `grey` (asked so, or answering grey press).
    Anonymous press goes without the signature at its end (see reading.unsigned),
    and its writer is told what was left out.
    """
    table, sender = mail.table, mail.seat["name"]
    setting = engine.setting(table.state, "press")
    anonymous = setting == "anonymous" or (setting == "either" and grey)
    if anonymous:
        text, signed = unsigned(text, sender_names(
            sender, mail.seat.get("player") or "",
            mail.incoming.sender_name if mail.incoming else ""))
        if signed:
            note(mail, N_("I left out the end of your message, which would have named you: "
                          "“{words}”."), words=" / ".join(signed))
    if over_press_limits(mail, to, text):
        return False
    answered = {"answers": answers} if anonymous and answers else {}
    event = private([sender, *to], "press", to=to, text=text, anonymous=anonymous,
                    phase=table.state["engine"]["phase"], **{"from": sender}, **answered,
                    **({"all": True} if everyone else {}))
    mail.table = mail.referee.record(table, [event], mail.now)
    letters.press(mail.table, mail.table.game_row["last_seq"], mail.now)
    if answered:
        note(mail, N_("Your answer went to the sender of that press, without your name."))
    elif sent:
        note(mail, sent, seats=", ".join(to))
    elif anonymous:
        note(mail, N_("Press sent to {seats}, without your name."), seats=", ".join(to))
    else:
        note(mail, N_("Press sent to {seats}."), seats=", ".join(to))
    if everyone:
        note(mail, N_("Press to ALL is public: the club's web archive of the game shows it."))
    return True


def over_press_limits(mail, to: list, text: str) -> bool:
    """Is this press longer than ``[mail] press_bytes``, or would it take the seat's press
    of the last hour past ``[mail] press_bytes_per_hour`` (bytes times recipients)? Then
    the answer says so, and True."""
    limits = mail.referee.config["mail"]
    size = len(text.encode())
    since = iso(parse_time(mail.now) - timedelta(hours=1))
    with speaking(mail.seat["lang"]):
        if size > limits["press_bytes"]:
            mail.answer.notes.append(_(
                "Your press is {size} bytes long, over the limit of {limit} bytes, so it was "
                "not sent: shorten it.").format(size=format_number(size),
                                                 limit=format_number(limits["press_bytes"])))
            return True
        sent = press_sent(mail.referee.store, mail.table.game_row["id"], mail.seat["name"],
                          since)
        if sent + size * len(to) > limits["press_bytes_per_hour"]:
            mail.answer.notes.append(_(
                "Your press of the last hour comes to {sent} bytes and this one would take it "
                "past the limit of {limit} bytes an hour (each recipient counts), so it was "
                "not sent: send it later.").format(
                    sent=format_number(sent), limit=format_number(limits["press_bytes_per_hour"])))
            return True
    return False


def press_sent(store, game_id: str, seat: str, since: str) -> int:
    """The bytes of press a seat sent since a moment, times their recipients."""
    return sum(len(p["text"].encode()) * len(p["to"]) for p in (
        json.loads(row["payload"]) for row in store.all(
            "SELECT payload FROM events WHERE game = ? AND type = 'press' AND at > ?",
            [game_id, since])) if p["from"] == seat)


def press_answered(mail) -> dict | None:
    """The press a mail replies to (its event's payload, with its seq), when the latest
    of the seat's mails it references is a press mail; else None. A reply to pbem's
    answer to a reply to press still names the press in its References: it answers
    pbem, not the press."""
    incoming = mail.incoming
    if incoming is None or not incoming.references:
        return None
    game_id = mail.table.game_row["id"]
    marks = ", ".join("?" for _ in incoming.references)
    latest = mail.referee.store.one(
        f"SELECT message_id, kind FROM outbox WHERE game = ? AND seat = ? AND message_id IN "
        f"({marks}) ORDER BY id DESC LIMIT 1", [game_id, mail.seat["name"],
                                               *incoming.references])
    found = PRESS_MESSAGE_ID.match(latest["message_id"]) if latest and \
        latest["kind"] == "press" else None
    if not found or found.group(1) != game_id:
        return None
    row = next(mail.referee.store.event_rows(game_id, after=int(found.group(2)) - 1,
                                             upto=int(found.group(2))))
    return {**row["payload"], "seq": row["seq"]}


def answer_press(mail, press: dict) -> None:
    """A reply to press, holding no orders: its whole text goes back to the press's sender
    (who stays unnamed when the press was anonymous)."""
    text = mail.incoming.text.strip()
    if engine.setting(mail.table.state, "press") == "none":
        note(mail, N_("Press is off in this game, so your message was not sent."))
    elif not text:
        note(mail, N_("Your reply to the press was empty, so nothing was sent."))
    else:
        send_press(mail, [press["from"]], text, answers=press["seq"], grey=press["anonymous"],
                   sent=N_(
            "Your mail answers the press of {seats} and holds no orders, so it went to "
            "{seats} alone, as press."))


def note_not_relayed(mail, press: dict) -> None:
    """A reply to press that holds orders or commands: say that it was read as such and
    that nothing went to the press's sender."""
    if press["anonymous"]:
        note(mail, N_("Your mail answers a press message, but it holds orders or commands: "
                      "I read them as such, and nothing was sent to the message's sender. "
                      "To answer its sender, start a line with {press} alone in a reply to "
                      "that message, and write your words below it."),
             press=shown("press", mail.seat["lang"]))
        return
    note(mail, N_("Your mail answers the press of {seat}, but it holds orders or commands: "
                  "I read them as such, and nothing was sent to {seat}. To write to {seat}, "
                  "start a line with {press} {seat}."), seat=press["from"],
         press=shown("press", mail.seat["lang"]))


# ------------------------------------------------------------------ absences

FILLER = ("from", "to", "until", "till", "du", "au", "jusqu'au", "jusqu", "le", "the", "-")
DATE_FORMS = ("%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y", "%d-%m-%Y")
REACH = timedelta(days=366)  # an absence starts at most a year ahead, and ended at most a year ago


class OutOfReach(ValueError):
    """A date of an absence more than a year ahead (its first) or ago (its last), as written."""

    def __init__(self, word: str, ahead: bool):
        super().__init__(word)
        self.word, self.ahead = word, ahead


class Overlong(ValueError):
    """An absence longer than a year: pause the game instead."""

    def __init__(self, days: int):
        super().__init__(days)
        self.days = days


def read_date(word: str, today: date) -> date | None:
    """A date as players write it: 2026-12-20, 20/12/2026, 20.12.2026, or 20/12 (the next one:
    29/02 is the next 29 February there is)."""
    for form in DATE_FORMS:
        try:
            return datetime.strptime(word, form).date()
        except ValueError:
            continue
    try:
        day, month = (int(part) for part in re.split(r"[/.]", word))
    except ValueError:
        return None
    for year in range(today.year, today.year + 9):  # a 29 February comes within 8 years
        try:
            found = date(year, month, day)
        except (ValueError, OverflowError):  # no such day that year, or a month of 40 digits
            continue
        if found >= today:
            return found
    return None


def away_span(words: list[str], tz_name: str | None, now: str) -> tuple[str, str, int] | None:
    """(start, end, days) in UTC for "20/12 27/12" in the seat's zone: from the start of the
    first day to the end of the last; one date is one day. None if the words are no dates;
    OutOfReach or Overlong (checked before any arithmetic) if they make no absence."""
    zone = ZoneInfo(tz_name) if tz_name else timezone.utc
    today = parse_time(now).astimezone(zone).date()
    written = [w.strip(",;.") for w in words if w.strip(",;.").lower() not in FILLER]
    days = [read_date(word, today) for word in written]
    if not days or len(days) > 2 or None in days:
        return None
    first, last = days[0], days[-1]
    if last < first:
        return None
    if first - today > REACH:
        raise OutOfReach(written[0], ahead=True)
    if today - last > REACH:
        raise OutOfReach(written[-1], ahead=False)
    if (last - first).days + 1 > MAX_HOURS // 24:
        raise Overlong((last - first).days + 1)
    start = datetime.combine(first, time(), zone)
    end = datetime.combine(last + timedelta(days=1), time(), zone)
    return iso(start), iso(end), (last - first).days + 1


def absence_left(state: dict, seat: str) -> tuple[int, int]:
    """(absences, days) a seat may still declare itself (the referee's never count)."""
    mine = [a for a in state["engine"].get("absences", {}).get(seat, []) if a["by"] == seat]
    used_days = sum(round((parse_time(a["end"]) - parse_time(a["start"])).total_seconds()
                          / 86400) for a in mine)
    return (engine.setting(state, "absences") - len(mine),
            engine.setting(state, "absence_days") - used_days)


def absence_command(mail, command) -> None:
    """ABSENCE <from> <to>: no deadline of this seat falls in those days (its own zone)."""
    seat = mail.seat
    try:
        span = away_span(command.args, seat["tz"], mail.now)
    except OutOfReach as far:
        note(mail, N_("Line {line}: {date} is more than a year from today, so your absence was "
                      "not recorded. Declare an absence at most a year ahead.") if far.ahead
             else N_("Line {line}: {date} is more than a year ago, so your absence was not "
                     "recorded."), line=command.line, date=far.word)
        return
    except Overlong as long:
        note(mail, N_("Line {line}: an absence of {days} days is longer than a year, so it was "
                      "not recorded; the referee may pause the game instead."),
             line=command.line, days=long.days)
        return
    if span is None:
        note(mail, N_("Line {line}: I could not read the dates of your absence. Write "
                      "{absence} and the first and last days away, in your own time zone: "
                      "{absence} {start} {end}."), line=command.line,
             absence=shown("absence", seat["lang"]),
             **letters.away_example(seat, mail.now, seat["lang"]))
        return
    start, end, days = span
    if end <= mail.now:
        note(mail, N_("Your absence is over already, so it was not recorded."))
        return
    absences, days_left = absence_left(mail.table.state, seat["name"])
    if absences <= 0 or days > days_left:
        note(mail, N_("This absence of {days} days is more than you have left in this game "
                      "({count} absences, {left} days), so it was not recorded; the referee "
                      "may grant it."), days=days, count=max(absences, 0), left=max(days_left, 0))
        return
    mail.table = declare_absence(mail.referee, mail.table, seat, start, end, seat["name"],
                                 mail.now)
    with speaking(seat["lang"]):
        mail.answer.notes.append(_("Absence noted: from {start} to {end}. No deadline of yours "
                                   "falls in it.").format(
                                       start=format_date(start, seat["tz"]),
                                       end=format_date(end, seat["tz"])))


def declare_absence(referee, table, seat: dict, start: str, end: str, by: str, now: str):
    """Record an absence; move the open deadline to its end if it falls in it and tell every
    seat (under fog of war, only the seats asked, without naming the absent one). Returns
    the new table (inside the caller's transaction)."""
    events = [public("absence_declared", seat=seat["name"], start=start, end=end, by=by)]
    table = referee.record(table, events, now)
    eng = table.state["engine"]
    if eng["deadline"] and seat["name"] in eng["requests"]:
        moved = engine.past_absences(eng, eng["deadline"], eng["requests"])
        if moved != eng["deadline"]:
            table = referee.record(table, [engine.deadline_moved(table.state, moved)], now)
            hidden = engine.private_requests(table.game, table.state)
            for other in referee.store.seats(table.game_row["id"]):
                if hidden and other["name"] not in eng["requests"]:
                    continue  # under fog of war, who is asked is not everyone's business
                said = letters.say(N_("A player's absence moves this turn's deadline to "
                                      "{when}."), when=letters.Moment(moved)) if hidden else \
                    letters.say(N_("{seat} is away until {end}, so this turn's deadline moves "
                                   "to {when}."), seat=seat["name"], end=letters.Moment(end),
                                when=letters.Moment(moved))
                letters.tell(table, other, "deadline", letters.say(N_("the deadline moves")),
                             [said], now)
    return table


def grant_absence(referee, game_id: str, seat_name: str, first: str, last: str,
                  now: str) -> dict:
    """The referee records an absence for a seat, beyond its quota; returns the absence.

    `first` and `last` are the first and last days away, in the seat's time zone.
    """
    now = iso(parse_time(now))
    with referee.store.transaction():
        table = referee.table(game_id)
        seat = referee.store.existing_seat(game_id, seat_name)
        if table.state["engine"]["over"]:
            raise PbemError(f"game {game_id} is over")
        try:
            span = away_span([first, last], seat["tz"], now)
        except OutOfReach as far:
            when = "from now: an absence starts" if far.ahead else "ago: an absence ends"
            raise PbemError(f"{far.word} is more than a year {when} within a year of "
                            "today") from None
        except Overlong as long:
            raise PbemError(f"an absence of {long.days} days is longer than a year; pause the "
                            f"game instead (pbem pause {game_id})") from None
        if span is None:
            away = letters.away_example(seat, now, "en")
            raise PbemError(f"{first} to {last}: give the first and last days away, e.g. "
                            f"--from {away['start']} --to {away['end']} (the second not "
                            "before the first)")
        start, end, days = span
        if end <= now:
            raise PbemError(f"an absence that ended on {end} changes nothing")
        declare_absence(referee, table, seat, start, end, REFEREE, now)
    return {"seat": seat_name, "start": start, "end": end, "days": days}


# ------------------------------------------------------------------ history


def asked_words(request: dict | None) -> str:
    """What a phase asked of a seat, in the current language (its prompt, kept in the log
    in English, is translated again)."""
    prompt = (request or {}).get("prompt")
    return again(prompt) if prompt else _("nothing asked of you")


def history_command(mail, command) -> None:
    """HISTORY [turn]: the list of the game's phases by turn, or the seat's report of one
    turn (HISTORY 0: the setup), rebuilt from the log."""
    table, seat = mail.table, mail.seat
    rows = list(mail.referee.store.event_rows(table.game_row["id"]))
    phases = engine.live_phases(rows)
    turns = letters.phase_turns(table.game, rows)
    named = getattr(table.game, "turn_words", None) is not None
    written = None if named else next((found.group(1) for found in map(
        TURN_NUMBER.match, command.args) if found), None)
    asked = turn_named(table.game, turns, command.args, seat["lang"]) if named else \
        (int(written) if written and len(written) <= 9 else None)  # no game has a billion turns
    done = [number for number, phase in sorted(phases.items()) if phase["end"]]
    if written is None and asked is None:
        unread = [letters.say(N_("Line {line}: I know no turn called \"{words}\", so here is "
                                 "the list of turns.") if named else
                              N_("Line {line}: I read no turn number in \"{words}\", so here "
                                 "is the list of turns."), line=command.line,
                              words=shorten(" ".join(command.args), 40))] if command.args else []
        with speaking(seat["lang"]):
            lines = [_("{told}, opened {when}: {what}").format(
                told=letters.capitalised(engine.told_words(*turns[number], table.game)),
                when=format_date(phase["opened"], seat["tz"]),
                what=asked_words(phase["requests"].get(seat["name"])))
                for number, phase in sorted(phases.items())]
            latest = engine.told_words(*turns[(done or sorted(phases))[-1]], table.game) \
                if phases else ""
            how = letters.say(N_("Send HISTORY and a turn's name as listed (HISTORY {turn}) "
                                 "for your report of that turn, as your seat saw it."),
                              turn=engine.initials(latest)) if named and latest else \
                letters.say(N_(
                    "Send HISTORY and a turn's number for your report of that turn, as your "
                    "seat saw it (HISTORY 0: the setup)."))
        letters.tell(table, seat, "history", letters.say(N_("the turns of this game")),
                     [*unread, how], mail.now, lines=lines, reply_to_mail=mail.incoming)
        return
    mine = [number for number in done if turns[number][0] == asked]
    if not mine and named:
        with speaking(seat["lang"]):
            note(mail, N_("There is no report of {told} yet: the turns resolved so far are "
                          "{done}."), told=engine.told_words(asked, None, table.game),
                 done="; ".join(dict.fromkeys(engine.told_words(*turns[n], table.game)
                                              for n in done)) or "-")
        return
    if not mine:
        note(mail, N_("There is no report of turn {turn} yet: the turns resolved so far are "
                      "{done} (0: the setup)."), turn=shorten(written, 12) if asked is None
             else asked, done=", ".join(str(t) for t in sorted({turns[n][0] for n in done}))
             or "-")
        return
    start, end = phases[mine[0]]["start"], phases[mine[-1]]["end"]
    gone = engine.undone(rows)
    shown = [engine.as_seen(row_event(row), seat["name"]) for row in rows
             if start < row["seq"] <= end and row["seq"] not in gone
             and row_event(row).visible(seat["name"])]
    then = engine.fold(table.game, [row_event(r) for r in rows if r["seq"] <= end])
    past = letters.Table(mail.referee, table.game_row, table.game, then)
    now_asked = table.context(seat)
    with speaking(seat["lang"]), for_reader(seat["name"], seat["tz"]):
        told = engine.told_words(asked, None, table.game)
        happened = [line for line in (engine.narrate(event, table.game, table.state["game"])
                                      for event in shown) if line]
        past.send(seat, "history", lambda context: _("your report for {told}").format(
            told=told), "history", mail.now, reply_to_mail=mail.incoming, told=told,
                  happened=happened, request=now_asked["request"],
                  waiting=now_asked["waiting"], proxies=now_asked["proxies"], of_now=table)


def turn_named(game, turns: dict, words: list, lang: str) -> int | None:
    """The turn of a game that names its turns (engine.told_words) asked for by its name or
    its initials, in the seat's language or in English ("HISTORY Fall 1901, retreats",
    "HISTORY F1901R"), or None."""
    said = plain(" ".join(words))
    for turn, round_ in sorted(set(turns.values())):
        for language in dict.fromkeys((lang, "en")):
            with speaking(language):
                name = engine.told_words(turn, round_, game)
            if said and said in (plain(name), engine.initials(name).lower()):
                return turn
    return None


# ------------------------------------------------------------------ draws and concessions


def draw_command(mail, command) -> None:
    """DRAW: a vote to end the game in a draw; it ends when every seat still playing votes
    for it before the vote lapses, once each of them has had a turn to answer it
    (engine.draw_vote)."""
    table, name = mail.table, mail.seat["name"]
    state = table.state
    if name not in engine.survivors(table.game, state):
        note(mail, N_("You are no longer playing this game, so you have no vote for a draw."))
        return
    again = name in state["engine"].get("draw", {}).get("votes", [])
    events = engine.draw_vote(table.game, state, name, table.game_row["seed"])
    mail.table = table = mail.referee.record(table, events, mail.now)
    if table.state["engine"]["over"]:
        note(mail, N_("You are the only seat still playing, so you win: the game is over.")
             if events[-1].type == "game_conceded" else
             N_("Every seat still playing voted for a draw: the game is over."))
        letters.reports(table, mail.referee.store.seats(table.game_row["id"]), mail.now)
        return
    votes = table.state["engine"]["draw"]["votes"]
    waiting = [s for s in engine.survivors(table.game, table.state) if s not in votes]
    if again:  # counted again: its time starts anew, and the others were told already
        note(mail, N_("Your vote for a draw was counted already; it is counted again, and "
                      "the votes now stand until each seat still to vote has had a turn to "
                      "answer. Votes so far: {votes}. Still to vote: {seats}."),
             votes=", ".join(votes), seats=", ".join(waiting))
        return
    note(mail, N_("Your vote for a draw is counted. The game ends in a draw if every seat "
                  "still playing votes for it; the vote stands until each of them has had a "
                  "turn to answer. Still to vote: {seats}."), seats=", ".join(waiting))
    for seat in mail.referee.store.seats(table.game_row["id"]):
        if seat["name"] in waiting:
            letters.tell(table, seat, "draw", letters.say(N_("{seat} proposes a draw"),
                                                          seat=name), [
                letters.say(N_("{seat} votes to end the game in a draw; votes so far: {votes}. "
                               "It ends in a draw if every seat still playing votes for it; "
                               "the vote stands until each of them has had a turn to "
                               "answer."), seat=name, votes=", ".join(votes)),
                letters.say(N_("To agree, reply with DRAW.")),
            ], mail.now)


def concede_command(mail, command) -> None:
    """CONCEDE: the seat gives up; it plays its default orders for the rest of the game."""
    table, name = mail.table, mail.seat["name"]
    if name in table.state["engine"].get("conceded", []):
        note(mail, N_("You conceded already."))
        return
    events = [public("seat_conceded", seat=name)]
    after, seed = engine.fold(table.game, events, table.state), table.game_row["seed"]
    ending = engine.sole_survivor(table.game, after, seed) or \
        engine.draw_agreed(table.game, after, seed)
    mail.table = table = mail.referee.record(table, events + ([ending] if ending else []),
                                             mail.now)
    store = mail.referee.store
    store.update("games", {"id": table.game_row["id"]}, {"dirty": 1})
    if ending is not None and ending.type == "game_conceded":
        note(mail, N_("You conceded: {seat} is the only seat still playing and wins, so the "
                      "game is over."), seat=ending.payload["winner"])
    else:
        note(mail, N_("You conceded: your seat plays its default orders from now on, and you "
                      "still get the reports. Only the referee can give the seat to someone "
                      "else."))
    if ending:
        letters.reports(table, store.seats(table.game_row["id"]), mail.now)
        return
    for seat in store.seats(table.game_row["id"]):
        if seat["name"] != name:
            letters.tell(table, seat, "concession", letters.say(N_("{seat} concedes"),
                                                                seat=name), [
                letters.say(N_("{seat} concedes: the seat plays its default orders from now "
                               "on."), seat=name)], mail.now)


def note_conceded(referee, table, sender: str, target: str, answer) -> None:
    """Orders for a seat that conceded are not recorded: say so, in the sender's language."""
    seat = referee.store.seat(table.game_row["id"], sender)
    with speaking(seat["lang"]):
        answer.notes.append(_("You conceded, so these orders were not recorded: your seat plays "
                              "its default orders.") if sender == target else
                            _("{seat} conceded, so these orders were not recorded.").format(
                                seat=target))
