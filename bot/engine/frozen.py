"""Cheaper construction of the engine's frozen value types (events, actions), which the engine builds at every step.

For a ``@dataclass(frozen=True, slots=True)`` class, Python 3.11 writes an ``__init__`` that calls
``object.__setattr__(self, name, value)`` for every field (the events and actions write the same ``__init__`` out
themselves, for the compiled engine). :func:`fast_frozen_init` replaces it with one that stores
each field through its slot descriptor, which costs about half as much. Nothing else changes: same signature and
defaults, same fields, equality, hash and repr, and the instances stay frozen (assigning a field still raises
:class:`dataclasses.FrozenInstanceError`).

:func:`picklable` makes ``copy`` and ``pickle`` rebuild a frozen value type through its ``__init__`` (the field values
in order): the engine compiled by mypyc (issue 21 point 5) makes these classes native, whose default rebuilding assigns
the frozen fields one by one and fails. Views, actions and memories cross to the AI's worker process by pickle.

This module stays Python in the compiled engine (``bot.engine_native.PURE_MODULES``): it runs only as the engine's
modules are imported, and a function it installs on a class must be a Python function to bind as a method.
"""

from __future__ import annotations

import dataclasses
from typing import Any


def _reduce(self: Any) -> tuple[type, tuple[Any, ...]]:
    return type(self), tuple(getattr(self, f.name) for f in dataclasses.fields(self))


def picklable(*classes: type) -> None:
    """Have ``copy`` and ``pickle`` rebuild instances of these frozen dataclasses by calling the class with their field
    values (module docstring). Every field must be an ``__init__`` parameter."""
    for cls in classes:
        if not all(f.init for f in dataclasses.fields(cls)):
            raise TypeError(f"{cls.__name__}: every field must be an __init__ parameter")
        cls.__reduce__ = _reduce  # type: ignore[method-assign,assignment]


def fast_frozen_init(cls: type) -> None:
    """Give the frozen, slotted dataclass ``cls`` the faster ``__init__`` and make it :func:`picklable` (module
    docstring). Only plain fields with
    plain defaults: anything else (``__post_init__``, factories, keyword-only or ``init=False`` fields) is refused.
    A native class of the compiled engine keeps its ``__init__``: written out in the class (``object.__setattr__`` per
    field, as dataclasses would), mypyc compiles it to direct stores, 14× faster than any ``__init__`` in Python."""
    if "__mypyc_attrs__" in cls.__dict__:  # a native class of the compiled engine: its own __init__ is C already
        picklable(cls)
        return
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} is not a frozen, slotted dataclass without __post_init__")
    fields = dataclasses.fields(cls)
    namespace: dict[str, Any] = {}
    args: list[str] = []
    body: list[str] = []
    for f in fields:
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: only plain fields are supported")
        namespace[f"_set_{f.name}"] = getattr(cls, f.name).__set__  # the slot's descriptor (may be a base class's)
        if f.default is dataclasses.MISSING:
            args.append(f.name)
        else:
            namespace[f"_default_{f.name}"] = f.default
            args.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(args)}):\n" + ("\n".join(body) or "    pass") + "\n"
    picklable(cls)
    exec(source, namespace)
    init = namespace["__init__"]
    init.__annotations__ = dict(cls.__dict__["__init__"].__annotations__)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[misc]
