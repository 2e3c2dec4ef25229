"""Arenas (arenas/): the points table and streaks, who may join, seating the free entrants at
rated tables of one game, a game's end freeing its players to be seated again, the arena's
end, standings from the games' results (a void game's points gone, the same when worked out
again), the schedule, the pages, and two seatings at once never putting anyone at two tables."""

from __future__ import annotations

import re
from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.db import connection
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts import blocks
from arenas import scoring, selectors, services
from arenas.models import Arena, ArenaGame, Entrant
from games import services as games
from games.errors import ServiceError
from games.models import Game, Seat, Table
from hearts_site import celery_app
from moderation import sanctions
from moderation.voiding import void_game
from ratings.models import Rating
from tests.helpers.arenas import running_arena
from tests.helpers.finishing import play_out
from tests.helpers.moderators import moderator, with_two_factor
from tests.helpers.races import raised_at_once

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


def joined(arena: Arena, names: tuple[str, ...] | list[str]) -> list[User]:
    """People who joined ``arena`` and have its page open."""
    people = []
    for name in names:
        person = User.objects.filter(username=name).first() or User.objects.create_user(name)
        services.join(person, arena.pk)
        services.page_opened(arena.pk, person.pk)
        people.append(person)
    return people


def tables_of(person: User) -> list[Table]:
    return list(Table.objects.filter(seats__user=person, status=Table.Status.PLAYING))


def finish(played: ArenaGame, seed_number: int = 1) -> Game:
    """Play the arena game out to its end through the site, then its end as the task runs it."""
    game = play_out(played.game, seed_number)
    services.game_ended(game.pk)
    return game


# Points and streaks (pure) ------------------------------------------------------------------


def test_the_points_table_the_readme_states() -> None:
    assert scoring.place_points(3) == [3, 1, 0]
    assert scoring.place_points(4) == [4, 2, 1, 0]
    assert scoring.place_points(5) == [5, 3, 2, 1, 0]
    assert scoring.place_points(6) == [6, 4, 3, 2, 1, 0]


def test_tied_players_share_the_points_of_the_places_they_fill() -> None:
    assert scoring.points_for([1, 1, 3, 4]) == [3, 3, 1, 0]
    assert scoring.points_for([1, 2, 2, 4]) == [4, Fraction(3, 2), Fraction(3, 2), 0]
    assert scoring.points_for([1, 1, 1, 4]) == [Fraction(7, 3)] * 3 + [0]
    assert scoring.shown(Fraction(7, 3)) == "2.3"


def test_two_wins_in_a_row_double_the_next_games_until_one_is_not_a_win() -> None:
    a_wins = {1: 1, 2: 2, 3: 3, 4: 4}
    b_wins = {1: 2, 2: 1, 3: 3, 4: 4}
    shared_first = {1: 1, 2: 1, 3: 3, 4: 4}
    entrants = [(1, 1500.0), (2, 1500.0), (3, 1500.0), (4, 1500.0)]
    rows = {r.key: r for r in scoring.standings(entrants, [a_wins, a_wins])}
    assert rows[1].points == 8 and rows[1].streak  # 4 + 4, the next doubled
    rows = {r.key: r for r in scoring.standings(entrants, [a_wins, a_wins, a_wins])}
    assert rows[1].points == 16 and rows[1].streak  # 4 + 4 + 8
    rows = {r.key: r for r in scoring.standings(entrants, [a_wins] * 3 + [b_wins])}
    assert rows[1].points == 20 and not rows[1].streak  # second, doubled: 2 * 2
    # A shared first is a win, as on a profile and in the API: it keeps the streak going.
    rows = {r.key: r for r in scoring.standings(entrants, [a_wins, a_wins, shared_first])}
    assert rows[1].points == 14 and rows[1].streak  # 4 + 4 + 2 * 3
    assert rows[1].wins == 3 and rows[2].wins == 1
    assert rows[2].points == 2 + 2 + 3


