"""What a stranger's mail to the club's address asks, read from its words alone.

A stranger writes without a game's tag, in English or French, among greetings
and chat: a command on a line of its own (LIST, JOIN G, CONFIRM code, LEAVE G,
WHOGAME G, HELP, NAME a-name) or a line that asks for the list in other words
("list please", "Please LIST", "list of games?"). The body wins over the
subject: the subject's command counts only when the body gives none, except
that a reply to the mail that gave a code takes the code from its subject,
and a reply to "JOIN: which game?" takes the game from its body.

Consent is a word: a reply confirms a code only when its own text (no quote,
no signature) says yes ("yes", "oui", "ok, count me in") with nothing else but
greetings, thanks and a name. An empty reply, a bare "thanks" or "ok", an
out-of-office text never does.

Nothing here looks at the database: pbem/signup.py acts on what is read.
"""

from dataclasses import dataclass, field
import re

from .reading import after_greeting, courteous, plain, sender_names

MAX_ASKS = 5               # commands acted on in one mail
MAX_NAME = 60              # characters of a player's name kept
MAX_GAME = 40              # ... of a game's name (a real one has at most 32)
MAX_CODE = 20              # ... of a code (a real one has 10)
# The words of each command (compared without case or accents), and their language.
WORDS = {
    "list": ("list", "en"), "games": ("list", "en"), "liste": ("list", "fr"),
    "lister": ("list", "fr"), "parties": ("list", "fr"),
    "join": ("join", "en"), "signon": ("join", "en"), "rejoindre": ("join", "fr"),
    "rejoins": ("join", "fr"), "inscription": ("join", "fr"), "inscris": ("join", "fr"),
    "confirm": ("confirm", "en"), "confirmer": ("confirm", "fr"), "confirme": ("confirm", "fr"),
    "leave": ("leave", "en"), "signoff": ("leave", "en"), "quitter": ("leave", "fr"),
    "quitte": ("leave", "fr"),
    "whogame": ("whogame", "en"), "quijoue": ("whogame", "fr"),
    "help": ("help", "en"), "aide": ("help", "fr"), "?": ("help", None),
    "name": ("name", "en"), "nom": ("name", "fr"),
    "password": ("password", "en"), "passwd": ("password", "en"),
    "motdepasse": ("password", "fr"), "mdp": ("password", "fr"),
}
SHOWN = {"list": {"en": "LIST", "fr": "LISTE"}, "join": {"en": "JOIN", "fr": "REJOINDRE"},
         "confirm": {"en": "CONFIRM", "fr": "CONFIRMER"}, "leave": {"en": "LEAVE", "fr": "QUITTER"},
         "whogame": {"en": "WHOGAME", "fr": "QUIJOUE"}, "help": {"en": "HELP", "fr": "AIDE"},
         "name": {"en": "NAME", "fr": "NOM"}, "password": {"en": "PASSWORD", "fr": "MOTDEPASSE"},
         "standby": {"en": "--standby", "fr": "--reserve"}}
LIST_WORDS = {"list", "liste"}
STANDBY_WORDS = {"standby", "reserve", "remplacant", "remplacante"}
PASSWORD_WORDS = {"password", "passwd", "pwd", "pass", "motdepasse", "mdp"}
# Words that only lead into, or politely close, a command's words: "Please LIST",
# "JOIN dip as France", "REJOINDRE dip en tant que France svp".
FILLER = {"please", "pls", "plz", "kindly", "svp", "stp", "s'il", "vous", "te", "plait",
          "thanks", "thank", "you", "merci", "as", "en", "tant", "que", "comme", "with",
          "avec", "i", "je", "prefer", "prefere", "preference", "then", "or", "and", "else",
          "otherwise", "puis", "ou", "et", "sinon", "sinan", "first", "d'abord", "play",
          "playing", "jouer", "of", "the", "a", "an", "de", "des", "la", "le", "les", "l'",
          "game", "partie", "me", "moi", "for", "pour", "open", "ouvertes", "all", "toutes",
          "jeux", "games", "parties", "what", "quelles", "quels", "are", "sont", "send",
          "envoyer", "can", "could", "i'd", "like", "have", "get", "is", "there", "any", "a",
          "which", "quelle", "quel"}
