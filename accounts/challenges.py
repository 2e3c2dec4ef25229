"""Challenges: one person invites another to a game, with the table's settings (rule set, size,
rated or not, clock, the bots' level). The invited person is told at once on whatever page of
the site they have open (a notice with Accept and Decline, pushed to their account's group:
every live page's socket is in it, and every other page opens one), and accepting seats both at
one new private table whose empty chairs the sender may fill by its invite link or with bots.

A challenge is open for :data:`LASTS`, then expires (the sweep, every few seconds, says so to
both). Nobody has more than :data:`MOST_OPEN` open at once, nor sends more than
:data:`PER_MINUTE` a minute. Nothing here touches a game once it runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts import blocks
from accounts.models import Challenge
from games import selectors, services
from games.engine import InvalidRulesError
from games.errors import ServiceError
from games.models import Table
from games.words import preset_title, summary
from live import broadcasts
from moderation import gates
from moderation.models import sanction_in_force
from moderation.sanctions import account_group

LASTS = timedelta(minutes=2)
MOST_OPEN = 3  # open challenges a person may have sent at once
PER_MINUTE = 5  # challenges a person may send a minute
NEWS = "challenge.news"  # the account group's message: a socket pushes its person's notices

# What the notices say once a challenge is over, by what ended it and to whom (its sender or
# the person it was sent to), filled with the other person's name.
ENDED: dict[tuple[str, str], Any] = {
    ("declined", "sender"): gettext_lazy("%(name)s declined your invitation."),
    ("expired", "sender"): gettext_lazy("Your invitation to %(name)s expired unanswered."),
    ("expired", "receiver"): gettext_lazy("The invitation from %(name)s expired."),
    ("withdrawn", "receiver"): gettext_lazy("%(name)s withdrew their invitation."),
    ("accepted", "sender"): gettext_lazy("%(name)s accepted: to your table!"),
    ("gone", "receiver"): gettext_lazy(
        "The invitation from %(name)s is over: they are playing another game."
    ),
}


class ChallengeRefused(ServiceError):
    """A challenge that may not be sent, accepted or answered; the words say why."""


def _refuse_sending(sender: User, receiver: User, now: datetime) -> None:
    name = receiver.username
    if receiver.pk == sender.pk:
        raise ChallengeRefused(_("You cannot invite yourself"))
    if not receiver.is_active:
        raise ChallengeRefused(_("The account of %(name)s is closed") % {"name": name})
    gates.check_may_play(sender)  # suspended or banned: their sanction's notice
    if sanction_in_force(receiver) is not None:
        raise ChallengeRefused(_("%(name)s cannot play at the moment") % {"name": name})
    if blocks.blocks(sender, receiver):
        raise ChallengeRefused(_("You block %(name)s: unblock them first") % {"name": name})
    if blocks.blocks(receiver, sender):
        raise ChallengeRefused(_("%(name)s does not take invitations from you") % {"name": name})
    sent = Challenge.objects.filter(sender=sender)
    mine = sent.filter(status=Challenge.Status.OPEN, expires_at__gt=now)
    if mine.filter(receiver=receiver).exists():
        raise ChallengeRefused(
            _("You have invited %(name)s already: wait for their answer") % {"name": name}
        )
    if mine.count() >= MOST_OPEN:
        raise ChallengeRefused(
            _("You have %(count)s invitations waiting already: wait for an answer first")
            % {"count": MOST_OPEN}
        )
    if sent.filter(created_at__gt=now - timedelta(minutes=1)).count() >= PER_MINUTE:
        raise ChallengeRefused(_("You have sent many invitations: wait a minute"))


def send(sender: User, receiver: User, settings: dict[str, Any]) -> Challenge:
    """Invite ``receiver`` to a game at a table of ``settings`` (the create-table form's
    preset, players, options, rated, bot_level); refused with the reason."""
    now = timezone.now()
    with transaction.atomic():
        # The sender's row locked: two clicks at once do not both pass the limits.
        list(User.objects.select_for_update().filter(pk=sender.pk))
        _refuse_sending(sender, receiver, now)
        if settings.get("rated") and not gates.may_play_rated(sender):
            raise ChallengeRefused(
                _("Rated tables are closed to you for now: invite to a casual one")
            )
        challenge = Challenge.objects.create(
            sender=sender, receiver=receiver, settings=settings, expires_at=now + LASTS
        )
        _tell(challenge)
    return challenge


def _open(user: User, challenge_id: int, *, as_receiver: bool) -> Challenge:
    """The challenge, locked, if ``user`` is its receiver (or its sender); else refused as if
    there were none."""
    found = Challenge.objects.select_for_update().filter(pk=challenge_id)
    found = found.filter(receiver=user) if as_receiver else found.filter(sender=user)
    challenge = found.select_related("sender", "receiver").first()
    if challenge is None:
        raise ChallengeRefused(_("There is no such invitation"))
    return challenge


def _refusal(challenge: Challenge, now: datetime) -> ChallengeRefused | None:
    """Why the challenge may not be answered now, if it may not: what became of it. One whose
    time is up ends now, telling both."""
    status = challenge.status
    if status == Challenge.Status.OPEN and challenge.expires_at <= now:
        _end(challenge, Challenge.Status.EXPIRED)
        status = challenge.status
    name = challenge.sender.username
    if status == Challenge.Status.EXPIRED:
        return ChallengeRefused(_("This invitation expired"))
    if status == Challenge.Status.WITHDRAWN:
        return ChallengeRefused(_("%(name)s withdrew this invitation") % {"name": name})
    if status != Challenge.Status.OPEN:
        return ChallengeRefused(_("This invitation was answered already"))
    return None


def accept(user: User, challenge_id: int) -> Table:
    """``user`` takes the invitation: a new private table of its settings with its sender in
    the first seat and ``user`` in the second, the rest open to the invite link or to bots.
    Refused, saying why, once it expired or was answered, or while its sender (or ``user``)
    plays another game: the challenge is then over, for both (kept so, though refused)."""
    now = timezone.now()
    with transaction.atomic():
        challenge = _open(user, challenge_id, as_receiver=True)
        refusal = _refusal(challenge, now)
        sender = challenge.sender
        if refusal is None and selectors.running_game(sender) is not None:
            _end(challenge, Challenge.Status.EXPIRED, receiver_told="gone")
            refusal = ChallengeRefused(
                _("%(name)s is playing another game now: the invitation is over")
                % {"name": sender.username}
            )
        if refusal is None and selectors.running_game(user) is not None:
            refusal = ChallengeRefused(_("Finish your game first, then accept"))
        if refusal is None:
            with transaction.atomic():  # a refusal of either seat keeps no table
                settings = challenge.settings
                table = services.create_table(
                    sender,
                    preset=settings.get("preset", "standard"),
                    players=settings.get("players"),
                    options=settings.get("options") or {},
                    rated=bool(settings.get("rated")),
                    private=True,
                    bot_level=settings.get("bot_level", Table.BotLevel.NORMAL),
                )
                services.take_seat(table.pk, user, 1, code=table.invite_code)
            challenge.table = table
            _end(challenge, Challenge.Status.ACCEPTED)
            return table
    raise refusal


def decline(user: User, challenge_id: int) -> None:
    with transaction.atomic():
        challenge = _open(user, challenge_id, as_receiver=True)
        refusal = _refusal(challenge, timezone.now())
        if refusal is None:
            _end(challenge, Challenge.Status.DECLINED)
            return
    raise refusal


def withdraw(user: User, challenge_id: int) -> None:
    """The sender takes their invitation back, while it is open."""
    with transaction.atomic():
        challenge = _open(user, challenge_id, as_receiver=False)
        if challenge.status == Challenge.Status.OPEN:
            _end(challenge, Challenge.Status.WITHDRAWN)


def expire_due(now: datetime | None = None) -> int:
    """End every open challenge whose time is up, telling both; how many (the sweep's)."""
    now = now or timezone.now()
    ended = 0
    with transaction.atomic():
        due = Challenge.objects.select_for_update(skip_locked=True).filter(
            status=Challenge.Status.OPEN, expires_at__lte=now
        )
        for challenge in due.select_related("sender", "receiver"):
            _end(challenge, Challenge.Status.EXPIRED)
            ended += 1
    return ended


def _end(challenge: Challenge, status: str, *, receiver_told: str | None = None) -> None:
    challenge.status = status
    challenge.save(update_fields=["status", "table"])
    _tell(challenge, ended=status, receiver_told=receiver_told)


def _tell(
    challenge: Challenge, *, ended: str | None = None, receiver_told: str | None = None
) -> None:
    """After commit, both people's sockets show their notices again; those ending a challenge
    also say how it ended (to each as :data:`ENDED` words it), and the sender's, once it was
    accepted, leads to the table."""
    news = {}
    for whom, person, other in (
        ("sender", challenge.sender, challenge.receiver),
        ("receiver", challenge.receiver, challenge.sender),
    ):
        message: dict[str, Any] = {"type": NEWS}
        said = (receiver_told or ended) if whom == "receiver" else ended
        if (said, whom) in ENDED:
            message["said"] = said
            message["whom"] = whom
            message["name"] = other.username
        if ended == Challenge.Status.ACCEPTED and whom == "sender" and challenge.table_id:
            message["table"] = challenge.table_id
        news[account_group(person.pk)] = message
    transaction.on_commit(lambda: broadcasts.send(news))


@dataclass(frozen=True)
class Invitation:
    challenge: Challenge
    words: str  # its table in words (:func:`described`)


@dataclass(frozen=True)
class Notices:
    """What a person's notices show: the invitations sent to them and by them that are still
    open, and, pushed as one ended, what became of it."""

    received: list[Invitation]
    sent: list[Invitation]
    said: str = ""
    table: Table | None = None


def notices(user: User, event: dict[str, Any] | None = None) -> Notices:
    """``user``'s open challenges both ways, newest first (two small queries), with the words
    and the table of the message ``event`` if a socket was sent one."""
    now = timezone.now()
    live = Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__gt=now)
    received = live.filter(receiver=user).select_related("sender").order_by("-pk")
    sent = live.filter(sender=user).select_related("receiver").order_by("-pk")
    said, table = "", None
    if event:
        words = ENDED.get((str(event.get("said")), str(event.get("whom"))))
        if words is not None:
            said = str(words) % {"name": event.get("name", "")}
        if event.get("table"):
            table = Table.objects.filter(pk=event["table"], seats__user=user).first()
    return Notices(
        [Invitation(c, described(c)) for c in received[: MOST_OPEN * 3]],
        [Invitation(c, described(c)) for c in sent[:MOST_OPEN]],
        said,
        table,
    )


def described(challenge: Challenge) -> str:
    """A challenge's table in words: "Standard · 4 players · to 100 · … · casual"."""
    settings = challenge.settings
    preset = settings.get("preset", "standard")
    try:
        rules = services.rules_of(preset, settings.get("players"), settings.get("options") or {})
    except (ServiceError, InvalidRulesError):
        rules = None
    parts = [preset_title(preset)]
    if rules is not None:
        parts.append(summary(rules))
    parts.append(_("rated") if settings.get("rated") else _("casual"))
    return " · ".join(parts)
