"""Generated values thrown at every page's path, query and form fields, signed in and out: never
a server error, a read changes nothing, and neither does a request the site refuses.

The people: alice hosts an open table (bob sits at it) and a private one; dave is playing the
bot; a game of four others is over. Each example runs in a savepoint that is rolled back, so
every request meets the same tables.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.contrib.messages import constants, get_messages
from django.db import transaction
from django.http import HttpResponseBase
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLPattern, reverse
from django.utils import timezone
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from pytest_django.fixtures import Settings

from accounts import challenges
from accounts.models import Block, Challenge
from arenas import services as arenas
from arenas.models import Arena, ArenaGame, Entrant
from chat import services as chat
from chat.models import ChatMessage, ChatSetting, Mute, Room
from games import services
from games.models import Game, GamePlayer, MoveRecord, Seat, Table
from ratings.models import Rating, RatingChange
from reports.models import Report
from tests.helpers.finishing import play_out, start
from tests.helpers.pages import parameters, site_patterns
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough passphrase 9"
SEED = "ab" * 32
# What a request may change. GameTally is left out: a cache a profile fills as it reads.
STATE = (
    *(User, Table, Seat, Game, GamePlayer, MoveRecord, Rating, RatingChange),
    *(ChatMessage, Mute, ChatSetting, Report, Arena, Entrant, ArenaGame),
    *(Block, Challenge),
)


def _by_name() -> dict[str, URLPattern]:
    """The site's pages by their URL names: each has one, that the requests reverse."""
    named: dict[str, URLPattern] = {}
    for pattern in site_patterns():
        assert pattern.name is not None, f"{pattern.pattern} has no name"
        named[pattern.name] = pattern
    return named


PATTERNS = _by_name()
EXAMPLES = hypothesis_settings(
    max_examples=10,  # each sends a request to every page
    deadline=None,
    # No shrinking: the failing request is named in the report, and shrinking would send every
    # page's requests again hundreds of times.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@dataclass(frozen=True)
class World:
    users: dict[str, User]
    table_ids: list[int]
    game_ids: list[int]
    codes: list[str]
    message_ids: list[int]
    arena_ids: list[int]
    challenge_ids: list[int]


@pytest.fixture
def world(settings: Settings) -> World:
    # Hundreds of sign-ins and sign-ups: a hasher made to be slow would take most of the time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    alice, bob, dave = (
        User.objects.create_user(n, password=PASSWORD) for n in ("alice", "bob", "dave")
    )
    open_table = services.create_table(alice, preset="custom", players=3)
    services.take_seat(open_table.pk, bob, 1)
    private = services.create_table(alice, private=True)
    running = services.play_now(dave)
    over = play_out(start(people("erin", "fred", "gina", "hank")), 1)
    tables = [open_table, private, running.table, over.table]
    said = chat.say(bob, open_table.pk, None, Room.PLAYERS, "hello alice")
    watched = chat.say(alice, running.table.pk, running.pk, Room.SPECTATORS, "watching dave")
    hour = timedelta(hours=1)
    open_arena = arenas.create_arena(
        "Open", preset="standard", players=4, starts_at=timezone.now() - hour, minutes=120
    )
    arenas.join(bob, open_arena.pk)
    over_arena = arenas.create_arena(
        "Over", preset="standard", players=4, starts_at=timezone.now() - 3 * hour, minutes=60
    )
    invited = challenges.send(bob, alice, {"preset": "standard", "players": 4, "options": {}})
    return World(
        users={"alice": alice, "bob": bob, "dave": dave},
        table_ids=[table.pk for table in tables],
        game_ids=[over.pk, running.pk],
        codes=[table.invite_code for table in tables],
        message_ids=[said.pk, watched.pk],
        arena_ids=[open_arena.pk, over_arena.pk],
        challenge_ids=[invited.pk],
    )


# What is generated ------------------------------------------------------------------------------

