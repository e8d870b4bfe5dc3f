"""`records.frozen` behaves as `dataclass(frozen=True)` and `records.mutable` as
a plain `dataclass`: the same repr, equality, hashing, defaults, `replace`,
pickling and refusals, each checked against a dataclass of the same fields
(tenflang/base/frozen.py)."""
from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle

import pytest

from tenflang.base.frozen import frozen, mutable


def pair():
    """The same class made both ways (a default made by a factory)."""
    def body():
        return {"__annotations__": {"name": "str", "shape": "tuple", "tags": "frozenset",
                                    "note": "str"},
                "shape": (), "tags": dataclasses.field(default_factory=frozenset),
                "note": dataclasses.field(default="", compare=False, repr=False)}
    return (frozen(type("Rec", (), body())),
            dataclasses.dataclass(frozen=True)(type("Rec", (), body())))


def test_a_record_is_built_compared_and_shown_as_a_frozen_dataclass():
    Rec, Ref = pair()
    for args, kwargs in [(("x",), {}), (("x", (2, 3)), {"note": "a"}),
                         ((), {"name": "y", "tags": frozenset({1})})]:
        a, b = Rec(*args, **kwargs), Ref(*args, **kwargs)
        assert repr(a) == repr(b)
        assert dataclasses.astuple(a) == dataclasses.astuple(b)
        assert (a == Rec(*args, **kwargs)) and hash(a) == hash(b)
    assert Rec("x", note="a") == Rec("x", note="b")          # compare=False is left out
    assert Rec("x").tags == frozenset()                      # the factory called
    assert Rec("x") != Ref("x")                               # another class: never equal

    @frozen
    class Bag:
        items: list = dataclasses.field(default_factory=list)
    assert Bag().items == [] and Bag().items is not Bag().items   # one new list each


def test_a_record_refuses_changes_as_a_frozen_dataclass_does():
    Rec, Ref = pair()
    for obj in (Rec("x"), Ref("x")):
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'name'"):
            obj.name = "y"
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'name'"):
            del obj.name
    with pytest.raises(TypeError):
        Rec()                                                 # `name` has no default


def test_replace_copy_and_pickle_keep_a_record():
    Rec, _ = pair()
    globals()["Rec"] = Rec                                    # pickle finds classes by name
    Rec.__qualname__ = "Rec"
    a = Rec("x", (1,), frozenset({2}), note="n")
    b = dataclasses.replace(a, name="y")
    assert (b.name, b.shape, b.tags, b.note) == ("y", (1,), {2}, "n")
    for again in (pickle.loads(pickle.dumps(a)), copy.deepcopy(a), copy.copy(a)):
        assert again == a and again.note == "n"


def test_a_record_keeps_its_own_repr():
    @frozen
    class Point:
        x: int

        def __repr__(self):
            return f"<{self.x}>"
    assert repr(Point(3)) == "<3>"


def test_identity_records_and_what_a_record_cannot_be():
    @frozen(eq=False)
    class Plan:
        steps: tuple

    one = Plan((1,))
    assert one == one and one != Plan((1,)) and hash(one) == object.__hash__(one)

    with pytest.raises(TypeError, match="__post_init__"):
        @frozen
        class Checked:
            x: int

            def __post_init__(self):
                pass
    with pytest.raises(TypeError, match="every field of a record is an argument"):
        @frozen
        class Derived:
            x: int
            y: int = dataclasses.field(init=False, default=0)


def test_a_record_keeps_its_fields_in_slots_and_may_subclass_another():
    @frozen
    class Base:
        x: int

    @frozen
    class Child(Base):
        y: int = 3

    globals().update(Base=Base, Child=Child)              # pickle finds classes by name
    Base.__qualname__, Child.__qualname__ = "Base", "Child"
    one = Child(1)
    assert (one.x, one.y) == (1, 3) and not hasattr(one, "__dict__")
    assert one == Child(1) and one != Child(1, 4) and hash(one) == hash(Child(1))
    for again in (pickle.loads(pickle.dumps(one)), copy.deepcopy(one), copy.copy(one)):
        assert again == one
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.x = 2


def test_a_record_without_slots_keeps_a_cache_beside_its_fields():
    """`Program` (slots=False) holds its check's result in its dict: copies keep
    it, `replace` (a new program) does not (tenflang/lang/checks.py)."""
    from tenflang.lang import parse_source
    from tenflang.lang.checks import check

    program = parse_source("declare input x\ndeclare weight w\ndeclare loss l\n"
                           "define l = mul x w\n", "p.tf")
    shapes = check(program)
    assert "_checked" in vars(program)
    for again in (pickle.loads(pickle.dumps(program)), copy.deepcopy(program)):
        assert again == program and check(again) == shapes and "_checked" in vars(again)
    assert "_checked" not in vars(dataclasses.replace(program, filename="q.tf"))


def test_a_mutable_record_is_built_compared_changed_and_shown_as_a_dataclass():
    """Made with `mutable`: assignable, unhashable with eq, its __post_init__
    run at the end of __init__ (and again by `replace`), as a plain dataclass."""
    def body():
        def __post_init__(self):
            self.calls = getattr(self, "calls", 0) + 1
            if self.n < 0:
                raise ValueError("n must be 0 or more")
        return {"__annotations__": {"n": "int", "items": "list"}, "__post_init__": __post_init__,
                "items": dataclasses.field(default_factory=list)}
    Rec, Ref = mutable(type("Rec", (), body())), dataclasses.dataclass(type("Rec", (), body()))
    for cls in (Rec, Ref):
        one = cls(2)
        assert (one.n, one.items, one.calls) == (2, [], 1) and one.items is not cls(2).items
        assert one == cls(2) and one != cls(3) and one.__hash__ is None
        one.n = 5
        assert one.n == 5 and dataclasses.replace(one, n=1).calls == 1
        with pytest.raises(ValueError, match="0 or more"):
            cls(-1)
    assert repr(Rec(2, [1])) == repr(Ref(2, [1])) and Rec(2) != Ref(2)
    assert str(inspect.signature(Rec)) == str(inspect.signature(Ref))    # help() shows the same
    rec, ref = Rec(1), Ref(1)
    rec.items.append(rec)
    ref.items.append(ref)
    assert repr(rec) == repr(ref) == "Rec(n=1, items=[...])"        # a record holding itself

    @mutable(eq=False)
    class State:
        weights: dict

    globals()["State"] = State                            # pickle finds classes by name
    State.__qualname__ = "State"
    state = State({"w": 1})
    assert state == state and state != State({"w": 1}) and hash(state) == object.__hash__(state)
    state.weights = {"w": 2}
    for again in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert again.weights == {"w": 2}
