"""Cards and their two-character notation: rank 2-9 T J Q K A, suit C D H S."""

import pytest

from games.engine import ALL_CARDS, Card, InvalidCardError, Suit, format_cards, parse_cards

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def test_every_one_of_the_52_cards_round_trips_through_its_notation():
    notations = [rank + suit for suit in SUITS for rank in RANKS]

    cards = [Card.parse(notation) for notation in notations]

    assert [str(card) for card in cards] == notations
    assert len(set(cards)) == 52
    assert cards == list(ALL_CARDS)


def test_printing_a_card_and_parsing_it_again_gives_the_same_card():
    for card in ALL_CARDS:
        assert Card.parse(str(card)) is card


def test_a_card_knows_its_rank_and_suit():
    queen = Card.parse("QS")

    assert (queen.rank, queen.suit) == (12, Suit.SPADES)
    assert (Card.parse("2C").rank, Card.parse("AH").rank) == (2, 14)


@pytest.mark.parametrize("notation", ["qs", "Qs", "qS", "QS"])
def test_notation_is_read_in_any_case(notation):
    assert Card.parse(notation) == Card.parse("QS")


def test_a_ten_is_written_t_in_either_case():
    assert Card.parse("th") is Card.parse("TH")
    assert str(Card.parse("th")) == "TH"


@pytest.mark.parametrize(
    ("notation", "display"),
    [("QS", "Q♠"), ("TH", "10♥"), ("2C", "2♣"), ("AD", "A♦"), ("JD", "J♦")],
)
def test_a_card_is_displayed_with_its_rank_and_suit_symbol(notation, display):
    assert Card.parse(notation).display == display


def test_a_card_has_a_name_in_words_for_screen_readers():
    assert Card.parse("QS").name == "queen of spades"
    assert Card.parse("TH").name == "ten of hearts"


def test_a_card_repr_shows_its_notation():
    assert repr(Card.parse("QS")) == "Card('QS')"


@pytest.mark.parametrize("notation", ["1S", "QX", "10H", "", "Q", "QSS", " QS", "S Q", "♠Q"])
def test_bad_notation_is_refused(notation):
    with pytest.raises(InvalidCardError):
        Card.parse(notation)


def test_a_bad_card_error_is_a_value_error_that_names_the_bad_notation():
    with pytest.raises(ValueError, match="'1S' is not a card"):
        Card.parse("1S")


def test_a_card_number_outside_the_pack_is_refused():
    with pytest.raises(InvalidCardError):
        Card(52)
    with pytest.raises(InvalidCardError):
        Card(-1)


def test_notation_that_is_not_a_string_is_refused():
    with pytest.raises(InvalidCardError):
        Card.parse(12)  # type: ignore[arg-type]


def test_equal_cards_are_the_same_object_and_hash_alike():
    assert Card.parse("QS") is Card.parse("qs")
    assert len({Card.parse("QS"), Card.parse("qs"), Card.parse("TH")}) == 2


def test_cards_cannot_be_changed():
    with pytest.raises(AttributeError):
        Card.parse("QS").index = 0  # type: ignore[misc]


def test_cards_sort_in_pack_order_clubs_diamonds_hearts_spades_then_by_rank():
    assert sorted(parse_cards("AS 2H KD 3C 2C")) == parse_cards("2C 3C KD 2H AS")


def test_several_cards_are_parsed_from_notation_separated_by_spaces_or_commas():
    assert parse_cards("2C QS TH") == [Card.parse("2C"), Card.parse("QS"), Card.parse("TH")]
    assert parse_cards("2c, qs,th") == parse_cards("2C QS TH")
    assert parse_cards("") == []


def test_several_cards_are_parsed_from_a_list_of_cards_and_notations():
    queen = Card.parse("QS")

    assert parse_cards([queen, "th"]) == [queen, Card.parse("TH")]


def test_parsing_several_cards_refuses_a_bad_one():
    with pytest.raises(InvalidCardError):
        parse_cards("2C XX TH")


def test_several_cards_are_formatted_as_notation_separated_by_spaces():
    assert format_cards(parse_cards("2c qs th")) == "2C QS TH"
    assert format_cards([]) == ""


def test_a_heart_is_worth_one_point_and_the_queen_of_spades_thirteen():
    assert Card.parse("2H").points == 1
    assert Card.parse("AH").points == 1
    assert Card.parse("QS").points == 13
    assert Card.parse("KS").points == 0
    assert Card.parse("JD").points == 0


def test_the_pack_holds_26_penalty_points():
    assert sum(card.points for card in ALL_CARDS) == 26
