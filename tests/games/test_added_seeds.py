"""Added seeds: before the first deal, everyone seated may add a text of their own to the deal."""

from __future__ import annotations

import hashlib
import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import Rules, cards_of, deal_hand
from games.errors import ServiceError
from games.models import Game, Seat, Table
from tests.helpers.sockets import data_cards

pytestmark = pytest.mark.django_db


def _logged_in(user: User, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def _table_page(client: Client, table: Table) -> str:
    response = client.get(reverse("table", args=[table.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _fingerprint_shown(page: str) -> str:
    found = re.search(r'<code class="fingerprint">([0-9a-f]{64})</code>', page)
    assert found, "the page shows no fingerprint"
    return found.group(1)


def _seed_field(page: str) -> str | None:
    """The value of the seed form's text field, or None when the page has no seed form."""
    found = re.search(r'<input type="text" id="added-seed" name="seed"[^>]*value="([^"]*)"', page)
    return unescape(found.group(1)) if found else None


def _add_seed(client: Client, table: Table, text: str) -> str:
    """Post a seed as the form does, follow the redirect back, and return the page."""
    response = client.post(reverse("add_seed", args=[table.pk]), {"seed": text}, follow=True)
    assert response.redirect_chain[0][0] == reverse("table", args=[table.pk])
    return response.content.decode()


def _alice_bob_carol_and_a_bot() -> tuple[Table, User, User, User]:
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    carol = User.objects.create_user("carol")
    table = services.create_table(alice)
    services.take_seat(table.pk, bob, 1)
    services.take_seat(table.pk, carol, 2)
    services.set_bot(table.pk, alice, 3, True)
    return table, alice, bob, carol


def _added_seeds(table: Table) -> list[str]:
    return list(table.seats.order_by("index").values_list("added_seed", flat=True))


def test_the_fingerprint_on_the_seating_page_is_that_of_the_seed_the_game_then_uses() -> None:
    table, alice, bob, _ = _alice_bob_carol_and_a_bot()
    shown_to_bob = _fingerprint_shown(_table_page(_logged_in(bob), table))
    shown_to_a_spectator = _fingerprint_shown(_table_page(Client(), table))

    game = services.start_game(table.pk, alice)

    assert shown_to_bob == shown_to_a_spectator
    assert hashlib.sha256(bytes(game.seed)).hexdigest() == shown_to_bob
    assert game.fingerprint == shown_to_bob
    assert _fingerprint_shown(_table_page(_logged_in(bob), table)) == shown_to_bob


def test_a_seated_person_is_offered_a_random_seed_and_sees_the_one_they_added() -> None:
    table, _, bob, carol = _alice_bob_carol_and_a_bot()
    bob_client = _logged_in(bob)

    first = _seed_field(_table_page(bob_client, table))
    second = _seed_field(_table_page(bob_client, table))
    page = _add_seed(bob_client, table, "lucky <tuesday> ♥")

    assert first and second and re.fullmatch(r"[0-9a-f]{16}", first) and first != second
    assert _seed_field(page) == "lucky <tuesday> ♥"
    assert "Your seed is added" in page
    carols_page = _table_page(_logged_in(carol), table)
    assert 'added the seed <q class="seed-text">lucky &lt;tuesday&gt; ♥</q>' in carols_page
    assert "Add my seed" in carols_page  # carol has her own form
    spectators_page = _table_page(Client(), table)
    assert "lucky &lt;tuesday&gt; ♥" in spectators_page
    assert _seed_field(spectators_page) is None


def test_each_added_seed_goes_into_the_game_at_its_seat_and_bots_and_silent_seats_add_nothing() -> (
    None
):
    table, alice, bob, _ = _alice_bob_carol_and_a_bot()
    _add_seed(_logged_in(alice), table, "  Alice, as typed  ")
    _add_seed(_logged_in(bob), table, "first thought")
    _add_seed(_logged_in(bob), table, "second thought")

    game = services.start_game(table.pk, alice)

    assert game.added_seeds == ["  Alice, as typed  ", "second thought", "", ""]
    Game.objects.get(pk=game.pk).match()  # the stored game replays with them
    page = _table_page(_logged_in(bob), table)
    assert '<q class="seed-text">  Alice, as typed  </q>' in page  # shown beside the fingerprint


def test_the_deal_follows_from_the_seed_and_the_added_seeds() -> None:
    table, alice, bob, _ = _alice_bob_carol_and_a_bot()
    _add_seed(_logged_in(alice), table, "alice")
    _add_seed(_logged_in(bob), table, "bob")

    game = services.start_game(table.pk, alice)

    rules, seed = Rules.from_json(game.rules), bytes(game.seed)
    deal = deal_hand(rules, seed, 1, ["alice", "bob", "", ""])
    dealt = Game.objects.get(pk=game.pk).match().hand.dealt
    assert [set(cards_of(mask)) for mask in dealt] == [set(cards) for cards in deal.hands]
    alices_hand = data_cards(_table_page(_logged_in(alice), table))
    assert sorted(alices_hand) == sorted(str(card) for card in deal.hands[0])
    assert deal != deal_hand(rules, seed, 1)
    assert deal != deal_hand(rules, seed, 1, ["", "", "", ""])


def test_play_now_has_one_empty_added_seed_for_each_seat() -> None:
    alice = User.objects.create_user("alice")

    game = services.play_now(alice)

    assert game.added_seeds == ["", "", "", ""]


def test_a_seed_cannot_be_added_once_the_game_has_started() -> None:
    table, alice, bob, _ = _alice_bob_carol_and_a_bot()
    _add_seed(_logged_in(bob), table, "before")
    game = services.start_game(table.pk, alice)

    page = _add_seed(_logged_in(bob), table, "after")

    assert "The game has started: seeds are added before the first deal" in page
    assert Game.objects.get(pk=game.pk).added_seeds == ["", "before", "", ""]
    assert _added_seeds(table) == ["", "", "", ""]
    with pytest.raises(ServiceError, match="The game has started"):
        services.add_seed(table.pk, bob, "after")


def test_only_a_seated_person_can_add_a_seed() -> None:
    table, _, _, _ = _alice_bob_carol_and_a_bot()
    dave = User.objects.create_user("dave")

    page = _add_seed(_logged_in(dave), table, "let me in")

    assert "Take a seat to add a seed" in page
    assert _seed_field(page) is None
    assert _added_seeds(table) == ["", "", "", ""]
    anonymous = Client().post(reverse("add_seed", args=[table.pk]), {"seed": "x"})
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    assert _added_seeds(table) == ["", "", "", ""]


def test_a_forged_post_without_the_csrf_token_is_refused() -> None:
    table, _, bob, _ = _alice_bob_carol_and_a_bot()

    response = _logged_in(bob, csrf=True).post(
        reverse("add_seed", args=[table.pk]), {"seed": "planted"}
    )

    assert response.status_code == 403
    assert _added_seeds(table) == ["", "", "", ""]


def test_an_added_seed_is_at_most_200_characters() -> None:
    table, _, bob, _ = _alice_bob_carol_and_a_bot()

    page = _add_seed(_logged_in(bob), table, "x" * 201)
    _add_seed(_logged_in(bob), table, "é" * 200)

    assert "An added seed is at most 200 characters" in page
    assert _added_seeds(table)[1] == "é" * 200


def test_leaving_a_seat_takes_its_added_seed_away() -> None:
    table, alice, bob, _ = _alice_bob_carol_and_a_bot()
    dave = User.objects.create_user("dave")
    _add_seed(_logged_in(bob), table, "bob's")
    services.leave_seat(table.pk, bob)
    services.take_seat(table.pk, dave, 1)

    game = services.start_game(table.pk, alice)

    assert game.added_seeds == ["", "", "", ""]


def test_a_rematch_is_dealt_from_a_fresh_seed_whose_fingerprint_the_finished_table_shows() -> None:
    table, alice, bob, carol = _alice_bob_carol_and_a_bot()
    _add_seed(_logged_in(bob), table, "bob's")
    first = services.start_game(table.pk, alice)
    services.resign(first.pk, 1)
    finished = _table_page(_logged_in(carol), table)
    next_fingerprint = re.search(r'class="next-fingerprint">([0-9a-f]{64})<', finished)
    carols_page = _add_seed(_logged_in(carol), table, "carol's rematch")

    second = services.rematch(table.pk, bob)

    assert next_fingerprint and second.fingerprint == next_fingerprint.group(1)
    assert "Add my seed" in finished
    assert "carol&#x27;s rematch" in carols_page
    assert bytes(second.seed) != bytes(first.seed)
    assert second.fingerprint != first.fingerprint
    assert second.added_seeds == ["", "", "carol's rematch", ""]  # bob's was for the first game
    table.refresh_from_db()
    assert bytes(table.next_seed) not in (bytes(first.seed), bytes(second.seed))
    assert Seat.objects.filter(table=table).exclude(added_seed="").count() == 0


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("lucky \u202eseven", "U+202E"),  # right-to-left override: "seven" would read "neves"
        ("lucky\u200bseven", "U+200B"),  # zero-width space
        ("lucky \u2066seven\u2069", "U+2066"),  # left-to-right isolate
        ("\u200flucky", "U+200F"),  # right-to-left mark
    ],
)
def test_a_seed_with_an_invisible_or_direction_changing_character_is_refused_with_a_message(
    text: str, code: str
) -> None:
    table, _, bob, _ = _alice_bob_carol_and_a_bot()
    _add_seed(_logged_in(bob), table, "as typed")

    page = _add_seed(_logged_in(bob), table, text)

    assert f"An added seed cannot contain invisible or direction-changing characters ({code})" in (
        page
    )
    assert _added_seeds(table) == ["", "as typed", "", ""]
    with pytest.raises(ServiceError, match="invisible or direction-changing"):
        services.add_seed(table.pk, bob, text)
    assert _added_seeds(table) == ["", "as typed", "", ""]


def test_a_seed_stored_with_a_direction_changing_character_is_shown_with_it_written_out() -> None:
    table, alice, _, carol = _alice_bob_carol_and_a_bot()
    Seat.objects.filter(table=table, index=1).update(added_seed="lucky \u202eseven")

    seating = _table_page(_logged_in(carol), table)
    game = services.start_game(table.pk, alice)
    services.resign(game.pk, 1)
    pages = [
        seating,
        _table_page(_logged_in(carol), table),
        Client().get(reverse("game_detail", args=[game.pk])).content.decode(),
        Client().get(reverse("game_verify", args=[game.pk])).content.decode(),
    ]

    assert Game.objects.get(pk=game.pk).added_seeds[1] == "lucky \u202eseven"  # dealt as typed
    for page in pages:
        assert "lucky [U+202E]seven" in page
        assert "\u202e" not in page
