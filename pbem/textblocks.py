"""A text part's block (a seat's own section, the order list of HELP) as HTML for the same mail.

Games write these blocks once, for the text part, filled to 78 columns:
sentences, indented lists, and tables whose columns are held apart by
spaces (``  move host Mercia        an army moves...``). Shown as
preformatted text on a phone, such a table re-wraps into a mess; here the
block becomes paragraphs, lists and tables that reflow to any width. Lines
a fill broke are joined again first: a line continues the one before when
that one was full (the next word did not fit in 78 columns), which is how
``textwrap`` breaks them.
"""

import re

from markupsafe import Markup, escape

WIDTH = 78  # the text part's width (render.TEXT_WIDTH)
GAP = re.compile(r"\S(?: {2,})(?=\S)")  # two spaces or more between two words: a column
CELL = "padding:1px 10px 1px 0;vertical-align:top"


def logical_lines(text: str) -> list[str]:
    """The block's lines with the breaks of a fill joined again ("" between paragraphs).

    A line continues the one before when that one was full (the line's first
    word would not have fitted after it) and it is not a new item of a list
    (a line indented as much as the item before it, indented), nor a new
    sentence after a full stop.
    """
    out, last, start = [], "", 0
    for line in text.splitlines():
        line = line.rstrip()
        indent = len(line) - len(line.lstrip())
        word = line.split()[0] if line.strip() else ""
        full = bool(line and out and out[-1]) and len(last) + 1 + len(word) > WIDTH
        new_item = indent <= start and start > 0
        new_sentence = last[-1:] in ".:!?" and word[:1].isupper()
        if full and not new_item and not new_sentence:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
            start = indent
        last = line
    return out


def cells(line: str) -> list[str]:
    """An indented line's columns: its parts held apart by two spaces or more."""
    parts, start = [], 0
    text = line.strip()
    for gap in GAP.finditer(text):
        parts.append(text[start:gap.start() + 1])
        start = gap.end()
    parts.append(text[start:])
    return parts


def as_html(text: str) -> Markup:
    """The block as HTML: a paragraph per run of sentences (a line each), a list per run of
    indented lines, a table when some of them have columns. Everything is escaped."""
    html, run, items = [], [], []

    def flush_text():
        if run:
            html.append("<p>" + "<br>".join(escape(line) for line in run) + "</p>")
            run.clear()

    def flush_items():
        if not items:
            return
        rows = [cells(item) for item in items]
        if all(len(row) == 1 for row in rows):
            html.append("<ul>" + "".join(f"<li>{escape(row[0])}</li>" for row in rows)
                        + "</ul>")
        else:
            width = max(len(row) for row in rows)
            html.append('<table style="border-collapse:collapse">' + "".join(
                "<tr>" + "".join(
                    f'<td style="{CELL}"'
                    + (f' colspan="{width - len(row) + 1}"' if n == len(row) - 1
                       and len(row) < width else "") + f">{escape(cell)}</td>"
                    for n, cell in enumerate(row)) + "</tr>" for row in rows) + "</table>")
        items.clear()

    for line in logical_lines(str(text)):
        if not line.strip():
            flush_text()
            flush_items()
        elif line[:1] == " ":
            flush_text()
            items.append(line)
        else:
            flush_items()
            run.append(line)
    flush_text()
    flush_items()
    return Markup("\n".join(html))
