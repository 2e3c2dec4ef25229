"""./dev test's groups (tests/helpers/groups.py): every module in exactly one group, whole, and
the groups about as long as each other."""

from __future__ import annotations

import doctest

from tests.helpers import groups


def test_every_module_is_in_one_group_and_the_groups_take_about_as_long() -> None:
    durations = {f"tests/test_{n}.py": float(n % 7 + 1) for n in range(40)}
    modules = [*durations, "tests/test_new.py"]  # one the durations do not know yet

    dealt = groups.deal(modules, durations, 2)

    assert sorted(m for group in dealt for m in group) == sorted(modules)
    times = [sum(durations.get(m, 4.0) for m in group) for group in dealt]
    assert abs(times[0] - times[1]) <= max(durations.values())


def test_the_examples_hold() -> None:
    assert doctest.testmod(groups).failed == 0
