"""The rules pages are written from the engine's Rules: every named set has its page, a table's
own options give its own page, and changing an option changes what the page says."""

from __future__ import annotations

import html

import pytest
from django.test import Client

from games.engine import PRESETS, Rules
from games.words import describe, summary
from learn.reasons import _ANCHORS
from learn.rules_pages import OPTIONS, rules_url


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_named_set_has_a_page_that_says_each_of_its_rules(client: Client, key: str) -> None:
    preset = PRESETS[key]
    page = _page(client, f"/learn/rules/{key}/")
    assert f"{preset.title} rules" in page
    assert summary(preset.rules) in page
    for line in describe(preset.rules):
        assert f'id="rule-{line.option}"' in page
        assert line.text in page


def test_an_unknown_set_has_no_page(client: Client) -> None:
    assert client.get("/learn/rules/poker/").status_code == 404


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("moon", "self", "you take 26 off your total"),
        ("old_queen", "true", "must discard it at the first chance"),
        ("points_on_first_trick", "true", "may be played on the first trick"),
        ("target", "50", "somebody reaches 50 points"),
        ("players", "5", "5 players, 10 cards each"),
    ],
)
def test_changing_an_option_changes_the_page(
    client: Client, option: str, value: str, words: str
) -> None:
    before = _page(client, "/learn/rules/?players=4")
    after = _page(client, f"/learn/rules/?{option}={value}")
    assert words not in before
    assert words in after
    assert "The rules at this table" in after


def test_a_tables_link_shows_that_tables_rules_and_options(client: Client) -> None:
    rules = PRESETS["encyclopedia"].make(5, jack_of_diamonds=True, short_pack="kitty")
    page = _page(client, rules_url(rules))
    assert summary(rules) in page
    assert "The 2 cards left over after the deal lie face down as a kitty" in page
    assert "scores \N{MINUS SIGN}10" in page


def test_a_table_with_a_named_sets_options_says_which_set_they_are(client: Client) -> None:
    page = _page(client, rules_url(PRESETS["club"].rules))
    assert "These options are the Club set's" in page


def test_rules_that_cannot_be_played_are_refused_with_the_reason(client: Client) -> None:
    response = client.get("/learn/rules/?players=4&short_pack=kitty")
    assert response.status_code == 400
    assert "Four players share the whole pack" in response.content.decode()
    assert client.get("/learn/rules/?colour=red").status_code == 400
    assert client.get("/learn/rules/?old_queen=maybe").status_code == 400


def test_the_differences_are_one_table_with_a_row_per_option(client: Client) -> None:
    page = _page(client, "/learn/rules/")
    table = page[page.index('<table class="differences">') : page.index("</table>")]
    assert table.count('<th scope="row">') == len(OPTIONS)
    for preset in PRESETS.values():
        assert f">{preset.title}</a></th>" in table
    club_moon = table[table.index("Shooting the moon") :].split("</tr>")[0]
    assert "shooter chooses" in club_moon and "automatic" in club_moon


def test_every_rule_a_refused_card_links_to_is_on_every_rules_page(client: Client) -> None:
    for url in ["/learn/rules/standard/", rules_url(Rules(old_queen=True, players=3))]:
        page = _page(client, url)
        for _, anchor in _ANCHORS:
            assert f'id="{anchor}"' in page, (url, anchor)


def test_the_glossary_explains_each_term_at_its_own_anchor(client: Client) -> None:
    page = _page(client, "/learn/glossary/")
    terms = [
        ("trick", "Trick"),
        ("lead", "Lead"),
        ("follow-suit", "Follow suit"),
        ("void", "Void"),
        ("duck", "Duck"),
        ("breaking-hearts", "Breaking hearts"),
        ("shooting-the-moon", "Shooting the moon"),
        ("shooting-the-sun", "Shooting the sun"),
        ("kitty", "The kitty"),
        ("old-queen", "The old queen rule"),
    ]
    for anchor, term in terms:
        assert f'id="{anchor}"' in page
        assert f"<dt>{term}</dt>" in page


def test_the_strategy_page_covers_the_pass_voids_the_queen_and_the_moon(client: Client) -> None:
    page = _page(client, "/learn/strategy/")
    for heading in ["The pass", "Voids", "Counting the queen", "Stopping a moon"]:
        assert f">{heading}</h2>" in page


@pytest.mark.django_db
def test_the_header_and_the_lobby_link_to_learn(client: Client) -> None:
    page = _page(client, "/")
    assert page.count('href="/learn/"') >= 2


def test_the_learn_pages_take_nothing_but_reads(client: Client) -> None:
    for url in ["/learn/", "/learn/drills/", "/learn/drills/legal/1/", "/learn/rules/"]:
        assert client.post(url, {"score": "2"}).status_code == 405
