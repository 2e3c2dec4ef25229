"""The words people read come from games/words.py, and say what the pages said before."""

from __future__ import annotations

import doctest

from django import forms

from games import words
from games.engine import EARLY_ENDS, PRESETS, EndReason
from live import table_words
from live.forms import TableForm


def test_the_examples_in_the_words_module_hold() -> None:
    failed, attempted = doctest.testmod(words, report=False)

    assert attempted > 10 and failed == 0


def test_the_examples_in_the_tables_words_hold() -> None:
    failed, attempted = doctest.testmod(table_words, report=False)

    assert attempted > 5 and failed == 0


def test_places_and_result_lines_read_as_before() -> None:
    assert [words.ordinal(n) for n in range(1, 7)] == ["1st", "2nd", "3rd", "4th", "5th", "6th"]
    assert table_words.result_line(1, "alice", 45) == "1st: alice, 45 points"
    assert table_words.result_line(4, "bob", 60, "resigned") == "4th: bob, 60 points (resigned)"
    assert table_words.result_line(4, "bob", 60, "timed out") == "4th: bob, 60 points (out of time)"
    assert table_words.result_line(1, "bob", 60, "target") == "1st: bob, 60 points"


def test_every_early_end_has_words_in_each_place_it_is_shown() -> None:
    for table in (words.ENDED_EARLY, words.ENDED_EARLY_NOTES, words.ABANDONMENT_REASONS):
        assert sorted(table) == sorted(EARLY_ENDS)
    assert words.outcome(["alice"], ("carol", EndReason.LEFT)) == "Won by alice; carol left"
    assert table_words.ended_by_clock("left", "dave") == (
        "dave ran out of time three times in a row and left the game."
    )


def test_the_form_names_every_option_it_offers_in_the_words_module() -> None:
    form = TableForm()
    for name, label in words.FORM_LABELS.items():
        assert form.fields[name].label == label
    moon = form.fields["moon"]
    assert isinstance(moon, forms.ChoiceField)
    # The field keeps its choices normalized to (value, label) pairs; the stubs give the getter
    # every type the setter takes (a mapping, a Choices class) too.
    assert dict(moon.choices)["choose"] == "The shooter chooses"  # type: ignore[arg-type]


def test_the_rules_in_short_name_the_queen_and_the_jack_as_cards() -> None:
    rules = PRESETS["encyclopedia"].make(4, jack_of_diamonds=True, old_queen=True)
    lines = words.rules_in_short(rules)
    assert "The Q♠ breaks hearts." in lines
    assert "The J♦ takes 10 points off whoever wins it." in lines
    assert "The Q♠ must be discarded at the first chance." in lines
