"""The bounded JSON loader: depth measured without recursion, strings' brackets ignored, a deeper
document refused before it is parsed."""

from __future__ import annotations

import json

import pytest

from edge import bounded_json


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [1, 2, 63, 64])
def test_up_to_the_limit_parses(depth):
    assert bounded_json.loads(nested(depth), max_depth=64) == json.loads(nested(depth))


@pytest.mark.parametrize("depth", [65, 1000, 100_000])
def test_past_the_limit_is_refused_without_recursion(depth):
    with pytest.raises(bounded_json.TooDeep) as refused:
        bounded_json.loads(nested(depth), max_depth=64)
    assert refused.value.limit == 64 and isinstance(refused.value, ValueError)


def test_objects_and_arrays_both_count():
    assert bounded_json.depth_within('{"a": [{"b": [1]}]}', 4)
    assert not bounded_json.depth_within('{"a": [{"b": [1]}]}', 3)


def test_brackets_inside_strings_are_text():
    text = json.dumps({"title": '[[[[[[[[ {{{{ \\" [[[[', "tags": ["a]]]]"]})
    assert bounded_json.depth_within(text, 2)
    assert bounded_json.loads(text, max_depth=2)["title"].startswith("[[[[")


def test_the_default_limit_is_the_setting(settings):
    settings.JSON_MAX_DEPTH = 8
    assert bounded_json.loads(nested(8)) == json.loads(nested(8))
    with pytest.raises(bounded_json.TooDeep):
        bounded_json.loads(nested(9))


def test_bytes_with_a_byte_order_mark_and_malformed_text():
    assert bounded_json.loads('\ufeff{"a": 1}'.encode()) == {"a": 1}
    with pytest.raises(json.JSONDecodeError):
        bounded_json.loads('{"a": ')
    with pytest.raises(UnicodeDecodeError):
        bounded_json.loads(b"\xff\xfe{}")


def test_a_wide_document_within_the_limit_is_fine():
    text = "[" + ",".join(["[]"] * 200_000) + "]"
    assert len(bounded_json.loads(text, max_depth=2)) == 200_000
