"""Answers to a mistyped word: the closest valid names (the standard library's matcher).

And the other side of it: a line that is no order and close to none is chat,
not a mistake. People write to the table between their orders ("Great game
last night, Bea!", "Allez, on y va !"); a game that cannot read a line's
first word asks :func:`aside` whether the line is such a remark, which the
seat's answer lists and which holds no turn up, or a mistyped order word,
which stays an error with "did you mean".
"""

from dataclasses import dataclass
from difflib import get_close_matches
from functools import lru_cache
import re
import unicodedata

from ..i18n import Said, _
from .contract import OrderError

# How like an order word a line's first word must be to be taken for a mistyped one
# (moev: move, recuit: recruit, ofer: offer); a word of the same letters in another
# order (hti: hit) is one too.
TYPO_CUTOFF = 0.75
# Words that start sentences and never an order, in English and French: pronouns,
# articles, conjunctions, interjections, greetings. A line that starts with one is a
# remark.
OPENERS = frozenset("""
    i im i'm ill i'll ive i've id i'd me we we're we'll you you're you'll he she it it's its
    let lets let's
    they they're my our your his her their the a an this that these those there here what
    why how who when where if so but and or oh ah ahh ahah haha hehe lol wow well yes yeah
    yep no nope not just also too very then now sorry alas anyway btw ps nb gg love see fair
    nice good great cool ouch damn hope sounds looks thank thanks congrats sure indeed
    may ok okay hopefully fingers maybe perhaps probably near because since unless
    pour parce puisque sauf sans avec comme peut-etre surtout histoire done finished fini termine
    turn round tour manche as agreed again promised convenu promis
    je j j'ai jai tu il elle on nous vous ils elles c c'est cest ce cet cette ces ca le la
    les l un une des du mon ma mes ton ta tes son sa ses notre nos votre vos leur leurs et
    mais ou donc alors or car bon bien bah ben euh oui ouais non si quand comment pourquoi
    qui que quoi pas trop tres vraiment enfin allez voila hop zut oups mdr ptdr desole
    desolee bravo chapeau dommage merci salut coucou bonjour bonsoir
    hello hi hey cheers regards thx tant bref voyons super parfait genial ouf mince bof
    hum hmm eh ugh meh phew
""".split())  # as folded: lower case, no accents
# A sentence's marks: its first word followed at once by a comma, a full stop, "!" or
# "?" ("Allez, on y va", "Ouch. Fair enough."), or a line ending in "!", "?" or a smiley.
# Words that tie a line to the one before it, and start no order: "Then move host Mercia",
# "and build a farm", "puis déplacer ...", "also F NTH - NWY". A line they start is read
# again without them (see :func:`unlinked`).
LINKS = frozenset("""
    then and also next finally lastly afterwards plus so
    puis et ensuite aussi enfin apres alors donc
""".split())  # as folded
SENTENCE_START = re.compile(r"^\s*[^\s,.!?;:]+[,.!?;…]")
SENTENCE_END = re.compile(r"(?:[!?]|[:;]-?[()DPp])\s*$")
# Pronouns a player may put before an order's verb: "Je passe", "I'll pass", "We pass".
SUBJECTS = frozenset("i i'll ill we we'll je j' on nous".split())  # as folded
# Words of politeness, which no order needs: "move host Kent please", "svp".
POLITE = re.compile(
    r"(?<![\w'])(?:please|pls|plz|svp|stp|s'il (?:vous|te) pla[iî]t)(?![\w'])[,.!]?",
    re.IGNORECASE)
# Where a sentence may start or end on a line: a comma, a semicolon, a colon, the end of
# a sentence, a dash between spaces, an opening bracket.
CLAUSE = re.compile(r"\s*[,;:]\s+|(?<=[.!?…])\s+|\s+[-–—]+\s+|\s+(?=\()")


def closest(word: str, names, count: int = 2) -> list[str]:
    """The valid names closest to a mistyped one (BUW: BUV, gots: goths), best first. A
    word more than 7/3 times as long as the longest name is close to none (the matcher's
    ratio, twice the letters in common over both lengths, cannot reach 0.6)."""
    names = tuple(sorted(names))
    if 3 * len(word) > 7 * max(map(len, names), default=0):
        return []
    return list(nearest(word, names, count))