# A clear yes, said alone or with courtesy ("Yes please!", "Oui, merci", "ok, count me in").
YES = {"yes", "yes please", "yes i do", "yep", "yeah", "sure", "count me in", "ok count me in",
       "i'm in", "im in", "i am in", "with pleasure", "confirm", "confirmed", "i confirm",
       "oui", "oui merci", "oui s'il vous plait", "oui svp", "je confirme", "confirme",
       "volontiers", "avec plaisir", "je suis partant", "je suis partante", "ok je confirme",
       "bien sur", "of course", "absolutely", "definitely", "carrement"}
# Words that go with a yes but are none alone ("Ok", "Merci", "Thanks!", "Parfait").
SOFT = {"ok", "okay", "d'accord", "daccord", "parfait", "great", "super", "go", "cool",
        "good", "fine", "tres bien", "nickel", "top", "sounds good", "ca marche"}
# A last line that only signs: one to three words, each capitalised ("Anne", "Jean-Paul D.").
NAME_LINE = re.compile(r"^(?:[A-ZÀ-Þ][\w'.-]*\s*){1,3}$")
PREFIXES = re.compile(r"^(\s*((re|tr|fwd?|aw|sv|ref|réf)\s*:|\[pbem\]))+\s*", re.IGNORECASE)
# Words that tell a mail's language when it gives no command word.
FRENCH = {"bonjour", "salut", "bonsoir", "coucou", "merci", "je", "veux", "voudrais",
          "jouer", "partie", "parties", "une", "des", "les", "est", "pour", "avec", "svp",
          "s'il", "plait", "oui", "non", "moi", "nous", "vous", "quelle", "quelles",
          "cordialement", "liste", "rejoindre", "aimerais", "peux", "puis", "ce", "c'est",
          "jeu", "du", "au", "et", "un", "le", "la", "qui", "quoi", "comment", "bien"}
ENGLISH = {"hi", "hello", "hey", "thanks", "thank", "please", "i", "i'd", "i'm", "want",
           "would", "like", "to", "play", "game", "games", "the", "a", "and", "for", "yes",
           "no", "me", "which", "what", "how", "is", "are", "of", "cheers", "regards", "can",
           "could", "you", "list", "join", "this", "it", "there", "any", "an", "my"}


@dataclass
class Ask:
    """One command of a stranger's mail."""

    name: str                   # list, join, confirm, leave, whogame, help, password, reply
    lang: str
    game: str = ""              # the game it names, lower case
    code: str = ""              # the code it carries (confirm, reply)
    chosen: str = ""            # the seat's name given with NAME
    wishes: list = field(default_factory=list)   # the words after the game's, to weigh
    standby: bool = False
    password: bool = False      # a password given: refused, never kept nor said back
    subject: bool = False       # read from the subject, not the body
    unasked: bool = False       # no command at all: the mail is answered with the list
    line: str = ""              # the command as written (shortened), to say back


@dataclass
class Reading:
    """What a stranger's mail asks: its commands (at most MAX_ASKS), the ones past the
    limit, the language it is written in, and the words of its own text."""

    asks: list
    over: list
    lang: str
    words: set = field(default_factory=set)    # plain, and as game ids are written


def word(name: str, lang: str) -> str:
    """A command as a mail in `lang` writes it: word("join", "fr") is REJOINDRE."""
    return SHOWN.get(name, {}).get(lang) or name.upper()


def read(subject: str, text: str, sender_name: str, club_lang: str) -> Reading:
    """Read a stranger's mail: its own text (no quote, no signature) and its subject."""
    names = sender_names(sender_name)
    body, chosen = [], ""
    kept = []
    for line in text.splitlines():
        ask = ask_of(line)
        if ask is not None and ask.name == "name":
            chosen = chosen or ask.chosen
            continue
        kept.append(line)
        if ask is not None:
            body.append(ask)
    header = ask_of(PREFIXES.sub("", subject or ""))
    if header is not None:
        header.subject = True
    asks = with_subject(body, header, "\n".join(kept), names)
    unique = {}
    for ask in asks:
        ask.chosen = ask.chosen or chosen
        unique.setdefault((ask.name, ask.game, ask.code), ask)
    asks = list(unique.values())
    if chosen and not any(ask.name in ("join", "confirm", "reply") for ask in asks):
        asks.append(Ask("name", None, chosen=chosen, line=shortened(f"{word('name', 'en')} "
                                                                    f"{chosen}")))
    said = plain(f"{text}\n{subject if not body else ''}").split()
    lang = language_of(said, asks, club_lang)
    for ask in asks:
        ask.lang = ask.lang or lang
    words = set(plain(text).split()) | set(re.findall(r"[a-z0-9][a-z0-9-]*", text.lower()))
    return Reading(asks[:MAX_ASKS], asks[MAX_ASKS:], lang, words)


