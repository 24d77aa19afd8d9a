"""A JSONL line whose text is plainly clean (no unprintable character, no escape that decodes
to one, short enough for every limit) skips the check of each value: on such a line that check
would change nothing and refuse nothing."""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from whybot.engine.limits import Limits
from whybot.engine.load.sources import _check_json_values, _plainly_clean

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.text(max_size=12), st.floats(allow_nan=False, allow_infinity=False))
documents = st.dictionaries(st.text(max_size=8), st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.text(max_size=6), inner, max_size=3), max_leaves=12), max_size=6)


@settings(max_examples=400, deadline=None)
@given(documents, st.booleans())
def test_a_plainly_clean_line_needs_no_check_of_each_value(document, ascii_only):
    text = json.dumps(document, ensure_ascii=ascii_only)
    if _plainly_clean(text, Limits()):
        data = json.loads(text)
        assert _check_json_values(copy.deepcopy(data), "f", 1, ValueError) == data


def test_lines_that_may_hide_a_bad_character_are_checked():
    for text in ('{"a": "\\u0001"}', '{"a": "\\ud83d"}', '{"a": "x\\b"}', '{"a": "\\f"}',
                 '{"a": "\u0007"}'):
        assert not _plainly_clean(text, Limits()), text
    assert _plainly_clean('{"a": "x\\n\\"\\\\ \u00e6 \U0001f4a5"}', Limits())
    assert not _plainly_clean('{"a": "long"}', Limits(string_chars=5))
    assert not _plainly_clean('[1, 2, 3, 4, 5]', Limits(yaml_nodes=5))