@lru_cache(maxsize=1024)
def nearest(word: str, names: tuple, count: int, cutoff: float = 0.6) -> tuple:
    """closest, looked up once for each word and names (a mail that makes one mistake on
    many lines, or a game that reads a line more than once)."""
    return tuple(get_close_matches(word, names, n=count, cutoff=cutoff))


def did_you_mean(word: str, names, cutoff: float = 0.6) -> str:
    """'; did you mean X?' for the closest of the names, in the current language; or ''.
    A word too long to reach the cutoff with any name (the matcher's ratio is at most
    twice the shorter length over both) is close to none."""
    names = tuple(sorted(names))
    if len(word) * cutoff > (2 - cutoff) * max(map(len, names), default=0):
        return ""
    found = nearest(word, names, 1, cutoff)
    return _("; did you mean {name}?").format(name=found[0]) if found else ""


def unknown_word(word: str, words, example: str) -> Said:
    """Why a line's first word is no order: the closest order words, and a real example."""
    near = closest(word, words)
    if near:
        return Said("I do not understand {word!r}; did you mean {near}? Write for example "
                    "{example}, or send HELP", word=word, near=_(" or ").join(near),
                    example=example)
    return Said("I do not understand {word!r}; write for example {example}, or send HELP",
                word=word, example=example)


def folded(word: str) -> str:
    """A word as lines are compared: lower case, no accents, no punctuation around it."""
    word = unicodedata.normalize("NFKD", word.casefold().replace("’", "'"))
    return "".join(c for c in word if not unicodedata.combining(c)).strip(".,;:!?…\"()«»")


def mistyped(word: str, words) -> list[str]:
    """The order words `word` may be a typing mistake for, best first (none: it is no order
    word at all). A word of one or two letters is mistyped only with its letters swapped:
    a longer word is not taken for one ("Two builds, lovely.": TO)."""
    word = folded(word)
    words = tuple(sorted(words))
    # a word 5/3 times as long as the longest order word is a mistake for none (the
    # matcher's ratio cannot reach TYPO_CUTOFF), nor one of its letters swapped
    if not word or 3 * len(word) > 5 * max(map(len, words), default=0):
        return []
    return list(typos(word, words))


@lru_cache(maxsize=1024)
def typos(word: str, words: tuple) -> tuple:
    """mistyped, looked up once for each word and order words: a mail of many lines that
    start with one word of chat, a line read more than once."""
    found = get_close_matches(word, [w for w in words if len(w) > 2], n=2, cutoff=TYPO_CUTOFF)
    found += [w for w in words if len(w) == len(word) and w != word
              and sorted(w) == sorted(word) and w not in found]
    return tuple(found)


def chat(line: str, word: str, words) -> bool:
    """Is a line whose first word (`word`, as the game reads it) is no order word a remark?

    It is when it reads as a sentence (its first word followed by a comma or a
    full stop, a last "!" or "?", a first word that starts sentences and never
    orders: "I'll", "Je", "Bravo"), or when that word is no typing mistake for
    any order word in `words` (every order of the game, in every language).
    """
    first = folded(line.split()[0]) if line.split() else ""
    if first in OPENERS or first.partition("'")[0] in OPENERS:
        return True
    if SENTENCE_START.match(line) or SENTENCE_END.search(line):
        return True
    return not mistyped(word, words)


def unlinked(line: str) -> str | None:
    """The line without the words that tie it to the one before ("Then, move host Mercia":
    "move host Mercia"; "et puis déplacer ost Mercie": "déplacer ost Mercie"), or None when
    no such word starts it or nothing else is left."""
    words = line.split()
    start = 0
    while start < len(words) and (folded(words[start]) in LINKS or
                                  start and not folded(words[start])):  # "Puis : bouge"
        start += 1
    if start == 0 or start == len(words):
        return None
    return " ".join(words[start:])


def sentence(text: str) -> bool:
    """Does this text read as a sentence at sight: a first word that starts sentences and
    never orders ("if there's gold left", "hope they're asleep"), or a last "!", "?" or
    smiley? (Stricter than :func:`chat`: it does not need the game's order words.)"""
    first = folded(text.split()[0]) if text.split() else ""
    return bool(first) and (first in OPENERS or first.partition("'")[0] in OPENERS
                            or bool(SENTENCE_END.search(text)))


