"""The faster ``__init__`` of events and actions (bot.engine.frozen) behaves like the one dataclasses writes."""

import dataclasses
import inspect

import pytest

from bot.engine import actions, events
from bot.engine.cards import Colour, Face, Kind, Side
from bot.engine.frozen import fast_frozen_init

VALUE_TYPES = [
    cls
    for module in (actions, events)
    for cls in vars(module).values()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__
]


def _plain(sig: inspect.Signature) -> list[tuple[str, object, object]]:
    return [(p.name, p.kind, p.default) for p in sig.parameters.values()]


def _sample(f: dataclasses.Field, i: int) -> object:
    """A value of field ``f``'s declared type (the compiled engine's native classes check types; ``i`` keeps integers
    apart)."""
    name = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "")  # compiled: a type, not its text
    kind = name.split("[")[0].split(" ")[0]
    samples = {"int": 10 + i, "bool": True, "str": "x", "Colour": Colour.BLUE, "Face": Face(Kind.WILD)}
    samples["Side"] = Side.DARK
    return samples.get(kind, ())  # tuple[...]


@pytest.mark.parametrize("cls", VALUE_TYPES, ids=lambda c: c.__name__)
def test_same_signature_as_a_plain_frozen_dataclass_and_still_frozen(cls):
    fields = dataclasses.fields(cls)
    twin = dataclasses.make_dataclass(
        cls.__name__,
        [(f.name, f.type) if f.default is dataclasses.MISSING else (f.name, f.type, f.default) for f in fields],
        frozen=True,
        slots=True,
    )
    # names, kinds and defaults (a compiled class's signature carries no annotations)
    assert _plain(inspect.signature(cls)) == _plain(inspect.signature(twin))
    assert cls.__init__.__qualname__ == f"{cls.__name__}.__init__"
    args = [_sample(f, i) for i, f in enumerate(fields) if f.default is dataclasses.MISSING]
    made = cls(*args)
    assert [getattr(made, f.name) for f in fields] == [getattr(twin(*args), f.name) for f in fields]
    assert made == cls(*args) and hash(made) == hash(cls(*args))
    for f in fields:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, f.name, 1)


def test_keyword_arguments_defaults_and_missing_arguments():
    play = actions.Play(card=5, player=1, uno=True)
    assert play == actions.Play(1, 5, None, None, False, True)
    with pytest.raises(TypeError):
        actions.Play(1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        actions.Draw(1, 2)  # type: ignore[call-arg]
    assert dataclasses.replace(play, uno=False) == actions.Play(1, 5)


def test_refuses_what_it_cannot_copy():
    @dataclasses.dataclass
    class Mutable:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Factory:
        x: list[int] = dataclasses.field(default_factory=list)

    @dataclasses.dataclass(frozen=True, slots=True)
    class PostInit:
        x: int

        def __post_init__(self) -> None:
            pass

    for cls in (Mutable, Factory, PostInit):
        with pytest.raises(TypeError):
            fast_frozen_init(cls)
