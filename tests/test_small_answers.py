"""An answer stays small whatever came in: its subject names one command at most, its receipt
quotes each line to 200 characters, and its text and HTML are at most 64 kB each, saying
what they left out.

Mails are written as a player's phone sends them and handled by a real referee
(the helpers of benchmarks/long_lines.py).
"""

from email import message_from_bytes, policy
import hashlib
from pathlib import Path
import sys

from hypothesis import HealthCheck, given, settings, strategies as st
import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))
from long_lines import handled, mail, referee_with  # noqa: E402
from pbem import letters  # noqa: E402
from pbem.i18n import speaking  # noqa: E402
from pbem.receipts import receipt_text  # noqa: E402
from pbem.timeutil import later  # noqa: E402

NOW = "2030-01-01T00:30:00Z"


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    """(referee, seat, its code, a valid order of its) in an Auguste game."""
    return referee_with("auguste", tmp_path_factory.mktemp("club") / "club")


def answer_to(club, text: str, number: int):
    """The acknowledgement of a seat's mail holding `text`, parsed."""
    referee, seat, token, _order = club
    handled(referee, mail(referee, seat, token, text, number), later(NOW, number / 100))
    row = referee.store.one("SELECT * FROM outbox WHERE kind = 'ack' ORDER BY id DESC LIMIT 1")
    return message_from_bytes(referee.store.outbox_mail(row), policy=policy.default)


def parts(msg) -> tuple[str, str]:
    """The text and HTML parts of a mail."""
    return (msg.get_body(preferencelist=("plain",)).get_content(),
            msg.get_body(preferencelist=("html",)).get_content())


def test_a_repeated_command_is_named_once_in_the_subject(club):
    msg = answer_to(club, "HISTORY 2\n" * 5000 + "WAIT\nREADY\n" * 100, 1)
    assert msg["Subject"].endswith("Turn 1: HISTORY and 2 more commands noted")
    assert len(msg["Subject"]) < 100


def test_a_subject_names_one_command_in_french_too():
    with speaking("fr"):
        assert letters.commands_noted(["history", "wait", "history"]) == \
            "bien noté\u00a0: HISTORIQUE et 1 autre commande"
        assert letters.commands_noted(["ready"] * 5000) == "bien noté\u00a0: PRÊT"


def test_a_padded_order_is_quoted_cut_and_its_receipt_is_of_the_line_whole(club):
    _referee, _seat, _token, order = club
    padded = " " * 400_000 + order
    msg = answer_to(club, padded, 2)
    text, html = parts(msg)
    assert msg["Subject"].endswith("orders received")
    digest = hashlib.sha256(receipt_text(padded).encode()).hexdigest()
    assert digest in text and digest in html
    quoted = text.split("-----\n")[1]
    assert " ".join(quoted.split()) == "… " + order
    assert all(len(line) <= 200 for line in quoted.splitlines())
    assert "quoted here in part (at most 100 lines, each to 200 characters)" in \
        " ".join(text.split())
    assert len(text.encode()) < 4_000 and len(html.encode()) < 6_000


def test_a_receipt_of_many_lines_says_how_many_it_leaves_out(club):
    _referee, _seat, _token, order = club
    msg = answer_to(club, f"{order}\n" + "blue: pass\n" * 150, 3)
    text, _html = parts(msg)
    quoted = text.split("-----\n")[1]
    assert len(quoted.splitlines()) == 101 and quoted.splitlines()[-1] == "(and 51 more lines)"


# Lines a mail may hold, each as long as a hostile sender likes.
LINES = st.sampled_from([
    "{order}", "{order} " + "sorry " * 60, " " * 5000 + "{order}", "Xyzq " * 300,
    "blue: move " + "KOZ " * 400, "HISTORY " + "9" * 3000, "WAIT", "Hi all,", "x" * 20_000,
    "red: move KOZ Xyzq, " + "lol " * 100, "je passe mon tour " * 50,
])


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(lines=st.lists(LINES, min_size=1, max_size=400), number=st.integers(10, 10**6))
def test_an_answer_is_at_most_64_kb_whatever_came_in(club, lines, number):
    _referee, _seat, _token, order = club
    msg = answer_to(club, "\n".join(line.format(order=order) for line in lines), number)
    text, html = parts(msg)
    assert len(text.encode()) <= letters.MAX_ANSWER_BYTES
    assert len(html.encode()) <= letters.MAX_ANSWER_BYTES


def test_an_answer_past_64_kb_is_cut_at_a_line_and_says_how_many_it_left_out():
    text = "".join(f"line {n}: " + "x" * 90 + "\n" for n in range(2000))
    with speaking("en"):
        cut, html = letters.within_answer_size(text, "<p>" + text + "</p>")
    assert len(cut.encode()) <= letters.MAX_ANSWER_BYTES
    kept = cut.splitlines()[:-2]
    assert text.startswith("\n".join(kept) + "\n")
    assert cut.splitlines()[-1] == \
        f"[This answer is cut here: {2000 - len(kept):,} more lines left out.]"
    assert html.startswith("<pre") and len(html.encode()) <= letters.MAX_ANSWER_BYTES
