"""Composing outgoing mail: headers and parts written as the standard library writes them."""

from email.generator import BytesGenerator
from email.policy import compat32
import io

import pytest

from pbem.mail.compose import POLICY, Board, Generator, compose, text_part

STDLIB = compat32.clone(mangle_from_=False, max_line_length=78)
VALUES = [
    "[pbem rome #k3x9] Turn 4: your orders by Tue 18:00",
    "[pbem rome #k3x9] Tour 4 : vos ordres avant mar. 18:00, s'il vous plaît",  # not ASCII
    "a  b\tc", " leading", "trailing ", "=?utf-8?q?not_an_encoded_word?=", "", "x" * 70,
    "x" * 71, "word " * 30, "<rome.0123456789abcdef01234567@pbem.example> " * 4,
    'multipart/alternative; boundary="=_pbem_0123456789abcdef0123456789abcdef"',
    'multipart/alternative; boundary="=_pbem_0123456789abcdef"',
    "line\nbreak", "cr\rin it",
]


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("name", ["Subject", "References", "Content-Type"])
def test_a_header_is_written_as_the_standard_library_writes_it(name, value):
    assert POLICY.fold_binary(name, value) == STDLIB.fold_binary(name, value)


BODIES = ["", "one line", "two\nlines\n", "crlf\r\nlines\r\n", "lone\rcarriage return",
          "trailing blank lines\n\n\n", "accents é à\n" * 20, "long " * 40 + "\n"]


@pytest.mark.parametrize("body", BODIES)
@pytest.mark.parametrize("subtype", ["plain", "html"])
def test_a_part_is_written_as_the_standard_generator_writes_it(body, subtype):
    ours, theirs = io.BytesIO(), io.BytesIO()
    Generator(ours, policy=POLICY).flatten(text_part(body, subtype))
    BytesGenerator(theirs, policy=POLICY).flatten(text_part(body, subtype))
    assert ours.getvalue() == theirs.getvalue()


@pytest.mark.parametrize("body", BODIES + ["x" * 79 + "\n", "ligne accentuée é\n" * 3])
@pytest.mark.parametrize("subtype", ["plain", "html"])
def test_a_text_part_is_written_as_mimetext_writes_it(body, subtype):
    from email.mime.text import MIMEText
    from pbem.mail.compose import charset_for
    ours, theirs = io.BytesIO(), io.BytesIO()
    Generator(ours, policy=POLICY).flatten(text_part(body, subtype))
    BytesGenerator(theirs, policy=POLICY).flatten(
        MIMEText(body, subtype, charset_for(body, html=subtype == "html"), policy=POLICY))
    assert ours.getvalue() == theirs.getvalue()


QP_TEXTS = ["<p>" + "un mot accentué, " * 30 + "</p>\n", "a = b\n", "trailing space \n",
            "tab\tand trailing tab\t\n", "x" * 200 + "\n", "=3D already\n", "no newline at end",
            "From the start of a line\n", ".\n", "é" * 100 + "\n" + "—\n"]


@pytest.mark.parametrize("text", QP_TEXTS)
def test_a_quoted_printable_part_decodes_to_its_text_and_fits_in_76_columns(text):
    part = text_part(text, "html")
    assert part["Content-Transfer-Encoding"] == "quoted-printable"
    assert part.get_payload(decode=True).decode("utf-8") == text
    assert all(len(line) <= 76 for line in part.get_payload().split("\n"))


def test_every_line_of_a_composed_mail_fits_in_78_columns():
    draft = compose(sender=("pbem", "pbem@club.example"), to="ann@players.example",
                    subject="[pbem rome #k3x9] Turn 4: your orders by Tue 18:00",
                    text="Orders received.\n" + "a long line " * 20 + "\n",
                    html="<p>" + "un paragraphe accentué " * 40 + "</p>\n",
                    msg_id="<rome.0123456789abcdef01234567@club.example>",
                    date="2030-01-01T00:00:00Z", reply_to="pbem+rome.k3x9@club.example",
                    in_reply_to="<m1@players.example>", references=["<t@club.example>"],
                    images={"<board@pbem>": Board("<svg/>")},
                    attachments=[("rome-rules.txt", "The rules.\n")])
    long = [line for line in draft.data.split(b"\n") if len(line.rstrip(b"\r")) > 78]
    assert not long
    assert draft.data.count(b"boundary=") == 3
