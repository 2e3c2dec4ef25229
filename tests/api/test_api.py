"""The open API (api/): every endpoint and filter as a client sees it, the deal check as the
verification page states it, ETags on finished games, bad parameters answered 400 or 422 with
the parameter named, the limits (429 with Retry-After), CORS, and a running game's seed and
hidden cards kept out of every answer."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client
from django.utils import timezone
from openapi_spec_validator import validate
from pytest_django.fixtures import Settings

from arenas import services as arenas
from arenas.models import Arena
from games.engine import format_cards
from games.models import Game
from moderation.voiding import void_game
from ratings.models import Rating
from tests.helpers.api import ENDPOINTS
from tests.helpers.arenas import an_arena, running_arena
from tests.helpers.finishing import a_season, play_out, start
from tests.helpers.moderators import moderator
from tests.helpers.tables import everyone_passes, fresh, game_with, people, play_one

pytestmark = pytest.mark.django_db

API = "/api/v1"


def get(client: Client, path: str, **headers: str) -> Any:
    response = client.get(API + path, headers=headers)
    assert response.status_code == 200, (path, response.status_code, response.content[:300])
    return response.json()


# A player ----------------------------------------------------------------------------------


def test_a_player_has_their_rating_games_by_rule_set_and_size_record_and_recent_form(
    client: Client,
) -> None:
    games = a_season(last_resigned=True)
    alice = get(client, "/players/ALICE")  # any case

    assert alice["name"] == "alice" and not alice["closed"]
    assert alice["joined"] == User.objects.get(username="alice").date_joined.date().isoformat()
    hers = sorted((g.pk for g in games if g.players.filter(user__username="alice")), reverse=True)
    assert len(hers) == 5
    assert alice["rating"]["games"] == 5 and alice["rating"]["provisional"]
    assert alice["games"] == [{"rule_set": "standard", "players": 4, "games": 5, "rated_games": 5}]
    assert alice["record"]["games"] == 5
    assert [r["game"] for r in alice["recent"]] == hers
    assert alice["recent"][0]["reason"] == "resigned"


def test_a_closed_account_says_so_and_an_unknown_name_is_404_in_words(client: Client) -> None:
    a_season()
    User.objects.filter(username="bob").update(is_active=False)

    bob = get(client, "/players/bob")
    assert bob["closed"] and bob["shown_as"] == "bob (closed account)"
    seats = get(client, "/players/alice/games")["games"][0]["seats"]
    assert {
        "seat": 1,
        "name": "bob",
        "shown_as": "bob (closed account)",
        "bot": False,
        "closed": True,
    } in seats or any(s["closed"] for s in seats)
    missing = client.get(API + "/players/nobody-here")
    assert missing.status_code == 404
    assert missing.json() == {"detail": "No player called 'nobody-here'"}


# A player's games ----------------------------------------------------------------------------


def test_a_players_games_are_paged_newest_first_with_the_next_pages_address(
    client: Client,
) -> None:
    games = a_season()
    ids = sorted((g.pk for g in games if g.players.filter(user__username="alice")), reverse=True)

    first = get(client, "/players/alice/games?per_page=3")
    assert (first["count"], first["page"], first["pages"]) == (5, 1, 2)
    assert [g["id"] for g in first["games"]] == ids[:3]
    second = client.get(first["next"]).json()
    assert [g["id"] for g in second["games"]] == ids[3:] and second["next"] is None
    beyond = get(client, "/players/alice/games?per_page=3&page=9")
    assert beyond["games"] == [] and beyond["count"] == 5


def test_each_filter_narrows_a_players_games(client: Client) -> None:
    games = [g for g in a_season(last_resigned=True) if g.players.filter(user__username="alice")]
    alice = User.objects.get(username="alice")
    casual = play_out(start([alice, *people("p2", "p3", "p4")], rated=False), 7)
    club = play_out(start([alice, *people("p5", "p6", "p7")], rated=False, preset="club"), 8)
    Game.objects.filter(pk=games[0].pk).update(finished_at=timezone.now() - timedelta(days=10))

    def ids(query: str) -> set[int]:
        return {g["id"] for g in get(client, "/players/alice/games?per_page=100&" + query)["games"]}

    everything = {g.pk for g in games} | {casual.pk, club.pk}
    assert ids("") == everything
    assert ids("rated=true") == {g.pk for g in games}
    assert ids("rated=false") == {casual.pk, club.pk}
    assert ids("rule_set=club") == {club.pk}
    assert ids("rule_set=standard&rated=false") == {casual.pk}
    assert ids("result=early") == {games[-1].pk}
    assert ids("result=finished") == everything - {games[-1].pk}
    assert ids("players=4") == everything and ids("players=3") == set()
    yesterday = (timezone.now() - timedelta(days=1)).date().isoformat()
    assert ids(f"until={yesterday}") == {games[0].pk}
    assert ids(f"since={yesterday}") == everything - {games[0].pk}


def test_a_private_tables_games_are_in_no_list_and_not_found(client: Client) -> None:
    alice, *others = people("alice", "bob", "carol", "dave")
    public = play_out(start([alice, *others], rated=False), 1)
    private = start([alice, *others], rated=False)
    private.table.private = True
    private.table.save()
    private = play_out(private, 2)

    assert [g["id"] for g in get(client, "/players/alice/games")["games"]] == [public.pk]
    assert client.get(f"{API}/games/{private.pk}").status_code == 404
    # The stubs' test client response has no streaming_content; an export's is a streaming one.
    lines = b"".join(client.get(API + "/players/alice/games.ndjson").streaming_content)  # type: ignore[attr-defined]
    assert [json.loads(line)["id"] for line in lines.splitlines()] == [public.pk]
    client.force_login(alice)  # not even to one of its players: the API answers anyone alike
    assert client.get(f"{API}/games/{private.pk}").status_code == 404


# One game ----------------------------------------------------------------------------------


def test_a_finished_game_in_full_with_the_deal_check_the_verification_page_states(
    client: Client,
) -> None:
    game = a_season()[0]
    match = game.match()
    answer = get(client, f"/games/{game.pk}")

    assert answer["status"] == "finished" and answer["rated"]
    assert [s["name"] for s in answer["seats"]] == ["alice", "bob", "carol", "dave"]
    assert len(answer["moves"]) == game.version
    first = answer["moves"][0]
    assert set(first) == {"number", "seat", "kind", "cards", "choice", "timeout", "at"}
    assert first["number"] == 1 and first["at"]
    assert len(answer["hands"]) == len(match.hands)
    assert all(len(hand["dealt"]) == 4 and len(hand["passes"]) == 4 for hand in answer["hands"])
    assert answer["totals"] == list(match.totals) == answer["result"]["totals"]
    assert sorted(c["seat"] for c in answer["rating_changes"]) == [0, 1, 2, 3]
    seed = bytes(game.seed).hex()
    assert answer["check"]["seed"] == seed
    assert answer["check"]["fingerprint"] == hashlib.sha256(bytes(game.seed)).hexdigest()
    page = client.get(answer["check"]["page"]).content.decode()
    assert seed in page and answer["check"]["fingerprint"] in page
    record = client.get(f"/g/{game.pk}/record.json").json()
    assert record["hands"] == answer["hands"] and record["seed"] == seed


def test_a_finished_games_etag_answers_304_until_the_game_is_voided(client: Client) -> None:
    game = a_season()[0]
    first = client.get(f"{API}/games/{game.pk}")
    tag = first["ETag"]
    assert tag and "public" in first["Cache-Control"]

    again = client.get(f"{API}/games/{game.pk}", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""
    staff = moderator()
    staff.user_permissions.add(Permission.objects.get(codename="change_game"))
    void_game(game.pk, User.objects.get(pk=staff.pk), "a test")
    after = client.get(f"{API}/games/{game.pk}", headers={"If-None-Match": tag})
    assert after.status_code == 200 and after["ETag"] != tag
    assert after.json()["void"] and after.json()["rating_changes"] == []


def _running() -> Game:
    """A game at a public table with the passes made and a few cards played."""
    game = game_with(("runa", "runb", "runc", "rund"))
    everyone_passes(game)
    for _ in range(3):
        play_one(game)
    return fresh(game)


def test_a_running_game_shows_its_players_scores_and_fingerprint_and_nothing_hidden(
    client: Client,
) -> None:
    game = _running()
    answer = get(client, f"/games/{game.pk}")

    assert answer["status"] == "playing" and answer["result"] is None
    assert answer["check"]["seed"] is None
    assert answer["check"]["fingerprint"] == game.fingerprint
    assert answer["running"]["totals"] == [0, 0, 0, 0] and answer["running"]["hand"] == 1
    for hidden in ("hands", "moves", "rating_changes", "format"):
        assert answer[hidden] is None
    assert "no-cache" in client.get(f"{API}/games/{game.pk}")["Cache-Control"]
    listed = get(client, "/games/running")
    assert [g["id"] for g in listed["games"]] == [game.pk]
    assert listed["games"][0]["running"]["totals"] == [0, 0, 0, 0]


def test_no_answer_holds_a_running_games_seed_hidden_cards_or_anyones_e_mail(
    client: Client, settings: Settings
) -> None:
    a_season()  # finished games, ratings, a leaderboard
    for person in User.objects.all():
        person.email = f"{person.username}@mail.example"
        person.save()
    game = _running()
    match = game.match()
    seed = bytes(game.seed)
    hidden = [format_cards(match.hand.holding(seat)) for seat in range(4)]
    passed = [format_cards(move.cards) for move in match.hand.moves if move.kind == "pass"]
    arena = Arena.objects.create(
        name="Open", preset="standard", starts_at=timezone.now(), minutes=60
    )
    paths = [
        "/players/runa",
        "/players/runa/games",
        "/players/alice",
        "/players/alice/games",
        f"/games/{game.pk}",
        "/games/running",
        "/leaderboard",
        "/arenas",
        f"/arenas/{arena.pk}",
        "/openapi.json",
    ]
    for path in paths:
        body = client.get(API + path).content.decode()
        assert seed.hex() not in body and seed.hex().upper() not in body, path
        for cards in hidden + passed:
            assert cards not in body, (path, cards)
        assert "@mail.example" not in body, path
    export = b"".join(client.get(API + "/players/runa/games.ndjson").streaming_content)  # type: ignore[attr-defined]
    assert export == b""  # a running game is in no export


# The leaderboard and the arenas ------------------------------------------------------------


def test_the_leaderboard_ranks_everyone_rated_highest_first_a_page_at_a_time(
    client: Client,
) -> None:
    a_season()
    board = get(client, "/leaderboard?per_page=2")
    assert (board["count"], board["pages"]) == (5, 3)
    first, second = board["players"]
    assert (first["rank"], second["rank"]) == (1, 2) and first["rating"] >= second["rating"]
    page_two = client.get(board["next"]).json()["players"]
    assert [p["rank"] for p in page_two] == [3, 4]
    names = [p["name"] for p in get(client, "/leaderboard?per_page=100")["players"]]
    assert sorted(names) == ["alice", "bob", "carol", "dave", "erin"]
    assert get(client, "/leaderboard?rule_set=standard&players=4")["count"] == 5
    assert get(client, "/leaderboard?rule_set=club")["players"] == []
    assert get(client, "/leaderboard?players=5")["count"] == 0
    assert client.get(API + "/leaderboard?rule_set=chess").status_code == 422


def test_the_arenas_are_listed_and_one_arena_has_its_standings(
    client: Client, settings: Settings
) -> None:
    settings.HEARTS_ARENA_SCHEDULE = []
    arena = an_arena("Evening arena", starts_at=timezone.now() + timedelta(hours=1))
    for name in ("alice", "bob"):
        arenas.join(User.objects.create_user(name), arena.pk)

    lists = get(client, "/arenas")
    assert [a["id"] for a in lists["upcoming"]] == [arena.pk]
    assert lists["running"] == [] and lists["upcoming"][0]["state"] == "upcoming"
    detail = get(client, f"/arenas/{arena.pk}")
    assert detail["name"] == "Evening arena"
    assert sorted(row["name"] for row in detail["standings"]) == ["alice", "bob"]
    assert client.get(f"{API}/arenas/{arena.pk + 99}").status_code == 404


def test_equal_ratings_share_a_rank_on_every_page_of_the_leaderboard(client: Client) -> None:
    for name, mu in (("alice", 30.0), ("bob", 30.001), ("carol", 30.0), ("dave", 28.0)):
        Rating.objects.create(user=User.objects.create_user(name), mu=mu, sigma=2.0, games=12)

    board = get(client, "/leaderboard?per_page=2")
    after = client.get(board["next"]).json()["players"]

    ranked = [(p["rank"], p["rating"]) for p in board["players"] + after]
    assert ranked == [(1, 1452), (1, 1452), (1, 1452), (4, 1356)]


def test_an_arenas_standings_count_wins_and_ratings_as_the_player_api_in_numbers(
    client: Client, settings: Settings
) -> None:
    settings.HEARTS_ARENA_SCHEDULE = []
    arena = running_arena("Evening arena")
    four = people("alice", "bob", "carol", "dave")
    for person in four:
        arenas.join(person, arena.pk)
        arenas.page_opened(arena.pk, person.pk)
    [played] = arenas.pair(arena.pk)
    game = play_out(played.game, 1)
    # Three share first place, as equal lowest totals do.
    assert game.result is not None
    Game.objects.filter(pk=game.pk).update(result={**game.result, "places": [1, 1, 1, 4]})

    standings = get(client, f"/arenas/{arena.pk}")["standings"]

    assert [row["place"] for row in standings] == [1, 1, 1, 4]
    for row in standings:
        player = get(client, f"/players/{row['name']}")
        assert row["wins"] == player["record"]["wins"] == (1 if row["place"] == 1 else 0)
        assert row["rating"] == player["rating"]["rating"]
        assert row["provisional"] == player["rating"]["provisional"]
    assert [row["points"] for row in standings] == [2.3, 2.3, 2.3, 0]
    assert all(isinstance(row["points"], float) for row in standings)


# Bad parameters, the schema ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "named"),
    [
        ("page=0", "page"),
        ("page=x", "page"),
        ("per_page=1000", "per_page"),
        ("players=9", "players"),
        ("rated=maybe", "rated"),
        ("result=won", "result"),
        ("rule_set=chess", "rule_set"),
        ("since=2026-13-01", "since"),
        ("until=yesterday", "until"),
    ],
)
def test_a_bad_parameter_is_422_naming_it(client: Client, query: str, named: str) -> None:
    people("alice")
    paths = ["/players/alice/games"]
    if not named.endswith("page"):  # the export has no pages
        paths.append("/players/alice/games.ndjson")
    for path in paths:
        response = client.get(f"{API}{path}?{query}")
        assert response.status_code == 422, (path, query)
        assert named in {str(part) for error in response.json()["detail"] for part in error["loc"]}


def test_dates_the_wrong_way_round_are_400_and_no_path_is_a_500(client: Client) -> None:
    people("alice")
    response = client.get(f"{API}/players/alice/games?since=2026-02-01&until=2026-01-01")
    assert response.status_code == 400
    assert response.json() == {
        "detail": "since is later than until: no game could be in that range"
    }
    for path in (
        "/games/0",
        "/games/99999999999999999999",
        "/games/x",
        "/arenas/x",
        "/players/%00",
        "/players/a%2Fb/games",
        "/leaderboard?page=-1",
    ):
        assert client.get(API + path).status_code in (400, 404, 422), path


def test_the_openapi_schema_is_valid_and_the_docs_page_draws_it(client: Client) -> None:
    def once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        assert len(keys) == len(set(keys)), keys  # the docs page refuses a key given twice
        return dict(pairs)

    schema = json.loads(client.get(API + "/openapi.json").content, object_pairs_hook=once)
    validate(schema)
    assert set(ENDPOINTS) <= set(schema["paths"])
    docs = client.get("/api/docs")
    assert docs.status_code == 200 and b"/static/ninja/swagger-ui-bundle.js" in docs.content
    assert b'href="/api/docs"' in client.get("/").content  # the footer's link


# Limits and CORS ---------------------------------------------------------------------------


def test_a_client_over_its_limit_is_told_429_with_retry_after_by_address_then_account(
    client: Client, settings: Settings
) -> None:
    settings.HEARTS_API_RATE = "3/m"
    settings.HEARTS_API_SIGNED_IN_RATE = "5/m"
    alice = people("alice")[0]
    for _ in range(3):
        get(client, "/leaderboard")
    refused = client.get(API + "/leaderboard")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    other = Client(REMOTE_ADDR="10.0.0.9")  # another address still has its own three
    assert other.get(API + "/leaderboard").status_code == 200

    client.force_login(alice)  # signed in: counted by account, five a minute
    assert [client.get(API + "/leaderboard").status_code for _ in range(6)] == [200] * 5 + [429]
    elsewhere = Client(REMOTE_ADDR="10.0.0.10")
    elsewhere.force_login(alice)  # the same account from another address: the same count
    assert elsewhere.get(API + "/leaderboard").status_code == 429


def test_any_origin_may_read_the_api_and_no_other_page(client: Client) -> None:
    people("alice")
    answer = client.get(API + "/players/alice", headers={"Origin": "https://tools.example"})
    assert answer["Access-Control-Allow-Origin"] == "*"
    preflight = client.options(
        API + "/players/alice",
        headers={"Origin": "https://tools.example", "Access-Control-Request-Method": "GET"},
    )
    assert preflight.status_code == 200 and "GET" in preflight["Access-Control-Allow-Methods"]
    page = client.get("/u/alice/", headers={"Origin": "https://tools.example"})
    assert "Access-Control-Allow-Origin" not in page
    assert client.options("/u/alice/").status_code == 405  # the site's pages still refuse it


def test_the_profile_offers_its_owner_their_games_to_download(client: Client) -> None:
    a_season()
    alice = User.objects.get(username="alice")
    link = f'href="{API}/players/alice/games.ndjson"'
    assert link not in client.get("/u/alice/").content.decode()
    client.force_login(alice)
    page = client.get("/u/alice/").content.decode()
    assert link in page and "Download my games" in page
    lines = b"".join(client.get(API + "/players/alice/games.ndjson").streaming_content)  # type: ignore[attr-defined]
    assert len(lines.splitlines()) == 5


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
def test_the_api_only_reads(client: Client, method: str) -> None:
    game = a_season()[0]
    for path in ("/players/alice", "/players/alice/games", f"/games/{game.pk}", "/leaderboard"):
        assert getattr(client, method)(API + path).status_code == 405, (method, path)
