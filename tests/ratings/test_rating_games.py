"""A rated game changes its players' ratings once, as it ends; other games change nothing."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from ratings.maths import MU, SIGMA, display_rating
from ratings.models import Rating, RatingChange
from ratings.services import rate_game
from tests.helpers.finishing import play_a_card, play_out, start
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db

SEED_PLACES_1_2_3_4 = 47  # alice first, bob second, carol third, dave fourth (and one moon)


def _ratings() -> dict[str, tuple[float, float, int]]:
    return {
        r.user.username: (r.mu, r.sigma, r.games) for r in Rating.objects.select_related("user")
    }


def test_a_rated_game_of_four_people_rates_each_of_them_once_in_the_order_they_placed() -> None:
    game = start(people("alice", "bob", "carol", "dave"))

    game = play_out(game, SEED_PLACES_1_2_3_4)

    assert game.status == Game.Status.FINISHED
    assert game.result is not None
    assert game.result["places"] == [1, 2, 3, 4]
    ratings = _ratings()
    assert [ratings[name][2] for name in ("alice", "bob", "carol", "dave")] == [1, 1, 1, 1]
    mus = [ratings[name][0] for name in ("alice", "bob", "carol", "dave")]
    assert mus == sorted(mus, reverse=True)
    assert mus[0] > MU > mus[3]
    assert RatingChange.objects.filter(game=game).count() == 4


def test_the_changes_record_each_persons_seat_place_and_rating_before_and_after() -> None:
    game = play_out(start(people("alice", "bob", "carol", "dave")), SEED_PLACES_1_2_3_4)

    dave = RatingChange.objects.get(game=game, user__username="dave")

    assert (dave.seat, dave.place) == (3, 4)
    assert (dave.mu_before, dave.sigma_before) == (MU, SIGMA)
    assert dave.display_before == display_rating(MU, SIGMA) == 300
    assert dave.display_after < dave.display_before
    assert (dave.mu_after, dave.sigma_after) == (_ratings()["dave"][0], _ratings()["dave"][1])


def test_players_who_share_a_place_change_by_the_same_amount() -> None:
    game = start(people("alice", "bob", "carol", "dave"))
    play_a_card(game)

    services.resign(game.pk, 3)

    game.refresh_from_db()
    assert game.result is not None
    assert game.result["places"] == [1, 1, 1, 4]
    ratings = _ratings()
    assert ratings["alice"] == ratings["bob"] == ratings["carol"]
    assert ratings["alice"][0] > MU


def test_resigning_places_the_resigner_last_and_lowers_their_rating() -> None:
    game = start(people("alice", "bob", "carol", "dave"))
    play_a_card(game)

    services.resign(game.pk, 1)

    game.refresh_from_db()
    assert game.result is not None
    assert game.result["reason"] == "resigned"
    assert game.result["places"][1] == 4
    bob = Rating.objects.get(user__username="bob")
    assert bob.mu < MU
    assert bob.display < display_rating(MU, SIGMA)


def test_rating_a_game_again_changes_nothing() -> None:
    game = play_out(start(people("alice", "bob", "carol", "dave")), SEED_PLACES_1_2_3_4)
    before = _ratings()

    assert rate_game(game) == []
    assert rate_game(Game.objects.get(pk=game.pk)) == []

    assert _ratings() == before
    assert RatingChange.objects.count() == 4


def test_a_game_with_a_bot_changes_no_rating_even_at_a_rated_table() -> None:
    game = start(people("alice", "bob", "carol"), rated=True, bots=1)
    assert not game.rated

    play_out(game, SEED_PLACES_1_2_3_4)
    Game.objects.filter(pk=game.pk).update(rated=True)  # even if it were marked rated
    rate_game(Game.objects.get(pk=game.pk))

    assert not Rating.objects.exists()
    assert not RatingChange.objects.exists()


def test_a_casual_game_changes_no_rating() -> None:
    game = start(people("alice", "bob", "carol", "dave"), rated=False)

    game = play_out(game, SEED_PLACES_1_2_3_4)

    assert game.status == Game.Status.FINISHED
    assert not Rating.objects.exists()


def test_resigning_a_rated_game_during_the_pass_rates_it_with_the_resigner_last() -> None:
    game = start(people("alice", "bob", "carol", "dave"))

    services.resign(game.pk, 2)

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    ratings = {r.user.username: r for r in Rating.objects.select_related("user")}
    assert set(ratings) == {"alice", "bob", "carol", "dave"}
    assert ratings["carol"].display < min(ratings[n].display for n in ("alice", "bob", "dave"))


def test_a_game_in_which_a_seat_lost_its_person_is_not_rated() -> None:
    game = start(people("alice", "bob", "carol", "dave"))
    game.players.filter(seat=2).update(user=None)  # carol deleted her account

    play_out(game, SEED_PLACES_1_2_3_4)

    assert not Rating.objects.exists()


def test_a_second_game_starts_from_the_first_games_ratings() -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    play_out(start([alice, bob, carol, dave]), SEED_PLACES_1_2_3_4)
    after_first = _ratings()

    second = play_out(start([dave, carol, bob, alice]), SEED_PLACES_1_2_3_4)

    alice_change = RatingChange.objects.get(game=second, user=alice)
    assert (alice_change.mu_before, alice_change.sigma_before) == after_first["alice"][:2]
    assert _ratings()["alice"][2] == 2
