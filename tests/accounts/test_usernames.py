"""The username rules on their own, without a database."""

import doctest

import pytest
from django.core.exceptions import ValidationError

from accounts import validators
from accounts.validators import (
    invisible_character_in,
    lookalike_keys,
    reserved_word_in,
    shown_plain,
    validate_username,
    validate_visible_text,
)


def test_the_examples_in_the_validators_docstrings_hold() -> None:
    assert doctest.testmod(validators).failed == 0


@pytest.mark.parametrize("name", ["alice", "Bob", "carol_d", "dave-42", "abc", "a" * 20])
def test_plain_names_are_accepted(name: str) -> None:
    validate_username(name)


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("Bot", "bot"),
        ("robot_x", "bot"),
        ("b0t", "bot"),
        ("B-0-7", "bot"),
        ("Admin", "admin"),
        ("adm1n", "admin"),
        ("4dmin", "admin"),
        ("m0derator", "moderator"),
        ("5taff", "staff"),
        ("SYSTEM", "system"),
        ("h3arts_fan", "hearts"),
    ],
)
def test_names_imitating_bots_or_staff_are_reserved(name: str, word: str) -> None:
    assert reserved_word_in(name) == word
    with pytest.raises(ValidationError) as raised:
        validate_username(name)
    assert raised.value.code == "reserved"


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("al", "length"),
        ("a" * 21, "length"),
        ("alice smith", "characters"),
        ("al!ce", "characters"),
        ("alicé", "characters"),
        ("alice@example", "characters"),
    ],
)
def test_names_of_the_wrong_length_or_characters_are_refused(name: str, code: str) -> None:
    with pytest.raises(ValidationError) as raised:
        validate_username(name)
    assert raised.value.code == code


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("you", "you"),
        ("YOU", "you"),
        ("y0u", "you"),
        ("gone", "gone"),
        ("g0ne", "gone"),
        ("empty", "empty"),
        ("Seat_1", "seat"),
        ("seat-12", "seat"),
        ("5eat3", "seat"),
        ("Player4", "player"),
        ("host", "host"),
        ("h0st_", "host"),
        ("nobody", "nobody"),
    ],
)
def test_names_that_read_as_the_tables_own_words_are_reserved(name: str, word: str) -> None:
    with pytest.raises(ValidationError) as raised:
        validate_username(name)
    assert raised.value.code == "reserved"
    assert f"“{word}”" in raised.value.messages[0]


@pytest.mark.parametrize("name", ["young_ann", "yourself", "gonzo", "seated_dan", "hostess"])
def test_names_that_only_begin_like_a_table_word_are_accepted(name: str) -> None:
    validate_username(name)


@pytest.mark.parametrize(
    ("new", "existing"),
    [
        ("AIice9249", "Alice9249"),  # a capital I for the small l
        ("4lice9249", "Alice9249"),  # 4 for A: TR39 leaves digits other than 0 and 1 alone
        ("Al1ce9249", "Alice9249"),  # 1 for i
        ("b0b", "Bob"),
        ("rnary", "mary"),  # r and n side by side for m
        ("CAROL", "carol"),
        ("dave_0", "Dave_O"),
    ],
)
def test_look_alike_names_share_a_key(new: str, existing: str) -> None:
    assert lookalike_keys(new) & lookalike_keys(existing)


@pytest.mark.parametrize(
    ("new", "existing"), [("alice2", "alice"), ("alicia", "alice"), ("bob_b", "bob")]
)
def test_names_that_look_different_share_no_key(new: str, existing: str) -> None:
    assert not lookalike_keys(new) & lookalike_keys(existing)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("lucky\u202eseven", "U+202E"),  # right-to-left override
        ("lucky\u200bseven", "U+200B"),  # zero-width space
        ("lucky\u2066seven", "U+2066"),  # left-to-right isolate
        ("\u200fseven", "U+200F"),  # right-to-left mark
        ("seven\ufeff", "U+FEFF"),  # zero-width no-break space
        ("a\u00adb", "U+00AD"),  # soft hyphen
        ("tab\there", "U+0009"),
        ("tag\U000e0041", "U+E0041"),  # a tag character
        ("\u3164", "U+3164"),  # Hangul filler
    ],
)
def test_invisible_and_direction_changing_characters_are_found(text: str, code: str) -> None:
    assert invisible_character_in(text) == code
    assert f"[{code}]" in shown_plain(text)
    with pytest.raises(ValidationError) as raised:
        validate_visible_text(text, "An added seed")
    assert code in raised.value.messages[0]


@pytest.mark.parametrize("text", ["lucky <tuesday> ♥", "♥️ é 日本 עברית", "  spaced  ", "x" * 200])
def test_visible_text_in_any_script_is_accepted(text: str) -> None:
    assert invisible_character_in(text) is None
    assert shown_plain(text) == text
    validate_visible_text(text)
