"""Text parts are filled to 78 columns; a line that already fits is left as textwrap leaves it."""

import textwrap

from hypothesis import given, strategies as st

from pbem.render import wrap

LINES = st.text(alphabet=st.sampled_from(list("ab é-xyz\t\u00a0")),
                max_size=90)


@given(st.lists(LINES, max_size=4).map("\n".join), st.sampled_from(["", "  "]))
def test_wrap_is_textwrap_line_by_line(text, indent):
    expected = "\n".join(textwrap.fill(line, 78, subsequent_indent=indent,
                                       break_long_words=False, break_on_hyphens=False)
                         for line in text.split("\n"))
    assert wrap(text, indent=indent) == expected


def test_a_long_line_is_filled_and_a_kept_phrase_stays_whole():
    tag = "[pbem rome #k3x9]"
    text = "Reply to this mail, keeping " + tag + " in its subject, " * 4
    lines = wrap(text, keep=[tag]).split("\n")
    assert all(len(line) <= 78 for line in lines) and len(lines) > 1
    assert any(tag in line for line in lines)
