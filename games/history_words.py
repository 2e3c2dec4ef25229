"""The words of the history: a game's outcome and its rules, and each step of its replay."""

from __future__ import annotations

from games.engine import Clock, FirstLead, Hand, MoonRule, Move, Rules, ShortPack, TieRule

from .models import Game, GamePlayer

EARLY_ENDS = ("resigned", "left", "timed out")
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def outcome_in_words(game: Game, players: list[GamePlayer]) -> str:
    """The result in a few words: won by alice, shared by alice and bob; carol resigned."""
    result = game.result or {}
    places = result.get("places") or []
    if not places:  # only a game that never ended has no places
        return "Not finished"
    names = {p.seat: p.name for p in players}
    winners = [
        names.get(seat, f"Seat {seat + 1}") for seat, place in enumerate(places) if place == 1
    ]
    if len(winners) == 1:
        text = f"Won by {winners[0]}"
    else:
        text = f"Shared by {', '.join(winners[:-1])} and {winners[-1]}"
    forfeited = result.get("forfeited")
    if forfeited is not None and result.get("reason") in EARLY_ENDS:
        name = names.get(forfeited, f"Seat {forfeited + 1}")
        text += f"; {name} {early_end_words(result['reason'])}"
    return text


def early_end_words(reason: str) -> str:
    return {"resigned": "resigned", "left": "left", "timed out": "ran out of time"}[reason]


# The rules in words ------------------------------------------------------------------------


def rules_in_words(rules: Rules) -> list[str]:
    """One short sentence per option, as the table's players met them."""
    lines = [f"{rules.players} players, to {rules.target} points."]
    if rules.removed_cards:
        removed = ", ".join(card.display for card in rules.removed_cards)
        lines.append(f"Removed from the pack: {removed}.")
    if rules.short_pack is ShortPack.KITTY and rules.kitty_size:
        lines.append(
            f"A kitty of {rules.kitty_size} cards goes to whoever takes the first penalty card."
        )
    if rules.first_lead is FirstLead.LOWEST_CLUB:
        lines.append("The lowest club in play leads the first trick.")
    else:
        lines.append("The player left of the dealer leads the first trick.")
    lines.append(
        "Points may be played on the first trick."
        if rules.points_on_first_trick
        else "No hearts and no Q♠ on the first trick."
    )
    if rules.queen_breaks_hearts:
        lines.append("The Q♠ breaks hearts.")
    lines.append(_MOON_WORDS[rules.moon])
    if rules.shoot_the_sun:
        lines.append("Shooting the sun (every trick) counts 52.")
    if rules.jack_of_diamonds:
        lines.append("The J♦ takes 10 points off whoever wins it.")
    if rules.old_queen:
        lines.append("The Q♠ must be discarded at the first chance.")
    lines.append(
        "Equal lowest totals share first place."
        if rules.ties is TieRule.SHARE
        else "Equal lowest totals play another hand."
    )
    lines.append(
        "Strict clock: a missed deadline ends the game."
        if rules.clock is Clock.STRICT
        else "Relaxed clock: the table plays for a player out of time."
    )
    return lines


_MOON_WORDS = {
    MoonRule.OTHERS: "Shooting the moon adds 26 to everyone else.",
    MoonRule.SELF: "Shooting the moon takes 26 off the shooter.",
    MoonRule.CHOOSE: "The moon shooter chooses: 26 to everyone else or 26 off their own total.",
    MoonRule.AUTOMATIC: "Shooting the moon adds 26 to everyone else, unless that leaves the "
    "shooter behind at the end; then 26 come off the shooter instead.",
}


# The replay in words -----------------------------------------------------------------------


def step_words(hand: Hand, made: int, names: list[str], resign: Move | None) -> str:
    """A replay's step in words: hand ``hand`` with its first ``made`` moves made."""
    if resign is not None:
        return (
            f"{names[resign.seat]} {early_end_words(resign.choice or 'resigned')}: the game ends."
        )
    if made == 0:
        dealer = names[hand.dealer]
        if hand.pass_offset == 0:
            return f"Hand {hand.number}, dealt by {dealer}: a hold hand, no passing."
        return (
            f"Hand {hand.number}, dealt by {dealer}: everyone passes three cards {hand.direction}."
        )
    move = hand.moves[made - 1]
    words = _move_words(hand, move, names)
    if move.timeout:
        words += " (the table moved for them: time ran out)"
    words += "."
    if move.kind == "pass" and made == hand.players:
        words += " The passes change hands."
    if move.kind == "play" and not hand.trick:
        trick = hand.tricks[-1]
        words += f" {names[trick.winner]} takes the trick"
        words += (
            f" ({trick.points} point{'s' if trick.points != 1 else ''})." if trick.points else "."
        )
    if made == len(hand.moves) and hand.points is not None:
        scored = ", ".join(f"{names[s]} {p:+d}" for s, p in enumerate(hand.points))
        words += f" Hand {hand.number} scores: {scored}."
    return words


def _move_words(hand: Hand, move: Move, names: list[str]) -> str:
    name = names[move.seat]
    if move.kind == "pass":
        cards = ", ".join(card.display for card in move.cards)
        target = names[(move.seat + hand.pass_offset) % hand.players]
        return f"{name} passes {cards} {hand.direction} to {target}"
    if move.kind == "play":
        card = move.cards[0]
        return f"{name} plays the {card.display} ({card.name})"
    choice = (
        "adding 26 to everyone else" if move.choice == "others" else "taking 26 off their own total"
    )
    return f"{name} shot the moon and chose {choice}"
