"""Drills come from real engine positions, and their answers agree with the engine and the bot:
the cards the engine lets the seat play and its words for the others, the bot's danger order
for the pass, and who takes the trick (and its points) for each card that could stop a moon."""

from __future__ import annotations

import doctest
import json
import re

import pytest
from django.test import Client

from games.engine import Card, Rules, legal_from, mask_of
from games.engine.cards import QS_INDEX
from learn import reasons
from learn.drills import KINDS, TABLES, make_drill
from learn.reasons import anchor_for

SEEDS = range(1, 31)


def _cards(codes: list[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


@pytest.mark.parametrize("kind", KINDS)
def test_a_drill_is_the_same_position_every_time_from_its_seed(kind: str) -> None:
    # Past the cache: the position is found again. functools.wraps set __wrapped__, which the
    # decorator's declared type (a plain Callable) does not show.
    fresh = make_drill.__wrapped__  # type: ignore[attr-defined]
    assert fresh(kind, 7).data == fresh(kind, 7).data == make_drill(kind, 7).data
    assert fresh(kind, 7).data != fresh(kind, 8).data


@pytest.mark.parametrize("kind", KINDS)
def test_drills_are_dealt_at_every_kind_of_table(kind: str) -> None:
    tables = {make_drill(kind, seed).table for seed in range(len(TABLES))}
    assert tables == {title for title, _ in TABLES}


@pytest.mark.parametrize("seed", SEEDS)
def test_the_playable_cards_are_those_the_engine_allows(seed: int) -> None:
    data = make_drill("legal", seed).data
    rules = Rules.from_json(data["rules"])
    hand = _cards([card["code"] for card in data["hand"]])
    trick = [Card.parse(played["card"]["code"]).index for played in data["trick"]]
    first = data["trick_number"] == 1 and not rules.points_on_first_trick
    leads_first = data["trick_number"] == 1 and not trick
    clubs = [c for c in hand if c.suit.char == "C"]
    must_lead = min(clubs).index if leads_first and rules.first_lead.value == "lowest_club" else -1
    legal = legal_from(
        mask_of(hand),
        trick,
        first=first,
        hearts_broken=data["hearts_broken"],
        old_queen=rules.old_queen,
        must_lead=must_lead,
    )
    assert mask_of(_cards(data["legal"])) == legal
    assert set(data["reasons"]) == {str(card) for card in hand} - set(data["legal"])


@pytest.mark.parametrize("seed", SEEDS)
def test_the_reason_asked_for_is_the_engines_and_one_of_the_choices(seed: int) -> None:
    data = make_drill("legal", seed).data
    asked = data["asked"]["code"]
    assert data["answer"] == data["reasons"][asked]["text"]
    assert data["choices"].count(data["answer"]) == 1
    assert len(set(data["choices"])) == len(data["choices"])
    for reason in data["reasons"].values():
        assert reason["anchor"] == anchor_for(reason["text"]) is not None


def test_the_reasons_of_the_drills_cover_every_rule_that_refuses_a_card() -> None:
    anchors = {
        reason["anchor"]
        for seed in range(1, 200)
        for reason in make_drill("legal", seed).data["reasons"].values()
    }
    assert {"rule-tricks", "rule-queen_breaks_hearts", "rule-points_on_first_trick"} <= anchors
    assert "rule-old_queen" in anchors


@pytest.mark.parametrize("seed", SEEDS)
def test_the_pass_is_judged_by_the_bots_danger_order(seed: int) -> None:
    data = make_drill("pass", seed).data
    danger = data["danger"]
    assert sorted(data["ranked"]) == sorted(card["code"] for card in data["hand"])
    values = [danger[code] for code in data["ranked"]]
    assert values == sorted(values, reverse=True)
    assert set(data["best"]) == set(data["ranked"][:3])
    assert sum(data["credit"][code] for code in data["best"]) == 6


def test_a_bare_queen_of_spades_is_always_in_the_best_pass() -> None:
    seen = 0
    for seed in range(1, 120):
        data = make_drill("pass", seed).data
        hand = _cards([card["code"] for card in data["hand"]])
        spades_below = [c for c in hand if c.suit.char == "S" and c.index < QS_INDEX]
        if any(c.index == QS_INDEX for c in hand) and len(spades_below) < 4:
            seen += 1
            assert "QS" in data["best"]
    assert seen > 0


def _winner(data: dict, card: Card) -> str:
    """The seat that takes the trick when ``card`` is played last: the highest of the suit led."""
    played = [(p["seat"], Card.parse(p["card"]["code"])) for p in data["trick"]] + [("You", card)]
    led = played[0][1].suit
    return max((c.rank, seat) for seat, c in played if c.suit is led)[1]


@pytest.mark.parametrize("seed", SEEDS)
def test_stopping_the_moon_is_judged_by_who_takes_the_trick(seed: int) -> None:
    data = make_drill("moon", seed).data
    shooter = data["shooter_name"]
    taken = {row["seat"]: row["points"] for row in data["points_taken"]}
    assert taken[shooter] == sum(taken.values()) >= 4
    assert len(data["trick"]) == data["players"] - 1
    in_trick = [Card.parse(p["card"]["code"]) for p in data["trick"]]
    for code, outcome in data["outcomes"].items():
        card = Card.parse(code)
        points = sum(c.points for c in [*in_trick, card])
        stops = _winner(data, card) != shooter and points > 0
        assert outcome["stops"] is stops, code
        assert outcome["points"] == points
    assert set(data["outcomes"]) == set(data["legal"])
    assert 0 < len(data["stops"]) < len(data["outcomes"])


@pytest.mark.parametrize("kind", KINDS)
def test_a_drill_page_holds_no_card_its_seat_could_not_see(client: Client, kind: str) -> None:
    for seed in (1, 2, 3):
        response = client.get(f"/learn/drills/{kind}/{seed}/")
        assert response.status_code == 200
        page = response.content.decode()
        embedded = re.search(
            r'<script id="drill-data" type="application/json">(.*?)</script>', page, re.S
        )
        assert embedded is not None
        data = json.loads(embedded.group(1))
        assert data == json.loads(json.dumps(make_drill(kind, seed).data))
        visible = {card["code"] for card in data["hand"]}
        visible |= {played["card"]["code"] for played in data["trick"]}
        named = set(re.findall(r'"([2-9TJQKA][CDHS])"', embedded.group(1)))
        assert named <= visible


def test_an_unknown_drill_is_not_found(client: Client) -> None:
    assert client.get("/learn/drills/poker/1/").status_code == 404


def test_the_examples_in_the_learn_docstrings_hold() -> None:
    assert doctest.testmod(reasons).failed == 0
