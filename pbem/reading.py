"""A seat's mail text, sorted into mail commands, courtesy lines and orders.

Players write the way people write mail: a greeting first, a thank-you and
their name last, a command such as READY beside their orders. The commands are
taken out wherever they stand; greetings, thanks, sign-offs, a line that only
introduces the orders, the player's own name and a phone number are set aside
when they stand at the start or at the end of the mail. Any other line is the
game's to read: it tells a mistyped order (an error) from a line of chat (a
remark, see pbem/adjudicator/spelling.py). Lines taken out are blanked, so
the line numbers the game gives in its errors stay right.
"""

from dataclasses import dataclass, field
import re
import unicodedata

from .adjudicator.spelling import chat, mistyped, unpleased

# Mail commands by the word that starts the line: (command, language of the word).
COMMANDS = {
    "help": ("help", "en"), "aide": ("help", "fr"), "?": ("help", None),
    "status": ("status", "en"), "etat": ("status", "fr"),
    "wait": ("wait", "en"), "attends": ("wait", "fr"), "attendre": ("wait", "fr"),
    "ready": ("ready", "en"), "pret": ("ready", "fr"),
    "clear": ("clear", "en"), "effacer": ("clear", "fr"),
    "slow": ("slow", "en"), "lent": ("slow", "fr"),
    "press": ("press", "en"), "presse": ("press", "fr"),
    "absence": ("absence", None), "away": ("absence", "en"), "vacances": ("absence", "fr"),
    "history": ("history", "en"), "historique": ("history", "fr"),
    "draw": ("draw", "en"), "nulle": ("draw", "fr"),
    "concede": ("concede", "en"), "abandon": ("concede", "fr"), "abandonne": ("concede", "fr"),
    "language": ("language", "en"), "langue": ("language", "fr"),
    "tz": ("timezone", "en"), "timezone": ("timezone", "en"), "fuseau": ("timezone", "fr"),
}
# What follows a command's word: nothing ("none": the word alone on its line),
# words on the same line ("words"), or the rest of the mail ("rest": a message).
ARGUMENTS = {"help": "none", "status": "none", "wait": "none", "ready": "none", "slow": "none",
             "clear": "none",
             "language": "words", "timezone": "words",
             "press": "rest", "absence": "words", "history": "words", "draw": "none",
             "concede": "none"}
# Commands that change how the seat's mail is written: acted on before the rest
# of the mail, so the answer to it is already in the new language.
SETTINGS = ("language", "timezone")
# How each command is written in mails, by language ("aide" and "help" both work anywhere).
SHOWN = {
    "help": {"en": "HELP", "fr": "AIDE"}, "status": {"en": "STATUS", "fr": "ÉTAT"},
    "wait": {"en": "WAIT", "fr": "ATTENDS"}, "ready": {"en": "READY", "fr": "PRÊT"},
    "clear": {"en": "CLEAR", "fr": "EFFACER"},
    "slow": {"en": "SLOW", "fr": "LENT"}, "language": {"en": "LANGUAGE", "fr": "LANGUE"},
    "timezone": {"en": "TZ", "fr": "FUSEAU"},
    "press": {"en": "PRESS", "fr": "PRESSE"}, "absence": {"en": "ABSENCE", "fr": "ABSENCE"},
    "history": {"en": "HISTORY", "fr": "HISTORIQUE"}, "draw": {"en": "DRAW", "fr": "NULLE"},
    "concede": {"en": "CONCEDE", "fr": "ABANDON"},
}
# Greetings: a line that starts with one of these and has at most three words more.
GREETINGS = ("hi", "hello", "hey", "dear", "greetings", "good morning", "good afternoon",
             "good evening", "morning", "salut", "bonjour", "bonsoir", "coucou", "cher", "chere",
             "chers", "cheres")
