"""The examples in the engine's docstrings are run as tests, so the documentation stays true."""

import doctest
import importlib
import pkgutil

import pytest

import games.engine

MODULES = ["games.engine"] + [
    info.name for info in pkgutil.iter_modules(games.engine.__path__, "games.engine.")
]
# Modules whose docstrings hold worked examples; the others may gain some.
WITH_EXAMPLES = {
    "games.engine",
    "games.engine.cards",
    "games.engine.deal",
    "games.engine.hand",
    "games.engine.match",
    "games.engine.rules",
}


def run_examples(name):
    module = importlib.import_module(name)
    return doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_in_each_engine_module_hold(name):
    failed, _ = run_examples(name)

    assert failed == 0


def test_every_engine_module_is_checked():
    assert {"cards", "deal", "errors", "events", "hand", "match", "rules", "view"} <= {
        name.rsplit(".", 1)[-1] for name in MODULES
    }


@pytest.mark.parametrize("name", sorted(WITH_EXAMPLES))
def test_the_examples_are_found(name):
    _, attempted = run_examples(name)

    assert attempted > 0