@dataclass(frozen=True)
class Reading:
    """One way to read a refused line: `order`, the words a game may take for an order,
    and `remark`, the words of chat beside it on the line ("" when none); `strict`: the
    order counts only when the game accepts it whole (else when it is no remark);
    `meant`: the words are surely meant as an order (a line tied to the one before, an
    order followed by chat), so the game's refusal of them is the line's error; `also`:
    a second order the line gives ("Build A Ber and F Kie"), read after the mail's
    other lines, both counting only when the game accepts each whole; `chat`: the
    remark counts only when the game, reading it alone, sets it aside as chat; `led`:
    the remark comes before the order on the line ("Sorry Bea: move host Wessex")."""

    order: str
    remark: str = ""
    strict: bool = True
    meant: bool = True
    also: str = ""
    chat: bool = False
    led: bool = False


# The longest line read the other ways: a line of chat beside an order is much shorter,
# and the ways to cut a line grow with its length.
READ_LINE = 300


def readings(line: str, remark: bool) -> list[Reading]:
    """The other ways to read a line the game refused, best first.

    People tie a line to the one before ("Then move host Mercia") and write chat
    on an order's line ("recruit levies, if there's any gold left", "Sorry Bea:
    move host Wessex"). A remark may be an order after its tying words, or after
    a sentence; an error may be an order followed by a sentence. A reading with
    a part of chat counts only when the game accepts its order whole. A line of
    more than READ_LINE characters is read only as it was written: none.
    """
    if len(line) > READ_LINE:
        return []
    found = []
    plain = unpleased(line)
    for text in (line, plain) if plain else (line,):
        if plain and text is line:
            found.append(Reading(plain))
        if remark and subjectless(text):
            # "I'll play huns dacia and take the influence, thanks": taken only whole
            found += [Reading(subjectless(text))] + [
                Reading(order, chat, meant=False, chat=is_chat)
                for order, chat, is_chat in asides(subjectless(text))]
        if remark:
            rest = unlinked(text)
            if rest:
                found += [Reading(rest)] + [Reading(order, chat) for order, chat in tails(rest)]
            # an order after a label ("Note: F Lon - Xyz") is meant: the game's refusal
            # of it, unless it is chat too, is the line's error
            found += [Reading(order, chat, led=True) for chat, order in labelled(text)]
            # the shortest order first: chat may hold breaks of its own ("Sorry Annie,
            # nothing personal: oppose B2 2" is no pass)
            for chat, order in reversed(heads(text)):
                order = unlinked(order) or order
                order = subjectless(order) or order
                # after a whole sentence ("Merci. bouge DIL RIS") the order is meant,
                # unless it ends as a sentence too ("Sounds fair. Peace it is.")
                found.append(Reading(order, chat, meant=chat[-1] in ".!?…" and
                                     order[-1] not in ".!?…", led=True))
                # "Bon, je passe mon tour": "passe", with "Bon" and "mon tour" as chat
                found += [Reading(part, f"{chat} … {rest}", meant=False, chat=True)
                          for part, rest in trailing(order)]
            if rest:
                found.append(Reading(rest, strict=False))
            # "nothing from me", "rien pour moi": taken only whole
            found += [Reading(order, chat, meant=False, chat=True)
                      for order, chat in trailing(text)]
            # "bon alors A Vie H", "ok so play vandals moesia": taken only whole
            found += [Reading(order, chat, meant=False, chat=True, led=True)
                      for chat, order in led(text)]
            found += [Reading(order, chat, meant=False, chat=True, led=True)
                      for order, chat in surrounded(text)]
        else:
            found += [Reading(order, chat) for order, chat in bracketed(text)]
            found += pairs(text)
            found += [Reading(order, chat, chat=is_chat) for order, chat, is_chat in asides(text)
                      if (order, chat) not in bracketed(text)]
            # a sentence before an order ("Building an oven. build oven wood 1"), the
            # order taken only when the game accepts it whole
            found += [Reading(order, chat, meant=False) for chat, order in
                      reversed(heads(text)) if chat[-1] in ".!?…"]
            # a label before an order ("Change: F Lon H", its word close to a place's
            # name), the order taken only when the game accepts it whole
            found += [Reading(order, chat, meant=False, led=True)
                      for chat, order in labelled(text)]
            # the last resorts: chat before or after the order with nothing between
            # ("so move SUS BUV", "A Bud H lol")
            found += [Reading(order, chat, meant=False, chat=True, led=True)
                      for chat, order in led(text)]
            found += [Reading(order, chat, meant=False, chat=True)
                      for order, chat in chatted(text)]
            found += [Reading(order, chat, meant=False, chat=True, led=True)
                      for order, chat in surrounded(text)]
    # what is left of a line of chat once its words are taken may be a mark alone ("Alors :")
    return [reading for reading in found if re.search(r"\w", reading.order)]