def test_standings_rank_by_points_then_wins_and_ties_share_a_place() -> None:
    entrants = [(1, 1500.0), (2, 1500.0), (3, 1500.0), (4, 1500.0), (5, 1500.0)]
    rows = scoring.standings(entrants, [{1: 1, 2: 1, 3: 3, 4: 4}])
    assert [(r.key, r.place) for r in rows] == [(1, 1), (2, 1), (3, 3), (4, 4), (5, 4)]


# Joining -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_join_is_kept_and_pause_takes_a_person_out_of_the_seating() -> None:
    arena = running_arena()
    [alice] = joined(arena, ["alice"])
    assert Entrant.objects.get(arena=arena, user=alice).paused is False
    services.join(alice, arena.pk)  # twice: still one entry
    assert Entrant.objects.filter(arena=arena, user=alice).count() == 1
    assert services.pause(alice, arena.pk)
    assert Entrant.objects.get(arena=arena, user=alice).paused


@pytest.mark.django_db
def test_a_join_after_the_end_an_unknown_arena_a_sanctioned_or_busy_person_is_refused() -> None:
    over = running_arena(starts_at=timezone.now() - timedelta(hours=2))
    alice, bob, carol = (User.objects.create_user(n) for n in ("alice", "bob", "carol"))
    with pytest.raises(ServiceError, match="This arena is over"):
        services.join(alice, over.pk)
    with pytest.raises(ServiceError, match="There is no such arena"):
        services.join(alice, 10**9)
    arena = running_arena()
    sanctions.ban(moderator(), bob, reason="Abuse")
    with pytest.raises(ServiceError, match="banned"):
        services.join(bob, arena.pk)
    games.play_now(carol)
    with pytest.raises(ServiceError, match="You are playing a game elsewhere"):
        services.join(carol, arena.pk)
    assert not Entrant.objects.exists()


@pytest.mark.django_db
def test_the_join_button_refuses_a_get_and_says_why_a_post_is_refused() -> None:
    arena = running_arena(starts_at=timezone.now() - timedelta(hours=2))
    client = Client()
    client.force_login(User.objects.create_user("alice"))
    assert client.get(f"/arenas/{arena.pk}/join/").status_code == 405
    assert client.post("/arenas/999999/join/").status_code == 404
    page = client.post(f"/arenas/{arena.pk}/join/", follow=True)
    assert "This arena is over: no one joins it now" in page.content.decode()
    assert not Entrant.objects.exists()
    signed_out = Client().post(f"/arenas/{arena.pk}/join/")
    assert signed_out.status_code == 302 and "/accounts/login/" in signed_out["Location"]


# Seating -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_eight_free_entrants_make_two_rated_tables_of_one_game_each_person_at_one() -> None:
    arena = running_arena()
    people = joined(arena, NAMES)
    made = services.pair(arena.pk)
    assert len(made) == 2
    for played in made:
        table = played.table
        assert table.rated and table.one_game and table.status == Table.Status.PLAYING
        assert not table.seats.filter(is_bot=True).exists()
        assert played.game.rated
    assert [len(tables_of(person)) for person in people] == [1] * 8
    assert Entrant.objects.filter(arena=arena, game__isnull=False).count() == 8
    assert services.pair(arena.pk) == []  # no one is free now


@pytest.mark.django_db
def test_someone_blocked_is_never_seated_with_the_blocker_and_four_others_are() -> None:
    arena = running_arena()
    people = joined(arena, NAMES[:5])
    blocks.block(people[3], people[1])
    [played] = services.pair(arena.pk)
    seated = {seat.user for seat in played.table.seats.all()}
    assert len(seated) == 4 and not {people[3], people[1]} <= seated
    assert services.pair(arena.pk) == []  # the one left waits on for others


