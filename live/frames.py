"""A socket's frames as the table's consumer reads them: the JSON of a text frame, and the parts
of a move message, or a ServiceError saying what is wrong. Only the shape is checked here;
whether the move may be made is the services' and the engine's to judge.
"""

from __future__ import annotations

import json
import re
from typing import Any, NoReturn

from django.conf import settings

from games.engine import MOVE_KINDS, HeartsError, MoveKind, parse_cards
from games.errors import ServiceError


def read_frame(text_data: str | None) -> Any:
    """The JSON value of a text frame, or a ServiceError saying why it has none.

    Only plain JSON: NaN and Infinity are not JSON, and a key given twice could be read either
    way. Python's parser recurses into nested arrays, so a deep frame raises RecursionError.
    """
    limit = settings.HEARTS_WS_MAX_MESSAGE
    unfit = ServiceError("That message is too long or not text")
    if text_data is None or len(text_data) > limit:
        raise unfit
    try:
        size = len(text_data.encode())
    except UnicodeEncodeError as error:  # a lone surrogate: no browser sends one
        raise unfit from error
    if size > limit:
        raise unfit
    try:
        return json.loads(text_data, parse_constant=_not_json, object_pairs_hook=_object)
    except (ValueError, RecursionError) as error:
        raise ServiceError("That message is not JSON") from error


def _not_json(constant: str) -> NoReturn:
    raise ValueError(f"{constant} is not JSON")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        raise ValueError("a key is given twice")
    return data


def check_move_shape(data: Any) -> tuple[str, list[str], str, int]:
    """The parts of a move message from a client, or a ServiceError saying what is wrong."""
    if not isinstance(data, dict):
        raise ServiceError("A move is a JSON object")
    action = data.get("action")
    if action not in MOVE_KINDS:
        raise ServiceError("Unknown action")
    version = data.get("version")
    if isinstance(version, str) and re.fullmatch(r"[0-9]{1,9}", version):
        version = int(version)
    if not isinstance(version, int) or isinstance(version, bool) or not 0 <= version < 10**9:
        raise ServiceError("A move must say which version of the table it was made on")
    cards = data.get("cards", [])
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    if not isinstance(cards, list) or len(cards) > 3 or not all(isinstance(c, str) for c in cards):
        raise ServiceError("Cards must be a list of up to three cards like 'QS'")
    if action == MoveKind.PLAY and len(cards) != 1:
        raise ServiceError("Choose one card to play")
    choice = data.get("choice", "")
    if not isinstance(choice, str) or len(choice) > 20:
        raise ServiceError("Bad choice")
    try:
        parse_cards(cards)
    except HeartsError as error:
        raise ServiceError(str(error)) from error
    return action, cards, choice, version
