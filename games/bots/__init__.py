"""Strategies for the seats nobody takes. A bot sees one seat's view, never hidden cards."""

from .basic import choose_moon, choose_pass, choose_play

__all__ = ["choose_moon", "choose_pass", "choose_play"]
