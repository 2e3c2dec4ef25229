"""The deal vectors of docs/fairness.md, read from the document itself, and its fenced blocks."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from games.engine import Rules, ShortPack

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")


def fenced(kind: str) -> list[str]:
    """The bodies of the document's fenced blocks whose info string is ``kind``."""
    return re.findall(rf"^```{re.escape(kind)}\n(.*?)^```$", DOC, flags=re.MULTILINE | re.DOTALL)


def fields_of(body: str) -> dict[str, str]:
    pairs = (line.split(":", 1) for line in body.splitlines() if line.strip())
    return {key.strip(): value.strip() for key, value in pairs}


@dataclass(frozen=True)
class Vector:
    players: int
    short_pack: str
    hand: int
    seed: bytes
    added: tuple[str, ...]
    dealer: int
    shuffled: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    kitty: tuple[str, ...]

    @classmethod
    def parse(cls, body: str) -> Vector:
        f = fields_of(body)
        players = int(f["players"])
        return cls(
            players=players,
            short_pack=f["short_pack"],
            hand=int(f["hand"]),
            seed=bytes.fromhex(f["seed"]),
            added=tuple(json.loads(f["added"])),
            dealer=int(f["dealer"]),
            shuffled=tuple(f["shuffled"].split()),
            hands=tuple(tuple(f[f"seat {seat}"].split()) for seat in range(players)),
            kitty=tuple(f["kitty"].split()),
        )

    @property
    def rules(self) -> Rules:
        return Rules(players=self.players, short_pack=ShortPack(self.short_pack))

    @property
    def name(self) -> str:
        added = "-added" if self.added else ""
        return f"{self.players}p-{self.short_pack}-hand{self.hand}{added}"


VECTORS = [Vector.parse(body) for body in fenced("deal-vector")]
