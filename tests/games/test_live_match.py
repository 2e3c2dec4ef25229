"""Four people play a whole match through their sockets, and no screen shows a hidden card."""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.engine import (
    Card,
    Match,
    Move,
    Phase,
    Rules,
    cards_of,
    fingerprint,
    new_seed,
    parse_cards,
    places_for,
)
from games.models import Game
from tests.helpers.screens import Fragments
from tests.helpers.sockets import (
    TIMEOUT,
    data_cards,
    htmx_move,
    lobby_socket,
    open_table_socket,
    session_cookie,
    table_socket,
    version_of,
)
from tests.helpers.tables import FOUR, people, table_with

RANK_WORDS = "two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace"
CARD_NAME = re.compile(rf"\b({RANK_WORDS}) of (clubs|diamonds|hearts|spades)\b")
CARD_DISPLAY = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])([♣♦♥♠])")
YOU_PASSED = re.compile(r"You passed (.*?) (?:left|right|across)\.")


def _card_from_name(rank: str, suit: str) -> Card:
    return Card.parse("23456789TJQKA"[RANK_WORDS.split("|").index(rank)] + suit[0].upper())


def _card_from_display(rank: str, symbol: str) -> Card:
    return Card.parse(("T" if rank == "10" else rank) + "CDHS"["♣♦♥♠".index(symbol)])


def mentioned_cards(fragment: str) -> set[Card]:
    """Every card a fragment names: hand buttons, words for screen readers, symbols, titles."""
    text = html_lib.unescape(fragment)
    cards = set(parse_cards(data_cards(fragment)))
    cards |= {_card_from_name(rank, suit) for rank, suit in CARD_NAME.findall(text)}
    cards |= {_card_from_display(rank, symbol) for rank, symbol in CARD_DISPLAY.findall(text)}
    return cards


@dataclass(frozen=True)
class Knowledge:
    """What each seat may have seen at one version of the game."""

    own: tuple[frozenset[Card], ...]  # dealt to the seat this hand, plus what was passed to it
    holding: tuple[tuple[Card, ...], ...]  # in each hand now
    passed: tuple[frozenset[Card], ...]  # what each seat chose to pass this hand
    played: frozenset[Card]  # every card played this hand: public
    before: frozenset[Card] = frozenset()  # played in the hand before: public too

    @classmethod
    def of(cls, match: Match) -> Knowledge:
        hand = match.hand
        played = [card for trick in hand.tricks for card in trick.cards]
        played += [card for _, card in hand.current_trick]
        return cls(
            own=tuple(
                frozenset(cards_of(hand.dealt[seat])) | frozenset(hand.received(seat) or ())
                for seat in range(match.players)
            ),
            holding=tuple(tuple(hand.holding(seat)) for seat in range(match.players)),
            passed=tuple(frozenset(hand.passed(seat) or ()) for seat in range(match.players)),
            played=frozenset(played),
            before=frozenset(card for trick in match.hands[-1].tricks for card in trick.cards)
            if match.hands
            else frozenset(),
        )

    def cards_of_seat(self, seat: int | None) -> frozenset[Card]:
        """What a seat holds or held this hand (a spectator, ``None``, holds nothing)."""
        return frozenset() if seat is None else self.own[seat]

    def passed_between_others(self, seat: int | None) -> frozenset[Card]:
        """Cards that other seats passed, and which nobody has played yet."""
        hidden: set[Card] = set()
        for passer, cards in enumerate(self.passed):
            if passer != seat:
                hidden |= cards
        return frozenset(hidden - self.cards_of_seat(seat) - self.played)


# What the table shows of the hand before (its last trick, what each seat took) until this
# hand's first card: checked against that hand's played cards, not this hand's.
PAST_HAND = re.compile(r"<section[^>]*\bdata-past-hand\b[^>]*>.*?</section>", re.DOTALL)


def assert_nothing_hidden_shown(fragment: str, seat: int | None, known: Knowledge) -> None:
    for past in PAST_HAND.findall(fragment):
        assert mentioned_cards(past) <= known.before, f"seat {seat} was told of a hidden card"
    fragment = PAST_HAND.sub("", fragment)
    mine = known.cards_of_seat(seat)
    hand_buttons = parse_cards(data_cards(fragment))
    assert set(hand_buttons) <= mine, f"seat {seat} was shown {set(hand_buttons) - mine}"
    if 'id="my-hand"' in fragment:  # a push carries the hand only when it changed
        assert hand_buttons == ([] if seat is None else list(known.holding[seat]))
    mentioned = mentioned_cards(fragment)
    assert mentioned <= mine | known.played, (
        f"seat {seat} was told of {mentioned - mine - known.played}"
    )
    assert not mentioned & known.passed_between_others(seat)
    for listed in YOU_PASSED.findall(html_lib.unescape(fragment)):
        assert seat is not None
        cards = {_card_from_display(r, s) for r, s in CARD_DISPLAY.findall(listed)}
        assert cards == known.passed[seat]


