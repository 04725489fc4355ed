"""A document written with some of its values already written as JSON (``common.encoded``)
is byte for byte what ``json.dumps`` writes of the whole."""

from __future__ import annotations

import json
import random

import pytest

from referee.common.encoded import SEPARATORS, Encoded, dumps, resolved

VALUES = [None, True, False, 0, -7, 2**70, 1.5, -0.0, 1e300, "", "é ☃ \u0000 \"'\\</script>",
          [], {}, [1, [2, {"a": None}]], {"x": {"y": [1.25, "z"]}, "": 3}]


def plain(document: dict) -> str:
    return json.dumps(document, separators=SEPARATORS)


def test_any_mix_of_written_and_plain_values_is_written_as_json_dumps_writes_the_whole():
    rng = random.Random(5)
    for _ in range(500):
        keys = [f"k{n}\u00e9" if n % 3 else f"k{n}" for n in range(rng.randrange(0, 8))]
        document = {key: rng.choice(VALUES) for key in keys}
        parts = {key: Encoded.of(value) if rng.random() < 0.5 else value
                 for key, value in document.items()}
        assert dumps(parts) == plain(document)
        assert resolved(parts) == json.loads(plain(document))


def test_a_list_of_written_items_is_the_list_written_whole():
    items = [{"n": n, "text": "Salvo at A 1"} for n in range(5)]
    written = Encoded.array(Encoded.of(item).text for item in items)
    assert dumps({"a": 1, "reports": written, "z": None}) == plain(
        {"a": 1, "reports": items, "z": None})
    assert dumps({"reports": Encoded.array([])}) == plain({"reports": []})


def test_a_written_value_nested_deeper_is_refused_never_written_wrong():
    with pytest.raises(TypeError):
        dumps({"outer": {"inner": Encoded.of(1)}})
    with pytest.raises(TypeError):
        dumps({1: Encoded.of(1)})  # type: ignore[dict-item]
