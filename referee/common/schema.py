"""JSON Schema (OpenAPI 3.0's dialect) from the types of the documents: the OpenAPI document's
schemas are made from the TypedDicts each rule set's ``documents`` module declares, so the two
cannot drift apart (``tests/test_documents_typed.py`` checks the types against real documents).

A ``TypedDict`` is an object whose required keys are its required ones; a ``Literal`` an
enum; ``X | None`` is ``nullable`` (``X | Y | None`` an ``anyOf`` with a null arm, as
``nullable`` holds only beside a ``type``); ``list[X]`` an array, ``dict[str, X]`` an object of
``X``s; a ``NamedTuple`` the array JSON makes of it. ``Annotated`` adds keywords to a type
(``Keywords``: a pattern, an example, a description) or names it as one of a kind whose values
are known only as the document is made (``Named``: every seat of the registered rule sets).

>>> from typing import Literal, NotRequired, TypedDict
>>> class Shot(TypedDict):
...     at: str
...     result: Literal["miss", "hit"] | None
...     sunk: NotRequired[bool]
>>> json_schema(Shot)["required"], json_schema(Shot)["properties"]["result"]
(['at', 'result'], {'type': 'string', 'enum': ['miss', 'hit', None], 'nullable': True})

Pure like the cores that use it: no web, storage or PDF library is imported here.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, NotRequired, Required, Union

Json = dict[str, Any]  # a schema (``documents.Json``, which this module's types annotate)

REF = "#/components/schemas/"
TYPES: dict[object, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


class Keywords:
    """JSON Schema keywords an annotation adds to its type:
    ``Annotated[str, Keywords(pattern="...", example="K 10")]``."""

    def __init__(self, **keywords: object) -> None:
        self.keywords = keywords

    def __repr__(self) -> str:
        return f"Keywords({self.keywords!r})"


class Named:
    """A value of one kind whose values the document's maker knows (``names``): a seat,
    whose values are every registered rule set's seats."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"Named({self.kind!r})"


def json_schema(hint: object, *, refs: Mapping[object, str] | None = None,
                names: Mapping[str, Sequence[object]] | None = None,
                closed: bool = False) -> Json:
    """The schema of a type. ``refs``: the types given as ``$ref`` to a component of that name
    (the type itself is made inline); ``names``: each ``Named`` kind's values; ``closed``:
    objects take no key their type does not declare (what a client sends)."""
    return _Maker(refs or {}, names or {}, closed).schema(hint, top=True)


class _Maker:
    def __init__(self, refs: Mapping[object, str], names: Mapping[str, Sequence[object]],
                 closed: bool) -> None:
        self.refs, self.names, self.closed = refs, names, closed

    def schema(self, hint: object, top: bool = False) -> Json:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is Annotated:
            return self._annotated(args[0], args[1:])
        if not top and hint in self.refs:
            return {"$ref": REF + self.refs[hint]}
        if origin in (NotRequired, Required):
            return self.schema(args[0])
        if typing.is_typeddict(hint):
            return self._object(hint)
        if origin is Literal:
            return _enum(args)
        if origin in (Union, types.UnionType):
            return self._union(args)
        if origin in (list, tuple, Sequence) or hint in (list, tuple):
            return self._array(args)
        if origin in (dict, Mapping) or hint is dict:
            return {"type": "object",
                    **({"additionalProperties": self.schema(args[1])} if args else {})}
        if isinstance(hint, type) and issubclass(hint, tuple) and hasattr(hint, "_fields"):
            return self._named_tuple(hint)
        if hint in TYPES:
            return {"type": TYPES[hint]}
        if hint is type(None):
            return {"nullable": True}
        if hint in (Any, object):
            return {}
        raise TypeError(f"{hint!r} has no JSON Schema here")

    def _annotated(self, inner: object, metadata: tuple[object, ...]) -> Json:
        schema = self.schema(inner)
        for note in metadata:
            if isinstance(note, Keywords):
                schema = {**schema, **note.keywords}
            elif isinstance(note, Named) and note.kind in self.names:
                schema = {**schema, "enum": list(self.names[note.kind])}
        return schema

    def _object(self, hint: Any) -> Json:
        declared = typing.get_type_hints(hint, include_extras=True)
        schema: Json = {"type": "object",
                        "required": [key for key, value in declared.items()
                                     if _required(key, value, hint.__required_keys__)],
                        "properties": {key: self.schema(value)
                                       for key, value in declared.items()}}
        if not schema["required"]:
            del schema["required"]
        if self.closed:
            schema["additionalProperties"] = False
        summary = (hint.__doc__ or "").strip().split("\n\n")[0]
        if summary and not summary.startswith(hint.__name__ + "("):
            schema["description"] = " ".join(summary.split())
        return schema

    def _union(self, args: tuple[object, ...]) -> Json:
        present = [arg for arg in args if arg is not type(None)]
        nullable = len(present) < len(args)
        literals = [arg for arg in present if typing.get_origin(arg) is Literal]
        if literals and len(literals) == len(present):  # one enum of every Literal's values
            values = tuple(v for arg in literals for v in typing.get_args(arg))
            return _enum((*values, None) if nullable else values)
        if len(present) == 1:
            schema = self.schema(present[0])
        else:
            schema = {"anyOf": [self.schema(arg) for arg in present]}
        if not nullable:
            return schema
        if "anyOf" in schema:  # OpenAPI 3.0's nullable holds only beside a type: null an arm
            return {"anyOf": [*schema["anyOf"], NULL]}
        if "$ref" in schema:  # OpenAPI 3.0 reads no keyword beside a $ref
            return {"allOf": [schema], "nullable": True}
        if "enum" in schema:
            schema = {**schema, "enum": [*schema["enum"], None]}
        return {**schema, "nullable": True}

    def _array(self, args: tuple[object, ...]) -> Json:
        if not args:
            return {"type": "array"}
        if len(args) == 2 and args[1] is Ellipsis or len(args) == 1:
            return {"type": "array", "items": self.schema(args[0])}
        return {"type": "array", "minItems": len(args), "maxItems": len(args),
                "items": {"anyOf": [self.schema(arg) for arg in args]}}

    def _named_tuple(self, hint: type) -> Json:
        fields = typing.get_type_hints(hint)
        return {"type": "array", "minItems": len(fields), "maxItems": len(fields),
                "items": {"anyOf": [self.schema(value) for value in fields.values()]},
                "description": f"({', '.join(fields)})"}


# null alone, as OpenAPI 3.0 writes it (it has no null type): an arm of a nullable ``anyOf``
NULL: Json = {"type": "object", "nullable": True, "enum": [None]}


def _required(key: str, value: object, required: frozenset[str]) -> bool:
    """Whether a TypedDict's key is required: as it says, its own ``NotRequired`` or
    ``Required`` first (Python 3.11 reads them wrong in a string annotation)."""
    origin = typing.get_origin(value)
    return origin is Required or origin is not NotRequired and key in required


def _enum(values: tuple[object, ...]) -> Json:
    present = [value for value in values if value is not None]
    kinds = {TYPES.get(type(value), "string") for value in present}
    schema: Json = {"type": kinds.pop() if len(kinds) == 1 else "string", "enum": list(values)}
    if len(present) < len(values):
        schema["nullable"] = True
    return schema
