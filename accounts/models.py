from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.db import models, transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_otp.models import Device, ThrottlingMixin

from accounts.validators import lookalike_keys


class LookalikeKey(models.Model):
    """One of the keys a name shares with the names it could be taken for (``lookalike_keys``).

    Kept for every user, so that a new name is checked against all of them with one query.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="lookalike_keys",
        verbose_name=gettext_lazy("person"),
    )
    key = models.CharField(gettext_lazy("look-alike key"), max_length=200, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_key_per_user")]
        verbose_name = gettext_lazy("look-alike key")
        verbose_name_plural = gettext_lazy("look-alike keys")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.key}"


class ReservedName(models.Model):
    """One of the keys (``lookalike_keys``) of a name staff renamed someone away from: nobody
    else may take that name or a look-alike of it, or they could be taken for the person it
    named, whose games and reports still read it. The person renamed may be given it back."""

    key = models.CharField(gettext_lazy("look-alike key"), max_length=200, unique=True)
    name = models.CharField(gettext_lazy("name"), max_length=150)  # the name as it was
    # Who was renamed away from it (or, kept by hand in the admin, who may still take it).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=gettext_lazy("kept for"),
    )
    at = models.DateTimeField(gettext_lazy("kept since"), auto_now_add=True)

    class Meta:
        verbose_name = gettext_lazy("reserved name")
        verbose_name_plural = gettext_lazy("reserved names")

    def __str__(self) -> str:
        return f"{self.name} ({self.key})"


def reserve_name(user: User, name: str) -> None:
    """Keep ``name``, which ``user`` has been renamed away from, and its look-alikes out of use."""
    ReservedName.objects.bulk_create(
        [ReservedName(key=key, name=name, user=user) for key in lookalike_keys(name)],
        ignore_conflicts=True,
    )


def is_wholly_reserved(name: str) -> bool:
    """Whether every key of ``name`` is kept out of use already (by it or by other names)."""
    keys = lookalike_keys(name)
    return ReservedName.objects.filter(key__in=keys).count() == len(keys)


def is_reserved(name: str, *, but_for: User | None = None) -> bool:
    """Whether ``name`` is, or looks like, a name someone (other than ``but_for``) was renamed
    away from."""
    reserved = ReservedName.objects.filter(key__in=lookalike_keys(name))
    if but_for is not None:
        reserved = reserved.exclude(user=but_for)
    return reserved.exists()


def shown_name(user: User) -> str:
    """``user``'s name as pages show it: a closed account's says that it is closed.

    >>> shown_name(User(username="wes")), shown_name(User(username="wes", is_active=False))
    ('wes', 'wes (closed account)')
    """
    if user.is_active:
        return user.username
    return _("%(name)s (closed account)") % {"name": user.username}


def holder_of_a_lookalike(name: str) -> User | None:
    """Someone whose name could be taken for ``name``, if anyone has one."""
    keys = LookalikeKey.objects.filter(key__in=lookalike_keys(name)).select_related("user")
    found = keys.order_by("user_id").first()
    return found.user if found else None


def remember_lookalike_keys(user: User) -> None:
    """Store ``user``'s keys, replacing any they had under an earlier name."""
    keys = lookalike_keys(user.username)
    LookalikeKey.objects.filter(user=user).exclude(key__in=keys).delete()
    LookalikeKey.objects.bulk_create(
        [LookalikeKey(user=user, key=key) for key in keys], ignore_conflicts=True
    )


class SpokenLanguage(models.Model):
    """The language a signed-in person chose for the site (``settings.LANGUAGES``): every page
    and every socket of theirs speaks it, on any browser they sign in from."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="spoken_language",
        verbose_name=gettext_lazy("person"),
    )
    code = models.CharField(gettext_lazy("language"), max_length=10)

    class Meta:
        verbose_name = gettext_lazy("language choice")
        verbose_name_plural = gettext_lazy("language choices")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.code}"


class Address(models.Model):
    """A person's confirmed e-mail address, for getting the account back: one an account, and
    one account an address, without regard to case. Only its owner sees it; an address waiting
    to be confirmed lives only in the signed link sent to it (accounts/addresses.py)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="address",
        verbose_name=gettext_lazy("person"),
    )
    email = models.EmailField(gettext_lazy("e-mail address"), max_length=254)
    confirmed_at = models.DateTimeField(gettext_lazy("confirmed at"))

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("email"), name="one_account_an_address"),
        ]
        verbose_name = gettext_lazy("e-mail address")
        verbose_name_plural = gettext_lazy("e-mail addresses")

    def __str__(self) -> str:
        return f"{self.user_id}'s address"


class RecoveryCodes(ThrottlingMixin, Device):
    """An account's recovery codes, for signing in without the authenticator app: a django-otp
    device whose tokens are the codes, each good once and stored as its SHA-256 alone (a code
    carries about 79 random bits: its hash cannot be turned back by trying). Wrong codes are
    throttled as the app's are (twice the wait after each)."""

    class Meta(Device.Meta):
        verbose_name = gettext_lazy("recovery codes")
        verbose_name_plural = gettext_lazy("recovery codes")

    def get_throttle_factor(self) -> int:
        return int(getattr(settings, "OTP_TOTP_THROTTLE_FACTOR", 1))

    def verify_token(self, token: object) -> bool:
        allowed, _why = self.verify_is_allowed()
        if not allowed:
            return False
        digest = code_digest(str(token))
        with transaction.atomic():
            used = self.codes.filter(digest=digest, used_at__isnull=True).update(
                used_at=timezone.now()
            )
        if used:
            self.throttle_reset()
        else:
            self.throttle_increment()
        return bool(used)

    def left(self) -> int:
        return self.codes.filter(used_at__isnull=True).count()