FIELDS = {
    # The lobby's new-table form.
    "preset": ["standard", "custom", "omnibus", "black_maria", ""],
    "players": ["3", "4", "5", "6", "7", "0"],
    "rated": ["on", ""],
    "private": ["on", ""],
    "bot_level": ["easy", "normal", "strong", "godlike"],
    "target": ["25", "100", "500", "501", "-1", "1e9"],
    "moon": ["others", "self", "choose", "automatic"],
    "short_pack": ["remove", "kitty"],
    "first_lead": ["lowest_club", "left_of_dealer"],
    "ties": ["share", "play_on"],
    "clock": ["relaxed", "strict"],
    "points_on_first_trick": ["on"],
    "queen_breaks_hearts": ["on"],
    "jack_of_diamonds": ["on"],
    # The table's buttons and the seed.
    "bot": ["on", "off"],
    "seed": [SEED, "dave", "\u202eevil", ""],
    # Accounts.
    "username": ["alice", "bob", "AIice", "newcomer", ""],
    "password": [PASSWORD, "wrong"],
    "password1": [PASSWORD, "short"],
    "password2": [PASSWORD, "other"],
    "old_password": [PASSWORD, "wrong"],
    "new_password1": ["another long passphrase 7"],
    "new_password2": ["another long passphrase 7", "x"],
    "next": ["/games/", "https://evil.example/", "//evil.example", "/t/1/"],
    # The lists, the replay and the paste-a-seed form.
    "page": ["1", "2", "0", "-1", "last", "9" * 30],
    "step": ["0", "5", "²", "9" * 30],
    "hand": ["1", "2", "¹"],
    "player": ["alice", "erin", "%"],
    "result": ["finished", "early", "aborted"],
    "since": ["2026-01-01", "2026-13-45", "0"],
    "until": ["2999-12-31", "yesterday"],
    "uses_added": ["on"],
    "added": ["a\nb\nc\nd", "\n\n\n"],
    "hands": ["1", "40", "41", "0"],
    "rules_json": ['{"players": 3}', "[" * 1000, "{" * 50, "null", "[]"],
    # Chat: turning it off and on, and a report of a message.
    "on": ["on", "off", ""],
    "category": ["abuse", "cheating", "other", "x"],
    "comment": ["rude words", "", "x" * 1001],
    # An account's address, and "Forgot your password?".
    "email": ["alice@example.org", "ALICE@example.org", "not an address", "a" * 300 + "@x.org"],
    # Two-factor sign-in: which button, and the codes.
    "action": [
        *("start", "confirm", "codes", "off", "cancel"),
        *("follow", "unfollow", "block", "unblock", "x"),
    ],
    "confirm-code": ["123456", "000000", "abcd-efgh-jkmn-pqrs", "9" * 41],
    "codes-code": ["123456", ""],
    "off-code": ["123456", ""],
    "shown_to": ["everyone", "followed", "nobody", "x"],
}
FORMS = {
    "table_create": {"preset": "standard", "players": "4", "bot_level": "normal"},
    "register": {"username": "newcomer", "password1": PASSWORD, "password2": PASSWORD},
    "login": {"username": "alice", "password": PASSWORD},
    "password_change": {
        "old_password": PASSWORD,
        "new_password1": "another long passphrase 7",
        "new_password2": "another long passphrase 7",
    },
    "add_seed": {"seed": "dave"},
    "bot": {"bot": "on"},
    "verify_form": {"seed": SEED, "players": "4", "short_pack": "remove", "hands": "2"},
    "chat_report": {"category": "abuse", "comment": "rude words"},
    "password_reset": {"email": "alice@example.org"},
    "address": {"email": "alice@example.org"},
    "password_reset_confirm": {
        "new_password1": "another long passphrase 7",
        "new_password2": "another long passphrase 7",
    },
    "login_code": {"code": "123456"},
    "two_factor": {"action": "start", "password": PASSWORD},
    "admin_sign_in": {"username": "alice", "password": PASSWORD},
    "follow": {"action": "follow"},
    "block": {"action": "block"},
    "following": {"shown_to": "everyone"},
    "challenge": {"preset": "standard", "players": "4", "bot_level": "normal"},
}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["players", "target", "moon", "x"]), inner, max_size=3)
    ),
    max_leaves=8,
)
texts = st.text(max_size=30) | st.integers().map(str) | json_values.map(json.dumps)


