"""Input checks shared by every store function. Each failure is an InvalidArgument that names the
argument and says how to fix it, in words a model can act on."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from accounts.errors import InvalidArgument
from memory import inputs

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,40}$")


def _nul_path(value: Any, path: str) -> str | None:
    """The path of the first string or object key holding a NUL character inside `value`, or None."""
    if isinstance(value, str):
        return path if "\x00" in value else None
    if isinstance(value, dict):
        for index, (key, item) in enumerate(value.items()):
            if isinstance(key, str) and "\x00" in key:
                return f"{path}{{key #{index}}}"
            plain = isinstance(key, str) and _PLAIN_KEY.match(key)
            found = _nul_path(item, f"{path}.{key}" if plain else f"{path}{{key #{index}}}")
            if found is not None:
                return found
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            found = _nul_path(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def no_nul(arguments: dict[str, Any]) -> None:
    """Refuse a NUL character in any argument: PostgreSQL can neither store nor compare one, so it
    would otherwise fail deep inside a query."""
    found = _nul_path(arguments, "")
    if found is not None:
        field = found.lstrip(".")
        raise InvalidArgument(
            f"`{field}` contains a NUL character (\\x00): remove it and send the text again."
        )


def choice(value: Any, field: str, allowed: Iterable[str]) -> str:
    return _choices(value, field, allowed)


def timestamp(value: Any, field: str) -> datetime:
    """An RFC 3339 time with a zone, within the range the database stores."""
    if not isinstance(value, str) or len(value) > inputs.SINCE.max_length:
        raise InvalidArgument(f"`{field}` must be an RFC 3339 time such as '2026-01-31T09:00:00Z'.")
    try:
        parsed = datetime.fromisoformat(value.strip())
        if parsed.tzinfo is None:
            raise ValueError
        return parsed.astimezone(UTC)
    except (ValueError, OverflowError):
        raise InvalidArgument(
            f"`{field}` must be an RFC 3339 time with a zone such as '2026-01-31T09:00:00Z'."
        ) from None


def _choices(value: Any, field: str, allowed: Iterable[str]) -> str:
    options = list(allowed)
    if not isinstance(value, str) or value not in options:
        raise InvalidArgument(f"`{field}` must be one of: {', '.join(options)}; got {str(value)[:60]!r}.")
    return value


def note_type(value: Any, field: str = "type") -> str:
    return _choices(value, field, inputs.NOTE_TYPES)


def note_status(value: Any, field: str = "status") -> str:
    return _choices(value, field, inputs.NOTE_STATUSES)


def visibility(value: Any) -> str:
    return _choices(value, "visibility", inputs.VISIBILITIES)


def link_kind(value: Any) -> str:
    return _choices(value, "kind", inputs.LINK_KINDS)


def choice_list(
    values: Any, field: str, allowed: Iterable[str], *, allow_empty: bool = False
) -> list[str] | None:
    """Sorted, de-duplicated choices; None when omitted. With allow_empty, [] means "no filter"."""
    if values is None:
        return None
    if isinstance(values, list) and not values and allow_empty:
        return []
    if not isinstance(values, list) or not values:
        raise InvalidArgument(f"`{field}` must be a non-empty list, or omitted.")
    return sorted({_choices(v, f"{field}[]", allowed) for v in values})


def text(value: Any, field: str, *, limit: int, required: bool = False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise InvalidArgument(f"`{field}` must be a string.")
    cleaned = value.strip()
    if required and not cleaned:
        raise InvalidArgument(f"`{field}` is required and must not be empty.")
    if len(cleaned) > limit:
        raise InvalidArgument(
            f"`{field}` is {len(cleaned)} characters; the limit is {limit}. Split it or shorten it."
        )
    return cleaned


def title(value: Any, *, required: bool = False) -> str:
    return text(value, "title", limit=inputs.TITLE.max_length, required=required)


def body(value: Any, field: str = "body", *, required: bool = False) -> str:
    return text(value, field, limit=inputs.BODY.max_length, required=required)


def tags(values: Any) -> list[str]:
    if values is None:
        return []
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise InvalidArgument("`tags` must be a list of strings, e.g. ['auth', 'payments'].")
    cleaned: list[str] = []
    for raw in values:
        tag = tag_name(raw)
        if tag not in cleaned:
            cleaned.append(tag)
    if len(cleaned) > inputs.TAGS.max_items:
        raise InvalidArgument(f"At most {inputs.TAGS.max_items} tags per note.")
    return cleaned


def tag_name(raw: Any, field: str = "tags") -> str:
    if not isinstance(raw, str):
        raise InvalidArgument(f"`{field}` must be a string.")
    tag = re.sub(r"\s+", "-", raw.strip().lower())
    if not tag or len(tag) > inputs.TAG.max_length or not inputs.TAG_PATTERN.match(tag):
        raise InvalidArgument(
            f"Tag {raw[:80]!r} is not valid: use up to {inputs.TAG.max_length} lowercase letters, digits and - _ . : / + #."
        )
    return tag


def importance(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidArgument("`importance` must be a number from 0 to 1.")
    if not inputs.IMPORTANCE.minimum <= value <= inputs.IMPORTANCE.maximum:
        raise InvalidArgument("`importance` must be from 0 to 1 (0.5 is ordinary, 0.9 is critical).")
    return float(value)


def bounded_int(value: Any, field: str, *, default: int, low: int, high: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgument(f"`{field}` must be a whole number from {low} to {high}.")
    if not low <= value <= high:
        raise InvalidArgument(f"`{field}` must be from {low} to {high}; got {value}.")
    return value


def declared_int(value: Any, field: str, spec: inputs.NumberInput, *, default: int | None = None) -> int:
    """A whole number within its declaration in memory.inputs; None is `default`, else the declared one."""
    return bounded_int(
        value,
        field,
        default=spec.whole_default if default is None else default,
        low=int(spec.minimum),
        high=int(spec.maximum),
    )


def note_id(value: Any, field: str = "id") -> str:
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgument(f"`{field}` must be a note id such as 'n_7Kx2…'.")
    cleaned = value.strip()
    if len(cleaned) > inputs.NOTE_ID.max_length:
        raise InvalidArgument(
            f"`{field}` is not a note id: ids are at most {inputs.NOTE_ID.max_length} characters."
        )
    return cleaned


def note_ids(
    values: Any, field: str = "ids", *, limit: int = inputs.NOTE_IDS.max_items, allow_empty: bool = False
) -> list[str]:
    if values is None and allow_empty:
        return []
    if not isinstance(values, list) or (not values and not allow_empty):
        raise InvalidArgument(f"`{field}` must be a list of 1 to {limit} note ids.")
    if len(values) > limit:
        raise InvalidArgument(f"`{field}` holds {len(values)} ids; the limit is {limit}. Split the call.")
    cleaned: list[str] = []
    for value in values:
        one = note_id(value, f"{field}[]")
        if one not in cleaned:
            cleaned.append(one)
    return cleaned


def flag(value: Any, field: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise InvalidArgument(f"`{field}` must be true or false.")
    return value


def derive_title(content: str, limit: int = 80) -> str:
    """A title from the first line or sentence of the content."""
    first_line = next((line for line in content.splitlines() if line.strip()), "")
    first_line = re.sub(r"^[#>*\-\s]+", "", first_line).strip()
    sentence = re.split(r"(?<=[.!?])\s", first_line, maxsplit=1)[0].rstrip(".")
    if len(sentence) <= limit:
        return sentence or "Untitled"
    cut = sentence[:limit]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"
