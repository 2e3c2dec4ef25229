"""Finished games: the site-wide list with its filters, a game's page and its replay."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games import services
from games.engine import Match, Rules, cards_of
from games.history_selectors import replay_steps
from games.models import Game
from games.words import card_name
from tests.helpers.records import ended_early, play_cards
from tests.helpers.tables import FOUR, fresh, game_with

pytestmark = pytest.mark.django_db


def _page(game: Game, **query: str | int) -> str:
    response = Client().get(reverse("game_detail", args=[game.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def _text(html: str) -> str:
    """The words on the page, without tags or runs of white space."""
    words = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    return re.sub(r" ([,.;)])", r"\1", words)


def _replay(html: str) -> str:
    return html[html.index('id="replay-step"') :]


def _seat_cards(html: str) -> list[list[str]]:
    """Each seat's cards as the replay names them for screen readers, in seat order."""
    seats = re.findall(r'<ul class="cards"[^>]*>(.*?)</ul>', html, flags=re.S)
    return [
        re.findall(r'<span class="visually-hidden">([^<,]+)[^<]*</span></li>', seat)
        for seat in seats
    ]


def _table_cards(html: str) -> list[str]:
    table = re.search(r'<div class="replay-table".*?</div>', html, flags=re.S)
    assert table is not None
    return re.findall(r'<span class="visually-hidden">([^<]+)</span>', table.group(0))


# A game's page ------------------------------------------------------------------------------


def test_a_finished_games_page_shows_players_placements_and_points_per_hand() -> None:
    game = ended_early(resigner=2)
    text = _text(_page(game))
    match = game.match()
    assert f"Game {game.pk} Standard, 4 players, rated" in text
    places = game.result["places"]  # type: ignore[index]
    assert places[2] == 4
    points = match.totals[2]
    assert f"4th carol, {points} point{'' if points == 1 else 's'} (resigned)" in text
    first = match.hand_points()[0]
    assert (
        "Points by hand Hand alice bob carol dave 1 (pass left) " + " ".join(map(str, first))
        in text
    )
    assert "2 (pass right) not scored: the game ended during this hand" in text
    assert "Total " + " ".join(map(str, match.totals)) in text
    assert "No hearts and no Q♠ on the first trick." in text


@pytest.mark.parametrize(
    ("language", "gone", "passed"),
    [
        ("en", "carol, 0 points (left)", "1 (pass left)"),
        ("de", "carol, 0 Punkte (ist gegangen)", "1 (Weitergabe nach links)"),
        ("fr", "carol, 0 point (est parti)", "1 (passage à gauche)"),
        ("es", "carol, 0 puntos (se fue)", "1 (pase a la izquierda)"),
    ],
)
def test_a_games_page_tells_a_player_who_left_from_a_pass_to_the_left(
    language: str, gone: str, passed: str
) -> None:
    game = game_with(rated=True)
    play_cards(game, 4)
    services.resign(game.pk, 2, "left")  # carol ran out of time three times in a row
    reader = Client(headers={"Accept-Language": language})
    text = _text(reader.get(reverse("game_detail", args=[game.pk])).content.decode())
    assert gone in text and passed in text


def test_a_finished_games_page_publishes_the_seed_and_links_to_the_record() -> None:
    game = ended_early()
    html = _page(game)
    assert bytes(game.seed).hex() in html
    assert game.fingerprint in html
    assert reverse("game_record", args=[game.pk]) in html
    assert reverse("game_verify", args=[game.pk]) in html


def test_bots_are_marked_as_bots_on_the_games_page() -> None:
    game = services.play_now(User.objects.create_user("alice"))
    play_cards(game, 1)
    services.resign(game.pk, 0)
    text = _text(_page(game))
    assert "casual" in text
    assert "Bot 2 bot" in text and "alice bot" not in text


def test_a_running_games_page_says_so_links_to_its_table_and_shows_nothing_secret() -> None:
    game = game_with()
    play_cards(game, 3)
    html = _page(game)
    assert "This game is still being played" in html
    assert reverse("table", args=[game.table_id]) in html
    assert bytes(game.seed).hex() not in html
    assert game.fingerprint in html
    hand = game.match().hand
    assert not any(card.name in html for card in hand.holding(0))
    assert "replay-step" not in html and reverse("game_record", args=[game.pk]) not in html


def test_an_unknown_game_is_not_found() -> None:
    assert Client().get(reverse("game_detail", args=[999])).status_code == 404


# The replay -----------------------------------------------------------------------------------


def test_the_replay_starts_at_the_first_deal_with_every_hand_face_up() -> None:
    game = ended_early()
    html = _replay(_page(game))
    dealt = Match(Rules.from_json(game.rules), bytes(game.seed), game.added_seeds).hand
    assert _seat_cards(html) == [[card.name for card in dealt.holding(s)] for s in range(4)]
    assert _table_cards(html) == []
    assert "Hand 1, dealt by alice: everyone passes three cards left." in _text(html)