def field_values(name: str) -> st.SearchStrategy[str]:
    return st.sampled_from(FIELDS[name]) | texts if name in FIELDS else texts


READS = {
    "table_create": [
        *FORMS["table_create"],
        *("rated", "private", "target", "moon", "short_pack", "first_lead", "ties", "clock"),
        *("points_on_first_trick", "queen_breaks_hearts", "jack_of_diamonds"),
    ],
    "register": ["username", "password1", "password2", "next"],
    "login": ["username", "password", "next"],
    "logout": ["next"],
    "password_change": list(FORMS["password_change"]),
    "add_seed": ["seed"],
    "bot": ["bot"],
    "game_list": ["player", "preset", "rated", "result", "since", "until", "page"],
    "game_detail": ["step", "hand"],
    "leaderboard": ["page"],
    "verify_form": [*FORMS["verify_form"], "uses_added", "added", "rules_json"],
    "learn_table_rules": ["players", "target", "moon", "old_queen", "short_pack", "ties"],
    "chat_mute": ["next"],
    "chat_unmute": ["next"],
    "chat_turn": ["on", "next"],
    "chat_report": ["category", "comment"],
    "password_reset": ["email"],
    "address": ["email"],
    "password_reset_confirm": ["new_password1", "new_password2"],
    "login_code": ["code"],
    "two_factor": ["action", "password", "confirm-code", "codes-code", "off-code"],
    "admin_sign_in": ["username", "password", "next"],
    "follow": ["action"],
    "block": ["action"],
    "following": ["shown_to"],
    "challenge": [*FORMS["challenge"], "rated", "target", "moon", "clock"],
}
# The pages that take a form by POST; every other page is read with GET.
POSTED = {"table_create", "play_now", "sit", "leave", "bot", "fill", "start", "rematch"}
POSTED |= {"close_table"}
POSTED |= {"add_seed", "register", "login", "logout", "password_change"}
POSTED |= {"chat_mute", "chat_unmute", "chat_turn", "chat_report", "arena_join", "arena_pause"}
POSTED |= {"password_reset", "address", "confirm_address", "password_reset_confirm"}
POSTED |= {"login_code", "two_factor", "sign_ins", "admin_sign_in", "game_review", "follow"}
POSTED |= {"following", "block", "challenge", "challenge_accept", "challenge_decline"}
POSTED |= {"challenge_withdraw"}


@st.composite
def form_fields(draw: st.DrawFn, url_name: str, world: World) -> dict[str, str]:
    """The form a page takes (or nothing), with some of the fields it reads changed or added,
    and now and then a field it does not know."""
    fields = dict(FORMS.get(url_name, {})) if draw(st.booleans()) else {}
    names = st.sampled_from(READS.get(url_name, sorted(FIELDS))) | st.text(min_size=1, max_size=9)
    for name in draw(st.lists(names, max_size=4)):
        fields[name] = draw(field_values(name))
    if draw(st.booleans()):
        fields["code"] = draw(st.sampled_from(world.codes) | texts)
    return fields