def asides(line: str) -> list[tuple[str, str, bool]]:
    """(order, chat, whether the game must read the chat alone as a remark) for each way
    an order may be followed by chat on its line: a sentence (see :func:`tails`), words
    after a dash or a comma, words in brackets, words after "and" ("play huns dacia and
    take the influence"), a clause with no mark before it ("mise rien cette fois")."""
    return [(order, chat, False) for order, chat in tails(line)] + \
        [(order, chat, True) for order, chat in dashed(line) + commaed(line) +
         commented(line)] + \
        [(order, chat, False) for order, chat in bracketed(line)] + \
        [(line[:join.start()].strip(), line[join.end():].strip(), True)
         for join in JOINS.finditer(line) if line[:join.start()].strip()] + \
        [(order, chat, True) for order, chat in trailing(line)]


# Words that start a clause of chat after an order, with no mark between them: "mise rien
# cette fois", "bid nothing this time", "pass for now", "nothing from me", "je passe mon
# tour", "A Vie - Tri sorry about that", "A Vie H merci à tous".
TRAILERS = frozenset("""
    this that these those my for from because since if unless
    sorry thanks thank cheers please pardon
    cette ce cet ces mon ma mes pour parce puisque si sauf
    merci desole desolee svp
""".split())


def trailing(line: str) -> list[tuple[str, str]]:
    """(order, chat) for each word of :data:`TRAILERS` after the first of a line that
    starts two words of chat or more (a place may be named as one: Auguste's CET)."""
    words = line.split()
    return [(" ".join(words[:at]), " ".join(words[at:]))
            for at in range(1, len(words) - 1) if folded(words[at]) in TRAILERS]


# Words that lead into an order with no mark after them: "bon alors A Vie H", "ok so
# move SUS BUV", "comme promis village E8 F7".
LEADERS = frozenset("""
    ok okay so well right alright anyway now then also and finally lastly yes yeah yep
    as agreed promised hmm hm um erm ah oh
    bon alors donc bien ben bah euh allez hop voila puis enfin aussi et oui ouais comme
    convenu promis
""".split())


def led(line: str) -> list[tuple[str, str]]:
    """(chat, order) for each run of up to four words of :data:`LEADERS` that starts a
    line, with words after it, the shortest first; none when the line asks ("...?")."""
    words = line.split()
    if line.rstrip().endswith("?"):
        return []
    found = []
    for at in range(1, min(4, len(words) - 1) + 1):
        if folded(words[at - 1]) not in LEADERS:
            break
        found.append((" ".join(words[:at]), " ".join(words[at:])))
    return found


def surrounded(line: str) -> list[tuple[str, str]]:
    """(order, chat) for an order with chat both before and after it ("bon alors A Vie -
    Tri désolé pour le retard"): the words that lead in (see :func:`led`), then each way
    to cut the rest into an order and chat after it (see :func:`asides`, :func:`chatted`)."""
    return [(order, f"{chat} … {after}") for chat, rest in led(line)
            for order, after in [(o, c) for o, c, _chat in asides(rest)] + chatted(rest)]


# Words after an order that take it back or leave it open: it is then not given.
DOUBTS = frozenset("""
    no not nope nah wait maybe perhaps or unless hmm
    non pas attends attend peut-etre ou sauf euh bof
""".split())
CHATTED = 8  # the most words of chat read after an order with nothing between them


