"""The Jinja environment: the shared mail templates plus each game's own.

Shared templates live in ``templates/`` (installed as ``pbem.templates``);
a game's live in ``games/<game>/templates/`` and are addressed as
``<game>/<name>``. A game may override a shared template by giving one of the
same name. HTML and SVG templates are autoescaped: player text never becomes
markup.

Templates speak the current language (see pbem/i18n.py):
``{{ _("Deadline: {when}").format(when=...) }}``, ``ngettext``, ``{% trans %}``;
in HTML the arguments of ``.format`` are escaped, the catalogue's text is not.
``language()`` is the current language (for ``<html lang>``), ``local`` shows a
time in a seat's zone and language, ``number`` a number in the language, and
``wrap`` fills a text paragraph to the 78 columns of a text mail.
``fragments(name, items)`` renders a small template for each item (a dict of
hashable fields), once per distinct item in the process: a board's cells,
most of them the same from one board to the next. A board's SVG is its
ground, then its pieces (see pbem/raster.py, which draws it):
``fragments(name, items, at_rest)`` gives the items at rest for the ground,
``pieces(name, items, at_rest)`` those not at rest, each as a piece.

Jinja is loaded with the environment, and resvg and Pillow with the first
board drawn, so a command that writes no mail loads none of them. Templates
are compiled once per process (no auto-reload: pbem's templates do not change
under a running tick).
"""

from collections.abc import Mapping
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
import textwrap

from markupsafe import Markup

import pbem.games

from . import i18n, raster, reading, textblocks
from .raster import PIECE

TEXT_WIDTH = 78
RULES_FILE = {"en": "{game}-rules.txt", "fr": "{game}-regles.txt"}  # a welcome's attachment


def _autoescape(name: str | None) -> bool:
    return bool(name) and name.endswith((".html.j2", ".svg.j2"))


class GameTemplates(Mapping):
    """Each game's template folder by game name, looked up when a template of the game is
    first asked for: a tick imports only the games it plays."""

    def __getitem__(self, name: str):
        if name not in pbem.games.names():
            raise KeyError(name)
        return game_loader(name)

    def __iter__(self):
        return iter(pbem.games.names())

    def __len__(self) -> int:
        return len(pbem.games.names())


@lru_cache(maxsize=None)
def game_loader(name: str):
    """The loader of a game's own templates (games/<game>/templates/)."""
    import jinja2
    return jinja2.FileSystemLoader(str(Path(pbem.games.load(name).__file__).parent / "templates"))


@lru_cache(maxsize=1)
def environment():
    """The one Jinja environment pbem renders with."""
    import jinja2
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader([
            jinja2.FileSystemLoader(str(files("pbem.templates"))),
            jinja2.PrefixLoader(GameTemplates()),
        ]),
        autoescape=_autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        bytecode_cache=bytecode_cache(),
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_callables(i18n._, i18n.ngettext, newstyle=True)
    env.globals["language"] = i18n.current
    env.globals["command"] = env.filters["command"] = \
        lambda name: reading.shown(name, i18n.current())
    env.filters["local"] = i18n.format_date
    env.filters["number"] = i18n.format_number
    env.filters["span"] = i18n.format_span
    env.filters["wrap"] = wrap
    env.filters["as_html"] = textblocks.as_html
    env.globals["fragments"] = fragments
    env.globals["pieces"] = pieces
    return env


def fragments(name: str, items, rest: dict | None = None) -> Markup:
    """A template (``<game>/<name>``) rendered for each item (a dict of hashable fields),
    joined; with `rest`, each item at rest (those fields set to these values): a board's
    ground."""
    lang = i18n.current()
    if rest:
        items = ({**item, **rest} for item in items)
    return Markup("".join(fragment(name, lang, tuple(item.items())) for item in items))


def pieces(name: str, items, rest: dict | None = None) -> Markup:
    """The items that are not at rest (see `fragments`; every item without `rest`), each
    rendered as one piece of the board, drawn over its ground (see pbem/raster.py)."""
    lang = i18n.current()
    resting = rest.items() if rest else None
    return Markup("".join(
        PIECE + fragment(name, lang, tuple(item.items())) + "</g>\n" for item in items
        if resting is None or not resting <= item.items()))


@lru_cache(maxsize=4096)
def fragment(name: str, lang: str, fields: tuple) -> str:
    """A template rendered with these (name, value) fields in a language, once per process."""
    return environment().get_template(name).render(dict(fields))


def bytecode_cache():
    """Jinja's cache of compiled templates, in the user's own temporary folder, so a
    tick that writes mail does not compile every template again; None when there is
    no such folder to write in."""
    import jinja2
    try:
        return jinja2.FileSystemBytecodeCache()
    except (RuntimeError, OSError):
        return None


def wrap(text: str, keep=(), width: int = TEXT_WIDTH, indent: str = "") -> str:
    """A text paragraph (or several, one a line) filled to `width` columns.

    Long words (addresses) stay whole, and so does each phrase in `keep`
    (a subject tag such as '[pbem rome #code]'); `indent` starts every line
    after a paragraph's first (a list item's continuation).
    """
    text = str(text)
    for phrase in keep:
        text = text.replace(phrase, phrase.replace(" ", "\0"))
    return "\n".join(line if fits(line, width) else filled(line, width, indent)
                     for line in text.split("\n")).replace("\0", " ")