# Words that make a whole line a greeting, a thank-you or a sign-off.
COURTESY_WORDS = GREETINGS + (
    # English
    "thanks", "thank you", "thx", "ty", "cheers", "regards",
    "best", "best regards", "kind regards", "warm regards", "all the best", "best wishes",
    "yours", "sincerely", "yours sincerely", "take care", "see you", "bye", "good luck",
    "have fun", "love", "good game",
    # French
    "merci",
    "merci beaucoup", "merci bien", "mille mercis", "cordialement", "bien cordialement",
    "amicalement", "amities", "bises", "bisous", "a plus", "a+", "a bientot", "a tout a l'heure",
    "bonne journee", "bonne soiree", "bonne chance", "bon jeu", "bonne partie", "salutations",
    "sinceres salutations", "bien a vous", "bien a toi", "a vous", "a toi",
)
# The longest first, so that "merci beaucoup" is found before "merci".
COURTESY_LONGEST_FIRST = tuple(sorted(COURTESY_WORDS, key=len, reverse=True))
# Words a line may add to a greeting: "Hi all,", "Salut a tous !", "Hello referee".
COURTESY_TAIL = ("all", "everyone", "everybody", "folks", "guys", "there", "team", "referee",
                 "ref", "pbem", "again", "a lot", "very much", "so much", "a tous", "tous",
                 "tout le monde", "l'arbitre", "arbitre", "encore", "les amis", "beaucoup")
# A line that only announces the orders: "My orders:", "Voici mes ordres :".
INTRODUCTION = re.compile(
    r"^(here (are|is) )?(my |our )?(orders?|moves?|turn|bids?)( for (this|the) turn)?"
    r"( for turn \d+)?( (are|is))?( below| as follows)?$"
    r"|^(voici|voila|ci dessous)?( donc)? ?(mes |nos |les )?(ordres?|mouvements?|coups?|encheres?)"
    r"( pour ce tour| du tour| pour le tour \d+| du tour \d+)?( ci dessous)?$")
PHONE = re.compile(r"^(tel|tél|phone|mobile|portable|mob)?\s*[:.]?\s*\+?[\d][\d .\-/()]{6,}$",
                   re.IGNORECASE)


@dataclass
class Command:
    """One mail command: its name, the words after it, its line, the language of its word.

    A command that takes the rest of the mail (a message) has it as `text`.
    """

    name: str
    args: list = field(default_factory=list)
    line: int = 0
    lang: str | None = None
    text: str = ""


@dataclass
class Reading:
    """A mail's text sorted out: commands, ignored lines, and the text left for the game."""

    commands: list = field(default_factory=list)
    ignored: list = field(default_factory=list)
    orders_text: str = ""

    @property
    def names(self) -> list[str]:
        """The commands' names, in the order they were written."""
        return [c.name for c in self.commands]

    @property
    def has_orders(self) -> bool:
        """Is any line left for the game to read?"""
        return any(line.strip() for line in self.orders_text.splitlines())


def plain(text: str) -> str:
    """Lower case, without accents, punctuation or extra spaces: how lines are compared."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"[^\w'+?]+", " ", text)
    return " ".join(text.split())


def command_of(line: str, number: int) -> Command | None:
    """The command a line gives ("READY", "Prêt !", "LANGUE fr", "STATUS please"), or
    None."""
    line = unpleased(line) or line
    words = plain(line).split()
    if not words or words[0] not in COMMANDS:
        return None
    name, lang = COMMANDS[words[0]]
    takes = ARGUMENTS[name]
    if takes == "none" and len(words) > 1:
        return None
    args = line.split()[1:] if takes != "none" else []
    return Command(name, args, number, lang)


def mistyped_command(line: str) -> str | None:
    """The command a line's first word is a typing mistake for ("REDAY": "ready"), or None
    (an exact command word, or a line that reads as a sentence, is none)."""
    words = plain(line).split()
    if not words or words[0] in COMMANDS or chat(line, words[0], COMMANDS):
        return None
    return COMMANDS[mistyped(words[0], COMMANDS)[0]][0]


def shown(name: str, lang: str) -> str:
    """A command's word as mails in `lang` show it: shown("ready", "fr") is "PRÊT"."""
    words = SHOWN.get(name, {})
    return words.get(lang) or words.get("en") or name.upper()


