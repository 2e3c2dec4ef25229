"""A table socket pushes only the fragments a move changed (live/table_state.py, live/fragments.py):
applied to the screen, they must show exactly what the whole table would, for every seat and
for spectators, at every move of a hand and across hands. The fragments for everyone are
rendered once a version for the whole table, a seat's own only when they changed."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User

from games import services
from games.engine import Phase
from games.models import Game, Table
from live import fragments, table_state
from tests.helpers.screens import Fragments, board_fragments, steady
from tests.helpers.tables import game_with, table_with

pytestmark = pytest.mark.django_db


def _people_at(names: list[str], seed: bytes | None = None, **options: Any) -> Game:
    """``names`` at a Custom table of ``options``, its game dealt (from ``seed``, if given)."""
    if seed is None:
        return game_with(names, preset="custom", options=options)
    table = table_with(names, preset="custom", options=options)
    Table.objects.filter(pk=table.pk).update(next_seed=seed)
    return services.start_game(table.pk, table.host)


def _next_move(game: Game, step: int, state: table_state.TableState | None = None) -> None:
    """Some legal move (passes of different cards, and not always the lowest card), made on
    ``state`` in memory as a table's relay makes it, or on the game loaded afresh."""
    held = None if state is None else state.running
    match = Game.objects.get(pk=game.pk).live_match() if held is None else held.match
    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        cards = [str(card) for card in hand.holding(seat)[step % 3 : step % 3 + 3]]
        kind, choice = "pass", ""
    elif hand.phase is Phase.MOON_CHOICE:
        seat, kind, cards, choice = hand.turn, "moon", [], "others"
    else:
        legal = hand.legal_plays(hand.turn)
        seat, kind, cards, choice = hand.turn, "play", [str(legal[step % len(legal)])], ""
    services.act(
        game.pk, seat, kind, version=None, cards=cards, choice=choice, held=held, publish=False
    )
    if state is not None:
        state.moved()


def _loaded(game: Game) -> table_state.TableState:
    state = table_state.load(game.table_id)
    assert state is not None
    return state


def test_the_fragments_pushed_after_each_move_show_what_the_whole_table_shows() -> None:
    # One deal, always the same: the pushes' sizes, measured below, move with the cards dealt.
    game = _people_at(["alice", "bob", "carol", "dave"], target=40, seed=bytes(range(32)))
    viewers: list[Any] = [*User.objects.order_by("pk")[:4], AnonymousUser()]
    state = _loaded(game)
    pushes = [table_state.whole(state, viewer, code="", csrf="token") for viewer in viewers]
    screens = [board_fragments(push.html) for push in pushes]
    keys = [push.keys for push in pushes]
    sizes: list[int] = []
    for step in range(400):
        if state.game is None or state.game.is_over:
            break
        _next_move(game, step, state)
        if state.game.is_over:
            state = _loaded(game)
        for index, viewer in enumerate(viewers):
            push = table_state.changed(state, viewer, code="", csrf="token", keys=keys[index])
            sizes.append(len(push.html))
            screens[index].update(Fragments(push.html).found)
            keys[index] = push.keys
            expected = board_fragments(table_state.whole(state, viewer, code="", csrf="token").html)
            assert steady(screens[index]) == steady(expected), (
                f"after move {step + 1}, viewer {index}"
            )
    game.refresh_from_db()
    assert game.is_over, "the match should end within the moves played"
    whole = len(table_state.whole(state, viewers[0], code="", csrf="t").html)
    assert sum(sizes) / len(sizes) < whole / 3  # the pushes are a small part of the table


def test_a_moves_renders_do_not_grow_with_the_screens_watching() -> None:
    game = _people_at(["alice", "bob", "carol", "dave"])
    players: list[Any] = list(User.objects.order_by("pk"))
    watchers: list[Any] = [User.objects.create_user(f"watcher{n}") for n in range(10)]
    watchers.append(AnonymousUser())
    state = _loaded(game)
    for step in range(4):  # the passes; then the first card
        _next_move(game, step, state)
    keys = {viewer: table_state.whole(state, viewer, code="", csrf="").keys for viewer in players}
    keys.update(
        {viewer: table_state.whole(state, viewer, code="", csrf="").keys for viewer in watchers}
    )
    _next_move(game, 4, state)

    def renders(viewers: list[Any]) -> tuple[int, list[str]]:
        state.moved()  # nothing of this version rendered yet
        before = fragments.renders
        pushes = [
            table_state.changed(state, v, code="", csrf="", keys=keys[v]).html for v in viewers
        ]
        return fragments.renders - before, pushes

    alone, _ = renders(players)
    watched, pushes = renders(players + watchers)

    assert watched <= alone + len(fragments.PRIVATE)  # the spectators' own, once for all
    spectators = pushes[len(players) :]
    assert len(set(spectators)) == 1 and 'data-version="5"' in spectators[0]
    assert all('data-version="5"' in push for push in pushes)
    assert alone < len(fragments.PUBLIC) + 2 * len(fragments.PRIVATE)  # not every seat's own


def test_a_fragment_a_move_left_alone_is_not_rendered_again() -> None:
    game = _people_at(["alice", "bob", "carol", "dave"])
    watcher = User.objects.create_user("watcher")
    state = _loaded(game)
    keys = table_state.whole(state, watcher, code="", csrf="").keys
    _next_move(game, 0, state)
    _next_move(game, 1, state)
    keys = table_state.changed(state, watcher, code="", csrf="", keys=keys).keys
    _next_move(game, 2, state)  # the third pass: the seats change, not the scores or the seed

    push = table_state.changed(state, watcher, code="", csrf="", keys=keys)

    assert 'id="seats"' in push.html
    assert not {"scores", "fairness", "result"} & set(Fragments(push.html).found)


def test_a_move_made_on_the_state_in_memory_reads_nothing_from_the_database(
    django_assert_num_queries: Any,
) -> None:
    game = _people_at(["alice", "bob", "carol", "dave"])
    state = _loaded(game)
    bob = User.objects.get(username="bob")
    keys = table_state.whole(state, bob, code="", csrf="").keys

    with django_assert_num_queries(1 if _one_statement() else 4):  # one write (SQLite: in a
        _next_move(game, 0, state)  # transaction: begin, update, insert, commit)
    with django_assert_num_queries(0):
        push = table_state.changed(state, bob, code="", csrf="", keys=keys)

    assert 'data-version="1"' in push.html
    assert Game.objects.get(pk=game.pk).version == 1


def _one_statement() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"
