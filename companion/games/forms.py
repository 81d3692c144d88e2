"""Forms a seat's phone shows for commands with open-ended terms (an amount,
a condition, a few words), declared by a game's words as plain data and
drawn by the seat page without knowing the game (``seat.js``).

A form is its ``command`` template (the fixed fields, such as its type)
and its fields, each filling one field of the command: a ``choice`` among
worded choices (``[value, label]``, or ``[value, label, when]``), a
whole ``number`` between a least and a most, or ``text``
of at most so many characters. A field or a choice may hold only ``when``
earlier fields have one of the values it names (``{"kind": ["other"]}``);
otherwise it is left out. Every label comes worded, in the phone's
language, from the game's words.

A form only offers: what it sends is judged by the engine like any other
command, and refused in words if it is not legal now. :func:`produces`
says whether a form can send a command (the completeness property's
question: can a seat's phone send every command its seat may give?).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

CHOICE, NUMBER, TEXT = "choice", "number", "text"

Form = dict[str, Any]
Field = dict[str, Any]
When = Mapping[str, Sequence[Any]]


def form(key: str, title: str, send: str, command: dict[str, Any], fields: list[Field]) -> Form:
    """A form called ``key`` (its page's element ids start with it), headed
    ``title``, sending with a button worded ``send`` the ``command`` its
    fields complete."""
    return {"id": key, "title": title, "send": send, "command": command, "fields": fields}


def choice(
    name: str,
    label: str,
    choices: Iterable[tuple[Any, str] | tuple[Any, str, When | None]],
    when: When | None = None,
) -> Field:
    """A choice among ``choices``: (value, label) or (value, label, when),
    kept as such lists (a phone's private part has only so many bytes)."""
    items: list[list[Any]] = []
    for value, worded, *rest in choices:
        items.append([value, worded, dict(rest[0])] if rest and rest[0] else [value, worded])
    return _field(name, CHOICE, label, when, choices=items)


def number(name: str, label: str, low: int, high: int, when: When | None = None) -> Field:
    """A whole number from ``low`` to ``high``."""
    return _field(name, NUMBER, label, when, min=low, max=high)


def text(name: str, label: str, max_length: int, when: When | None = None) -> Field:
    """Free text of at most ``max_length`` characters (or none: a command
    may leave it out)."""
    return _field(name, TEXT, label, when, max_length=max_length)


def _field(name: str, kind: str, label: str, when: When | None, **more: Any) -> Field:
    field = {"name": name, "kind": kind, "label": label, **more}
    if when:
        field["when"] = dict(when)
    return field


def holds(when: When | None, values: Mapping[str, Any]) -> bool:
    """Whether the fields filled so far (``values``) meet ``when``."""
    return not when or all(
        name in values and _among(values[name], allowed) for name, allowed in when.items()
    )


def produces(declared: Form, command: Mapping[str, Any]) -> bool:
    """Whether ``declared`` can send ``command`` (less its ``seat``, which
    the server sets): its template's fields as they are, and each field
    that holds filled with a value it allows, and nothing else."""
    sent = {k: v for k, v in command.items() if k != "seat"}
    template = declared["command"]
    if any(k not in sent or not _among(sent[k], [v]) for k, v in template.items()):
        return False
    values: dict[str, Any] = {}
    for field in declared["fields"]:
        name = field["name"]
        if not holds(field.get("when"), values) or (field["kind"] == TEXT and name not in sent):
            continue  # a field that does not hold, or words left unsaid
        if name not in sent or not _allows(field, sent[name], values):
            return False
        values[name] = sent[name]
    return set(sent) <= set(template) | set(values)


def _allows(field: Field, value: Any, values: Mapping[str, Any]) -> bool:
    kind = field["kind"]
    if kind == CHOICE:
        return any(
            _among(value, [c[0]]) and holds(c[2] if len(c) > 2 else None, values)
            for c in field["choices"]
        )
    if kind == NUMBER:
        return type(value) is int and field["min"] <= value <= field["max"]
    return isinstance(value, str) and len(value) <= field["max_length"]


def _among(value: Any, allowed: Sequence[Any]) -> bool:
    """``value`` is one of ``allowed``, of the same JSON type (True is no 1)."""
    return any(type(value) is type(a) and value == a for a in allowed)
