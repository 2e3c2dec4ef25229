"""Driving a match forward in tests: a fixed seed, and one simple move at a time."""

from games.engine import Phase


def seed(number):
    return number.to_bytes(32, "big")


def step(match):
    """The seat the match waits for makes a plain move: its first three cards to pass, the
    lowest legal card to play, or 'others' for a moon."""
    hand = match.hand
    if hand.phase is Phase.PASSING:
        seat = next(s for s in range(match.players) if not hand.has_passed(s))
        return match.pass_cards(seat, hand.holding(seat)[:3])
    if hand.phase is Phase.MOON_CHOICE:
        return match.choose_moon(hand.turn, "others")
    return match.play(hand.turn, hand.legal_plays(hand.turn)[0])


def play_until(match, done):
    """Plain moves (``step``) until ``done()``; returns the events of the last one."""
    events = []
    while not done():
        events = step(match)
    return events


def play_out(match):
    """Plain moves to the end of the match; returns the events of the last one."""
    return play_until(match, lambda: match.is_over)
