"""The stored state's one door: every change to a State, or to anything it holds, bumps its version.

The records of the stored state (state.py: `State`, `PlayerState`, `Slot`, `Soul`, …) are `Tracked`:
setting a field goes through `Tracked.__setattr__`, and the lists, dicts and sets they hold become
`TrackedList`, `TrackedDict` and `TrackedSet`, whose changing methods go through the same door. All
the parts of one State share its `Version`; a part put into a State (a new Soul on a slot, a lasting
effect appended) joins it. What is derived from a State (the board, board.derive) is kept with the
version it was derived at and made again when the version moved: nothing invalidates by hand.

    state.version          # an int that changes whenever anything in the state does
    state.board_version    # an int that changes whenever what derived values read does

A record names in `QUIET` the fields derived values never read (a hand, the limits used, who has
attacked): changing one of them, or a list or dict held there, bumps `version` but not
`board_version`, so the board is not derived again for it. `tests/test_state_version.py` checks after
every step of the library that the board kept by `board_version` is the one a fresh derivation gives.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from typing import Any, ClassVar, TypeVar

# fields that hold a value as written (a lasting effect's payload): kept as they are, never tracked
OPAQUE = frozenset({"value", "library"})
SCALARS = frozenset({int, str, bool, type(None)})   # values that hold nothing
SHARED = frozenset({"_field", "library"})   # read-only parts a copy shares (the edition's slots, the cards)


MAX_LOG = 64   # changes listed between two derivations; past them, "too many" (the whole board again)


class Version:
    """The change counters of one State, shared by all its parts: `n` counts every change, `board` the
    changes to what derived values read, and `log` lists those (the part and the field or method) since
    `changes()` was last called (None: more than MAX_LOG, or not known)."""

    __slots__ = ("n", "board", "log")

    def __init__(self) -> None:
        self.n = 0
        self.board = 0
        self.log: list[tuple[Any, str]] | None = None

    def bump(self, quiet: bool, part: Any = None, what: str = "") -> None:
        self.n += 1
        if not quiet:
            self.board += 1
            log = self.log
            if log is not None:
                if len(log) < MAX_LOG:
                    log.append((part, what))
                else:
                    self.log = None

    def changes(self) -> list[tuple[Any, str]] | None:
        """The changes to what derived values read since the last call (None when not all are known),
        and a new list from now on."""
        log, self.log = self.log, []
        return log

    def __deepcopy__(self, memo: dict[int, Any]) -> Version:
        dup = Version()
        dup.n, dup.board = self.n, self.board   # a copy's changes so far are not listed
        memo[id(self)] = dup
        return dup


def _version_of(obj: Any) -> Version | None:
    return obj.__dict__.get("_version") if hasattr(obj, "__dict__") else None


def _own(obj: Any) -> Version:
    version = _version_of(obj)
    if version is None:
        version = Version()
        obj.__dict__["_version"] = version
    return version


def _hold(value: Any, version: Version, quiet: bool) -> Any:
    """`value` as a part of the state whose version is `version`: a plain list, dict or set becomes a
    tracked one (`quiet`: held where derived values never read), a tracked part (and everything it
    holds) joins that version."""
    if type(value) in SCALARS:
        return value
    if isinstance(value, Tracked):
        _join(value, version)
        return value
    if isinstance(value, TrackedList | TrackedDict | TrackedSet):
        value.__dict__["_quiet"] = quiet
        _join(value, version)
        return value
    kind = type(value)
    if kind is list:
        return TrackedList._made(value, version, quiet)
    if kind is dict:
        return TrackedDict._made(value, version, quiet)
    if kind is set:
        return TrackedSet._made(value, version, quiet)
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
                part.__dict__[name] = _hold(value, version, name in part.QUIET)
    else:
        part._adopt()


class Tracked:
    """A record of the stored state: setting any of its fields bumps the version it counts in."""

    QUIET: ClassVar[frozenset[str]] = frozenset()   # fields derived values never read

    def __setattr__(self, name: str, value: Any) -> None:
        version = _own(self)
        quiet = name in self.QUIET
        if name not in OPAQUE and not name.startswith("_"):
            value = _hold(value, version, quiet)
        object.__setattr__(self, name, value)
        version.bump(quiet, self, name)

    def __delattr__(self, name: str) -> None:
        object.__delattr__(self, name)
        _own(self).bump(name in self.QUIET, self, name)

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        """A copy that counts its own changes (its parts share the copy of the version); what a part
        holds by reference (SHARED: the edition's field) is shared."""
        cls = type(self)
        dup = cls.__new__(cls)
        memo[id(self)] = dup
        held = dup.__dict__
        for name, value in self.__dict__.items():
            held[name] = value if type(value) in SCALARS or name in SHARED else deepcopy(value, memo)
        return dup

    @property
    def version(self) -> int:
        """Changes so far to this part's State (any part of it)."""
        return _own(self).n

    @property
    def board_version(self) -> int:
        """Changes so far to what derived values read in this part's State."""
        return _own(self).board

    def changes(self) -> list[tuple[Any, str]] | None:
        """What changed in what derived values read since the last call (Version.changes)."""
        return _own(self).changes()


def _bumping(method: Callable[..., Any], adds: bool = True) -> Callable[..., Any]:
    """A changing method of list/dict/set that also bumps the version and (`adds`: it may put something
    in) lets what it added join."""
    def changed(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = method(self, *args, **kwargs)
        if adds:
            self._adopt()
        _own(self).bump(self.__dict__.get("_quiet", False), self, method.__name__)
        return result

    changed.__name__ = method.__name__
    changed.__doc__ = method.__doc__
    return changed


def _inplace(method: Callable[..., Any]) -> Callable[..., Any]:
    """`+=` and its kin change the container itself and return it."""
    def changed(self: Any, other: Any) -> Any:
        method(self, other)
        self._adopt()
        _own(self).bump(self.__dict__.get("_quiet", False), self, method.__name__)
        return self

    changed.__name__ = method.__name__
    return changed


_C = TypeVar("_C")


def _empty_copy(original: Any, out: _C, memo: dict[int, Any]) -> _C:
    """An empty container to copy `original` into, counting in the copy of its version."""
    memo[id(original)] = out
    vars(out).update(_version=deepcopy(_own(original), memo), _quiet=original.__dict__.get("_quiet", False))
    return out


def _copied(value: Any, memo: dict[int, Any]) -> Any:
    return value if type(value) in SCALARS else deepcopy(value, memo)


class TrackedList(list[Any]):
    """A list of the stored state (a hand, the lasting effects, a slot's Ambushes)."""

    @classmethod
    def _made(cls, items: list[Any], version: Version, quiet: bool) -> TrackedList:
        out = cls()
        out.__dict__.update(_version=version, _quiet=quiet)
        list.extend(out, items)
        out._adopt()
        return out

    def _adopt(self) -> None:
        version = _own(self)
        quiet = self.__dict__.get("_quiet", False)
        for i, item in enumerate(self):
            held = _hold(item, version, quiet)
            if held is not item:
                list.__setitem__(self, i, held)

    def __deepcopy__(self, memo: dict[int, Any]) -> TrackedList:
        out = _empty_copy(self, TrackedList(), memo)
        list.extend(out, (_copied(item, memo) for item in self))
        return out

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (list, (list(self),))


class TrackedDict(dict[Any, Any]):
    """A dict of the stored state (a player's slots and realms, the limits used)."""

    @classmethod
    def _made(cls, items: dict[Any, Any], version: Version, quiet: bool) -> TrackedDict:
        out = cls()
        out.__dict__.update(_version=version, _quiet=quiet)
        dict.update(out, items)
        out._adopt()
        return out

    def _adopt(self) -> None:
        version = _own(self)
        quiet = self.__dict__.get("_quiet", False)
        for key, item in list(self.items()):
            held = _hold(item, version, quiet)
            if held is not item:
                dict.__setitem__(self, key, held)

    def __deepcopy__(self, memo: dict[int, Any]) -> TrackedDict:
        out = _empty_copy(self, TrackedDict(), memo)
        dict.update(out, ((_copied(k, memo), _copied(v, memo)) for k, v in self.items()))
        return out

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (dict, (dict(self),))


class TrackedSet(set[Any]):
    """A set of the stored state (a player's proactive slots)."""

    @classmethod
    def _made(cls, items: set[Any], version: Version, quiet: bool) -> TrackedSet:
        out = cls(items)
        out.__dict__.update(_version=version, _quiet=quiet)
        return out

    def _adopt(self) -> None:
        """A set holds names and slot references only: nothing to join."""

    def __deepcopy__(self, memo: dict[int, Any]) -> TrackedSet:
        out = _empty_copy(self, TrackedSet(), memo)
        set.update(out, (_copied(item, memo) for item in self))
        return out

    def __reduce_ex__(self, protocol: Any) -> Any:
        return (set, (set(self),))


def _append(self: TrackedList, item: Any) -> None:
    """The commonest change (a card to a pile, a lasting effect): only the new item joins."""
    version, quiet = _own(self), self.__dict__.get("_quiet", False)
    list.append(self, _hold(item, version, quiet))
    version.bump(quiet, self, "append")


def _set_item(self: TrackedDict, key: Any, item: Any) -> None:
    version, quiet = _own(self), self.__dict__.get("_quiet", False)
    dict.__setitem__(self, key, _hold(item, version, quiet))
    version.bump(quiet, self, "__setitem__")


TrackedList.append = _append  # type: ignore[method-assign, assignment]
TrackedDict.__setitem__ = _set_item  # type: ignore[method-assign, assignment]
for _name in ("extend", "insert", "__setitem__"):
    setattr(TrackedList, _name, _bumping(getattr(list, _name)))
for _name in ("remove", "pop", "clear", "sort", "reverse", "__delitem__"):
    setattr(TrackedList, _name, _bumping(getattr(list, _name), adds=False))
for _name in ("__iadd__", "__imul__"):
    setattr(TrackedList, _name, _inplace(getattr(list, _name)))
for _name in ("update", "setdefault"):
    setattr(TrackedDict, _name, _bumping(getattr(dict, _name)))
for _name in ("__delitem__", "pop", "popitem", "clear"):
    setattr(TrackedDict, _name, _bumping(getattr(dict, _name), adds=False))
for _name in ("__ior__",):
    setattr(TrackedDict, _name, _inplace(getattr(dict, _name)))
for _name in ("add", "discard", "remove", "pop", "clear", "update", "difference_update",
              "intersection_update", "symmetric_difference_update"):
    setattr(TrackedSet, _name, _bumping(getattr(set, _name), adds=False))
for _name in ("__ior__", "__iand__", "__isub__", "__ixor__"):
    setattr(TrackedSet, _name, _inplace(getattr(set, _name)))