def code_digest(code: str) -> str:
    """The stored form of a recovery code, whatever its spacing, dashes or case.

    >>> code_digest("ab2c-d3ef") == code_digest(" AB2CD3EF ")
    True
    """
    plain = "".join(ch for ch in code.lower() if ch.isalnum())
    return hashlib.sha256(plain.encode()).hexdigest()


class RecoveryCode(models.Model):
    device = models.ForeignKey(RecoveryCodes, on_delete=models.CASCADE, related_name="codes")
    digest = models.CharField(max_length=64)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = gettext_lazy("recovery code")
        verbose_name_plural = gettext_lazy("recovery codes")

    def __str__(self) -> str:
        return f"{self.device_id}: {'used' if self.used_at else 'unused'}"


class SignIn(models.Model):
    """Where an account is signed in: one a session, gone with it (signing out, the session's
    expiry, "Sign out everywhere else"). What is kept is what the account's page shows its
    owner: the browser's name and system, the network (the address's first 24 bits, or 48 of
    an IPv6 one), when the session began and when it was last seen."""

    session = models.OneToOneField(
        Session, on_delete=models.CASCADE, primary_key=True, related_name="sign_in"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="sign_ins",
        verbose_name=gettext_lazy("person"),
    )
    browser = models.CharField(gettext_lazy("browser"), max_length=100, blank=True)
    network = models.CharField(gettext_lazy("network"), max_length=50, blank=True)
    signed_in_at = models.DateTimeField(gettext_lazy("signed in at"))
    seen_at = models.DateTimeField(gettext_lazy("last seen at"))

    class Meta:
        verbose_name = gettext_lazy("sign-in")
        verbose_name_plural = gettext_lazy("sign-ins")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.browser or '?'}"


class Follow(models.Model):
    """One person following another (accounts/follows.py): one-way and private. Nobody sees
    whom a person follows but that person, and a person sees who follows them only as "follows
    you" beside those they follow themselves."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="follows",
        verbose_name=gettext_lazy("follower"),
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="followers",
        verbose_name=gettext_lazy("followed"),
    )
    since = models.DateTimeField(gettext_lazy("since"), auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="not_oneself"
            ),
        ]
        verbose_name = gettext_lazy("follow")
        verbose_name_plural = gettext_lazy("follows")

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class PresenceChoice(models.Model):
    """Who may see when a person is online or playing (accounts/presence.py): everyone, the
    people they follow (the default, for those with no row), or nobody."""

    class ShownTo(models.TextChoices):
        EVERYONE = "everyone", gettext_lazy("everyone")
        FOLLOWED = "followed", gettext_lazy("people I follow")
        NOBODY = "nobody", gettext_lazy("nobody")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="presence_choice",
        verbose_name=gettext_lazy("person"),
    )
    shown_to = models.CharField(
        gettext_lazy("online status shown to"),
        max_length=10,
        choices=ShownTo.choices,
        default=ShownTo.FOLLOWED,
    )

    class Meta:
        verbose_name = gettext_lazy("online status choice")
        verbose_name_plural = gettext_lazy("online status choices")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.shown_to}"


class Block(models.Model):
    """``blocker`` keeps ``blocked`` away (accounts/blocks.py): no challenge from them, no
    follow of them, no sight of the blocker's online status; never seated together by the rated
    queue or an arena; their chat hidden from the blocker as a mute hides it. Silent: the
    blocked person is never told."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocks",
        verbose_name=gettext_lazy("blocked by"),
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocked_by",
        verbose_name=gettext_lazy("blocked person"),
    )
    since = models.DateTimeField(gettext_lazy("since"), auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="no_block_of_oneself"
            ),
        ]
        verbose_name = gettext_lazy("block")
        verbose_name_plural = gettext_lazy("blocks")

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Challenge(models.Model):
    """An invitation to a game from one person to another (accounts/challenges.py), with the
    table's settings; open until accepted, declined, withdrawn or expired."""

    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("open")
        ACCEPTED = "accepted", gettext_lazy("accepted")
        DECLINED = "declined", gettext_lazy("declined")
        WITHDRAWN = "withdrawn", gettext_lazy("withdrawn")
        EXPIRED = "expired", gettext_lazy("expired")

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_sent",
        verbose_name=gettext_lazy("sent by"),
    )
    receiver = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="challenges_received",
        verbose_name=gettext_lazy("sent to"),
    )
    # The table's settings, as the create-table form gives them: preset, players, options,
    # rated, bot_level.
    settings = models.JSONField(gettext_lazy("table settings"), default=dict)
    status = models.CharField(
        gettext_lazy("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    created_at = models.DateTimeField(gettext_lazy("sent at"), auto_now_add=True)
    expires_at = models.DateTimeField(gettext_lazy("expires at"))
    table = models.ForeignKey(
        "games.Table",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=gettext_lazy("table"),
    )

    class Meta:
        indexes = [
            models.Index(fields=["receiver", "status"], name="challenge_to_status"),
            models.Index(fields=["sender", "status"], name="challenge_from_status"),
            models.Index(fields=["status", "expires_at"], name="challenge_due"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(sender=models.F("receiver")), name="no_challenge_of_oneself"
            ),
        ]
        verbose_name = gettext_lazy("challenge")
        verbose_name_plural = gettext_lazy("challenges")

    def __str__(self) -> str:
        return f"{self.sender_id} challenges {self.receiver_id}: {self.status}"
