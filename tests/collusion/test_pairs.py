"""Pairs who feed everyone but each other rank first and are flagged; pairs of ordinary bots
are not. Each history is thirty rated games to 25 points of the same four people, seats
rotating; a pair is flagged at p < 0.001 divided by the number of pairs ranked (six here)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import override_settings

from collusion.selectors import ranked_pairs
from collusion.signals import PairSignal
from tests.helpers.collusion import history
from tests.helpers.tables import people

pytestmark = pytest.mark.django_db

GAMES = 30


def _names(pair: PairSignal) -> set[str]:
    return {pair.first.name, pair.second.name}


def test_the_pair_who_feed_only_the_others_ranks_first_and_is_flagged() -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    history([alice, bob, carol, dave], GAMES, colluders=(alice, bob))

    pairs = ranked_pairs()

    assert len(pairs) == 6
    first, *rest = pairs
    assert _names(first) == {"alice", "bob"}
    assert first.flagged and first.games == GAMES
    assert first.feeds_to_partner == first.fed_each_other == 0
    assert first.expected_to_partner > 20  # by chance they would have fed each other often
    assert not any(pair.flagged for pair in rest)


def test_no_pair_of_ordinary_bots_is_flagged() -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    history([alice, bob, carol, dave], GAMES)

    pairs = ranked_pairs()

    assert len(pairs) == 6
    assert not any(pair.flagged for pair in pairs)
    # Honest pairs feed each other about as often as chance says.
    for pair in pairs:
        assert pair.feeds_to_partner > pair.expected_to_partner / 2


def test_the_evidence_shows_the_colluders_dumping_points_on_the_others() -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    history([alice, bob, carol, dave], GAMES, colluders=(alice, bob))

    colluders = ranked_pairs()[0]

    assert 1 <= len(colluders.evidence) <= 3
    for feed in colluders.evidence:
        assert feed.feeder.name in {"alice", "bob"}
        assert feed.taker.name in {"carol", "dave"}
        assert (feed.feeder, feed.card) in feed.cards
        assert feed.card.suit is not feed.cards[0][1].suit  # a discard
    assert colluders.evidence[0].card.display == "Q♠"  # the biggest feed first


@override_settings(COLLUSION_MIN_GAMES=GAMES + 1)
def test_pairs_with_fewer_games_together_than_the_setting_are_not_ranked() -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    history([alice, bob, carol, dave], GAMES, colluders=(alice, bob))

    assert ranked_pairs() == []


def test_a_player_who_changes_name_is_still_one_player() -> None:
    alice, bob, carol, dave = people("alice", "bob", "carol", "dave")
    history([alice, bob, carol, dave], GAMES // 2, colluders=(alice, bob))
    User.objects.filter(pk=alice.pk).update(username="alicia")
    history([alice, bob, carol, dave], GAMES // 2, colluders=(alice, bob), first_deal=2000)

    pairs = ranked_pairs()

    assert len(pairs) == 6
    assert pairs[0].games == GAMES and pairs[0].flagged
