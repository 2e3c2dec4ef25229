"""A table socket pushes only the fragments a move changed (games/live.py): applied to the
screen, they must show exactly what the whole table would, for every seat and for spectators,
at every move of a hand and across hands."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.template.loader import render_to_string

from games import live, services
from games.engine import Phase
from games.models import Game, Table

from .screens import Fragments, board_fragments, steady

pytestmark = pytest.mark.django_db


def _people_at(names: list[str], **options: Any) -> Game:
    people = [User.objects.create_user(name) for name in names]
    table = services.create_table(people[0], preset="custom", options=options)
    for index, person in enumerate(people[1:], start=1):
        services.take_seat(table.pk, person, index)
    return services.start_game(table.pk, table.host)


def _next_move(game: Game, step: int) -> None:
    """Some legal move: passes of different cards, and not always the lowest card."""
    match = Game.objects.get(pk=game.pk).live_match()
    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        held = hand.holding(seat)
        cards = [str(card) for card in held[step % 3 : step % 3 + 3]]
        services.act(game.pk, seat, "pass", version=None, cards=cards)
    elif hand.phase is Phase.MOON_CHOICE:
        services.act(game.pk, hand.turn, "moon", version=None, choice="others")
    else:
        legal = hand.legal_plays(hand.turn)
        services.act(
            game.pk, hand.turn, "play", version=None, cards=[str(legal[step % len(legal)])]
        )


def test_the_fragments_pushed_after_each_move_show_what_the_whole_table_shows() -> None:
    game = _people_at(["alice", "bob", "carol", "dave"], target=40)
    viewers: list[Any] = [*User.objects.order_by("pk")[:4], AnonymousUser()]
    screens: list[dict[str, str]] = []
    keys: list[live.Keys | None] = []
    table = Table.objects.get(pk=game.table_id)
    for viewer in viewers:
        state = live.state_for(table.pk)
        assert state is not None
        push = live.render(state, viewer, code="", csrf_token="token", keys=None)
        screens.append(board_fragments(push.html))
        keys.append(push.keys)
    sizes: list[int] = []
    for step in range(400):
        game.refresh_from_db()
        if game.is_over:
            break
        _next_move(game, step)
        state = live.state_for(table.pk, (game.pk, game.version + 1))
        assert state is not None and state.shown == (game.pk, game.version + 1)
        for index, viewer in enumerate(viewers):
            push = live.render(state, viewer, code="", csrf_token="token", keys=keys[index])
            sizes.append(len(push.html))
            screens[index].update(Fragments(push.html).found)
            keys[index] = push.keys
            whole = live.render(state, viewer, code="", csrf_token="token", keys=None).html
            expected = board_fragments(whole)
            assert steady(screens[index]) == steady(expected), (
                f"after move {step + 1}, viewer {index}"
            )
    game.refresh_from_db()
    assert game.is_over, "the match should end within the moves played"
    whole = len(live.render(state, viewers[0], code="", csrf_token="t", keys=None).html)
    assert sum(sizes) / len(sizes) < whole / 3  # the pushes are a small part of the table


def test_spectators_share_one_render_of_each_version(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _people_at(["alice", "bob", "carol", "dave"])
    watchers = [User.objects.create_user(f"watcher{n}") for n in range(5)]
    state = live.state_for(game.table_id)
    assert state is not None
    keys = {w.pk: live.render(state, w, code="", csrf_token="", keys=None).keys for w in watchers}
    _next_move(game, 0)
    renders: list[str] = []
    monkeypatch.setattr(
        live,
        "render_to_string",
        lambda name, context: renders.append(name) or render_to_string(name, context),
    )
    state = live.state_for(game.table_id, (game.pk, 1))
    assert state is not None
    pushes = [live.render(state, w, code="", csrf_token="", keys=keys[w.pk]).html for w in watchers]

    assert len(set(pushes)) == 1 and 'data-version="1"' in pushes[0]
    assert len(renders) == len(live.FRAGMENTS)  # one render of each fragment, for all five


def test_spectators_fragments_that_a_move_left_alone_are_not_rendered_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _people_at(["alice", "bob", "carol", "dave"])
    watcher = User.objects.create_user("watcher")
    state = live.state_for(game.table_id)
    assert state is not None
    keys = live.render(state, watcher, code="", csrf_token="", keys=None).keys
    for version in (1, 2):
        _next_move(game, version)
        state = live.state_for(game.table_id, (game.pk, version))
        assert state is not None
        keys = live.render(state, watcher, code="", csrf_token="", keys=keys).keys
    renders: list[str] = []
    monkeypatch.setattr(
        live,
        "render_to_string",
        lambda name, context: renders.append(name) or render_to_string(name, context),
    )
    _next_move(game, 3)  # the third pass: the seats change, not the scores or the deal's seed
    state = live.state_for(game.table_id, (game.pk, 3))
    assert state is not None
    push = live.render(state, watcher, code="", csrf_token="", keys=keys)

    rendered = {name.removeprefix("games/table.html#") for name in renders}
    assert "seats" in rendered and 'id="seats"' in push.html
    assert not rendered & {"scores", "fairness", "result"}


def test_a_state_is_loaded_once_for_all_the_sockets_of_a_version() -> None:
    game = _people_at(["alice", "bob", "carol", "dave"])
    _next_move(game, 0)
    first = live.state_for(game.table_id, (game.pk, 1))

    assert live.state_for(game.table_id, (game.pk, 1)) is first
    assert live.state_for(game.table_id, (game.pk, 0)) is first  # an older message: no load
    _next_move(game, 1)
    second = live.state_for(game.table_id, (game.pk, 2))
    assert second is not first and second is not None and second.shown == (game.pk, 2)


def test_a_move_made_in_this_process_is_shown_from_what_it_left_in_memory(
    django_assert_num_queries: Any,
) -> None:
    game = _people_at(["alice", "bob", "carol", "dave"])
    assert live.state_for(game.table_id) is not None
    _next_move(game, 0)
    row = Game.objects.get(pk=game.pk)
    match = row.live_match()

    bob = User.objects.get(username="bob")
    with django_assert_num_queries(0):
        state = live.state_for(game.table_id, (game.pk, 1), (row, match))
        assert state is not None and state.shown == (game.pk, 1) and state.match is match
        push = live.render(state, bob, code="", csrf_token="", keys=None)
    assert 'data-version="1"' in push.html
