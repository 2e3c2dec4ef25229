"""axe-core, installed from npm into ``node_modules/``, run on a page of the site in Chromium.

The site's Content-Security-Policy refuses inline scripts, so the script is not added as a
``<script>`` tag: its text is evaluated through the DevTools protocol, as ``page.evaluate``
does, which the page's policy does not govern.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

AXE_SCRIPT = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")

RUN = """
async () => {
  const results = await window.axe.run(document, { resultTypes: ["violations"] });
  return results.violations.map(violation => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map(node => node.target.join(" ")),
  }));
}
"""


@cache
def _axe_source() -> str:
    if not AXE_SCRIPT.exists():
        raise RuntimeError(f"{AXE_SCRIPT} is missing: run `npm ci` (./dev setup does)")
    return AXE_SCRIPT.read_text()


def violations(page: Any) -> list[dict[str, Any]]:
    """Every rule axe-core finds broken on the page as it stands: id, impact, help and the
    CSS selectors of the elements at fault."""
    if not page.evaluate("() => window.axe !== undefined"):
        page.evaluate(_axe_source())
    found: list[dict[str, Any]] = page.evaluate(RUN)
    return found


def serious_violations(page: Any) -> list[dict[str, Any]]:
    """The violations axe-core rates serious or critical."""
    return [violation for violation in violations(page) if violation["impact"] in SERIOUS]


def describe(found: list[dict[str, Any]]) -> str:
    """One line per violation, for an assertion's message."""
    return "\n".join(
        f"{v['impact']} {v['id']}: {v['help']} at {', '.join(v['targets'][:5])}" for v in found
    )