@pytest.mark.django_db
def test_paused_people_closed_pages_and_an_arena_not_yet_started_are_not_seated() -> None:
    arena = running_arena()
    people = joined(arena, NAMES[:4])
    services.pause(people[0], arena.pk)
    assert services.pair(arena.pk) == []
    services.join(people[0], arena.pk)
    services.page_closed(arena.pk, people[1].pk)
    assert services.pair(arena.pk) == []
    services.page_opened(arena.pk, people[1].pk)
    later = running_arena(starts_at=timezone.now() + timedelta(minutes=5))
    joined(later, NAMES[4:])
    assert services.pair(later.pk) == []
    assert len(services.pair(arena.pk)) == 1


@pytest.mark.django_db
def test_a_rematch_of_an_arena_table_is_refused() -> None:
    arena = running_arena()
    joined(arena, NAMES[:4])
    [played] = services.pair(arena.pk)
    game = play_out(played.game, 1)
    host = game.players.get(seat=0).user
    assert host is not None
    with pytest.raises(ServiceError, match="made for one game"):
        games.rematch(played.table_id, host)


# A game's end, and the arena's -----------------------------------------------------------------


@pytest.mark.django_db
def test_a_games_end_queues_its_arena_task_and_its_players_are_seated_again(
    monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    sent: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(celery_app, "send_task", lambda name, args, **kw: sent.append((name, args)))
    arena = running_arena()
    people = joined(arena, NAMES[:4])
    [played] = services.pair(arena.pk)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_out(played.game, 1)
    assert (services.ENDED_TASK, (game.pk,)) in sent
    services.game_ended(game.pk)
    rows = selectors.standings(arena)
    seats = game.players.order_by("seat").values_list("user__username", flat=True)
    assert game.result is not None
    expected = scoring.points_for(game.result["places"])
    assert {r.name: r.points for r in rows} == {
        name: scoring.shown(p) for name, p in zip(seats, expected, strict=True)
    }
    assert all(r.games == 1 for r in rows)
    # Free again, the same four are seated at once at a new table (pairing/matching.py).
    first, again = ArenaGame.objects.filter(arena=arena).order_by("pk")
    assert first == played and {s.user for s in again.table.seats.all()} == set(people)
    assert set(Entrant.objects.values_list("game_id", flat=True)) == {again.game_id}


@pytest.mark.django_db
def test_no_game_starts_after_the_end_and_a_game_still_on_counts_when_it_ends() -> None:
    arena = running_arena()
    joined(arena, NAMES)
    first, second = services.pair(arena.pk)
    finish(first)
    later = timezone.now() + timedelta(hours=2)
    services.sweep(later)
    arena.refresh_from_db()
    assert arena.ended
    assert services.pair(arena.pk, later) == []  # the four of the first game wait for nothing
    assert all(r.games == (1 if r.user_id in _players(first) else 0) for r in _rows(arena))
    finish(second, 2)
    assert all(r.games == 1 for r in _rows(arena))
    assert services.pair(arena.pk) == []


def _players(played: ArenaGame) -> set[int]:
    return set(played.game.players.values_list("user_id", flat=True))


def _rows(arena: Arena) -> list[selectors.Row]:
    return selectors.standings(arena)


@pytest.mark.django_db
def test_a_void_game_takes_its_points_away_and_working_them_out_again_is_the_same() -> None:
    arena = running_arena()
    joined(arena, NAMES)
    first, second = services.pair(arena.pk)
    finish(first, 1)
    finish(second, 2)
    before = _rows(arena)
    assert sum(r.games for r in before) == 8
    staff = with_two_factor(User.objects.create_user("staff", is_staff=True))
    staff.user_permissions.add(Permission.objects.get(codename="change_game"))
    staff = User.objects.get(pk=staff.pk)
    void_game(first.game_id, staff, "collusion")
    after = _rows(arena)
    assert {r.user_id: r.games for r in after} == {
        r.user_id: 0 if r.user_id in _players(first) else 1 for r in before
    }
    assert all(r.points == "0" for r in after if r.user_id in _players(first))
    assert _rows(arena) == after  # worked out from the results each time, the same


# The schedule and the sweep --------------------------------------------------------------------


@pytest.mark.django_db
def test_the_schedule_makes_each_arena_once_and_the_sweep_starts_it(
    settings: Settings,
) -> None:
    settings.HEARTS_ARENA_SCHEDULE = [
        {
            "key": "hourly",
            "name": "Hourly",
            "preset": "standard",
            "players": 4,
            "every": 60,
            "minutes": 55,
        }
    ]
    now = timezone.now()
    services.sweep(now)
    services.sweep(now)
    [arena] = Arena.objects.filter(schedule_key="hourly")
    assert arena.starts_at > now and arena.starts_at.minute == 0 and not arena.started
    services.sweep(arena.starts_at + timedelta(seconds=1))
    arena.refresh_from_db()
    assert arena.started and not arena.ended
    assert Arena.objects.filter(schedule_key="hourly").count() == 2  # and the next hour's


@pytest.mark.django_db
def test_the_sweep_frees_a_player_whose_games_end_was_lost() -> None:
    arena = running_arena()
    joined(arena, NAMES[:4])
    [played] = services.pair(arena.pk)
    play_out(played.game, 1)  # its task never ran
    assert Entrant.objects.filter(game__isnull=False).count() == 4
    services.sweep()
    assert len(ArenaGame.objects.filter(arena=arena)) == 2  # freed, and seated again


# Two seatings at once --------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_seatings_at_once_never_put_anyone_at_two_tables() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("on SQLite one writer at a time: the seatings cannot overlap")
    arena = running_arena()
    for round_ in range(4):
        people = joined(arena, [f"{name}{round_}" for name in NAMES])
        assert raised_at_once(lambda: services.pair(arena.pk)) == []
        services.pair(arena.pk)  # whoever both skipped
        assert [len(tables_of(person)) for person in people] == [1] * 8
        assert Seat.objects.filter(user__in=people).count() == 8


# The pages -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_pages_show_the_arenas_standings_and_the_profile_its_place() -> None:
    arena = running_arena()
    people = joined(arena, NAMES[:4])
    [played] = services.pair(arena.pk)
    for person in people:
        services.pause(person, arena.pk)  # their game goes on; no other after it
    game = finish(played)
    listing = Client().get("/arenas/").content.decode()
    assert "Running now" in listing and "Test arena" in listing and "Standard, 4 players" in listing
    page = Client().get(f"/arenas/{arena.pk}/").content.decode()
    assert "Standings" in page and "alice" in page and "left" in page
    lobby = Client().get("/").content.decode()
    assert "Test arena" in lobby
    Arena.objects.filter(pk=arena.pk).update(ended=True)
    assert game.result is not None
    winner = game.players.get(seat=game.result["places"].index(1)).user
    assert winner is not None
    profile = Client().get(f"/u/{winner.username}/").content.decode()
    assert "Test arena" in profile and "place 1" in profile
    final = Client().get(f"/arenas/{arena.pk}/").content.decode()
    assert "Final standings" in final and "🥇" in final


@pytest.mark.django_db
def test_the_standings_show_the_rating_the_profile_shows_before_and_after_a_rated_game() -> None:
    alice = User.objects.create_user("alice")
    # A newcomer's skill (so seated with them at once), but surer of it: shown as 1212.
    Rating.objects.create(user=alice, mu=25.0, sigma=2.0, games=12)
    arena = running_arena()
    people = joined(arena, NAMES[:4])

    def shown() -> dict[str, int]:
        return {row.name: row.rating for row in selectors.standings(arena)}

    def on_the_page(ratings: dict[str, int]) -> None:
        page = Client().get(f"/arenas/{arena.pk}/").content.decode()
        for name, rating in ratings.items():
            row = page[page.index(f">{name}</a>") : page.index("</tr>", page.index(f">{name}</a>"))]
            assert f"<td>{rating}</td>" in row, (name, row)

    assert shown() == {"alice": 1212, "bob": 300, "carol": 300, "dave": 300}  # 300: a newcomer's
    on_the_page(shown())
    [played] = services.pair(arena.pk)
    for person in people:
        services.pause(person, arena.pk)
    game = finish(played)
    profiles = {p.username: Rating.objects.get(user=p).display for p in people}
    results = {c.user.username: c.display_after for c in game.rating_changes.all()}
    assert shown() == profiles == results
    on_the_page(profiles)


@pytest.mark.django_db
def test_the_schedules_arena_names_are_in_the_readers_language_wherever_they_are_shown() -> None:
    now = timezone.now()
    for starts_at in (now - timedelta(minutes=1), now + timedelta(minutes=30)):  # on, and next
        services.create_arena(
            "Hourly Standard arena", preset="standard", players=4, starts_at=starts_at, minutes=55
        )
    german = Client(headers={"Accept-Language": "de"})
    for path in ("/", "/arenas/"):
        page = german.get(path).content.decode()
        assert page.count("Stündliche Standard-Arena") == 2, path
        assert "Hourly Standard arena" not in page, path


@pytest.mark.django_db
def test_only_staff_with_the_arena_permission_may_create_one_in_the_admin() -> None:
    plain = moderator("plain_staff")
    client = Client()
    client.force_login(plain)
    assert client.get("/admin/arenas/arena/add/").status_code == 403
    plain.user_permissions.add(Permission.objects.get(codename="run_arenas"))
    client.force_login(User.objects.get(pk=plain.pk))
    form = {
        "name": "Evening arena",
        "preset": "standard",
        "players": "4",
        "starts_at_0": "2030-01-01",
        "starts_at_1": "20:00:00",
        "minutes": "45",
        "entrants-TOTAL_FORMS": "0",
        "entrants-INITIAL_FORMS": "0",
    }
    bad = client.post("/admin/arenas/arena/add/", {**form, "players": "6"})
    assert bad.status_code == 200 and "the rated queue offers" in bad.content.decode()
    assert client.post("/admin/arenas/arena/add/", form).status_code == 302
    arena = Arena.objects.get(name="Evening arena")
    assert arena.created_by == plain and arena.state() == "upcoming"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "skill", "rating"),
    [
        ("en", "Seating skill (internal, not the rating)", "Rating"),
        ("de", "Spielstärke für die Sitzverteilung (intern, nicht die Wertung)", "Wertung"),
        ("fr", "Niveau pour le placement (interne, pas la cote)", "Cote"),
        ("es", "Nivel para sentar a los jugadores (interno, no la puntuación)", "Puntuación"),
    ],
)
def test_the_admin_shows_an_entrants_site_rating_apart_from_the_seatings_internal_skill(
    language: str, skill: str, rating: str
) -> None:
    alice = User.objects.create_user("alice")
    Rating.objects.create(user=alice, mu=27.0, sigma=2.0, games=30)  # the site shows 1308
    arena = running_arena()
    joined(arena, ["alice"])  # seated by the skill alone, 1596 on the seating's scale
    entrant = Entrant.objects.get(user=alice)
    shown = Rating.objects.get(user=alice).display
    client = Client(headers={"Accept-Language": language})
    client.force_login(with_two_factor(User.objects.create_superuser("erin")))

    inline = _words(client.get(f"/admin/arenas/arena/{arena.pk}/change/").content.decode())
    assert f"{rating} {skill}" in inline and f"{shown} 1596" in inline
    page = _words(client.get(f"/admin/arenas/entrant/{entrant.pk}/change/").content.decode())
    assert re.search(rf"{rating} ?: {shown} {re.escape(skill)} ?: 1596 ", page)


def _words(html: str) -> str:
    """A page's words, without its tags or runs of white space."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())
