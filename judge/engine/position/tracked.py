"""The stored state's one door: every change to a State, or to anything it holds, bumps its version.

The records of the stored state (state.py: `State`, `PlayerState`, `Slot`, `Soul`, …) are `Tracked`:
setting a field goes through `Tracked.__setattr__`, and the lists, dicts and sets they hold become
`TrackedList`, `TrackedDict` and `TrackedSet`, whose changing methods go through the same door. All
the parts of one State share its `Version`; a part put into a State (a new Soul on a slot, a lasting
effect appended) joins it. What is derived from a State (the board, board.derive) is kept with the
version it was derived at and made again when the version moved: nothing invalidates by hand.

    state.version          # an int that changes whenever anything in the state does
"""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from typing import Any

# fields that hold a value as written (a lasting effect's payload): kept as they are, never tracked
OPAQUE = frozenset({"value", "library"})


class Version:
    """The change counter of one State, shared by all its parts."""

    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0


def _version_of(obj: Any) -> Version | None:
    return obj.__dict__.get("_version") if hasattr(obj, "__dict__") else None


def _own(obj: Any) -> Version:
    version = _version_of(obj)
    if version is None:
        version = Version()
        obj.__dict__["_version"] = version
    return version


def _hold(value: Any, version: Version) -> Any:
    """`value` as a part of the state whose version is `version`: a plain list, dict or set becomes a
    tracked one, a tracked part (and everything it holds) joins that version."""
    if isinstance(value, Tracked | TrackedList | TrackedDict | TrackedSet):
        _join(value, version)
        return value
    kind = type(value)
    if kind is list:
        return TrackedList._made(value, version)
    if kind is dict:
        return TrackedDict._made(value, version)
    if kind is set:
        return TrackedSet._made(value, version)
    return value


def _join(part: Any, version: Version) -> None:
    """`part` and everything it holds now count changes in `version` (a part whose version is already
    `version` holds nothing of another: every part joins whole)."""
    if _version_of(part) is version:
        return
    part.__dict__["_version"] = version
    if isinstance(part, Tracked):
        for name, value in list(part.__dict__.items()):
            if not name.startswith("_") and name not in OPAQUE:
                part.__dict__[name] = _hold(value, version)
    else:
        part._adopt()


class Tracked:
    """A record of the stored state: setting any of its fields bumps the version it counts in."""

    def __setattr__(self, name: str, value: Any) -> None:
        version = _own(self)
        if name not in OPAQUE and not name.startswith("_"):
            value = _hold(value, version)
        object.__setattr__(self, name, value)
        version.n += 1

    def __delattr__(self, name: str) -> None:
        object.__delattr__(self, name)
        _own(self).n += 1

    @property
    def version(self) -> int:
        """Changes so far to this part's State (any part of it)."""
        return _own(self).n


def _bumping(method: Callable[..., Any]) -> Callable[..., Any]:
    """A changing method of list/dict/set that also bumps the version and lets what it added join."""
    def changed(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = method(self, *args, **kwargs)
        self._adopt()
        _own(self).n += 1
        return result

    changed.__name__ = method.__name__
    changed.__doc__ = method.__doc__
    return changed


def _inplace(method: Callable[..., Any]) -> Callable[..., Any]:
    """`+=` and its kin change the container itself and return it."""
    def changed(self: Any, other: Any) -> Any:
        method(self, other)
        self._adopt()
        _own(self).n += 1
        return self

    changed.__name__ = method.__name__
    return changed


class TrackedList(list[Any]):
    """A list of the stored state (a hand, the lasting effects, a slot's Ambushes)."""

    @classmethod
    def _made(cls, items: list[Any], version: Version) -> TrackedList:
        out = cls()
        out.__dict__["_version"] = version
        list.extend(out, items)
        out._adopt()
        return out

    def _adopt(self) -> None:
        version = _own(self)
        for i, item in enumerate(self):
            held = _hold(item, version)
            if held is not item:
                list.__setitem__(self, i, held)

    def __deepcopy__(self, memo: dict[int, Any]) -> TrackedList:
        version = deepcopy(_own(self), memo)
        out = TrackedList()
        memo[id(self)] = out
        out.__dict__["_version"] = version
        list.extend(out, (deepcopy(item, memo) for item in self))
        return out

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (list, (list(self),))


class TrackedDict(dict[Any, Any]):
    """A dict of the stored state (a player's slots and realms, the limits used)."""

    @classmethod
    def _made(cls, items: dict[Any, Any], version: Version) -> TrackedDict:
        out = cls()
        out.__dict__["_version"] = version
        dict.update(out, items)
        out._adopt()
        return out

    def _adopt(self) -> None:
        version = _own(self)
        for key, item in list(self.items()):
            held = _hold(item, version)
            if held is not item:
                dict.__setitem__(self, key, held)

    def __deepcopy__(self, memo: dict[int, Any]) -> TrackedDict:
        version = deepcopy(_own(self), memo)
        out = TrackedDict()
        memo[id(self)] = out
        out.__dict__["_version"] = version
        dict.update(out, ((deepcopy(k, memo), deepcopy(v, memo)) for k, v in self.items()))
        return out

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (dict, (dict(self),))


class TrackedSet(set[Any]):
    """A set of the stored state (a player's proactive slots)."""

    @classmethod
    def _made(cls, items: set[Any], version: Version) -> TrackedSet:
        out = cls(items)
        out.__dict__["_version"] = version
        return out

    def _adopt(self) -> None:
        """A set holds names and slot references only: nothing to join."""

    def __deepcopy__(self, memo: dict[int, Any]) -> TrackedSet:
        out = TrackedSet(deepcopy(item, memo) for item in self)
        memo[id(self)] = out
        out.__dict__["_version"] = deepcopy(_own(self), memo)
        return out

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (set, (set(self),))


for _name in ("append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse", "__setitem__",
              "__delitem__"):
    setattr(TrackedList, _name, _bumping(getattr(list, _name)))
for _name in ("__iadd__", "__imul__"):
    setattr(TrackedList, _name, _inplace(getattr(list, _name)))
for _name in ("__setitem__", "__delitem__", "pop", "popitem", "clear", "update", "setdefault"):
    setattr(TrackedDict, _name, _bumping(getattr(dict, _name)))
for _name in ("__ior__",):
    setattr(TrackedDict, _name, _inplace(getattr(dict, _name)))
for _name in ("add", "discard", "remove", "pop", "clear", "update", "difference_update",
              "intersection_update", "symmetric_difference_update"):
    setattr(TrackedSet, _name, _bumping(getattr(set, _name)))
for _name in ("__ior__", "__iand__", "__isub__", "__ixor__"):
    setattr(TrackedSet, _name, _inplace(getattr(set, _name)))