def path_values(world: World, pattern: URLPattern) -> st.SearchStrategy[dict[str, Any]]:
    """Mostly ids that exist, else numbers and names of any size; a name is one path segment."""
    numbers = st.integers(min_value=0, max_value=2**70)
    names = st.text(min_size=1, max_size=40).filter(lambda text: "/" not in text)

    def mostly(values: list[Any], others: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        some = st.sampled_from(values)
        return st.one_of(some, some, some, others)

    choices = {
        "table_id": mostly(world.table_ids, numbers),
        "game_id": mostly(world.game_ids, numbers),
        "index": mostly(list(range(7)), numbers),
        "code": mostly(world.codes, names),
        "username": mostly([*world.users, "erin"], names),
        "key": mostly(["standard", "club"], names),
        "kind": mostly(["legal", "pass", "moon"], names),
        "seed": mostly([1, 2], numbers),
        "message_id": mostly(world.message_ids, numbers),
        "arena_id": mostly(world.arena_ids, numbers),
        "challenge_id": mostly(world.challenge_ids, numbers),
        "uidb64": mostly(["MQ", "Mg"], names),
        "token": mostly(["set-password"], names),
        "signed": names,
    }
    return st.fixed_dictionaries({name: choices[name] for name in parameters(pattern)})


@dataclass(frozen=True)
class Request:
    who: str | None
    method: str
    url_name: str
    path: dict[str, Any]
    fields: dict[str, str]


@st.composite
def requests(draw: st.DrawFn, world: World, url_name: str) -> Request:
    """A request to one page, mostly by the method it takes, by anyone or nobody."""
    usual = "POST" if url_name in POSTED else "GET"
    other = "GET" if usual == "POST" else "POST"
    return Request(
        who=draw(st.sampled_from(["alice", "alice", "bob", "dave", None])),  # alice hosts
        method=draw(st.sampled_from([usual, usual, usual, other])),
        url_name=url_name,
        path=draw(path_values(world, PATTERNS[url_name])),
        fields=draw(form_fields(url_name, world)),
    )


# What is checked --------------------------------------------------------------------------------


def _state() -> dict[str, list[tuple[Any, ...]]]:
    return {model.__name__: list(model.objects.order_by("pk").values_list()) for model in STATE}


def _refused(response: HttpResponseBase) -> bool:
    """A 4xx, the table's error message, the way to sign in, or a form sent back with errors."""
    if response.status_code >= 400:
        return True
    request = response.wsgi_request  # type: ignore[attr-defined]
    if any(message.level == constants.ERROR for message in get_messages(request)):
        return True
    location = response.get("Location", "")
    if response.status_code == 302 and location.startswith(resolve_url(django_settings.LOGIN_URL)):
        return True
    form = (response.context or {}).get("form") if hasattr(response, "context") else None
    return bool(form is not None and form.is_bound and form.errors)


def _url(request: Request) -> str:
    """The request's URL. reverse() refuses a name its converter would not match, so names go
    in after it, quoted, as a browser would send them."""
    names = {key: value for key, value in request.path.items() if isinstance(value, str)}
    stand_ins = {key: f"standin{number}" for number, key in enumerate(names)}
    url = reverse(request.url_name, kwargs={**request.path, **stand_ins})
    for key, stand_in in stand_ins.items():
        url = url.replace(stand_in, quote(names[key], safe=""), 1)
    return url


def _send(world: World, request: Request) -> None:
    with transaction.atomic():
        client = Client()
        if request.who is not None:
            client.force_login(world.users[request.who])
        url = _url(request)
        before = _state()
        send: Callable[..., HttpResponseBase] = (
            client.get if request.method == "GET" else client.post
        )
        response = send(url, request.fields)  # a server error raises here, with its traceback
        assert response.status_code < 500
        if request.method == "GET" or _refused(response):
            assert _state() == before, f"{request.method} {url} changed the site"
        transaction.set_rollback(True)


def test_generated_values_give_no_server_error_and_a_refusal_changes_nothing(
    world: World,
) -> None:
    """Each example sends one request to every page, so each page gets as many as the others
    (a page added later too); the tables are set once."""

    @EXAMPLES
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        for url_name in sorted(PATTERNS):
            _send(world, data.draw(requests(world, url_name), label=url_name))

    check()