def courteous(line: str, names: set[str]) -> bool:
    """Is this line a greeting, thanks, sign-off, introduction, the player's name or phone?"""
    said = plain(line)
    if not said:
        return False
    if said in names or INTRODUCTION.match(said) or PHONE.match(line.strip()):
        return True
    if names and all(word in names or len(word) == 1 for word in said.split()):
        return True  # "M. Dupont", "Marie D."
    for word in COURTESY_LONGEST_FIRST:
        if said == word or said.startswith(word + " "):
            rest = said[len(word):].strip()
            if word in GREETINGS and len(rest.split()) <= 3:
                return True
            return not rest or rest in names or rest in COURTESY_TAIL or \
                all(part in names or part in COURTESY_TAIL for part in rest.split())
    return False


def after_greeting(line: str, names: set[str] = frozenset()) -> str | None:
    """The words after the greeting that opens a line, and after the names or "all" it
    greets ("Bonjour ! village D5 D6": "village D5 D6"; "Hi all, move host Kent": "move
    host Kent"); None when no greeting opens it or nothing follows."""
    said = plain(line)
    greeting = next((word for word in sorted(GREETINGS, key=len, reverse=True)
                     if said == word or said.startswith(word + " ")), None)
    if greeting is None:
        return None
    words = line.split()[len(greeting.split()):]
    while words and (not plain(words[0]) or plain(words[0]) in names or
                     plain(words[0]) in COURTESY_TAIL or plain(words[0]) in ("a", "to")):
        words = words[1:]
    return " ".join(words) or None


def sender_names(*names: str) -> set[str]:
    """The forms of a player's name that may sign a mail: whole, and each word of it."""
    out = set()
    for name in names:
        said = plain(name or "")
        if said:
            out.add(said)
            out.update(part for part in said.split() if len(part) > 1)
    return out


def signature(text: str, refused: set[int], names: set[str]) -> list[int]:
    """The numbers of a signature's lines at the end of a seat's orders.

    A signature starts at a sign-off or the sender's name and runs to the end
    ("Jean Dupont", "Club de Lyon", a web address): every line of it is one the
    game refused (`refused`), so a line the game reads as an order is never
    taken for a signature.
    """
    lines = text.splitlines()
    block = []
    for number in range(len(lines), 0, -1):
        if not lines[number - 1].strip():
            continue
        if number not in refused:
            break
        block.insert(0, number)
    for at, number in enumerate(block):
        if courteous(lines[number - 1], names):
            return block[at:]
    return []


def read_text(text: str, names: set[str] = frozenset()) -> Reading:
    """Sort a seat's text into commands, courtesy lines at its edges, and order text."""
    lines = text.splitlines()
    reading = Reading()
    kept = list(lines)
    for number, line in enumerate(lines, start=1):
        command = command_of(line, number)
        if command is None:
            continue
        reading.commands.append(command)
        kept[number - 1] = ""
        if ARGUMENTS[command.name] == "rest":
            command.text = "\n".join(lines[number:]).strip("\n")
            kept[number:] = [""] * (len(lines) - number)
            break
    for edge in (range(len(kept)), range(len(kept) - 1, -1, -1)):
        for index in edge:
            if not kept[index].strip():
                continue
            if not courteous(kept[index], names):
                break
            reading.ignored.append((index + 1, kept[index].strip()))
            kept[index] = ""
    reading.ignored.sort()
    reading.orders_text = "\n".join(kept)
    return reading


SECTION = re.compile(r"^\s*(for|pour)\s+([\w-]+)\s*:\s*$", re.IGNORECASE)


def sections(text: str, seats) -> list[tuple]:
    """Split order text at "for SEAT:" / "pour SEAT :" lines naming one of `seats`.

    Returns [(seat or None, text)], None for the lines before any such header;
    each part keeps every line number (other parts' lines are blanked).
    """
    lines = text.split("\n")
    owner, owners = None, []
    for line in lines:
        match = SECTION.match(line)
        if match and match.group(2).lower() in seats:
            owner = match.group(2).lower()
            owners.append("header")
        else:
            owners.append(owner)
    parts = []
    for who in dict.fromkeys(o for o in owners if o != "header"):
        part = "\n".join(line if o == who else "" for line, o in zip(lines, owners))
        if part.strip():
            parts.append((who, part))
    return parts
