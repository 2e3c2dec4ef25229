"""Chat without a socket: what a message may say, who writes and reads which room, the rate
limits, the page's chat box and its history, mute and chat off from the pages, reports of a
message for staff, chat bans in the audit log, and the game's public pages without a word of
chat. Alice, bob and carol play a game of three with a bot; dave watches."""

from __future__ import annotations

import doctest
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from chat import rates, selectors, services, text
from chat.models import ChatMessage, Mute, Room
from chat.services import ChatRefused
from games import services as games
from games.models import Game, Table
from moderation import sanctions
from moderation.models import AuditEntry, ChatBan
from reports.models import Report
from tests.helpers.moderators import moderator, with_two_factor

pytestmark = pytest.mark.django_db


def _people() -> tuple[User, User, User, User]:
    return tuple(User.objects.create_user(n) for n in ("alice", "bob", "carol", "dave"))  # type: ignore[return-value]


def _table(*, private: bool = False, start: bool = True) -> tuple[Table, Game | None]:
    alice, bob, carol, _ = _people()
    table = games.create_table(alice, preset="standard", private=private)
    games.take_seat(table.pk, bob, 1, table.invite_code)
    games.take_seat(table.pk, carol, 2, table.invite_code)
    games.fill_with_bots(table.pk, alice)
    game = games.start_game(table.pk, alice) if start else None
    return table, game


def _user(name: str) -> User:
    return User.objects.get(username=name)


def _client(name: str | None) -> Client:
    client = Client()
    if name:
        client.force_login(_user(name))
    return client


def _say(name: str, table: Table, room: str, said: str, game: Game | None = None) -> ChatMessage:
    return services.say(_user(name), table.pk, game.pk if game else None, room, said)


def test_the_chat_modules_say_what_their_examples_say() -> None:
    from moderation import models as moderation_models

    for module in (text, selectors, moderation_models):
        assert doctest.testmod(module).failed == 0


def test_a_message_is_kept_as_plain_text_without_hidden_characters() -> None:
    assert text.cleaned("\u202egnp.exe\u202c  see https://evil.example ") == (
        "gnp.exe  see https://evil.example"
    )
    assert text.cleaned("a\x00b\x07c") == "abc"
    assert text.cleaned("one\n\n\n\n\ntwo") == "one\n\ntwo"
    assert text.cleaned("family 👨\u200d👩\u200d👧") == "family 👨\u200d👩\u200d👧"
    assert text.refusal(text.cleaned(" \u200b \n ")) == "Write something first"


def test_players_and_spectators_write_and_read_their_own_rooms() -> None:
    playing = selectors.rooms(player=True, game_running=True)
    assert (playing.writes, playing.reads) == (Room.PLAYERS, {Room.PLAYERS})
    after = selectors.rooms(player=True, game_running=False)
    assert after.reads == {Room.PLAYERS, Room.SPECTATORS}
    watching = selectors.rooms(player=False, game_running=True)
    assert (watching.writes, watching.reads) == (Room.SPECTATORS, {Room.SPECTATORS})


def test_the_table_page_shows_each_person_their_rooms_latest_hundred_messages() -> None:
    table, game = _table()
    for n in range(101):
        ChatMessage.objects.create(
            table=table, game=game, room=Room.PLAYERS, author=_user("bob"), text=f"line {n}"
        )
    _say("dave", table, Room.SPECTATORS, "the watchers' view", game)
    url = reverse("table", args=[table.pk])

    players_page = _client("alice").get(url).content.decode()
    watchers_page = _client("dave").get(url).content.decode()
    anonymous_page = _client(None).get(url).content.decode()

    assert "line 100" in players_page and "line 1<" in players_page
    assert "line 0<" not in players_page  # the 101st from the end
    assert "the watchers&#x27; view" not in players_page
    assert "the watchers&#x27; view" in watchers_page and "line 100" not in watchers_page
    assert "the watchers&#x27; view" in anonymous_page
    assert 'id="chat-form"' in players_page and 'id="chat-form"' not in anonymous_page
    assert "Sign in to write in the chat" in anonymous_page
    assert 'value="players"' in players_page and 'value="spectators"' in watchers_page


def test_once_the_game_is_over_the_players_read_the_spectators_too() -> None:
    table, game = _table()
    assert game is not None
    _say("dave", table, Room.SPECTATORS, "well played all", game)
    games.resign(game.pk, 0)
    page = _client("bob").get(reverse("table", args=[table.pk])).content.decode()
    assert "well played all" in page and "Spectators" in page


