"""The rule language's text cut into tokens, and the one error its parser raises.

`parser.py` reads conditions from the tokens by grammar; this module knows only what a token is
(a number, a quoted string, a dotted name, an operator) and keeps the cursor the grammar moves
along them, so every syntax error, from either, names the column where the text stopped making
sense.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<number>\d+(?:\.\d+)?)
  | (?P<string>'[^']*'|"[^"]*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<op>==|!=|<=|>=|//|<|>|\(|\)|\[|\]|,|\+|-|\*|%)
""", re.VERBOSE)


class ConditionSyntaxError(ValueError):
    """Raised with the column where the text stopped making sense."""

    def __init__(self, message: str, column: int) -> None:
        self.column = column
        super().__init__(f"{message} at column {column}")


@dataclass
class Token:
    kind: str
    text: str
    column: int


def tokenize(text: str) -> list[Token]:
    """The tokens of `text`, spaces left out, ending with an `end` token."""
    tokens: list[Token] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match:
            raise ConditionSyntaxError(f"unexpected character {text[position]!r}", position + 1)
        kind = match.lastgroup or ""
        if kind != "space":
            tokens.append(Token(kind, match.group(), position + 1))
        position = match.end()
    tokens.append(Token("end", "", len(text) + 1))
    return tokens


class TokenCursor:
    """A position in the tokens of one text: look ahead, take, or insist on the next one."""

    def __init__(self, text: str) -> None:
        self.tokens = tokenize(text)
        self.at = 0

    def peek(self, ahead: int = 0) -> Token:
        return self.tokens[min(self.at + ahead, len(self.tokens) - 1)]

    def take(self) -> Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def accept(self, text: str) -> bool:
        token = self.peek()
        if token.text == text and token.kind in ("name", "op"):
            self.at += 1
            return True
        return False

    def expect(self, text: str) -> None:
        if not self.accept(text):
            token = self.peek()
            raise ConditionSyntaxError(f"expected {text!r}, found "
                                       f"{token.text or 'end of condition'!r}", token.column)

    def done(self) -> None:
        """Insist that the text ends here."""
        token = self.peek()
        if token.kind != "end":
            raise ConditionSyntaxError(f"unexpected {token.text!r}", token.column)