def chatted(line: str) -> list[tuple[str, str]]:
    """(order, chat) for each way to cut a line into an order and up to CHATTED words of
    chat after it, with no mark between them ("red: move SUS BUV lol", "A Bud H merci"),
    the longest order first: the chat must hold a word of chat (see :func:`chatty`), and
    none of :data:`DOUBTS` ("move SUS BUV maybe not"); none when the line asks ("...?").
    A mistyped place after an order ("A Lvp S F Edi - Nxx") is no chat, and neither is
    "- Hol": the chat is read without the marks that may start it."""
    words = line.split()
    if line.rstrip().endswith("?"):
        return []
    cuts = [(" ".join(words[:at]), " ".join(words[at:]).lstrip("-–—:,; "))
            for at in range(len(words) - 1, max(0, len(words) - CHATTED - 1), -1)
            if at and not any(folded(word) in DOUBTS for word in words[at:])]
    return [(order, chat) for order, chat in cuts if chatty(chat) or smiley(chat)]


# What joins two orders on one line: "Build A Ber and F Kie", "A Par - Bur et A Mar - Pie".
JOINS = re.compile(r"\s+(?:and|et|&)\s+", re.IGNORECASE)


def pairs(line: str) -> list[Reading]:
    """Two orders joined on a line ("Build A Ber and F Kie"): each side as an order by
    itself, or the second with the first's verb when it gives none ("BUILD F KIE")."""
    found = []
    for join in JOINS.finditer(line):
        first, second = line[:join.start()].strip(), line[join.end():].strip()
        if not first or not second:
            continue
        found.append(Reading(first, also=second))
        verb = first.split()[0]
        if folded(second.split()[0]) != folded(verb):
            found.append(Reading(first, also=f"{verb} {second}"))
    return found


# A dash between spaces, after which people chat: "card horde - enjoy, my lords".
DASH = re.compile(r"\s+[-–—]+\s+")


def dashed(line: str) -> list[tuple[str, str]]:
    """(order, chat) for each dash followed by words of chat that do not read as a sentence
    at sight but hold a comma or a word of sentences ("card horde - enjoy, my lords"). A
    game whose orders use the dash (Diplomacy's "A Par - Bur") writes places after it,
    so a mistyped one ("A Yor S F Lon - Nxx") stays an error."""
    return [(line[:at.start()].strip(), line[at.end():].strip())
            for at in DASH.finditer(line)
            if line[:at.start()].strip() and chatty(line[at.end():])
            and not sentence(line[at.end():])]


# The mark of a comment after an order, as programmers write one: "F Den - Bal // empty now".
COMMENT = re.compile(r"\s*//\s*")


def commented(line: str) -> list[tuple[str, str]]:
    """(order, chat) when words follow a "//" after the order's."""
    found = COMMENT.search(line)
    return [(line[:found.start()].strip(), line[found.end():].strip())] \
        if found and line[:found.start()].strip() and line[found.end():].strip() else []


# Words in brackets that end a line: "blue: move LOR ZOD (back to the goal, just in case)".
BRACKETED = re.compile(r"^(.*?\S)\s*(\([^()]*\w[^()]*\))\s*[.!]?$")


def bracketed(line: str) -> list[tuple[str, str]]:
    """(order, chat) when the line ends with words in brackets, an aside: the game must
    accept the words before them whole."""
    found = BRACKETED.match(line.strip())
    return [found.groups()] if found else []


# A comma between an order and a clause of chat: "play saxons dalmatia, as far from
# the Vandals as I can get".
COMMA = re.compile(r",\s+")


def commaed(line: str) -> list[tuple[str, str]]:
    """(order, chat) for each comma followed by a clause of one word or more that does
    not read as a sentence at sight (those are :func:`tails`); the game must set the clause
    aside as chat when it reads it alone, and accept the order whole."""
    return [(line[:at.start()].strip(), line[at.end():].strip())
            for at in COMMA.finditer(line)
            if line[:at.start()].strip() and line[at.end():].strip()
            and not sentence(line[at.end():])]


def smiley(words: str) -> bool:
    """Are these marks alone, with no word or number (":)", "^^", "😀")?"""
    return bool(words.strip()) and not re.search(r"\w", words)


