"""Staff void a finished game through the admin: it stays in the history marked void and
unrated, and every rating is what a fresh ``recompute_ratings`` makes of the games left."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth.models import Permission, User
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.errors import ServiceError
from games.models import Game, MoveRecord
from moderation.models import AuditEntry
from moderation.voiding import void_game
from ratings.maths import Skill, rate
from ratings.models import Rating, RatingChange
from tests.helpers.finishing import a_season, every_rating, play_a_card, play_out, start
from tests.helpers.moderators import with_two_factor
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/games/game/"


def _staff(name: str = "sam") -> User:
    return with_two_factor(User.objects.create_user(name, is_staff=True, is_superuser=True))


def _staff_client(staff: User) -> Client:
    client = Client()
    client.force_login(staff)
    return client


def _void_through_the_admin(client: Client, game: Game, reason: str) -> str:
    response = client.post(
        CHANGELIST,
        {"action": "void_games", ACTION_CHECKBOX_NAME: [game.pk], "post": "yes", "reason": reason},
        follow=True,
    )
    assert response.status_code == 200
    return response.content.decode()


def test_a_void_recomputes_every_later_rating_exactly_as_a_fresh_recompute() -> None:
    games = a_season()
    before = every_rating()
    voided = games[1]

    void_game(voided.pk, _staff(), "bob and carol played as one")
    after_void = every_rating()
    call_command("recompute_ratings", stdout=StringIO())

    assert every_rating() == after_void
    assert voided.pk not in {change[0] for change in after_void[1]}
    assert len(after_void[1]) == 20
    # The first game's changes stand; every later game of the voided game's players moved.
    first = [change for change in before[1] if change[0] == games[0].pk]
    assert [change for change in after_void[1] if change[0] == games[0].pk] == first
    assert after_void[0]["alice"] != before[0]["alice"]
    assert after_void[0]["alice"][2] == before[0]["alice"][2] - 1


def test_the_new_ratings_are_the_rating_maths_over_the_games_left_in_order() -> None:
    games = a_season()
    void_game(games[2].pk, _staff(), "a bug dealt twice")

    skills: dict[str, Skill] = {}
    counts: dict[str, int] = {}
    for game in games[:2] + games[3:]:
        names = [player.name for player in game.players.order_by("seat")]
        assert game.result is not None
        new = rate([skills.get(name, Skill()) for name in names], game.result["places"])
        for name, skill in zip(names, new, strict=True):
            skills[name] = skill
            counts[name] = counts.get(name, 0) + 1

    ratings, _ = every_rating()
    assert ratings == {
        name: (skill.mu, skill.sigma, counts[name]) for name, skill in skills.items()
    }


def test_staff_void_a_game_through_the_admin_with_a_reason_kept_in_the_audit_log() -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    game = play_out(start([alice, bob, carol, dave]), 47)
    staff = _staff()
    client = _staff_client(staff)

    asked = client.post(CHANGELIST, {"action": "void_games", ACTION_CHECKBOX_NAME: [game.pk]})
    assert asked.status_code == 200
    assert b'name="reason"' in asked.content
    assert not Game.objects.get(pk=game.pk).void

    html = _void_through_the_admin(client, game, "carol and dave shared their hands")

    assert f"{game} is void; the ratings are recomputed." in html
    game.refresh_from_db()
    assert game.void and not game.rated and game.voided_at is not None
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    entry = AuditEntry.objects.get()
    assert (entry.staff, entry.action, entry.game, entry.reason) == (
        staff,
        "void",
        game,
        "carol and dave shared their hands",
    )
    assert entry.details == {"was_rated": True, "rating_changes": 4}


def test_a_void_needs_a_reason() -> None:
    game = play_out(start(people("alice", "bob", "carol", "dave")), 47)

    html = _void_through_the_admin(_staff_client(_staff()), game, "  ")

    assert "This field is required." in html
    assert not Game.objects.get(pk=game.pk).void
    assert not AuditEntry.objects.exists()


def test_the_voided_game_stays_listed_marked_void_and_unrated(client: Client) -> None:
    four = people("alice", "bob", "carol", "dave")
    voided = play_out(start(four), 47)
    kept = play_out(start(four), 6)
    void_game(voided.pk, _staff(), "test")

    listed = client.get(reverse("game_list")).content.decode()
    rows = listed.split("<tr>")[2:]
    assert len(rows) == 2
    [void_row] = [row for row in rows if f"/g/{voided.pk}/" in row]
    assert "Void: not rated" in void_row
    [kept_row] = [row for row in rows if f"/g/{kept.pk}/" in row]
    assert "Void" not in kept_row and "Rated" in kept_row

    page = client.get(reverse("game_detail", args=[voided.pk])).content.decode()
    assert "Void: not rated." in page
    assert "Replay" in page


def test_profiles_show_the_new_ratings_and_the_void_game_unrated(client: Client) -> None:
    four = people("alice", "bob", "carol", "dave")
    voided = play_out(start(four), 47)
    play_out(start(four), 6)
    shown_before = Rating.objects.get(user__username="alice").display

    void_game(voided.pk, _staff(), "test")

    alice = Rating.objects.get(user__username="alice")
    assert alice.games == 1 and alice.display != shown_before
    page = client.get(reverse("profile", args=["alice"])).content.decode()
    assert f'<span class="rating-number">{alice.display}</span>' in page
    assert "after 1 rated game;" in page
    game_line = page[page.index(f"/g/{voided.pk}/") :].split("</li>")[0]
    assert "Void: not rated." in game_line and "Rating" not in game_line


def test_a_person_who_is_not_staff_cannot_void_a_game() -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    game = play_out(start([alice, bob, carol, dave]), 47)
    client = Client()
    client.force_login(alice)

    response = client.post(
        CHANGELIST,
        {"action": "void_games", ACTION_CHECKBOX_NAME: [game.pk], "post": "yes", "reason": "x"},
    )

    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    with pytest.raises(PermissionDenied):
        void_game(game.pk, alice, "I lost")
    assert not Game.objects.get(pk=game.pk).void
    assert RatingChange.objects.filter(game=game).count() == 4


def test_staff_without_the_right_to_change_games_are_not_offered_the_void() -> None:
    game = play_out(start(people("alice", "bob", "carol", "dave")), 47)
    viewer = with_two_factor(User.objects.create_user("vic", is_staff=True))
    viewer.user_permissions.add(Permission.objects.get(codename="view_game"))
    client = _staff_client(viewer)

    assert b"void_games" not in client.get(CHANGELIST).content
    _void_through_the_admin(client, game, "because")

    assert not Game.objects.get(pk=game.pk).void


def test_staff_without_the_right_to_change_games_cannot_void_one_in_code_either() -> None:
    game = play_out(start(people("alice", "bob", "carol", "dave")), 47)
    viewer = with_two_factor(User.objects.create_user("vic", is_staff=True))
    viewer.user_permissions.add(Permission.objects.get(codename="view_game"))

    with pytest.raises(PermissionDenied):
        void_game(game.pk, viewer, "because")

    assert not Game.objects.get(pk=game.pk).void
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize("chosen", ["abc", "9" * 30])
def test_a_chosen_id_that_is_no_games_is_refused_with_a_message(chosen: str) -> None:
    client = _staff_client(_staff())
    client.raise_request_exception = False

    response = client.post(CHANGELIST, {"action": "void_games", ACTION_CHECKBOX_NAME: [chosen]})

    assert response.status_code == 302
    shown = client.get(response["Location"]).content.decode()
    assert "Those games could not be found: choose again." in shown


def test_a_game_still_being_played_cannot_be_voided() -> None:
    game = start(people("alice", "bob", "carol", "dave"))
    play_a_card(game)

    html = _void_through_the_admin(_staff_client(_staff()), game, "too slow")

    assert "only a finished game is voided" in html
    assert not Game.objects.get(pk=game.pk).void
    with pytest.raises(ServiceError):
        void_game(game.pk, _staff("tess"), "too slow")


def test_a_game_is_voided_once() -> None:
    game = play_out(start(people("alice", "bob", "carol", "dave")), 47)
    staff = _staff()
    void_game(game.pk, staff, "first")

    with pytest.raises(ServiceError, match="void already"):
        void_game(game.pk, staff, "second")
    assert AuditEntry.objects.count() == 1


def test_the_move_log_cannot_be_edited_through_the_admin() -> None:
    game = play_out(start(people("alice", "bob", "carol", "dave")), 47)
    move = MoveRecord.objects.filter(game=game).order_by("number").first()
    assert move is not None
    client = _staff_client(_staff())
    url = reverse("admin:games_moverecord_change", args=[move.pk])

    page = client.get(url)
    assert page.status_code == 200
    assert b'name="_save"' not in page.content and b'name="cards"' not in page.content
    refused = client.post(url, {"cards": "QS", "seat": 0, "kind": "play", "_save": "Save"})
    assert refused.status_code == 403
    assert client.get(reverse("admin:games_moverecord_add")).status_code == 403
    assert client.post(reverse("admin:games_moverecord_delete", args=[move.pk])).status_code == 403
    assert MoveRecord.objects.get(pk=move.pk).cards == move.cards


def test_a_finished_game_is_read_only_in_the_admin() -> None:
    game = play_out(start(people("alice", "bob", "carol", "dave")), 47)
    client = _staff_client(_staff())
    url = reverse("admin:games_game_change", args=[game.pk])

    page = client.get(url).content.decode()
    assert 'name="_save"' not in page and 'name="status"' not in page
    assert f'href="{reverse("game_detail", args=[game.pk])}"' in page
    assert f'href="{reverse("game_verify", args=[game.pk])}"' in page
    assert client.post(url, {"status": "playing", "rated": ""}).status_code == 403
    assert client.post(reverse("admin:games_game_delete", args=[game.pk])).status_code == 403
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def test_the_admin_finds_games_by_player_and_filters_void_ones() -> None:
    four = people("alice", "bob", "carol", "dave")
    voided = play_out(start(four), 47)
    kept = play_out(start(people("erin", "bob", "carol", "dave")), 6)
    staff = _staff()
    void_game(voided.pk, staff, "test")
    client = _staff_client(staff)

    found = client.get(CHANGELIST, {"q": "erin"}).content.decode()
    assert f"/admin/games/game/{kept.pk}/change/" in found
    assert f"/admin/games/game/{voided.pk}/change/" not in found
    void_only = client.get(CHANGELIST, {"void__exact": "1"}).content.decode()
    assert f"/admin/games/game/{voided.pk}/change/" in void_only
    assert f"/admin/games/game/{kept.pk}/change/" not in void_only
    for name in ("table", "seat", "gameplayer", "moverecord"):
        assert client.get(f"/admin/games/{name}/", {"q": "alice"}).status_code == 200
    for name in ("rating", "ratingchange"):
        assert client.get(f"/admin/ratings/{name}/", {"q": "bob"}).status_code == 200


def test_every_admin_page_of_a_finished_game_and_its_ratings_opens_read_only() -> None:
    game = play_out(start(people("alice", "bob", "carol", "dave")), 47)
    client = _staff_client(_staff())
    rows = [
        ("games", "table", game.table_id),
        ("games", "seat", game.table.seats.all()[0].pk),
        ("games", "gameplayer", game.players.all()[0].pk),
        ("games", "moverecord", game.moves.all()[0].pk),
        ("ratings", "rating", Rating.objects.all()[0].pk),
        ("ratings", "ratingchange", RatingChange.objects.all()[0].pk),
    ]

    for app, model, pk in rows:
        page = client.get(reverse(f"admin:{app}_{model}_change", args=[pk]))
        assert page.status_code == 200, model
        assert b'name="_save"' not in page.content, model
        assert client.get(reverse(f"admin:{app}_{model}_add")).status_code == 403, model
    change_page = client.get(reverse("admin:ratings_ratingchange_change", args=[rows[-1][2]]))
    assert f'href="{reverse("game_detail", args=[game.pk])}"' in change_page.content.decode()