# Setting the table ----------------------------------------------------------------------


def _four_people_at_a_rated_table() -> tuple[int, int, list[str]]:
    table = table_with(FOUR, preset="custom", options={"target": 25}, rated=True)
    game = services.start_game(table.pk, table.host)
    # Dealt again, before anyone has seen a card, from a seed that keeps the test short.
    seed = _seed_for_a_short_match(Rules.from_json(game.rules), game.added_seeds)
    Game.objects.filter(pk=game.pk).update(seed=seed, fingerprint=fingerprint(seed))
    return table.pk, game.pk, [session_cookie(user) for user in people(*FOUR)]


def _current(game_id: int) -> tuple[Game, Match]:
    game = Game.objects.get(pk=game_id)
    return game, game.match()


# Choosing moves: everybody feeds alice points, so that the match is short ------------------


def _choose(match: Match) -> Move:
    """A legal move for a seat the game waits for, chosen knowing every hand (as a test may)."""
    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        holding = hand.holding(seat)
        if seat == 0:  # alice keeps her points and her high cards
            cards = sorted(holding, key=lambda c: (-c.points, c.rank))[:3]
        else:
            cards = sorted(holding, key=lambda c: c.rank)[-3:]
        return Move("pass", seat, tuple(cards))
    seat = hand.turn
    if hand.phase is Phase.MOON_CHOICE:
        return Move("moon", seat, choice="others")
    legal = hand.legal_plays(seat)
    trick = hand.current_trick
    led = trick[0][1].suit if trick else None
    following = led is None or any(c.suit is led for c in legal)
    if seat == 0:  # alice wins what she can and gives nothing away
        if following:
            card = max(legal, key=lambda c: (c.rank, c.points))
        else:
            card = min(legal, key=lambda c: (c.points, c.rank))
    elif not following:
        card = max(legal, key=lambda c: (c.points, c.rank))
    elif led is None:  # lead something alice can win
        alice = hand.holding(0)
        feeding = [c for c in legal if any(a.suit is c.suit and a.rank > c.rank for a in alice)]
        card = min(feeding or legal, key=lambda c: (c.rank, c.points))
    else:
        card = min(legal, key=lambda c: (c.rank, c.points))
    return Move("play", seat, (card,))


def _seed_for_a_short_match(rules: Rules, added_seeds: list[str]) -> bytes:
    """A random deal on which :func:`_choose` ends the match within two hands (112 moves)."""
    while True:
        seed = new_seed()
        match = Match(rules, seed, added_seeds)
        while not match.is_over and match.hand.number <= 2:
            match.apply(_choose(match))
        if match.is_over:
            return seed


def _message(move: Move, version: int) -> dict[str, Any]:
    """Each seat writes its moves a little differently, as clients may."""
    seat, action, choice = move.seat, move.kind, move.choice
    cards = [str(card) for card in move.cards]
    if seat == 0:
        return htmx_move(action, " ".join(cards), version, choice)
    if seat == 1:
        return {"action": action, "cards": " ".join(cards), "version": version, "choice": choice}
    if seat == 2:
        return {"action": action, "cards": cards, "version": version, "choice": choice}
    return {"action": action, "cards": ",".join(cards), "version": str(version), "choice": choice}


async def _receive_until(socket: WebsocketCommunicator, version: int) -> list[str]:
    """Every message up to and including the table at ``version``."""
    messages = []
    while True:
        message = await socket.receive_from(timeout=TIMEOUT)
        messages.append(message)
        if version_of(message) == version:
            return messages


