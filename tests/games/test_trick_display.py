"""Every card seen: a completed trick stays on the table, each card by its seat, with who took
it, until the next lead; the last trick can be looked at again while the next is under way;
the end of a hand shows what each seat took. The same for a player and for a spectator."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import Match, Phase
from games.models import Game
from tests.helpers.sockets import open_table_socket, session_cookie

pytestmark = pytest.mark.django_db

VOID = {"br", "input", "img", "meta", "link", "hr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    children: list[Element] = field(default_factory=list)
    text: str = ""

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    def all(self) -> list[Element]:
        found = [self]
        for child in self.children:
            found += child.all()
        return found

    def find(self, *, id: str = "", cls: str = "") -> list[Element]:
        return [
            el
            for el in self.all()
            if (not id or el.attrs.get("id") == id) and (not cls or cls in el.classes)
        ]

    def words(self) -> str:
        return " ".join(" ".join(el.text.split()) for el in self.all() if el.text.strip()).strip()

    def shown_to(self, seat: int | None) -> Element:
        """The element as the player in ``seat`` (None: a spectator) reads it: of the words
        addressed to players, only those the page's CSS shows that screen."""

        def seen(el: Element) -> bool:
            if "data-for" in el.attrs:
                return seat is not None and str(seat) in el.attrs["data-for"].split()
            if "data-not-for" in el.attrs:
                return seat is None or str(seat) not in el.attrs["data-not-for"].split()
            return True

        kept = [child.shown_to(seat) for child in self.children if seen(child)]
        return Element(self.tag, self.attrs, kept, self.text)


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.root = Element("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.stack[-1].children.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_endtag(self, tag: str) -> None:
        while len(self.stack) > 1:
            if self.stack.pop().tag == tag:
                break

    def handle_data(self, data: str) -> None:
        # Text after a child element is kept after it, so that words() reads in page order.
        element = self.stack[-1]
        if element.children:
            element.children.append(Element("#text", {}, text=data))
        else:
            element.text += data


def parse(page: str) -> Element:
    tree = _Tree()
    tree.feed(page)
    return tree.root


NAMES = ("alice", "bob", "carol", "dave")


def _four_people() -> tuple[Game, list[Client]]:
    users = [User.objects.create_user(name) for name in NAMES]
    table = services.create_table(users[0])
    for index, user in enumerate(users[1:], start=1):
        services.take_seat(table.pk, user, index)
    game = services.start_game(table.pk, users[0])
    clients = []
    for user in users:
        client = Client()
        client.force_login(user)
        clients.append(client)
    return game, clients


def _step(game: Game) -> Match:
    """The seat the game waits for passes its first three cards or plays its lowest legal."""
    match = Game.objects.get(pk=game.pk).match()
    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        cards = [str(card) for card in hand.holding(seat)[:3]]
        services.act(game.pk, seat, "pass", version=None, cards=cards)
    else:
        card = str(hand.legal_plays(hand.turn)[0])
        services.act(game.pk, hand.turn, "play", version=None, cards=[card])
    return Game.objects.get(pk=game.pk).match()


def _play_until(game: Game, done) -> Match:
    match = Game.objects.get(pk=game.pk).match()
    while not done(match):
        match = _step(game)
    return match


def _pages(game: Game, clients: list[Client]) -> dict[str, Element]:
    """The table as alice (seat 0) sees it and as a spectator sees it."""
    url = reverse("table", args=[game.table_id])
    return {
        "alice": parse(clients[0].get(url).content.decode()).shown_to(0),
        "spectator": parse(Client().get(url).content.decode()).shown_to(None),
    }


def _played(element: Element) -> list[Element]:
    return element.find(cls="played")


def test_a_completed_trick_stays_on_the_table_with_who_took_it_until_the_next_lead() -> None:
    game, clients = _four_people()
    match = _play_until(game, lambda m: len(m.hand.tricks) == 1)
    trick = match.hand.tricks[0]
    taker = NAMES[trick.winner]

    for viewer, page in _pages(game, clients).items():
        [table] = page.find(id="trick")
        assert "complete" in table.classes
        assert table.attrs["data-trick"] == "1-1"
        cards = _played(table)
        assert len(cards) == 4, viewer
        # Each card by the seat that played it, which both see from seat 0 (table_seats.css
        # puts it at the bottom, bob on its left).
        assert "view-0" in page.find(id="board")[0].classes
        spots = {el.words(): el.classes for el in cards}
        for seat, card in _by_seat(trick):
            [classes] = [c for words, c in spots.items() if f"{card.name} from" in words]
            assert f"from-at-{seat}" in classes, (viewer, seat, card)
        [took] = [el for el in cards if "took" in el.classes]
        assert f"from {taker}" in took.words()
        expected = (
            "You take the trick"
            if viewer == "alice" and taker == "alice"
            else (f"{taker} takes the trick")
        )
        assert table.find(cls="trick-taker")[0].words().startswith(expected)
        assert not page.find(id="last-trick-button")


def _by_seat(trick):
    return [(trick.seat_of(i, 4), card) for i, card in enumerate(trick.cards)]


def test_a_trick_with_points_says_how_many_its_taker_took() -> None:
    game, clients = _four_people()
    match = _play_until(
        game, lambda m: bool(m.hand.tricks) and not m.hand.trick and m.hand.tricks[-1].points > 0
    )
    points = match.hand.tricks[-1].points
    taker = NAMES[match.hand.tricks[-1].winner]
    words = _pages(game, clients)["spectator"].find(cls="trick-taker")[0].words()
    assert words == f"{taker} takes the trick: {points} point{'s' if points > 1 else ''}"


def test_the_last_trick_can_be_looked_at_again_while_the_next_is_under_way() -> None:
    game, clients = _four_people()
    match = _play_until(game, lambda m: len(m.hand.tricks) == 1 and len(m.hand.trick) == 2)
    taker = NAMES[match.hand.tricks[0].winner]

    for viewer, page in _pages(game, clients).items():
        [table] = page.find(id="trick")
        assert "complete" not in table.classes
        [panel] = page.find(id="last-trick")
        assert "hidden" in panel.attrs
        assert panel.attrs["data-trick"] == "1-1"
        assert len(_played(panel)) == 4
        assert len(_played(table)) - 4 == 2, viewer  # the two cards of the trick under way
        assert taker in panel.words() or "You take" in panel.words()
        [button] = page.find(id="last-trick-button")
        assert button.words() == "Last trick"
        assert button.attrs["aria-controls"] == "last-trick"
        assert button.attrs["aria-expanded"] == "false"
        assert button.attrs["aria-keyshortcuts"] == "L"


def test_the_last_trick_of_a_hand_and_what_each_took_stay_through_the_next_pass() -> None:
    game, clients = _four_people()
    match = _play_until(game, lambda m: m.hand.number == 2 and m.hand.has_passed(0))
    finished = match.hands[0]

    for viewer, page in _pages(game, clients).items():
        [table] = page.find(id="trick")
        assert table.attrs["data-trick"] == "1-13", viewer
        assert "data-past-hand" in table.attrs
        assert len(_played(table)) == 4
        [taken] = page.find(cls="hand-taken")
        rows = taken.find(cls="")
        lists = [el for el in rows if el.tag == "li"]
        assert len(lists) == 4
        for seat, row in enumerate(lists):
            shown = [el.words() for el in row.find(cls="taken-card")]
            assert len(shown) == 4 * finished.tricks_won(seat), (viewer, seat)
            assert NAMES[seat] in row.words()
        assert "Hand 1 scored" in page.find(cls="last-hand")[0].words()


def test_the_hand_before_is_gone_from_the_table_once_the_next_hand_is_led() -> None:
    game, clients = _four_people()
    _play_until(game, lambda m: m.hand.number == 2 and m.hand.cards_played == 1)

    for page in _pages(game, clients).values():
        [table] = page.find(id="trick")
        assert "data-past-hand" not in table.attrs
        assert len(_played(table)) == 1
        assert not page.find(cls="hand-taken")
        assert not page.find(id="last-trick-button")


def _connect_and_read(table_id: int, cookie: str | None) -> str:
    async def read() -> str:
        socket, first = await open_table_socket(table_id, cookie)
        await socket.disconnect()
        return first

    return async_to_sync(read)()


@pytest.mark.django_db(transaction=True)
def test_a_socket_that_connects_after_a_trick_is_taken_is_sent_it_with_its_taker() -> None:
    game, _ = _four_people()
    match = _play_until(game, lambda m: len(m.hand.tricks) == 2)
    taker = NAMES[match.hand.tricks[-1].winner]
    bob = User.objects.get(username="bob")

    for viewer, cookie, seat in (("bob", session_cookie(bob), 1), ("spectator", None, None)):
        screen = parse(_connect_and_read(game.table_id, cookie)).shown_to(seat)
        [table] = screen.find(id="trick")
        assert table.attrs["data-trick"] == "1-2", viewer
        assert len(_played(table)) == 4
        words = table.find(cls="trick-taker")[0].words()
        you = viewer == "bob" and taker == "bob"
        assert words.startswith("You take the trick" if you else f"{taker} takes the trick")
