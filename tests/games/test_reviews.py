"""The bot's review of a finished game: each person's decision judged by what they knew (a
lucky card is not praised), the same review each time, the marks' thresholds, the limits on
asking, the page and the API's states, and a review whose worker died going on where it
stopped."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from bench._scratch import rule_based_match
from games import reviews
from games.bots import review as judging
from games.engine import Card, Rules
from games.errors import ServiceError
from games.history_selectors import replay_steps
from games.models import GameReview
from games.review_pages import step_numbers
from tests.helpers.reviews import finished_game
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db


def _made(game_id: int, user) -> GameReview:
    review = reviews.request_review(game_id, user)
    reviews.run(review.pk)
    review.refresh_from_db()
    return review


def test_a_card_is_judged_by_what_its_player_knew_not_by_the_hidden_hands() -> None:
    # Pinned: at move 16 of this game, seat 0 played 6♣, which the hidden hands made the best
    # card; by what seat 0 could know, 6♠ was, and 6♣ is an inaccuracy.
    match = rule_based_match(Rules(), bytes(range(32)))
    index, move, view = next(d for d in judging.decisions(match, {0}) if d[0] == 16)

    verdict = judging.judge(index, move, view, "pinned")

    assert move.cards == (Card.parse("6C"),)
    assert judging.hindsight(match, index) == (Card.parse("6C"),)
    assert verdict.best == (Card.parse("6S"),) and verdict.mark == "inaccuracy"
    # What the judge is given is the seat's view alone: the same view, the same verdict.
    assert judging.judge(index, move, view, "pinned") == verdict


def test_the_marks_thresholds() -> None:
    assert [judging.mark_of(loss) for loss in (0.0, 0.99, 1.0, 2.99, 3.0, 5.99, 6.0, 26)] == [
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_the_same_game_gets_the_same_review_and_bots_seats_are_not_judged() -> None:
    alice, bob = people("alice", "bob")
    game = finished_game([alice, bob], bots=2)
    first = _made(game.pk, alice)
    assert first.is_done and first.hands_done == first.hands_total > 0
    assert {verdict["seat"] for verdict in first.verdicts} == {0, 1}
    again = [
        reviews.verdict_json(judging.judge(index, move, view, bytes(game.seed).hex()), view)
        for index, move, view in judging.decisions(game.match(), {0, 1})
    ]
    assert again == first.verdicts
    assert first.bot_version == judging.VERSION
    assert reviews.request_review(game.pk, bob) == first  # asked twice: the same review


def test_a_review_whose_worker_died_goes_on_where_it_stopped() -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    game = finished_game([alice, bob, carol, dave])
    whole = _made(game.pk, alice).verdicts
    GameReview.objects.all().delete()

    review = reviews.request_review(game.pk, alice)
    reviews.run(review.pk, stop_after=1)  # the worker dies after the first hand
    review.refresh_from_db()
    assert review.status == GameReview.Status.RUNNING and review.hands_done == 1
    kept = len(review.verdicts)
    GameReview.objects.filter(pk=review.pk).update(touched_at="2026-01-01T00:00Z")

    assert reviews.sweep() == 1  # queued again (the test's Celery sends nowhere)
    reviews.run(review.pk)
    review.refresh_from_db()
    assert review.is_done and review.verdicts == whole and kept < len(whole)
    reviews.run(review.pk)  # a late duplicate: nothing changes
    assert GameReview.objects.get(pk=review.pk).verdicts == whole


def test_a_person_has_two_reviews_on_their_way_at_most_and_a_running_game_none() -> None:
    alice, bob = people("alice", "bob")
    games = [finished_game([alice, bob], bots=2) for _ in range(3)]
    for game in games[:2]:
        reviews.request_review(game.pk, alice)
    with pytest.raises(ServiceError, match="2 reviews on their way"):
        reviews.request_review(games[2].pk, alice)
    reviews.request_review(games[2].pk, bob)  # someone else may

    from tests.helpers.finishing import start

    running = start([alice], bots=3)
    with pytest.raises(ServiceError, match="once it is over"):
        reviews.request_review(running.pk, bob)
    bots_only = finished_game([alice], bots=3)
    bots_only.players.filter(seat=0).update(is_bot=True)
    with pytest.raises(ServiceError, match="nothing to review"):
        reviews.request_review(bots_only.pk, bob)


def test_the_page_asks_shows_the_progress_then_the_marks_and_the_api_follows() -> None:
    alice, bob = people("alice", "bob")
    game = finished_game([alice, bob], bots=2)
    client, api = Client(), Client()
    client.force_login(alice)
    page = reverse("game_detail", args=[game.pk])
    review_url = reverse("game_review", args=[game.pk])
    api_url = f"/api/v1/games/{game.pk}/review"

    assert "Review this game" in client.get(page).content.decode()
    assert api.get(api_url).status_code == 404
    assert client.post(review_url).status_code == 302
    waiting = client.get(review_url, HTTP_HX_REQUEST="true")
    assert "waiting for the reviewer" in waiting.content.decode()
    assert 'hx-trigger="every 2s"' in waiting.content.decode()
    progress = api.get(api_url)
    assert progress.status_code == 202 and progress.json()["status"] == "queued"

    reviews.run(GameReview.objects.get().pk)
    done = client.get(review_url, HTTP_HX_REQUEST="true")
    assert done["HX-Refresh"] == "true"
    shown = client.get(page).content.decode()
    assert '<svg class="review-chart"' in shown and "Points lost to the choices" in shown
    body = api.get(api_url).json()
    assert body["bot_version"] == judging.VERSION and len(body["verdicts"]) > 0
    assert {row["seat"] for row in body["summary"]} == {0, 1}

    # The marked moves link to their steps of the replay, which show the bot's choice.
    marked = next(v for v in GameReview.objects.get().verdicts if v["mark"])
    step = step_numbers(replay_steps(game.match()))[marked["move"]]
    assert f'href="?step={step}#replay-heading"' in shown
    at_step = client.get(page, {"step": step}).content.decode()
    best = ", ".join(Card.parse(card).display for card in marked["best"])
    assert f"the bot\N{RIGHT SINGLE QUOTATION MARK}s choice was {best}" in at_step


def test_a_private_tables_game_is_reviewed_for_its_players_alone() -> None:
    alice, bob, eve = people("alice", "bob", "eve")
    game = finished_game([alice, bob], bots=2, private=True)
    outsider = Client()
    outsider.force_login(eve)
    code = game.table.invite_code
    assert (
        outsider.post(reverse("game_review", args=[game.pk]) + f"?code={code}").status_code == 404
    )
    player = Client()
    player.force_login(bob)
    assert player.post(reverse("game_review", args=[game.pk])).status_code == 302
    assert GameReview.objects.filter(game=game).exists()
    assert Client().get(f"/api/v1/games/{game.pk}/review").status_code == 404


def test_the_profile_shows_the_points_lost_a_hand_over_reviewed_rated_games() -> None:
    four = people("alice", "bob", "carol", "dave")
    game = finished_game(four, rated=True)
    profile = reverse("profile", args=["alice"])
    assert (
        "by the bot\N{RIGHT SINGLE QUOTATION MARK}s review"
        not in Client().get(profile).content.decode()
    )
    review = _made(game.pk, four[0])
    mine = [verdict for verdict in review.verdicts if verdict["seat"] == 0]
    hands = {verdict["hand"] for verdict in mine}
    expected = sum(verdict["loss"] for verdict in mine) / len(hands)
    shown = Client().get(profile).content.decode()
    assert f"{expected:.2f} (1 reviewed rated game)" in shown


def test_a_void_games_review_says_so_and_counts_in_no_average() -> None:
    four = people("alice", "bob", "carol", "dave")
    game = finished_game(four, rated=True)
    _made(game.pk, four[0])
    type(game).objects.filter(pk=game.pk).update(void=True)
    page = Client().get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "This game is void: its review stands" in page
    profile = Client().get(reverse("profile", args=["alice"])).content.decode()
    assert "reviewed rated game" not in profile