def chatty(words: str) -> bool:
    """Do these words hold a comma or a word that starts sentences and never orders?"""
    return "," in words or any(folded(word) in OPENERS for word in words.split())


def subjectless(line: str) -> str | None:
    """The line without the pronoun that starts it ("Je passe": "passe"; "I'll pass":
    "pass"; "J'accepte l'offre 1": "accepte l'offre 1"; "Je ne mise rien": "mise
    rien"), or None when none does or nothing else is left."""
    words = line.split()
    if words and len(words[0]) > 2 and folded(words[0])[:2] == "j'":
        return " ".join([words[0][2:], *words[1:]])  # "J'accepte l'offre 1"
    if len(words) < 2 or folded(words[0]) not in SUBJECTS:
        return None
    rest = words[1:]
    if len(rest) > 1 and folded(rest[0]) in ("ne", "n'"):  # "Je ne mise rien": "mise rien"
        rest = rest[1:]
    return " ".join(rest)


def unpleased(line: str) -> str | None:
    """The line without its words of politeness ("village G3 G4 please", "svp"), or None
    when it has none."""
    plain = POLITE.sub(" ", line)
    plain = " ".join(plain.split())
    return plain if plain != " ".join(line.split()) and plain else None


def tails(line: str) -> list[tuple[str, str]]:
    """(order, chat) for each place a sentence follows the words before it."""
    return [(line[:at.start()].strip(), line[at.end():].strip())
            for at in CLAUSE.finditer(line)
            if line[:at.start()].strip() and sentence(line[at.end():])]


def heads(line: str) -> list[tuple[str, str]]:
    """(chat, order) for each place words follow others on a line of chat ("Sorry Bea:
    move host Wessex"), the longest order first."""
    return [(line[:at.start()].strip(), line[at.end():].strip())
            for at in CLAUSE.finditer(line)
            if line[:at.start()].strip() and line[at.end():].strip()]


# A label: a word or three, then a colon ("Change:", "Final orders :").
LABEL = re.compile(r"^\s*([^\W\d_][\w'’-]*(?:\s+[\w'’-]+){0,2})\s*:\s+(?=\S)")


def labelled(line: str) -> list[tuple[str, str]]:
    """(label, order) for a line that begins with a label ("Change: F Lon H")."""
    found = LABEL.match(line)
    return [(found.group(1), line[found.end():].strip())] if found else []


def introduces(line: str) -> bool:
    """Does the line read as a sentence although its first word is an order's: it ends
    with a colon, introducing what follows ("D'accord Bob, on s'arrange :"), or with a
    question mark, asking ("move GUM JUG? no wait..."), or its first word is followed at
    once by a comma or a full stop, and more words ("Peace, for now.")? No order is
    written so: a line the game refuses that reads so is chat."""
    text = line.strip()
    if text[-1:] in (":", "?") and text[:-1].strip():
        return True
    start = SENTENCE_START.match(text)
    return bool(start) and bool(re.search(r"\w", text[start.end():]))


# Words that take back what was just asked: "Army Paris move to Burgundy? non, ...".
TAKEN_BACK = re.compile(r"^\s*(?:non|no|nope|nah|wait|attends?|hmm+|euh+|bof|pas)\b",
                        re.IGNORECASE)


def asks(line: str) -> bool:
    """Does the line ask an order, then take it back ("Army Paris move to Burgundy? non,
    je n'ai plus d'armée à Paris")? An order asked is not given: when the game refuses
    it, the whole line is chat."""
    head, mark, rest = line.strip().partition("?")
    return bool(mark and head.strip() and TAKEN_BACK.match(rest))


def as_remark(error: OrderError) -> OrderError:
    """A refused line set aside as a remark instead."""
    return OrderError(error.line, error.text, _("not an order: set aside as a remark"),
                      remark=True)


def aside(number: int, line: str, word: str, words) -> OrderError | None:
    """The remark a refused line is (an OrderError marked remark), or None when it may be a
    mistyped order: see :func:`chat`."""
    if not chat(line, word, words):
        return None
    return OrderError(number, line.strip(), _("not an order: set aside as a remark"),
                      remark=True)
