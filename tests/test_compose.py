"""Composing outgoing mail: headers and parts written as the standard library writes them."""

from email.generator import BytesGenerator
from email.policy import compat32
import io

import pytest

from pbem.mail.compose import POLICY, Generator, text_part

STDLIB = compat32.clone(mangle_from_=False, max_line_length=78)
VALUES = [
    "[pbem rome #k3x9] Turn 4: your orders by Tue 18:00",
    "[pbem rome #k3x9] Tour 4 : vos ordres avant mar. 18:00, s'il vous plaît",  # not ASCII
    "a  b\tc", " leading", "trailing ", "=?utf-8?q?not_an_encoded_word?=", "", "x" * 70,
    "x" * 71, "word " * 30, "<rome.0123456789abcdef01234567@pbem.example> " * 4,
    'multipart/alternative; boundary="=_pbem_0123456789abcdef0123456789abcdef"',
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