def test_a_muted_persons_messages_leave_the_muters_page_and_no_one_elses() -> None:
    table, game = _table()
    _say("bob", table, Room.PLAYERS, "rude words", game)
    alice = _client("alice")
    answer = alice.post(reverse("chat_mute", args=["bob"]), headers={"X-Requested-With": "fetch"})
    assert answer.status_code == 204
    url = reverse("table", args=[table.pk])
    assert "rude words" not in alice.get(url).content.decode()
    assert "rude words" in _client("carol").get(url).content.decode()
    profile = alice.get(reverse("profile", args=["alice"])).content.decode()
    assert "You have muted:" in profile and ">bob</a>" in profile
    alice.post(reverse("chat_unmute", args=["bob"]), {"next": url})
    assert "rude words" in alice.get(url).content.decode()


def test_the_muters_chat_says_whom_they_muted_with_unmute_and_no_one_elses_does() -> None:
    table, game = _table()
    _say("bob", table, Room.PLAYERS, "rude words", game)
    _say("carol", table, Room.PLAYERS, "kind words", game)
    services.mute(_user("alice"), _user("bob"))
    services.mute(_user("alice"), _user("dave"))  # who never wrote here: not named
    url = reverse("table", args=[table.pk])
    page = _client("alice").get(url).content.decode()
    assert "You muted bob" in page and "dave" not in page
    unmute = reverse("chat_unmute", args=["bob"])
    assert f'data-unmute="{unmute}"' in page and "Unmute<span" in page
    assert "You muted" not in _client("carol").get(url).content.decode()
    _client("alice").post(unmute, headers={"X-Requested-With": "fetch"})
    page = _client("alice").get(url).content.decode()
    assert "You muted bob" not in page and "rude words" in page


def test_mute_from_a_profile_goes_back_there_and_nobody_mutes_themselves() -> None:
    _people()
    carol = _client("carol")
    profile = reverse("profile", args=["bob"])
    assert "Mute bob in chat" in carol.get(profile).content.decode()
    answer = carol.post(reverse("chat_mute", args=["bob"]), {"next": profile}, follow=True)
    assert answer.redirect_chain[-1][0] == profile
    assert "You have muted bob" in answer.content.decode()
    assert Mute.objects.filter(muter=_user("carol"), muted=_user("bob")).exists()
    with pytest.raises(ChatRefused, match="cannot mute yourself"):
        services.mute(_user("carol"), _user("carol"))
    outside = carol.post(reverse("chat_mute", args=["dave"]), {"next": "https://evil.example/"})
    assert outside["Location"] == reverse("profile", args=["carol"])


def test_chat_off_hides_every_message_and_is_remembered() -> None:
    table, game = _table()
    _say("bob", table, Room.PLAYERS, "hello there", game)
    carol = _client("carol")
    carol.post(reverse("chat_turn"), {"on": "off"}, headers={"X-Requested-With": "fetch"})
    page = carol.get(reverse("table", args=[table.pk])).content.decode()
    assert "hello there" not in page and "Chat is off" in page
    with pytest.raises(ChatRefused, match="Your chat is off"):
        _say("carol", table, Room.PLAYERS, "hi", game)
    carol.post(reverse("chat_turn"), {"on": "on"})
    assert "hello there" in carol.get(reverse("table", args=[table.pk])).content.decode()


def test_the_limits_are_counted_in_the_database_when_redis_is_not_there(
    settings: Settings,
) -> None:
    table, game = _table()
    for url in ("", "redis://127.0.0.1:1/0"):  # none, and one that does not answer
        ChatMessage.objects.all().delete()
        settings.REDIS_URL = url
        _say("bob", table, Room.PLAYERS, "one", game)
        with pytest.raises(ChatRefused, match="One message a second"):
            _say("bob", table, Room.PLAYERS, "two", game)
        ChatMessage.objects.update(at=timezone.now() - timedelta(seconds=2))
        settings.HEARTS_CHAT_GAP = 0.0
        for n in range(4):
            _say("bob", table, Room.PLAYERS, f"more {n}", game)
        with pytest.raises(ChatRefused, match="At most 5 messages in 10 seconds"):
            _say("bob", table, Room.PLAYERS, "sixth", game)
        settings.HEARTS_CHAT_GAP = 1.0
        assert ChatMessage.objects.count() == 5


def test_the_limits_hold_in_redis_for_each_person_and_room(settings: Settings) -> None:
    if not settings.REDIS_URL:
        pytest.skip("no Redis configured: the database counts (the test above)")
    assert rates.refusal(1, 7, "players") is None
    assert "One message a second" in (rates.refusal(1, 7, "players") or "")
    assert rates.refusal(1, 7, "spectators") is None  # another room
    assert rates.refusal(2, 7, "players") is None  # another person
    settings.HEARTS_CHAT_GAP = 0.0
    assert [rates.refusal(1, 8, "players") for _ in range(6)][-1] == (
        "At most 5 messages in 10 seconds: wait a moment, then send it again"
    )


