"""The table says what was played and passed with the card as the object of its sentence, in
the form each language gives an object: German's accusative ("Bot 4 hat dir den Kreuz-Buben,
die Karo-Drei und das Pik-Ass weitergegeben", never "der Kreuz-Bube"), French's and Spanish's
articles ("le valet de trèfle", "la jota de tréboles"). The sentences are the table script's
(static/js/table.js, in Django's JavaScript catalog), the cards' names the page's
(``data-name``, games/words.py)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation.trans_real import DjangoTranslation

from games import services
from games.engine import Card, Refusal, Rules
from games.models import Game
from games.words import (
    MINUS,
    card_as_object,
    card_name,
    describe,
    refusal_words,
)
from live.table_words import card_spoken, played_by, played_for
from tests.helpers.tables import FOUR, game_with, people

PASSED = ["JC", "3D", "AS"]  # a jack, a three and an ace: three genders in German
PLAYED = "KH"

# What the table says, in each language, of Bot 4's pass of PASSED and of the cards played.
SAID = {
    "en": (
        "Bot 4 passed you the jack of clubs, the three of diamonds and the ace of spades.",
        "Bob plays the king of hearts.",
        "You play the queen of spades.",
    ),
    "de": (
        "Bot 4 hat dir den Kreuz-Buben, die Karo-Drei und das Pik-Ass weitergegeben.",
        "Bob spielt den Herz-König.",
        "Du spielst die Pik-Dame.",
    ),
    "fr": (
        "Bot 4 vous a passé le valet de trèfle, le trois de carreau et l\N{RIGHT SINGLE QUOTATION MARK}as de pique.",
        "Bob joue le roi de cœur.",
        "Vous jouez la dame de pique.",
    ),
    "es": (
        "Bot 4 te pasó la jota de tréboles, el tres de diamantes y el as de picas.",
        "Bob juega el rey de corazones.",
        "Juegas la reina de picas.",
    ),
}


def _script_says(language: str, message: str, values: dict[str, str]) -> str:
    """``message`` of the table's script in ``language``, filled in as its interpolate does."""
    catalog = DjangoTranslation(language, domain="djangojs")
    return catalog.gettext(message) % values


def _listed(language: str, names: list[str]) -> str:
    """The script's list of names ("a, b and c")."""
    last = {"items": ", ".join(names[:-1]), "last": names[-1]}
    return _script_says(language, "%(items)s and %(last)s", last)


@pytest.mark.parametrize("language", SAID)
def test_the_tables_sentences_name_the_cards_passed_and_played_as_their_objects(
    language: str,
) -> None:
    with translation.override(language):
        passed = [card_as_object(Card.parse(code)) for code in PASSED]
        played = card_as_object(Card.parse(PLAYED))
        queen = card_as_object(Card.parse("QS"))
    cards = _listed(language, passed)
    said = (
        _script_says(language, "%(name)s passed you %(cards)s.", {"name": "Bot 4", "cards": cards}),
        _script_says(language, "%(name)s plays %(card)s.", {"name": "Bob", "card": played}),
        _script_says(language, "You play %(card)s.", {"card": queen}),
    )
    assert said == SAID[language]


# German's article and noun of each rank as an object: feminine numbers and queen, the masculine
# jack (a weak noun: Buben) and king, the neuter ace.
GERMAN_OBJECTS = {
    "2": "die {suit}-Zwei",
    "3": "die {suit}-Drei",
    "4": "die {suit}-Vier",
    "5": "die {suit}-Fünf",
    "6": "die {suit}-Sechs",
    "7": "die {suit}-Sieben",
    "8": "die {suit}-Acht",
    "9": "die {suit}-Neun",
    "T": "die {suit}-Zehn",
    "J": "den {suit}-Buben",
    "Q": "die {suit}-Dame",
    "K": "den {suit}-König",
    "A": "das {suit}-Ass",
}
GERMAN_SUITS = {"C": "Kreuz", "D": "Karo", "H": "Herz", "S": "Pik"}


def _everyone_passes_jacks_and_kings_first(game: Game) -> None:
    """Each seat passes its jacks and kings (masculine in German) before other cards: the eight
    of them are in someone's hand, so some player receives one."""
    hand = game.match().hand
    for seat in range(4):
        held = sorted(hand.holding(seat), key=lambda card: card.rank not in (11, 13))
        services.act(game.pk, seat, "pass", version=None, cards=[str(c) for c in held[:3]])