@pytest.mark.parametrize("plays", [1, 3, 4, 6])
def test_the_replay_at_a_step_shows_the_cards_on_the_table_and_every_hand(plays: int) -> None:
    game = ended_early()
    moves = game.engine_moves()
    k = 4 + plays  # four passes, then the plays
    after = game.match()
    after = Match.replay(after.rules, after.seed, moves[:k], after.added_seeds)
    html = _replay(_page(game, step=k + 1))  # step 1 is the deal, step k + 1 follows move k
    assert _seat_cards(html) == [[c.name for c in after.hand.holding(s)] for s in range(4)]
    if plays % 4:
        on_table = [card.name for _, card in after.hand.current_trick]
    else:  # a trick just taken stays on the table for that step
        on_table = [card.name for card in after.hand.tricks[-1].cards]
        assert "takes the trick" in _text(html)
    assert _table_cards(html) == on_table
    last = moves[k - 1]
    assert f"plays the {last.cards[0].display}" in _text(html)


def test_the_replay_steps_through_each_pass_before_the_exchange() -> None:
    game = ended_early()
    html = _replay(_page(game, step=2))
    passed = game.engine_moves()[0]
    assert f"alice passes {', '.join(c.display for c in passed.cards)} left to bob." in _text(html)
    assert html.count("chosen to pass") == 3
    four = _text(_replay(_page(game, step=5)))
    assert "The passes change hands." in four


def test_the_hand_selector_jumps_to_the_deal_of_that_hand() -> None:
    game = ended_early()
    steps = replay_steps(game.match())
    html = _replay(_page(game, hand=2))
    assert "Hand 2, dealt by bob: everyone passes three cards right." in _text(html)
    first_of_two = next(i for i, step in enumerate(steps) if step.hand == 2)
    assert f"Step {first_of_two + 1} of {len(steps)}" in _text(html)


def test_a_replay_address_names_the_step_it_shows_and_the_hand_picker_asks_for_a_step() -> None:
    game = ended_early()
    steps = replay_steps(game.match())
    assert f"Step 5 of {len(steps)}" in _text(_page(game, step=5))
    # The picker's choice of hand 2 goes into the address as the step of hand 2's deal.
    first_of_two = next(i for i, step in enumerate(steps) if step.hand == 2) + 1
    picker = re.search(r'<select id="replay-hand" name="(\w+)">(.*?)</select>', _page(game), re.S)
    assert picker and picker.group(1) == "step"
    assert f'<option value="{first_of_two}">Hand 2</option>' in picker.group(2)
    html = _replay(_page(game, step=first_of_two))
    assert f"Step {first_of_two} of {len(steps)}" in _text(html)
    assert "Hand 2, dealt by bob" in _text(html)


def test_the_last_step_of_a_game_ended_early_is_the_resignation() -> None:
    game = ended_early(resigner=2)
    steps = replay_steps(game.match())
    html = _replay(_page(game, step=len(steps)))
    assert "carol resigned: the game ends." in _text(html)
    assert 'data-nav="next"' not in html and 'data-nav="last"' not in html
    assert 'data-nav="previous"' in html


def test_the_replay_links_work_without_javascript_and_swap_with_htmx() -> None:
    game = ended_early()
    html = _page(game, step=5)
    url = reverse("game_detail", args=[game.pk])
    assert 'href="?step=6"' in html and 'href="?step=4"' in html and 'href="?step=1"' in html
    assert f'hx-get="{url}?step=6"' in html and 'hx-push-url="true"' in html
    assert 'aria-live="polite"' in html


