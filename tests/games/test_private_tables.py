"""Private tables: the table, its games and their pages, replays, verification pages and records
are for the people seated there, the game's players and whoever carries the invite code; to
everyone else they are not there at all (docs/privacy.md).

alice hosts; bob, carol and dave sit with the code; erin has no code and no seat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Seat, Table
from tests.helpers.sockets import TIMEOUT, open_table_socket, session_cookie, table_socket

pytestmark = pytest.mark.django_db


def _client(user: User | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@dataclass
class PrivateGame:
    table: Table
    game: Game
    alice: User
    bob: User
    erin: User

    @property
    def code(self) -> str:
        return self.table.invite_code


def _private_game(*, over: bool, rated: bool = False) -> PrivateGame:
    """alice's private table of four people, dealt; ``over``: a card played, then carol
    resigns."""
    alice, erin = User.objects.create_user("alice"), User.objects.create_user("erin")
    table = services.create_table(alice, private=True, rated=rated)
    people = [User.objects.create_user(name) for name in ("bob", "carol", "dave")]
    for seat, person in enumerate(people, start=1):
        services.take_seat(table.pk, person, seat, table.invite_code)
    game = services.start_game(table.pk, alice)
    if over:
        _play_a_card(game)
        services.resign(game.pk, 2)
    return PrivateGame(
        Table.objects.get(pk=table.pk), Game.objects.get(pk=game.pk), alice, people[0], erin
    )


def _play_a_card(game: Game) -> None:
    match = game.match()
    if match.hand.phase == "passing":
        for seat in range(match.players):
            cards = [str(card) for card in match.hand.holding(seat)[-3:]]
            services.act(game.pk, seat, "pass", version=None, cards=cards)
        match = Game.objects.get(pk=game.pk).match()
    seat = match.hand.turn
    services.act(game.pk, seat, "play", version=None, cards=[str(match.hand.legal_plays(seat)[0])])


def _public_game_over(host: str) -> Game:
    person = User.objects.create_user(host)
    game = services.play_now(person)
    services.resign(game.pk, 0)
    return Game.objects.get(pk=game.pk)


def _game_pages(game: Game) -> list[str]:
    return [
        reverse("game_detail", args=[game.pk]),
        reverse("game_record", args=[game.pk]),
        reverse("game_verify", args=[game.pk]),
    ]


def _missing_game_pages() -> list[str]:
    return [reverse(name, args=[10**6]) for name in ("game_detail", "game_record", "game_verify")]


# Sitting down ----------------------------------------------------------------------------


def test_a_private_table_refuses_a_seat_without_its_code() -> None:
    alice, erin = User.objects.create_user("alice"), User.objects.create_user("erin")
    table = services.create_table(alice, private=True)
    sit = reverse("sit", args=[table.pk, 1])

    without = _client(erin).post(sit)
    wrong = _client(erin).post(sit, {"code": "not-the-code"})

    assert without.status_code == wrong.status_code == 404
    assert table.invite_code not in without.content.decode() + wrong.content.decode()
    assert not Seat.objects.filter(table=table, user=erin).exists()
    with pytest.raises(services.ServiceError, match="private"):
        services.take_seat(table.pk, erin, 1)
    assert not Seat.objects.filter(table=table, user=erin).exists()


def test_a_private_table_seats_whoever_posts_its_code() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice, private=True)

    response = _client(bob).post(reverse("sit", args=[table.pk, 2]), {"code": table.invite_code})

    assert response.status_code == 302
    assert Seat.objects.get(table=table, index=2).user == bob
    moved = _client(bob).post(reverse("sit", args=[table.pk, 3]))  # seated: no code needed
    assert moved.status_code == 302
    assert Seat.objects.get(table=table, index=3).user == bob


def test_the_sit_form_of_a_private_table_posts_its_code() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice, private=True)

    page = _client(bob).get(reverse("table", args=[table.pk]), {"code": table.invite_code})

    sit_form = re.search(r'<form[^>]*action="/t/\d+/sit/1/".*?</form>', page.content.decode(), re.S)
    assert sit_form is not None
    assert f'name="code" value="{table.invite_code}"' in sit_form.group(0)
    assert (
        f'<code id="invite-link">http://testserver/t/join/{table.invite_code}/</code>'
        in page.content.decode()
    )


@pytest.mark.parametrize(
    ("name", "args", "data"),
    [
        ("leave", [], {}),
        ("bot", [1], {"bot": "on"}),
        ("fill", [], {}),
        ("start", [], {}),
        ("rematch", [], {}),
        ("add_seed", [], {"seed": "mine"}),
        ("new_invite", [], {}),
    ],
)
def test_no_button_of_a_private_table_works_or_gives_its_code_to_a_stranger(
    name: str, args: list[int], data: dict[str, str]
) -> None:
    alice, erin = User.objects.create_user("alice"), User.objects.create_user("erin")
    table = services.create_table(alice, private=True)

    response = _client(erin).post(reverse(name, args=[table.pk, *args]), data)

    assert response.status_code == 404
    assert table.invite_code not in response.get("Location", "") + response.content.decode()
    assert not Seat.objects.filter(table=table, is_bot=True).exists()
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN


# A new invite link ------------------------------------------------------------------------


def test_the_host_makes_a_new_invite_link_and_the_old_one_lets_nobody_in() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    carol, erin = User.objects.create_user("carol"), User.objects.create_user("erin")
    table = services.create_table(alice, private=True)
    old = table.invite_code
    services.take_seat(table.pk, bob, 1, old)
    hosts_page = _client(alice).get(reverse("table", args=[table.pk])).content.decode()
    assert f'action="{reverse("new_invite", args=[table.pk])}"' in hosts_page

    response = _client(alice).post(reverse("new_invite", args=[table.pk]), follow=True)

    new = Table.objects.get(pk=table.pk).invite_code
    assert new != old
    assert response.redirect_chain == [(f"{table.get_absolute_url()}?code={new}", 302)]
    html = response.content.decode()
    assert "Here is the new invite link: the old one no longer works." in html
    assert f'<code id="invite-link">http://testserver/t/join/{new}/</code>' in html
    assert _client(erin).get(reverse("invite", args=[old])).status_code == 404
    assert _client(erin).get(table.get_absolute_url(), {"code": old}).status_code == 404
    assert _client(erin).post(reverse("sit", args=[table.pk, 2]), {"code": old}).status_code == 404
    with pytest.raises(services.ServiceError, match="private"):
        services.take_seat(table.pk, erin, 2, old)
    # The new link works, and bob, seated by the old one, stays.
    assert _client(carol).get(reverse("invite", args=[new])).status_code == 302
    services.take_seat(table.pk, carol, 2, new)
    assert _client(bob).get(table.get_absolute_url()).status_code == 200
    assert [seat.user for seat in Table.objects.get(pk=table.pk).seats.all()][:3] == [
        alice,
        bob,
        carol,
    ]


def test_only_the_host_makes_a_new_invite_link_and_only_at_a_private_table() -> None:
    alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
    table = services.create_table(alice, private=True)
    services.take_seat(table.pk, bob, 1, table.invite_code)
    public = services.create_table(bob)

    response = _client(bob).post(reverse("new_invite", args=[table.pk]), follow=True)

    assert "Only the host can make a new invite link" in response.content.decode()
    assert Table.objects.get(pk=table.pk).invite_code == table.invite_code
    bobs_page = _client(bob).get(table.get_absolute_url()).content.decode()
    assert reverse("new_invite", args=[table.pk]) not in bobs_page
    with pytest.raises(services.ServiceError, match="no invite link"):
        services.new_invite_code(public.pk, bob)


def test_a_wrong_code_of_any_shape_is_simply_not_found() -> None:
    alice, erin = User.objects.create_user("alice"), User.objects.create_user("erin")
    table = services.create_table(alice, private=True)

    for code in ["é", "\N{PILE OF POO}", "x" * 5000, ""]:
        assert (
            _client(erin).get(reverse("table", args=[table.pk]), {"code": code}).status_code == 404
        )
        assert (
            _client(erin).post(reverse("sit", args=[table.pk, 1]), {"code": code}).status_code
            == 404
        )


# A game's pages ----------------------------------------------------------------------------


@pytest.mark.parametrize("over", [False, True])
def test_a_private_games_pages_are_not_found_by_a_stranger(over: bool) -> None:
    private = _private_game(over=over)

    for client in (_client(), _client(private.erin)):
        for url in _game_pages(private.game):
            for query in ({}, {"code": "not-the-code"}):
                assert client.get(url, query).status_code == 404, url


def test_a_private_game_is_not_found_exactly_as_a_missing_one() -> None:
    private = _private_game(over=True)

    for url, missing in zip(_game_pages(private.game), _missing_game_pages(), strict=True):
        refused, absent = _client(private.erin).get(url), _client(private.erin).get(missing)
        assert (refused.status_code, _unmasked(refused.content)) == (
            absent.status_code,
            _unmasked(absent.content),
        )


def _unmasked(page: bytes) -> bytes:
    """The page with its form tokens blanked: a signed-in page carries them (for htmx and the
    sign-out form), masked afresh for every response, so two renders differ only there."""
    page = re.sub(rb'"X-CSRFToken": "[^"]*"', b'"X-CSRFToken": ""', page)
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b'name="csrfmiddlewaretoken"', page)


def test_a_finished_private_games_replay_step_is_not_found_by_a_stranger() -> None:
    private = _private_game(over=True)
    url = reverse("game_detail", args=[private.game.pk])

    for query in ({"step": "1"}, {"hand": "1"}):
        response = _client(private.erin).get(url, query, HTTP_HX_REQUEST="true")
        assert response.status_code == 404
        assert "replay-step" not in response.content.decode()


@pytest.mark.parametrize("over", [False, True])
def test_a_private_games_pages_open_with_the_code_for_anyone(over: bool) -> None:
    private = _private_game(over=over)

    for client in (_client(), _client(private.erin)):
        for url in _game_pages(private.game)[:: 1 if over else 2]:  # no record while it runs
            assert client.get(url, {"code": private.code}).status_code == 200, url


@pytest.mark.parametrize("over", [False, True])
def test_a_private_games_players_reach_its_pages_without_the_code(over: bool) -> None:
    private = _private_game(over=over)

    for url in _game_pages(private.game)[:: 1 if over else 2]:
        assert _client(private.bob).get(url).status_code == 200, url


def test_a_player_who_no_longer_sits_at_the_table_still_reaches_the_game() -> None:
    private = _private_game(over=True)
    Seat.objects.filter(user=private.bob).update(user=None)  # as if bob's account were gone

    for url in _game_pages(private.game):
        assert _client(private.bob).get(url).status_code == 200, url
    assert _client(private.bob).get(private.table.get_absolute_url()).status_code == 404


def test_the_links_of_a_private_games_pages_carry_the_code() -> None:
    private = _private_game(over=True)
    code = f"code={private.code}"
    detail = reverse("game_detail", args=[private.game.pk])

    page = _client(private.erin).get(detail, {"code": private.code}).content.decode()
    step = _client(private.erin).get(
        detail, {"code": private.code, "step": "1"}, HTTP_HX_REQUEST="true"
    )
    verify = _client(private.erin).get(
        reverse("game_verify", args=[private.game.pk]), {"code": private.code}
    )

    table_url = private.table.get_absolute_url()
    for html in (page, verify.content.decode()):
        assert f'href="{table_url}?{code}"' in html
        assert f'href="{reverse("game_record", args=[private.game.pk])}?{code}"' in html
    assert f'href="{reverse("game_verify", args=[private.game.pk])}?{code}"' in page
    assert f'href="{detail}?{code}"' in verify.content.decode()
    replay_links = re.findall(r'(?:href|hx-get)="([^"]*step=[^"]*)"', step.content.decode())
    assert replay_links
    assert all(code in link for link in replay_links)
    assert f'name="code" value="{private.code}"' in page  # the hand picker's form
    for link in re.findall(r'(?:href|hx-get)="([^"]*code=[^"]*)"', page):
        assert _client(private.erin).get(link.replace("&amp;", "&")).status_code == 200, link


def test_a_finished_private_table_links_to_its_game_with_the_code() -> None:
    private = _private_game(over=True)

    page = _client(private.erin).get(private.table.get_absolute_url(), {"code": private.code})

    html = page.content.decode()
    assert f'href="{reverse("game_detail", args=[private.game.pk])}?code={private.code}"' in html
    assert f'href="{reverse("game_verify", args=[private.game.pk])}?code={private.code}"' in html


def test_the_checker_script_and_the_seed_form_are_open_to_everyone() -> None:
    assert _client().get(reverse("checker_script")).status_code == 200
    assert _client().get(reverse("verify_form")).status_code == 200


# Lists and profiles ------------------------------------------------------------------------


def test_private_games_are_never_in_the_game_list() -> None:
    private = _private_game(over=True)
    public = _public_game_over("frank")
    link = f'href="{reverse("game_detail", args=[private.game.pk])}"'

    for client in (_client(), _client(private.erin), _client(private.bob)):
        for query in ({}, {"player": "bob"}, {"rated": "no"}, {"result": "early"}):
            html = client.get(reverse("game_list"), query).content.decode()
            assert link not in html
        assert (
            f'href="{reverse("game_detail", args=[public.pk])}"'
            in client.get(reverse("game_list")).content.decode()
        )


def test_private_tables_are_never_in_the_lobby() -> None:
    private = _private_game(over=False)
    public = services.create_table(User.objects.create_user("frank"))

    for client in (_client(), _client(private.erin), _client(private.bob)):
        html = client.get(reverse("lobby")).content.decode()
        listed = html[html.index('id="tables-heading"') :]  # bob's "Your game" leads there
        assert f'href="{public.get_absolute_url()}"' in listed  # the list is there, and read
        assert f'href="{private.table.get_absolute_url()}"' not in listed


def test_a_private_game_shows_only_on_its_players_own_profile() -> None:
    private = _private_game(over=True)
    link = f'href="{reverse("game_detail", args=[private.game.pk])}"'
    profile = reverse("profile", args=["bob"])

    own = _client(private.bob).get(profile).content.decode()
    assert link in own
    assert "private table" in own
    for viewer in (None, private.erin, private.alice):  # alice played in it too: not her profile
        html = _client(viewer).get(profile).content.decode()
        assert link not in html
        assert "No finished games yet." in html


def test_a_rated_private_game_counts_in_the_rating_but_not_in_the_chart_others_see() -> None:
    private = _private_game(over=True, rated=True)
    assert private.game.rated
    link = f'href="{reverse("game_detail", args=[private.game.pk])}"'
    profile = reverse("profile", args=["bob"])

    own = _client(private.bob).get(profile).content.decode()
    seen = _client(private.erin).get(profile).content.decode()

    assert "after 1 rated game" in own and "after 1 rated game" in seen
    assert 'class="rating-chart"' in own and link in own
    assert 'class="rating-chart"' not in seen and link not in seen


# The socket --------------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_private_table_socket_refuses_a_stranger_and_serves_an_invitee_the_code() -> None:
    def setting() -> tuple[Table, str, str]:
        alice, erin = User.objects.create_user("alice"), User.objects.create_user("erin")
        table = services.create_table(alice, private=True)
        return table, session_cookie(alice), session_cookie(erin)

    table, alice, erin = await database_sync_to_async(setting)()
    for cookie, code in [(erin, None), (None, None), (erin, "not-the-code"), (erin, "é")]:
        refused = table_socket(table.pk, cookie, code=code)
        connected, close_code = await refused.connect(TIMEOUT)
        assert (connected, close_code) == (False, 4403)

    invitee, seating = await open_table_socket(table.pk, erin, code=table.invite_code)
    host, hosts_seating = await open_table_socket(table.pk, alice)
    sit_form = re.search(r'<form[^>]*action="/t/\d+/sit/1/".*?</form>', seating, re.S)
    assert sit_form is not None
    assert f'name="code" value="{table.invite_code}"' in sit_form.group(0)
    assert 'name="code"' not in hosts_seating  # the host needs no code, and is sent none
    # The invite link a socket shows is whole, with the page's own scheme and host, as the
    # page's is: a host who copies it sends a link that works.
    link = f'<code id="invite-link">http://localhost/t/join/{table.invite_code}/</code>'
    assert link in hosts_seating and link in seating
    for socket in (invitee, host):
        await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_screen_let_in_by_the_old_link_is_closed_and_never_sent_the_new_one() -> None:
    def setting() -> tuple[Table, str, str, str]:
        alice, bob = User.objects.create_user("alice"), User.objects.create_user("bob")
        erin = User.objects.create_user("erin")
        table = services.create_table(alice, private=True)
        services.take_seat(table.pk, bob, 1, table.invite_code)
        return table, session_cookie(alice), session_cookie(bob), session_cookie(erin)

    table, alice, bob, erin = await database_sync_to_async(setting)()
    old = table.invite_code
    watcher, _ = await open_table_socket(table.pk, erin, code=old)
    player, _ = await open_table_socket(table.pk, bob, code=old)
    host, _ = await open_table_socket(table.pk, alice)

    table = await database_sync_to_async(services.new_invite_code)(table.pk, table.host)

    closed = await watcher.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4403}
    link = f'<code id="invite-link">http://localhost/t/join/{table.invite_code}/</code>'
    assert link in await host.receive_from(timeout=5)
    assert link in await player.receive_from(timeout=5)  # seated: still at the table
    refused = table_socket(table.pk, erin, code=old)
    assert await refused.connect(TIMEOUT) == (False, 4403)
    for socket in (player, host):
        await socket.disconnect()
