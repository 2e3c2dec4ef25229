"""The chat's write path: a message said in a room of a table, a person muted or unmuted, chat
turned off or on. Each change is saved in one transaction and told after its commit: a message
to the table's chat group (every daphne process with sockets at the table hears it once and
pushes it to its screens in that room: chat/hub.py), a change of choices to the person's
account group (each of their sockets picks it up: their muted people vanish from every table
they have open).

A refusal is a :class:`ChatRefused`, in words for the writer alone; nothing is saved then.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from live import broadcasts
from moderation.models import chat_ban_in_force, sanction_in_force
from moderation.sanctions import account_group

from . import rates, text
from .models import ChatMessage, ChatSetting, Mute
from .selectors import said_news

CHOICES = "chat.choices"  # a person's chat choices changed, to their account group


class ChatRefused(ValueError):
    """A message, a mute or a choice that is not taken; the words say why, for that person."""


def chat_group(table_id: int) -> str:
    """The channel group of the processes that show table ``table_id``'s chat."""
    return f"chat-{table_id}"


def check_may_write(user: User) -> None:
    """Raise :class:`ChatRefused` unless ``user`` may write in a chat now: not suspended or
    banned, not banned from chat, and with chat on."""
    if sanction := sanction_in_force(user):
        raise ChatRefused(sanction.notice)
    if banned := chat_ban_in_force(user.pk):
        raise ChatRefused(banned.notice)
    if ChatSetting.objects.filter(user=user, off=True).exists():
        raise ChatRefused(_("Your chat is off: turn it on to write"))


def say(user: User, table_id: int, game_id: int | None, room: str, said: str) -> ChatMessage:
    """Keep what ``user`` said in ``room`` of table ``table_id`` (during game ``game_id``),
    and tell everyone in the room once it is saved. The caller has made sure that ``room`` is
    the one they write in there."""
    check_may_write(user)
    kept = text.cleaned(said)
    if why := text.refusal(kept):
        raise ChatRefused(why)
    if why := rates.refusal(user.pk, table_id, room):
        raise ChatRefused(why)
    with transaction.atomic():
        message = ChatMessage.objects.create(
            table_id=table_id, game_id=game_id, room=room, author=user, text=kept
        )
        news = {chat_group(table_id): said_news(message)}
        transaction.on_commit(lambda: broadcasts.send(news))
    return message


def mute(muter: User, muted: User) -> None:
    """From now on ``muter`` does not see what ``muted`` writes, at any table."""
    if muter.pk == muted.pk:
        raise ChatRefused(_("You cannot mute yourself"))
    with transaction.atomic():
        Mute.objects.get_or_create(muter=muter, muted=muted)
        tell_choices(muter)


def unmute(muter: User, muted: User) -> None:
    with transaction.atomic():
        Mute.objects.filter(muter=muter, muted=muted).delete()
        tell_choices(muter)


def turn_chat(user: User, *, on: bool) -> None:
    """Show ``user`` every table's chat again (``on``), or none."""
    with transaction.atomic():
        ChatSetting.objects.update_or_create(user=user, defaults={"off": not on})
        tell_choices(user)


def tell_choices(user: User) -> None:
    """Once the transaction commits, every socket of ``user`` shows their chat as their
    choices now have it: after a mute, chat turned off or on, a block (accounts/blocks.py)."""
    news = {account_group(user.pk): {"type": CHOICES}}
    transaction.on_commit(lambda: broadcasts.send(news))
