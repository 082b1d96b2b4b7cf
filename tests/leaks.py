"""What a reader is shown, line by line: the scanners the leak tests and the archive's
tests run over mails and pages."""

import email
import html
import re


def shown_lines(text: str, markup: bool = False) -> set[str]:
    """Every line a text (or, with `markup`, an HTML document) shows, stripped of markup
    and of list dashes."""
    if markup:
        text = html.unescape(re.sub(r"<[^>]+>", "\n", text))
    lines = set()
    for line in text.splitlines():
        line = line.strip()
        lines.add(line[2:] if line.startswith("- ") else line)
    return lines


def mail_lines(raw: bytes) -> set[str]:
    """Every line of a mail's text and HTML parts, stripped of markup and list dashes."""
    lines = set()
    for part in email.message_from_bytes(raw).walk():
        if part.get_content_maintype() != "text":
            continue
        text = part.get_payload(decode=True).decode(part.get_content_charset() or "utf-8")
        lines |= shown_lines(text, part.get_content_subtype() == "html")
    return lines
