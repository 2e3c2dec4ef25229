"""Ratings of people who play rated games (multi-player, with ties)."""