def with_subject(body: list, header, text: str, names: set) -> list:
    """The commands of a mail: its body's; the subject's only when the body has none, or
    to give a code to a reply that says yes (a reply that does not is a "reply")."""
    if header is None or header.name == "name":
        return body
    if header.name == "confirm":
        if body:
            for ask in body:
                if ask.name == "confirm" and not ask.code:
                    ask.code = header.code  # "Confirm" in a reply to the mail that gave the code
            return body
        if agrees(text, names):
            return [header]
        return [Ask("reply", header.lang, game=header.game, code=header.code, subject=True)]
    return body or [header]


def ask_of(line: str) -> Ask | None:
    """The command a line gives, or None."""
    line = after_greeting(line) or line
    pairs = [(plain(w).rstrip("?") or plain(w), w) for w in line.split()]
    pairs = [(said, w) for said, w in pairs if said]
    while pairs and pairs[0][0] in FILLER and pairs[0][0] not in WORDS:
        pairs = pairs[1:]
    words = [said for said, _w in pairs]
    if not words:
        return None
    if words[0] not in WORDS:
        if LIST_WORDS & set(words) and not set(words) & (set(WORDS) - LIST_WORDS - {"games"}):
            return Ask("list", None, line=shortened(line))
        return None
    name, lang = WORDS[words[0]]
    ask = Ask(name, lang, line=shortened(line))
    args = pairs[1:]
    if name == "name":
        ask.chosen = " ".join(w for _said, w in args)[:MAX_NAME].strip()
        return ask
    if name == "confirm":
        ask.code = args[0][0][:MAX_CODE] if args else ""
        return ask
    if name == "password":
        return ask
    if name == "help":
        return ask if all(said in FILLER for said, _w in args) else None
    if name == "list":
        args = [(said, w) for said, w in args if said not in FILLER]
    if args:
        ask.game = args[0][0].replace(" ", "-")[:MAX_GAME]
        weigh(ask, args[1:])
    return ask


def weigh(ask: Ask, args: list) -> None:
    """The words after a command's game ((plain, as written) pairs): standby, a password
    (refused), a NAME, and the rest kept as written: wishes, the roles a seat asks for
    among words that lead into them ("as", "then"), or words to say back unread."""
    skip = False
    for number, (argument, written) in enumerate(args):
        if skip:
            skip = False
            continue
        if argument in STANDBY_WORDS:
            ask.standby = True
        elif argument in PASSWORD_WORDS or argument in ("mot", "passe"):
            ask.password = True
            skip = argument != "mot"  # the password itself is never kept
        elif argument in ("name", "nom") and ask.name == "join":
            ask.chosen = " ".join(w for _said, w in args[number + 1:])[:MAX_NAME].strip()
            return
        else:
            ask.wishes.append(written.strip(",;.!?:")[:MAX_GAME])


def shortened(line: str) -> str:
    """A command line as the answer quotes it: one line, at most 60 characters."""
    line = " ".join(line.split())
    return line if len(line) <= 60 else line[:59] + "…"


def agrees(text: str, names: set) -> bool:
    """Does a reply say yes, and nothing beyond it but courtesy, thanks or a name (the
    sender's, or any signing its last line: "Anne", "Jean-Paul D.")?"""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and NAME_LINE.match(lines[-1].strip()) and \
            plain(lines[-1]) not in YES | SOFT:
        lines = lines[:-1]
    parts = [plain(part) for line in lines for part in re.split(r"[,.;:!?()]+", line)]
    parts = [part for part in parts if part]
    return any(part in YES for part in parts) and all(
        part in YES or part in SOFT or courteous(part, names) for part in parts)


def language_of(words: list, asks: list, club_lang: str) -> str:
    """The language a mail is written in: its command words count twice, its everyday
    words once; a tie goes to its first command's language, else the club's."""
    score = {"en": 0, "fr": 0}
    for ask in asks:
        if ask.lang:
            score[ask.lang] += 2
    for said in words:
        score["fr"] += said in FRENCH
        score["en"] += said in ENGLISH
    if score["fr"] != score["en"]:
        return "fr" if score["fr"] > score["en"] else "en"
    return next((ask.lang for ask in asks if ask.lang), None) or club_lang
