"""Composing outgoing mail: headers written as the standard library writes them."""

from email.policy import compat32

import pytest

from pbem.mail.compose import POLICY

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
