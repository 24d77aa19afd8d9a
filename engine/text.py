"""Text the engine can carry, and text an error may quote.

Every value is user input: it must be valid Unicode without control characters or lone
surrogates (a JSON surrogate-pair escape is the one character it encodes), and a message quotes
at most a short, escaped excerpt of it, so no error line can garble a terminal or a batch row.
"""

from __future__ import annotations

import re

from .errors import WhybotError
from .limits import current

PathKey = tuple[str | int, ...]

# What YAML itself calls printable (PyYAML's Reader uses the same set): anything else in a file
# or in a value (after escapes) is refused. Tab, newline and carriage return are text.
UNPRINTABLE = re.compile("[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
def json_path(path: PathKey) -> str:
    """`("rules", 3, "when")` → `$.rules[3].when`, the jsonschema convention."""
    text = "$"
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text



# What may stand in one line of an error: printable, and no line break of any kind.
_NOT_ONE_LINE = re.compile("[^\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd"
                           "\U00010000-\U0010ffff]")
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _ESCAPES.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def printable(text: str) -> str:
    """`text` as one printable line: line breaks, tabs, control characters and lone surrogates
    escaped (`\\n`, `\\x00`, `\\ud83d`). Any other character, non-ASCII included, is kept:
    a planet's name reads as written."""
    return _NOT_ONE_LINE.sub(_escape, text)


def excerpt(text: str, limit: int | None = None) -> str:
    """A short, escaped quote of the user's text for an error message (limit `message_chars`).

    Error lines are read on a terminal and stored in batch rows: a 50 MB line, or bytes that
    would garble the terminal, must never reach them."""
    limit = current().message_chars if limit is None else limit
    escaped = printable(text[: limit + 1])
    return escaped if len(escaped) <= limit and len(text) <= limit else escaped[:limit] + "…"


def first_bad(text: str) -> tuple[int, str] | None:
    """Offset and description of the first character the engine cannot carry, if any.

    A high surrogate followed by a low one is a pair (the JSON escape of one character), not a
    problem; either half alone is."""
    for match in UNPRINTABLE.finditer(text):
        start, code = match.start(), ord(match.group())
        after = ord(text[start + 1]) if start + 1 < len(text) else 0
        before = ord(text[start - 1]) if start else 0
        if 0xD800 <= code <= 0xDBFF and 0xDC00 <= after <= 0xDFFF:
            continue
        if 0xDC00 <= code <= 0xDFFF and 0xD800 <= before <= 0xDBFF:
            continue
        if 0xD800 <= code <= 0xDFFF:
            return start, f"lone surrogate \\u{code:04x} (half of a character) in text"
        return start, f"control character U+{code:04X} is not allowed in text"
    return None


def clean_text(value: str) -> str | None:
    """`value` with surrogate pairs combined, or None if a lone surrogate or control remains.

    PyYAML turns the JSON escape `\\ud83d\\udca5` into two lone surrogates; a valid pair is
    the one character it encodes."""
    if UNPRINTABLE.search(value) is None:
        return value
    if first_bad(value) is not None:
        return None
    return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")


def decode_text(data: bytes, file: str, error: type[WhybotError] = WhybotError,
                line: int = 1) -> str:
    """UTF-8 bytes → text; invalid bytes are one error naming the line they are on."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise error(f"not valid UTF-8: byte 0x{data[exc.start]:02x} at column {column}",
                    file=file, line=line + before.count(b"\n")) from None


def check_text(text: str, file: str, error: type[WhybotError], line: int = 1) -> str:
    """`text` with pairs combined; else one error naming the line of the bad character."""
    cleaned = clean_text(text)
    if cleaned is None:
        offset, problem = first_bad(text) or (0, "text is not valid Unicode")
        raise error(problem, file=file, line=line + text.count("\n", 0, offset))
    return cleaned