def test_an_htmx_step_renders_only_the_replay_and_announces_the_step() -> None:
    game = ended_early()
    response = Client().get(
        reverse("game_detail", args=[game.pk]), {"step": 3}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="replay-step"')
    assert "<h1" not in html
    assert '<p id="replay-announcer" hx-swap-oob="innerHTML">bob passes' in html


def _page_in(language: str, game: Game, **query: str | int) -> str:
    client = Client()
    client.cookies["hearts_language"] = language
    response = client.get(reverse("game_detail", args=[game.pk]), query)
    assert response.status_code == 200
    return response.content.decode()


def _kitty_cards(html: str) -> list[str]:
    kitty = re.search(r'<p class="kitty">.*?</p>', html, flags=re.S)
    assert kitty is not None
    return re.findall(r'<span class="visually-hidden">([^<]+)</span>', kitty.group(0))


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_the_replay_names_every_card_for_screen_readers_in_the_pages_language(
    language: str,
) -> None:
    game = ended_early()
    k = 4 + 2  # the four passes, then two cards on the table
    after = game.match()
    after = Match.replay(after.rules, after.seed, game.engine_moves()[:k], after.added_seeds)
    html = _replay(_page_in(language, game, step=k + 1))
    with translation.override(language):
        hands = [[card_name(c) for c in after.hand.holding(s)] for s in range(4)]
        on_table = [card_name(card) for _, card in after.hand.current_trick]
    assert hands != [[c.name for c in after.hand.holding(s)] for s in range(4)]
    assert _seat_cards(html) == hands
    assert _table_cards(html) == on_table


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_the_replay_names_the_kittys_cards_in_the_pages_language(language: str) -> None:
    game = game_with(FOUR[:3], preset="encyclopedia", players=3, options={"short_pack": "kitty"})
    services.resign(game.pk, 1)
    html = _replay(_page_in(language, game))
    game = fresh(game)
    kitty = cards_of(
        Match(Rules.from_json(game.rules), bytes(game.seed), game.added_seeds).hand.kitty
    )
    with translation.override(language):
        assert _kitty_cards(html) == [card_name(card) for card in kitty]
    assert _kitty_cards(html) != [card.name for card in kitty]


def test_a_step_past_the_end_shows_the_last_step() -> None:
    game = ended_early()
    steps = replay_steps(game.match())
    assert f"Step {len(steps)} of {len(steps)}" in _text(_page(game, step=10_000))


# The list of games ------------------------------------------------------------------------------


def _listed(**query: str | int) -> list[int]:
    response = Client().get(reverse("game_list"), query)
    assert response.status_code == 200
    return [int(pk) for pk in re.findall(r'href="/g/(\d+)/"', response.content.decode())]


def _finished(
    host: str, *, rated: bool = False, preset: str = "standard", resign: bool = True
) -> Game:
    """A game of ``host`` against three bots, resigned after one card (or before any)."""
    user = User.objects.get_or_create(username=host)[0]
    table = services.create_table(user, preset=preset, rated=rated)
    services.fill_with_bots(table.pk, user)
    game = services.start_game(table.pk, user)
    if resign:
        play_cards(game, 1)
    services.resign(game.pk, 0)
    return Game.objects.get(pk=game.pk)


def test_the_list_shows_finished_games_newest_first_but_not_running_ones() -> None:
    older = _finished("erin")
    newer = _finished("frank")
    running = game_with()
    assert _listed() == [newer.pk, older.pk]
    assert running.pk not in _listed()


def test_each_row_shows_the_players_rule_set_rated_and_result() -> None:
    _finished("alice", preset="classic")
    text = _text(Client().get(reverse("game_list")).content.decode())
    row = "alice, Bot 2 bot, Bot 3 bot, Bot 4 bot Classic Casual"
    assert f"{row} Shared by Bot 2, Bot 3 and Bot 4; alice resigned Game" in text


def test_the_list_filters_by_player() -> None:
    alices = _finished("alice")
    _finished("bob")
    assert _listed(player="alice") == [alices.pk]
    assert _listed(player="nobody") == []


def test_the_list_filters_by_rule_set_and_by_rated() -> None:
    classic = _finished("erin", preset="classic")
    standard = _finished("erin")
    assert _listed(preset="classic") == [classic.pk]
    rated = ended_early()  # four people at a rated table
    assert _listed(rated="yes") == [rated.pk]
    assert _listed(rated="no") == [standard.pk, classic.pk]


def test_the_list_filters_custom_games_as_it_lists_them() -> None:
    custom = _finished("erin", preset="custom")
    _finished("erin")

    assert _listed(preset="custom") == [custom.pk]
    page = Client().get(reverse("game_list")).content.decode()
    assert '<option value="custom">Custom</option>' in page


def test_the_list_filters_by_result() -> None:
    early = _finished("alice")
    before_a_card = _finished("bob", resign=False)
    assert before_a_card.result is not None
    assert before_a_card.result["reason"] == "resigned"
    assert _listed(result="early") == [before_a_card.pk, early.pk]
    assert _listed(result="finished") == []


def test_the_list_filters_by_date() -> None:
    old = _finished("alice")
    Game.objects.filter(pk=old.pk).update(finished_at=timezone.now() - timedelta(days=10))
    new = _finished("bob")
    today = timezone.now().date()
    assert _listed(since=today.isoformat()) == [new.pk]
    assert _listed(until=(today - timedelta(days=5)).isoformat()) == [old.pk]


def test_the_list_pages_by_25_and_keeps_its_filters_across_pages() -> None:
    games = [_finished("alice", resign=False) for _ in range(26)]
    _finished("bob", resign=False)
    first = Client().get(reverse("game_list"), {"player": "alice"}).content.decode()
    assert len(re.findall(r'href="/g/\d+/"', first)) == 25
    assert "page 1 of 2" in _text(first)
    assert 'href="?player=alice&amp;page=2"' in first
    assert _listed(player="alice", page=2) == [games[0].pk]


def test_a_bad_filter_is_shown_and_the_list_still_answers() -> None:
    _finished("alice")
    response = Client().get(reverse("game_list"), {"since": "not a date"})
    assert response.status_code == 200
    assert "Enter a valid date" in response.content.decode()


def test_a_game_resigned_before_a_card_has_a_page_with_its_deal_and_the_resigner_last() -> None:
    game = game_with()
    services.resign(game.pk, 1)
    text = _text(_page(game))
    assert "Shared by alice, carol and dave; bob resigned." in text
    assert "Step 1 of 2" in text
    assert "bob resigned: the game ends." in _text(_page(game, step=2))
