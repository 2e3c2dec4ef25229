"""Where a process's CPU goes, by py-spy's samples (bench/load.py --profile): each process is
sampled for a set time, its stacks written raw (one line a stack, its frames and its count,
for flamegraph.pl or a look), and the figures said in a few lines: the share of the samples
spent in each function itself, and in each of the site's own functions with what they call.

Only the thread holding the interpreter's lock is sampled (``--gil``): the work of the
process's Python code, not its threads waiting on the database or their sockets (which
py-spy would otherwise count wherever a wait in C is not known to it as idle). Work done
outside the lock (a query's bytes sent, a frame written) is not seen.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

RATE = 200  # samples a second
# The site's own packages: what "in the site's code" counts.
OURS = re.compile(r"\((?:games|live|chat|arenas|pairing|moderation|hearts_site|accounts)/")


def py_spy() -> str | None:
    found = Path(sys.executable).parent / "py-spy"
    return str(found) if found.exists() else shutil.which("py-spy")


def start(name: str, pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes]:
    """py-spy sampling ``pid`` for ``seconds`` into ``out``/``name``.raw, started now."""
    binary = py_spy()
    if binary is None:
        raise RuntimeError("py-spy is not installed (it is in the lock: ./dev setup)")
    out.mkdir(parents=True, exist_ok=True)
    command = [binary, "record", "-p", str(pid), "-d", str(max(1, round(seconds)))]
    command += ["-r", str(RATE), "--gil", "--format", "raw", "--nonblocking"]
    command += ["-o", str(out / f"{name}.raw")]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stacks(path: Path) -> list[tuple[list[str], int]]:
    """The raw file's stacks: frames from the outermost, each "function (file)", and count."""
    found = []
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            frames = [re.sub(r":\d+\)$", ")", frame) for frame in stack.split(";")]
            found.append((frames, int(count)))
    return found


def summary(path: Path, most: int = 12) -> list[str]:
    """The profile in lines: the samples, the functions most in them by their own time, and
    the site's own functions by the time in them and what they call."""
    found = stacks(path)
    total = sum(count for _, count in found)
    if not total:
        return [f"{path.name}: no samples"]
    own: Counter[str] = Counter()
    within: Counter[str] = Counter()
    for frames, count in found:
        own[frames[-1]] += count
        for frame in set(frames):
            if OURS.search(frame):
                within[frame] += count
    lines = [f"{path.stem}: {total} samples at {RATE}/s ({path})"]
    lines.append("  by own time: " + _shares(own, total, most))
    lines.append("  the site's functions, with what they call: " + _shares(within, total, most))
    return lines


def _shares(counter: Counter[str], total: int, most: int) -> str:
    return "; ".join(f"{name} {100 * n / total:.1f}%" for name, n in counter.most_common(most))
