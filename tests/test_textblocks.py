"""A text part's order table and lists become HTML tables and lists in the same mail.

The text part keeps its 78 columns; the HTML part shows the seat's own
section and the orders it may send as paragraphs, lists and tables that
reflow on a phone, never as preformatted text.
"""

import re

import pytest

from mailkinds import GAMES, html_of, text_of, write_all
from pbem.reading import SHOWN
from pbem.textblocks import as_html, logical_lines

COMMAND_WORDS = {word for words in SHOWN.values() for word in words.values()}

HELP = """How to write your orders: one per line, English or French words.

  move reserve Kent           an army moves to an adjacent zone
  scenario 1-6                (1 Face to face, 2 The bridge, 3 The monastery, 4 Homeland, 5
                              The abduction, 6 Coastal raid)
  pass

Each army moves once a turn, inside your lands. One army of 4 points or more
(on your first turn, the Main Host) may instead move.
Armies:
  host in Wessex, 5 points (Main Host): 1 Hearthguards, 2 Warriors, 2 Levies,
      the Lord
  reserve in Normandy, 1 point: 1 Warriors
"""


def test_lines_a_fill_broke_are_joined_and_new_items_are_not():
    assert logical_lines(HELP) == [
        "How to write your orders: one per line, English or French words.", "",
        "  move reserve Kent           an army moves to an adjacent zone",
        "  scenario 1-6                (1 Face to face, 2 The bridge, 3 The monastery, "
        "4 Homeland, 5 The abduction, 6 Coastal raid)",
        "  pass", "",
        "Each army moves once a turn, inside your lands. One army of 4 points or more "
        "(on your first turn, the Main Host) may instead move.",
        "Armies:",
        "  host in Wessex, 5 points (Main Host): 1 Hearthguards, 2 Warriors, 2 Levies, "
        "the Lord",
        "  reserve in Normandy, 1 point: 1 Warriors"]


def test_columns_make_a_table_items_a_list_and_text_is_escaped():
    html = str(as_html(HELP + "\n<b>bold</b> & co\n"))
    assert "<pre" not in html
    rows = re.findall(r"<tr>(.*?)</tr>", html)
    assert [re.findall(r"<td[^>]*>(.*?)</td>", row) for row in rows] == [
        ["move reserve Kent", "an army moves to an adjacent zone"],
        ["scenario 1-6", "(1 Face to face, 2 The bridge, 3 The monastery, 4 Homeland, 5 The "
                         "abduction, 6 Coastal raid)"],
        ["pass"]]
    assert 'colspan="2">pass</td>' in html
    assert re.findall(r"<li>(.*?)</li>", html) == [
        "host in Wessex, 5 points (Main Host): 1 Hearthguards, 2 Warriors, 2 Levies, the Lord",
        "reserve in Normandy, 1 point: 1 Warriors"]
    assert "<p>Each army moves once a turn, inside your lands. One army of 4 points or more " \
        "(on your first turn, the Main Host) may instead move.<br>Armies:</p>" in html
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; co" in html


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_s_help_shows_its_orders_as_a_table(tmp_path, game):
    for lang in ("en", "fr"):
        (tmp_path / lang).mkdir()
        msg = write_all(tmp_path / lang, game, lang)["help"]
        text, html = text_of(msg), html_of(msg)
        assert max(len(line) for line in text.splitlines()) <= 78
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", html)
        examples = [re.match(r"^  (\S.*?)(?: {2,}|$)", line).group(1)
                    for line in text.splitlines() if re.match(r"^  \S.*? {2,}\S", line)]
        examples = [e for e in examples if e.split()[0] not in COMMAND_WORDS]  # a list
        assert examples and set(examples) <= set(cells), (game, lang, examples, cells)
        prose = re.sub(r"<details>.*?</details>|<pre[^>]*>-----.*?</pre>", "", html, flags=re.S)
        assert "<pre" not in prose, f"{game} ({lang}): preformatted text outside the board"