def test_suspended_and_banned_people_cannot_chat() -> None:
    table, game = _table()
    root = with_two_factor(User.objects.create_superuser("root_ops"))
    sanctions.suspend(root, _user("bob"), until=timezone.now() + timedelta(days=1), reason="Spam.")
    with pytest.raises(ChatRefused, match=r"Your account is suspended until .*: Spam\."):
        _say("bob", table, Room.PLAYERS, "hello", game)
    sanctions.ban(root, _user("dave"), reason="Cheating.")
    with pytest.raises(ChatRefused, match=r"Your account is banned: Cheating\."):
        _say("dave", table, Room.SPECTATORS, "hello", game)
    assert not ChatMessage.objects.exists()


def test_a_chat_ban_and_its_lift_are_in_the_audit_log_and_the_words_stay(
    settings: Settings,
) -> None:
    settings.HEARTS_CHAT_GAP = 0.0
    table, game = _table()
    _say("bob", table, Room.PLAYERS, "you are all idiots", game)
    staff = moderator()
    until = timezone.now() + timedelta(days=3)
    sanctions.chat_ban(staff, _user("bob"), reason="Insults.", note="From a report", until=until)
    with pytest.raises(ChatRefused, match=r"You are banned from chat until .*: Insults\."):
        _say("bob", table, Room.PLAYERS, "sorry", game)
    assert ChatMessage.objects.get().text == "you are all idiots"
    # Banned from chat, bob still plays and watches.
    assert _client("bob").get(reverse("table", args=[table.pk])).status_code == 200
    sanctions.lift_chat_ban(staff, _user("bob"), reason="Apologised.")
    _say("bob", table, Room.PLAYERS, "sorry", game)
    entries = list(AuditEntry.objects.order_by("pk").values_list("action", "reason"))
    assert entries == [("chat ban", "Insults."), ("chat ban lifted", "Apologised.")]
    first = AuditEntry.objects.order_by("pk").first()
    assert first is not None
    assert first.details["note"] == "From a report"
    assert ChatBan.objects.get().lifted_at is not None
    with pytest.raises(sanctions.ModerationError, match="no chat ban in force"):
        sanctions.lift_chat_ban(staff, _user("bob"), reason="Again.")


def test_the_moderators_group_may_ban_from_chat_and_read_the_chat() -> None:
    erin = with_two_factor(User.objects.create_user("mod_erin", is_staff=True))
    erin.groups.add(Group.objects.get(name="Moderators"))
    erin = User.objects.get(pk=erin.pk)
    for held in (
        "moderation.chat_ban_user",
        "moderation.lift_chat_bans",
        "moderation.view_chatban",
        "chat.view_chatmessage",
    ):
        assert erin.has_perm(held), held


def test_a_reported_message_reaches_the_staffs_report_page_as_it_was_written() -> None:
    table, game = _table()
    message = _say("dave", table, Room.SPECTATORS, "<a href=x>free chips</a> at bad.example", game)
    erin = User.objects.create_user("erin")
    reporter = _client("erin")
    form = reporter.get(reverse("chat_report", args=[message.pk])).content.decode()
    assert "&lt;a href=x&gt;free chips&lt;/a&gt; at bad.example" in form
    reporter.post(
        reverse("chat_report", args=[message.pk]),
        {"category": "abuse", "comment": "Spam in the chat."},
    )
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.chat_message, report.game) == (
        erin,
        _user("dave"),
        message,
        game,
    )
    staff = moderator("mod_fay")
    staff.groups.add(Group.objects.get(name="Moderators"))
    page = _client("mod_fay").get(reverse("admin:reports_report_change", args=[report.pk]))
    shown = page.content.decode()
    assert "&lt;a href=x&gt;free chips&lt;/a&gt; at bad.example" in shown
    assert "spectators room of table" in shown
    # The writer is never told who reported them.
    assert "erin" not in _client("dave").get(reverse("profile", args=["dave"])).content.decode()


def test_a_players_message_is_reported_only_by_someone_who_could_read_it() -> None:
    table, game = _table(private=True)
    message = _say("bob", table, Room.PLAYERS, "between us", game)
    assert _client("dave").get(reverse("chat_report", args=[message.pk])).status_code == 404
    assert _client("carol").get(reverse("chat_report", args=[message.pk])).status_code == 200
    watched = _say("alice", table, Room.SPECTATORS, "odd", game)
    # A private table's chats are for those at it: dave came in with no invite.
    assert _client("dave").get(reverse("chat_report", args=[watched.pk])).status_code == 404


def test_the_games_pages_record_and_replay_never_show_the_chat() -> None:
    table, game = _table()
    assert game is not None
    _say("bob", table, Room.PLAYERS, "zebra players' words", game)
    _say("dave", table, Room.SPECTATORS, "zebra watchers' words", game)
    games.resign(game.pk, 0)
    client = _client("bob")
    for url in (
        reverse("game_detail", args=[game.pk]),
        reverse("game_verify", args=[game.pk]),
        reverse("game_record", args=[game.pk]),
    ):
        answer = client.get(url)
        body = answer.content.decode() if hasattr(answer, "content") else ""
        assert answer.status_code == 200, url
        assert "zebra" not in body, url