@lru_cache(maxsize=1024)
def filled(line: str, width: int, indent: str) -> str:
    """One long line filled to `width` columns (a mail's fixed sentences recur in every
    mail: each is filled once per process)."""
    return textwrap.fill(line, width, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False)


def fits(line: str, width: int) -> bool:
    """Does textwrap leave this line as it is? (Short, printable, no space at either end.)"""
    return len(line) <= width and line.isprintable() and line[:1] != " " and line[-1:] != " "


def template_for(ruleset: str, name: str):
    """The game's own template if it has one, else the shared one."""
    return chosen_template(environment(), ruleset, name)


@lru_cache(maxsize=512)
def chosen_template(env, ruleset: str, name: str):
    """The template an environment picks for a game: looked up once (a game without its
    own would otherwise be searched for it on every mail). Its globals are made a plain
    dict: Jinja keeps them as a ChainMap over the environment's (set once, in
    `environment`), which every render copies again, a third of a short template's cost."""
    template = env.select_template([f"{ruleset}/{name}", name])
    template.globals = dict(template.globals)
    return template


@lru_cache(maxsize=512)
def needs(ruleset: str, name: str) -> frozenset:
    """The names a game's template reads (from its context, or its own variables), with
    every template it includes or extends: what a mail must compute before rendering it."""
    from jinja2 import meta, nodes
    env = environment()
    names, seen, todo = set(), set(), [template_for(ruleset, name).name]
    while todo:
        current = todo.pop()
        if current in seen:
            continue
        seen.add(current)
        tree = env.parse(env.loader.get_source(env, current)[0])
        # every name read, its own variables too: a third of the cost of
        # meta.find_undeclared_variables, which compiles the template to tell them apart
        names |= {node.name for node in tree.find_all(nodes.Name) if node.ctx == "load"}
        todo += [chosen_template(env, ruleset, other).name
                 for other in meta.find_referenced_templates(tree) if other]
    return frozenset(names)


def render(ruleset: str, name: str, **context) -> str:
    """Render a template for a game."""
    return template_for(ruleset, name).render(**context)


def rules_summary(ruleset: str) -> tuple[str, str] | None:
    """A game's rules in short, in the current language (else English), for a welcome mail.

    (file name, text): the game folder's ``rules.<lang>.md``, named for the
    attachment by the game's title in that language (``diplomacy-rules.txt``,
    ``diplomatie-regles.txt``); None when the game has none.
    """
    folder = files("pbem.games") / ruleset
    for lang in dict.fromkeys((i18n.current(), "en")):
        summary = folder / f"rules.{lang}.md"
        if summary.is_file():
            with i18n.speaking(lang):
                title = i18n._(getattr(pbem.games.load(ruleset), "TITLE", ruleset))
            return RULES_FILE[lang].format(game=file_word(title)), \
                summary.read_text(encoding="utf-8")
    return None


def file_word(text: str) -> str:
    """A title as a file name's word: 'Campagne SAGA' -> 'campagne-saga'."""
    return "-".join(reading.plain(text).replace("'", " ").split())


def board_svg(ruleset: str, game, view: dict, drawing: dict | None = None,
              ground: bool = True) -> str:
    """The board of a view as an SVG document (the game's board.svg.j2); `drawing` is
    the game's svg_context(view), when it is known already. Without `ground`, the
    items at rest of its ground are left out (``fragments`` draws nothing): what is
    left of the ground tells whether it changed, in a fraction of the time."""
    drawing = game.svg_context(view) if drawing is None else drawing
    if not ground:
        drawing = {**drawing, "fragments": nothing}
    return render(ruleset, "board.svg.j2", view=view, **drawing)


def nothing(*_args) -> Markup:
    """What ``fragments`` draws in a board drawn without its ground's items."""
    return Markup("")


@lru_cache(maxsize=64)
def board_png(svg: str) -> bytes:
    """The board as a PNG image, at the SVG's own size, for mail readers that drop SVG
    (drawn in layers: see pbem/raster.py). The same board (a seat's map that did not
    change) is drawn once per process."""
    return raster.png(svg)


def close_up_png(svg: str, zoom: float, window: tuple) -> bytes:
    """A close-up of the board (see raster.close_up_frame) as a PNG image."""
    return raster.close_up(svg, zoom, window)


def board_width(svg: str) -> int:
    """The width in pixels of the PNG `board_png` draws from this SVG, without drawing it."""
    return raster.frame_of(raster.svg_root(svg)).width


def board_picture(cid: str, title: str, width: int) -> Markup:
    """The <img> of a mail's board, shown from the PNG part named `cid`, fluid to the width."""
    return Markup('<img src="cid:{cid}" alt="{title}" width="{width}" style="display: block; '
                  'width: 100%; max-width: {width}px; height: auto">').format(
                      cid=cid, title=title, width=width)


def board_html(ruleset: str, game, view: dict, picture: Markup | None = None,
               drawing: dict | None = None) -> Markup:
    """The board block of HTML mails and pages.

    The SVG map (or `picture`, the board's image in a mail), wrapped by the
    game's board.html.j2 when it has one (to add, say, a table beside the
    map), with the map given to it as ``svg``. `drawing`: as for board_svg.
    """
    from jinja2 import TemplateNotFound
    drawing = game.svg_context(view) if drawing is None else drawing
    svg = picture if picture is not None else Markup(board_svg(ruleset, game, view, drawing))
    try:
        wrapper = environment().get_template(f"{ruleset}/board.html.j2")
    except TemplateNotFound:
        return svg
    return Markup(wrapper.render(view=view, svg=svg, **drawing))
