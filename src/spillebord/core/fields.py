"""Declare a state's fields once: ``@state`` derives ``__slots__``, ``copy`` and equality.

A game's state lists its fields as annotations, nothing more::

    @state(copy={"hands": list})
    class ToyState(State[Play]):
        hands: list[tuple[int, ...]]     # mutable: copied with list()
        table: tuple[tuple[int, int], ...]
        points: tuple[int, ...]
        _legal: list[Play] | None        # a leading underscore: a cache, left out of equality

The decorator builds the class with ``__slots__`` (as ``dataclass(slots=True)`` does) and
generates a ``copy`` that assigns every field: by reference (immutable values: tuples,
frozensets, ints, options, the game) or through the copier named in ``copy=`` (lists, dicts,
nested structures). The RNG is always copied. The generated function is plain attribute
assignments, written once per class, so ``copy()`` is as fast as a hand-written one.

Caveat (as for ``dataclass(slots=True)``): the class object is rebuilt, so methods of a
decorated state must not use zero-argument ``super()``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, TypeVar, get_origin

from .game import State

S = TypeVar("S", bound=type[State[Any]])

_BASE = ("game", "seats", "to_act", "rng", "decisions", "truncated")


def _own_fields(cls: type) -> list[str]:
    names = []
    for name, ann in inspect.get_annotations(cls).items():
        text = ann if isinstance(ann, str) else ""
        origin: object = get_origin(ann)
        if text.startswith(("ClassVar", "typing.ClassVar")) or origin is ClassVar:
            continue
        names.append(name)
    return names


def state(
    cls: S | None = None,
    *,
    copy: Mapping[str, Callable[[Any], Any]] | None = None,
    eq_ignore: Iterable[str] = (),
) -> Any:
    """Class decorator for a game's :class:`State` (see the module docstring).

    ``copy`` maps a field to the function that copies it (``list``, ``dict``, a function
    for nested structures); every other field is shared. Fields named with a leading
    underscore, and those in ``eq_ignore``, are caches: shared by copies and left out of
    equality. A class that defines ``copy`` itself keeps its own.
    """
    copiers = dict(copy or {})

    def wrap(c: S) -> S:
        fields = _own_fields(c)
        inherited: list[str] = []
        for base in c.__mro__[1:]:
            if base is State:
                break
            inherited.extend(n for n in base.__dict__.get("__slots__", ()) if n not in inherited)
        unknown = set(copiers) - set(fields) - set(inherited)
        if unknown:
            raise TypeError(f"{c.__name__}: copy= names fields it does not declare: {sorted(unknown)}")
        body = dict(c.__dict__)
        body.pop("__dict__", None)
        body.pop("__weakref__", None)
        for name in fields:
            body.pop(name, None)  # a class-level default would clash with the slot
        body["__slots__"] = tuple(fields)
        ignore = {n for n in (*fields, *inherited) if n.startswith("_")} | set(eq_ignore)
        body["_eq_ignore"] = frozenset(ignore) | c.__dict__.get("_eq_ignore", frozenset())
        meta: Any = type(c)
        new_cls: S = meta(c.__name__, c.__bases__, body)
        new_cls.__qualname__ = c.__qualname__
        if "copy" not in c.__dict__:
            new_cls.copy = _make_copy(new_cls, [*_BASE, *inherited, *fields], copiers)  # type: ignore[method-assign,assignment]
        return new_cls

    if cls is not None:
        return wrap(cls)
    return wrap


def _make_copy(
    cls: type, names: list[str], copiers: Mapping[str, Callable[[Any], Any]]
) -> Callable[[Any], Any]:
    lines = ["def copy(self):", "    s = _new(_cls)"]
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    for name in names:
        if name == "rng":
            lines.append("    s.rng = self.rng.copy()")
        elif name in copiers:
            env[f"_c_{name}"] = copiers[name]
            lines.append(f"    s.{name} = _c_{name}(self.{name})")
        else:
            lines.append(f"    s.{name} = self.{name}")
    lines.append("    return s")
    exec("\n".join(lines), env)  # generated once per class, like dataclasses' __init__
    fn: Callable[[Any], Any] = env["copy"]
    fn.__qualname__ = f"{cls.__qualname__}.copy"
    fn.__doc__ = "An independent copy (generated from the declared fields)."
    return fn