@pytest.mark.django_db
def test_a_german_table_names_the_cards_passed_to_each_player_in_the_accusative() -> None:
    game = game_with()
    _everyone_passes_jacks_and_kings_first(game)
    names = []
    for player in people(*FOUR):
        reader = Client(headers={"Accept-Language": "de"})
        reader.force_login(player)
        page = reader.get(game.table.get_absolute_url()).content.decode()
        received = re.findall(r'data-card="(\w\w)" data-name="([^"]+)"', page)
        assert len(received) == 3
        for code, name in received:
            rank, suit = code[0], code[1]
            assert name == GERMAN_OBJECTS[rank].format(suit=GERMAN_SUITS[suit]), code
            names.append(name)
    assert any(name.startswith("den ") for name in names)


# Every other sentence of the site's words that takes a card, in each language: what a refusal,
# the table's notices, a screen reader and the rules say with a card in them. A card shown as
# its sign (J♣) takes the article of the card's own noun (German "den J♦", Spanish "la J♦": la
# jota); a card's name read aloud agrees with it ("valet de trèfle, carte reçue": le valet).
def _sentences() -> list[str]:
    jack, king, club = Card.parse("JC"), Card.parse("KH"), Card.parse("2C")
    jack_rule = next(
        line for line in describe(Rules(jack_of_diamonds=True)) if line.option == "jack_of_diamonds"
    )
    return [
        refusal_words(Refusal.NOT_HELD, card=jack),
        refusal_words(Refusal.FIRST_LEAD, card=club),
        refusal_words(Refusal.OLD_QUEEN),
        played_for("bob", king.display),
        played_by(card_name(jack), "Bob"),
        card_spoken(card_name(king), "", received=True, passed=""),
        card_spoken(card_name(king), "", received=False, passed="left"),
        jack_rule.text,
    ]


SENTENCES = {
    "de": [
        "Du hast die Karte J♣ nicht auf der Hand",
        "Das erste Ausspiel muss die 2♣ sein",
        "Regel der alten Dame: Die Q♠ muss jetzt abgeworfen werden",
        "Die Zeit von bob ist abgelaufen: Der Tisch hat für ihn K♥ gespielt.",
        "Kreuz-Bube von Bob",
        "Herz-König, an dich weitergegeben",
        "Herz-König, nach links weitergegeben",
        f"Wer den J♦ bekommt, erhält {MINUS}10, zusätzlich zu allem anderen aus der Runde. Für einen"
        " Mond braucht man ihn nicht.",
    ],
    "fr": [
        "La carte J♣ n\N{RIGHT SINGLE QUOTATION MARK}est pas dans votre main",
        "L'entame du premier pli doit être le 2♣",
        "Règle de la vieille dame : la Q♠ doit être défaussée maintenant",
        "Temps écoulé pour bob : la table a joué K♥ à sa place.",
        "valet de trèfle, de Bob",
        "roi de cœur, carte reçue",
        "roi de cœur, carte passée à gauche",
        f"Celui qui prend le J♦ marque {MINUS}10, en plus de tout ce que la donne lui rapporte. Une"
        " lune n\N{RIGHT SINGLE QUOTATION MARK}en a pas besoin.",
    ],
    "es": [
        "La carta J♣ no está en tu mano",
        "La salida de la primera baza debe ser el 2♣",
        "Regla de la reina vieja: ahora debes descartar la Q♠",
        "Se agotó el tiempo de bob: la mesa jugó K♥ por él.",
        "jota de tréboles, de Bob",
        "rey de corazones, carta recibida",
        "rey de corazones, carta pasada a la izquierda",
        f"Quien se lleve la J♦ suma {MINUS}10, además de lo que le dé la mano. Para la luna no hace"
        " falta.",
    ],
}


@pytest.mark.parametrize("language", SENTENCES)
def test_every_other_sentence_with_a_card_gives_it_the_form_its_language_needs(
    language: str,
) -> None:
    with translation.override(language):
        assert _sentences() == SENTENCES[language]
