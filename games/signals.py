"""What other apps may hear of the games without the games knowing them.

``game_finished`` is sent once a game's last move has committed, with its ``game_id``; a
receiver that has work to do queues it (an arena frees its players and seats them again:
arenas/apps.py), since it runs in the thread that made the move.

``news`` is sent once a change to a table or a game has committed, with its ``messages`` (a
group's name: its message) for the sockets: the live layer sends them (live/apps.py), which
the games do not import.
"""

from __future__ import annotations

from django.dispatch import Signal

game_finished = Signal()
news = Signal()
