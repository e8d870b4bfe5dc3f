"""Records: `@frozen` is `@dataclass(frozen=True)`, `@mutable` a plain
`@dataclass`, each made with fewer generated methods and built faster.

A dataclass compiles its methods from source text when its class is made
(`__init__`, `__repr__`, `__eq__`; a frozen one `__hash__`, `__setattr__`,
`__delattr__` too): about 1 ms per class, and a command's start-up makes
dozens (bench/results_startup.md).  Here the dataclass makes none: `__eq__`,
`__hash__` (the same as a frozen one's: the tuple of the compared fields,
taken by an `attrgetter`), `__repr__` and refusing to assign or delete a field
are functions shared by every record (the same text as the dataclass's, and
its FrozenInstanceError with its message: a record cannot contain itself, so
the repr needs no guard against cycles); a class without a docstring gets a
short one (the dataclass would take its signature with `inspect`); `__init__` writes
each field with its slot's own setter (see below), where the frozen
dataclass's calls `object.__setattr__`, which looks the name up each time (a
large program makes millions of syntax-tree nodes: a `Define` is built 1.8x
faster).

A frozen record keeps its fields in slots (`__slots__`), not in an instance dict:
half the memory, and a field is read in one step where a dict needs two or
three.  The compiler's passes walk hundreds of thousands of syntax-tree nodes
spread over the heap, so most of a field read is a cache miss; with slots a
100 000-line program compiles in a fifth less time (bench/results_compile.md).
Building a node costs about half as much again as writing a dict did, and
every later read is cheaper.  `slots=False` keeps the dict, for a record that
holds a cache beside its fields (`Program`: its check's result).  Defaults and
`default_factory` are the dataclass's; `replace`, `fields`, `asdict` and
pickling work as on a frozen dataclass, and a record may subclass another.
Not supported (a TypeError says so): `__post_init__` on a frozen record,
`field(init=False)`, and subclassing a record as a dataclass; nor weak
references to a record with slots.

A mutable record (`@mutable`: a run's settings and state) keeps its fields in
its instance dict, may be assigned to, and calls its `__post_init__`, if it
has one, at the end of `__init__`, as a dataclass does; as it may come to
hold itself, its repr guards against the cycle as the dataclass's does.  With `eq` it is
compared by its fields and, as a dataclass that is not frozen, unhashable;
with `eq=False`, by identity.
"""
from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from operator import attrgetter
from reprlib import recursive_repr


class Factory:
    """The default a `default_factory` field's argument shows: call the factory."""

    def __repr__(self):
        return "<factory>"


FACTORY = Factory()


def frozen(cls=None, /, *, eq: bool = True, slots: bool = True):
    """`@frozen` or `@frozen(eq=False)` (compared and hashed by identity);
    `slots=False` keeps an instance `__dict__` (for a cache held beside the fields)."""
    if cls is None:
        return lambda c: frozen(c, eq=eq, slots=slots)
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: a frozen record has no __post_init__")
    cls = record(cls, eq, slots, {"__hash__": record_hash} if eq else {})
    cls.__setattr__, cls.__delattr__ = refuse_assignment, refuse_deletion
    return cls


def mutable(cls=None, /, *, eq: bool = True):
    """`@mutable` or `@mutable(eq=False)` (compared and hashed by identity):
    fields in the instance dict, assignable (module docstring)."""
    if cls is None:
        return lambda c: mutable(c, eq=eq)
    cls = record(cls, eq, False, {"__hash__": None} if eq else {})
    if cls.__repr__ is record_repr:     # one holding itself shows "...", as a dataclass's does
        cls.__repr__ = recursive_repr()(record_repr)
    return cls


def record(cls, eq: bool, slots: bool, hashing: dict):
    """`cls` made a dataclass without generated methods, given the shared ones
    (`hashing`: its `__hash__`, where eq decides one)."""
    own = set(cls.__dict__)         # methods the class writes itself are kept, as a dataclass keeps them
    if not cls.__doc__:         # else the dataclass writes one from inspect.signature (0.3 ms)
        cls.__doc__ = f"The record {cls.__name__}."
    cls = dataclass(init=False, repr=False, eq=False, slots=slots)(cls)
    cls.__init__ = quick_init(cls, slots)
    if eq:
        cls._record_key = staticmethod(key_of(cls))
    shared = {"__repr__": record_repr} | ({"__eq__": record_eq} | hashing if eq else {}) | (
        {"__getstate__": slot_values, "__setstate__": restore_slots} if slots else {})
    for name, method in shared.items():
        if name not in own:
            setattr(cls, name, method)
    return cls


def key_of(cls):
    """record -> the tuple of its compared fields, which the dataclass's
    `__eq__` and `__hash__` compare and hash (made here without compiling them)."""
    names = [f.name for f in fields(cls) if f.compare]
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda record: (one(record),)
    return lambda record: ()


def record_eq(self, other):
    if other.__class__ is self.__class__:
        return self._record_key(self) == other._record_key(other)
    return NotImplemented


def record_hash(self) -> int:
    return hash(self._record_key(self))


def quick_init(cls, slots: bool):
    """The `__init__` of a record: each field written into its slot (by the
    slot's own setter: `object.__setattr__` would look the name up each time)
    or into the instance's dict."""
    names, params, body = {"__FACTORY": FACTORY}, [], []
    for f in fields(cls):
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: every field of a record is an argument")
        value = f.name
        if f.default is not MISSING:
            names[f"__default_{f.name}"] = f.default
            params.append(f"{f.name}=__default_{f.name}")
        elif f.default_factory is not MISSING:
            names[f"__factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=__FACTORY")
            value = f"__factory_{f.name}() if {f.name} is __FACTORY else {f.name}"
        else:
            params.append(f.name)
        if slots:
            names[f"__set_{f.name}"] = getattr(cls, f.name).__set__   # a parent's, if inherited
            body.append(f"    __set_{f.name}(__s, {value})\n")
        else:
            body.append(f"    __d['{f.name}'] = {value}\n")
    start = "" if slots else "    __d = __s.__dict__\n"
    if hasattr(cls, "__post_init__"):       # a mutable record's (frozen refuses one)
        body.append("    __s.__post_init__()\n")
    exec(f"def __init__(__s, {', '.join(params)}):\n{start}{''.join(body)}", names)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    # inspect.signature and help() show the fields' types, as a dataclass's __init__ does
    init.__annotations__ = {f.name: f.type for f in fields(cls)} | {"return": None}
    return init


def record_repr(self) -> str:
    shown = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if f.repr)
    return f"{type(self).__qualname__}({shown})"


def slot_values(self) -> tuple:
    """What pickling and copying keep of a record with slots."""
    return tuple(getattr(self, f.name) for f in fields(self))


def restore_slots(self, state: tuple) -> None:
    for f, value in zip(fields(self), state):
        object.__setattr__(self, f.name, value)


def refuse_assignment(self, name, value):
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def refuse_deletion(self, name):
    raise FrozenInstanceError(f"cannot delete field {name!r}")