def _final_page(table_id: int, cookie: str) -> str:
    client = Client()
    client.cookies.load(cookie)
    return client.get(f"/t/{table_id}/").content.decode()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_four_people_play_a_whole_match_and_nobody_sees_a_hidden_card() -> None:
    table_id, game_id, cookies = await database_sync_to_async(_four_people_at_a_rated_table)()
    game, match = await database_sync_to_async(_current)(game_id)
    known = {0: Knowledge.of(match)}
    sockets: list[WebsocketCommunicator] = []
    received: dict[int | None, list[str]] = {}
    for seat, cookie in enumerate(cookies):
        socket, first = await open_table_socket(table_id, cookie)
        sockets.append(socket)
        received[seat] = [first]
    watcher, first = await open_table_socket(table_id)  # an anonymous spectator
    received[None] = [first]

    while not game.is_over:
        move = _choose(match)
        await sockets[move.seat].send_json_to(_message(move, game.version))
        for other, socket in enumerate(sockets):
            received[other] += await _receive_until(socket, game.version + 1)
        received[None] += await _receive_until(watcher, game.version + 1)
        before = game.version
        game, match = await database_sync_to_async(_current)(game_id)
        assert game.version == before + 1
        known[game.version] = Knowledge.of(match)

    # Each screen showed its own thirteen cards, and the check below would notice another's.
    assert all(len(data_cards(received[seat][0])) == 13 for seat in range(4))
    assert not any(data_cards(message) for message in received[None])
    with pytest.raises(AssertionError):
        assert_nothing_hidden_shown(received[1][0], 0, known[0])
    for viewer, messages in received.items():  # a seat, or None: the spectator
        for message in messages:
            assert "flash-error" not in message, message
            version = version_of(message)
            if version is not None:
                assert_nothing_hidden_shown(message, viewer, known[version])
    assert game.status == Game.Status.FINISHED
    assert game.rated
    assert game.result is not None
    assert sorted(game.result["places"])[0] == 1
    seed = bytes(game.seed).hex()
    assert all(seed in messages[-1] for messages in received.values())
    assert seed in await database_sync_to_async(_final_page)(table_id, cookies[1])
    moves = await database_sync_to_async(game.engine_moves)()
    replayed = Match.replay(Rules.from_json(game.rules), bytes(game.seed), moves, game.added_seeds)
    assert list(replayed.totals) == game.result["totals"]
    assert list(places_for(replayed.totals)) == game.result["places"]
    for socket in [*sockets, watcher]:
        await socket.disconnect()


# The lobby, and sockets nobody may open ------------------------------------------------------


def _a_table(host: str, *, private: bool) -> int:
    user = User.objects.create_user(host)
    return services.create_table(user, private=private).pk


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_is_told_of_new_public_tables_and_not_private_ones() -> None:
    socket = lobby_socket()
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    assert await socket.receive_nothing()

    public = await database_sync_to_async(_a_table)("alice", private=False)
    listing = await socket.receive_from(timeout=TIMEOUT)
    assert 'id="table-list"' in listing
    assert f'href="/t/{public}/"' in listing

    private = await database_sync_to_async(_a_table)("bob", private=True)
    listing = await socket.receive_from(timeout=TIMEOUT)
    assert f'href="/t/{public}/"' in listing
    assert f'href="/t/{private}/"' not in listing
    assert "bob" not in listing
    await socket.disconnect()


def _lobby_pages() -> dict[str, str]:
    """The lobby as a visitor and as alice, signed in, are sent it."""
    alice = User.objects.get(username="alice")
    signed_in = Client()
    signed_in.force_login(alice)
    return {
        "visitor": Client().get("/").content.decode(),
        "alice": signed_in.get("/").content.decode(),
    }


def _table_list(page: str) -> str:
    """The page's #table-list, as the lobby's socket replaces it."""
    return Fragments(page[page.index('<div id="table-list"') :]).found["table-list"]


def _close_table(table_id: int) -> None:
    services.close_table(table_id, User.objects.get(username="alice"))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_lobby_list_pushed_to_everyone_leaves_the_signed_in_told_to_start_one() -> None:
    table_id = await database_sync_to_async(_a_table)("alice", private=False)
    socket = lobby_socket()
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    await database_sync_to_async(_close_table)(table_id)
    # The list comes with the lobby's counts and featured game, each swapped in by its id.
    pushed = Fragments((await socket.receive_from(timeout=TIMEOUT)).strip()).found["table-list"]
    await socket.disconnect()
    pages = await database_sync_to_async(_lobby_pages)()

    assert "No tables yet." in pushed
    for viewer, page in pages.items():
        # The push is what each page shows in its list: it holds nothing said to one viewer.
        assert _table_list(page) == pushed, viewer
        after_the_push = page.replace(_table_list(page), pushed)
        assert ("Start one below." in after_the_push) == (viewer == "alice"), viewer


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_lobby_socket_from_another_site_or_a_socket_to_no_table_is_refused() -> None:
    table_id = await database_sync_to_async(_a_table)("alice", private=False)

    for socket in (lobby_socket(origin=b"http://evil.example"), table_socket(table_id + 1000)):
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert not connected
