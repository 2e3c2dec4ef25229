"""The username rules on their own, without a database."""

import doctest

import pytest
from django.core.exceptions import ValidationError

from accounts import validators
from accounts.validators import reserved_word_in, validate_username


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
