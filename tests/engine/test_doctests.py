"""The examples in the engine's docstrings are run as tests, so the documentation stays true."""

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import games.engine
from games.compiled import ROOT

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
    if not module.__file__.endswith(".py"):
        # The compiled build (games/compiled.py) keeps no examples: take them from the source.
        path = ROOT / (name.replace(".", "/") + ".py")
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
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
