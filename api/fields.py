"""DRF fields built from memory.inputs, the one declaration of every input.

Limits, choices and descriptions come from the declaration, never copied here, so the schema a script
reads and the checks the store makes cannot drift apart. The fields only parse: text stays as sent
(no trimming, blanks allowed) and the store validates everything again in full, so the REST API
refuses exactly what the MCP tools refuse. JSON bodies are typed strictly (a number is not a string,
"true" is not a boolean); query strings are text and are converted.

Every field carries a description and an example (`example`, published by api.schema).
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers
from rest_framework.fields import empty

from memory import inputs

NOT_A_STRING = "Must be a string."
NOT_A_NUMBER = "Must be a number."
NOT_A_WHOLE_NUMBER = "Must be a whole number."
NOT_A_BOOLEAN = "Must be true or false."


def _described(kind: Any, description: str, example: Any, **options: Any) -> Any:
    """`kind(**options)` with its description and example. Both go through the constructor: DRF
    rebuilds each field from its constructor arguments for every serializer instance."""
    if not description:
        raise ValueError(f"a {kind.__name__} needs a description: the schema publishes it")
    return kind(help_text=description, style={"example": example}, **options)


class StrictCharField(serializers.CharField):
    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(data)


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictFloatField(serializers.FloatField):
    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return float(super().to_internal_value(data))


class StrictBooleanField(serializers.BooleanField):
    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return bool(data)


class QueryBooleanField(serializers.BooleanField):
    # DRF reads an absent boolean of form or query data as false; absent must stay "not given".
    default_empty_html = empty


def _choice_messages(choices: tuple[str, ...]) -> dict[str, str]:
    # DRF's own message repeats the value sent, which may be huge or a secret.
    return {"invalid_choice": f"Must be one of: {', '.join(choices)}."}


def _length_messages(limit: int) -> dict[str, str]:
    return {"invalid": NOT_A_STRING, "max_length": f"At most {limit} characters."}


class Fields:
    """Field builders for one place of a request: a JSON body (strict types) or a query string."""

    def __init__(self, *, query: bool) -> None:
        self.query = query

    def _nullable(self, nullable: bool, required: bool) -> bool:
        # JSON bodies may send null for "not given", as the store reads None; a query string has no null.
        return nullable and not required and not self.query

    def text(
        self,
        spec: inputs.TextInput,
        example: str,
        *,
        description: str = "",
        required: bool = False,
        nullable: bool = True,
    ) -> Any:
        return _described(
            serializers.CharField if self.query else StrictCharField,
            description or spec.description,
            example,
            max_length=spec.max_length,
            required=required,
            allow_blank=True,
            trim_whitespace=False,
            allow_null=self._nullable(nullable, required),
            error_messages=_length_messages(spec.max_length),
        )

    def choice(
        self,
        choices: tuple[str, ...],
        example: str,
        *,
        description: str,
        required: bool = False,
        nullable: bool = True,
    ) -> Any:
        return _described(
            serializers.ChoiceField,
            description,
            example,
            choices=list(choices),
            required=required,
            allow_null=self._nullable(nullable, required),
            # DRF reads a blank optional query value as "omitted"; passing it on lets the store refuse it
            # (`?detail=` is not `detail` left out).
            allow_blank=self.query,
            error_messages=_choice_messages(choices),
        )

    def choices(self, choices: tuple[str, ...], example: list[str], *, description: str) -> Any:
        child = _described(
            serializers.ChoiceField,
            description,
            example[0],
            choices=list(choices),
            error_messages=_choice_messages(choices),
        )
        return _described(
            serializers.ListField,
            description,
            example,
            child=child,
            required=False,
            allow_null=self._nullable(True, False),
        )

    def text_list(
        self,
        spec: inputs.ListInput,
        item: inputs.TextInput,
        example: list[str],
        *,
        description: str = "",
        required: bool = False,
    ) -> Any:
        child = _described(
            serializers.CharField if self.query else StrictCharField,
            item.description,
            example[0],
            max_length=item.max_length,
            allow_blank=True,
            trim_whitespace=False,
            error_messages=_length_messages(item.max_length),
        )
        return _described(
            serializers.ListField,
            description or spec.description,
            example,
            child=child,
            required=required,
            allow_null=self._nullable(True, required),
            max_length=spec.max_items,
            error_messages={
                "not_a_list": "Must be a list.",
                "max_length": f"At most {spec.max_items} items.",
            },
        )

    def integer(
        self,
        spec: inputs.NumberInput,
        example: int,
        *,
        description: str = "",
        required: bool = False,
    ) -> Any:
        return _described(
            serializers.IntegerField if self.query else StrictIntegerField,
            description or spec.description,
            example,
            min_value=int(spec.minimum),
            max_value=int(spec.maximum),
            required=required,
            allow_null=self._nullable(True, required),
            error_messages={
                "invalid": NOT_A_WHOLE_NUMBER,
                "max_string_length": NOT_A_WHOLE_NUMBER,
                "min_value": f"At least {int(spec.minimum)}.",
                "max_value": f"At most {int(spec.maximum)}.",
            },
        )

    def number(self, spec: inputs.NumberInput, example: float, *, description: str = "") -> Any:
        return _described(
            serializers.FloatField if self.query else StrictFloatField,
            description or spec.description,
            example,
            min_value=spec.minimum,
            max_value=spec.maximum,
            required=False,
            allow_null=self._nullable(True, False),
            error_messages={
                "invalid": NOT_A_NUMBER,
                "max_string_length": NOT_A_NUMBER,
                "min_value": f"At least {spec.minimum}.",
                "max_value": f"At most {spec.maximum}.",
            },
        )

    def flag(self, example: bool, *, description: str) -> Any:
        return _described(
            QueryBooleanField if self.query else StrictBooleanField,
            description,
            example,
            required=False,
            allow_null=self._nullable(True, False),
            error_messages={"invalid": NOT_A_BOOLEAN},
        )

    def document(self, example: dict[str, Any], *, description: str) -> Any:
        return _described(
            serializers.DictField,
            description,
            example,
            required=True,
            error_messages={"not_a_dict": "Must be a JSON object."},
        )


body = Fields(query=False)
query = Fields(query=True)


class Out:
    """Fields of response schemas: documentation of what the store returns (never used to validate)."""

    @staticmethod
    def text(description: str, example: str, *, required: bool = True, nullable: bool = False) -> Any:
        return _described(serializers.CharField, description, example, required=required, allow_null=nullable)

    @staticmethod
    def choice(choices: tuple[str, ...], description: str, example: str, *, required: bool = True) -> Any:
        return _described(
            serializers.ChoiceField, description, example, choices=list(choices), required=required
        )

    @staticmethod
    def integer(description: str, example: int, *, required: bool = True, nullable: bool = False) -> Any:
        return _described(
            serializers.IntegerField, description, example, required=required, allow_null=nullable
        )

    @staticmethod
    def number(description: str, example: float, *, required: bool = True) -> Any:
        return _described(serializers.FloatField, description, example, required=required)

    @staticmethod
    def flag(description: str, example: bool, *, required: bool = True) -> Any:
        return _described(serializers.BooleanField, description, example, required=required)

    @staticmethod
    def time(description: str, *, required: bool = True, nullable: bool = False) -> Any:
        return _described(
            serializers.DateTimeField,
            description,
            "2026-11-30T12:00:00Z",
            required=required,
            allow_null=nullable,
        )

    @staticmethod
    def texts(description: str, example: list[str], *, required: bool = True) -> Any:
        child = _described(serializers.CharField, description, example[0])
        return _described(serializers.ListField, description, example, child=child, required=required)

    @staticmethod
    def many(serializer: type[serializers.Serializer], description: str, *, required: bool = True) -> Any:
        return _described(serializer, description, None, many=True, required=required)

    @staticmethod
    def one(serializer: type[serializers.Serializer], description: str, *, required: bool = True) -> Any:
        return _described(serializer, description, None, required=required)

    @staticmethod
    def mapping(description: str, example: dict[str, Any], *, required: bool = True) -> Any:
        return _described(serializers.DictField, description, example, required=required)
