"""The site's catalogs of translations: ``locale/<language>/LC_MESSAGES/django.po`` (templates
and Python) and ``djangojs.po`` (static/js, through Django's JavaScript catalog), one for each
language of ``settings.LANGUAGES`` but English, the language the words are written in.

    python scripts/messages.py make      # every marked word into the catalogs (makemessages,
                                         # which keeps what is translated), then compile
    python scripts/messages.py compile   # the .mo files the site reads (./dev setup runs it,
                                         # with Babel: no GNU gettext needed)
    python scripts/messages.py check     # what tests/test_messages.py checks, as a report
    python scripts/messages.py part NAME PATH...  # the catalogs of those files alone, in
                                         # locale/parts/NAME/, to translate one part at a time
    python scripts/messages.py merge     # every part's translations into the site's catalogs

``check`` fails if a word marked in the code is missing from a catalog, or a catalog has an
entry untranslated, fuzzy, or whose placeholders differ from the English ones (msgfmt's
--check). It needs GNU gettext's tools (xgettext, msgfmt, msgcmp), as makemessages does.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
DOMAINS = ("django", "djangojs")
# Folders makemessages does not read: other people's code, builds, the tests.
# And the catalogs' own folder: makemessages would put a locale/ it walks into first in line
# for every word, whatever catalogs it was asked to write.
IGNORED = [
    "node_modules",
    ".venv",
    "var",
    "tests",
    "bench",
    "staticfiles",
    "docs",
    "scripts",
    "locale",
]


def _django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hearts_site.settings")
    os.environ.setdefault("SECRET_KEY", "catalogs-only-this-key-signs-nothing-and-guards-nothing!")
    import django

    django.setup()


def languages() -> list[str]:
    from django.conf import settings

    return [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def make(locale_dir: Path = LOCALE, *, keep_pot: bool = False, root: Path = ROOT) -> None:
    """Every word marked in the files under ``root`` into the catalogs under ``locale_dir``:
    new words added untranslated, the translated kept, words no longer marked dropped."""
    from django.core.management import call_command
    from django.test import override_settings

    os.chdir(root)
    with override_settings(LOCALE_PATHS=[locale_dir]):
        for domain in DOMAINS:
            call_command(
                "makemessages",
                locale=languages(),
                domain=domain,
                ignore_patterns=IGNORED,
                extensions=["js"] if domain == "djangojs" else ["html", "py", "txt"],
                add_location="file",
                no_obsolete=True,
                keep_pot=keep_pot,
                verbosity=0,
            )
            # msgmerge guesses a new word's translation from a like one and marks it fuzzy:
            # a guess is no translation, so it is emptied, for a translator to fill in.
            for po in locale_dir.glob(f"*/LC_MESSAGES/{domain}.po"):
                _run("msgattrib", "--clear-fuzzy", "--empty", "--no-wrap", "-o", str(po), str(po))


def part(name: str, paths: list[str]) -> None:
    """The catalogs of some files only, ``locale/parts/<name>/<language>/<domain>.po``: the
    words marked in ``paths`` (files or folders), merged with what those catalogs already
    translate. For translating one part of the site at a time; ``merge`` puts the parts into
    the site's catalogs."""
    import shutil

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp)
        for path in paths:
            source = ROOT / path
            target = copy / path
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, target)
            else:
                shutil.copy2(source, target)
        here = Path.cwd()
        try:
            make(copy / "locale", keep_pot=True, root=copy)
        finally:
            os.chdir(here)
        for domain in DOMAINS:
            pot = copy / "locale" / f"{domain}.pot"
            if not pot.exists():
                continue
            for language in languages():
                kept = LOCALE / "parts" / name / language / f"{domain}.po"
                kept.parent.mkdir(parents=True, exist_ok=True)
                if kept.exists():
                    merged = _run(
                        "msgmerge",
                        "--quiet",
                        "--no-fuzzy-matching",
                        "--no-wrap",
                        str(kept),
                        str(pot),
                        "-o",
                        str(kept),
                    )
                    if merged.returncode:
                        raise SystemExit(merged.stderr)
                else:
                    made = copy / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
                    kept.write_text(_header(made.read_text(), language))


def _header(po: str, language: str) -> str:
    """A catalog with its header written anew: its language and plural rule, nothing fuzzy."""
    plural = "nplurals=2; plural=(n > 1);" if language == "fr" else "nplurals=2; plural=(n != 1);"
    header = "\n".join(
        [
            f"# The site's words in {language}: see scripts/messages.py.",
            'msgid ""',
            'msgstr ""',
            '"Project-Id-Version: hearts-site\\n"',
            '"PO-Revision-Date: 2026-12-06 00:00+0000\\n"',
            '"Last-Translator: the site\'s developers\\n"',
            f'"Language-Team: {language}\\n"',
            f'"Language: {language}\\n"',
            '"MIME-Version: 1.0\\n"',
            '"Content-Type: text/plain; charset=UTF-8\\n"',
            '"Content-Transfer-Encoding: 8bit\\n"',
            f'"Plural-Forms: {plural}\\n"',
        ]
    )
    _, _, rest = po.partition('\nmsgstr ""\n')
    lines = rest.splitlines()
    while lines and lines[0].startswith('"'):  # the header's fields
        lines.pop(0)
    return header + "\n\n" + "\n".join(lines).lstrip("\n") + "\n"


def merge() -> None:
    """Every part's translations (``locale/parts/``) into the site's catalogs, which keep
    their own where a part has none."""
    make()
    for domain in DOMAINS:
        for language in languages():
            po = LOCALE / language / "LC_MESSAGES" / f"{domain}.po"
            parts = sorted((LOCALE / "parts").glob(f"*/{language}/{domain}.po"))
            if not po.exists() or not parts:
                continue
            po.write_text(_header(po.read_text(), language))
            joined = Path(tempfile.mkstemp(suffix=".po")[1])
            # The parts' translations first, then the catalog's own, then Django's own for the
            # words the site's admin templates share with it; only the words the code marks are
            # kept (the catalog's list, msgmerge's reference).
            ordered = _run(
                "msgcat",
                "--use-first",
                "--no-wrap",
                *map(str, parts),
                str(po),
                *map(str, _djangos(language)),
            )
            joined.write_text(ordered.stdout)
            merged = _run(
                "msgmerge",
                "--quiet",
                "--no-fuzzy-matching",
                "--no-wrap",
                str(joined),
                str(po),
                "-o",
                str(po),
            )
            joined.unlink()
            if merged.returncode:
                raise SystemExit(merged.stderr)
            po.write_text(_header(po.read_text(), language))
    compile_all()


def _djangos(language: str) -> list[Path]:
    """Django's own catalogs of ``language`` (the admin's and the core's)."""
    import django

    base = Path(django.__file__).parent
    found = [
        base / "contrib" / "admin" / "locale" / language / "LC_MESSAGES" / "django.po",
        base / "conf" / "locale" / language / "LC_MESSAGES" / "django.po",
    ]
    return [path for path in found if path.exists()]


def compile_all() -> None:
    """Every catalog's .mo beside its .po, with Babel: the site runs without GNU gettext, which
    only making and checking the catalogs need. A fuzzy entry is left out, as msgfmt does. A .mo
    newer than its .po is left as it is; nothing here needs Django."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        language = po.parent.parent.name
        with po.open("rb") as source:
            catalog = read_po(source, locale=language.replace("-", "_"))
        with mo.open("wb") as target:
            write_mo(target, catalog, use_fuzzy=False)


def problems() -> list[str]:
    """What the check finds wrong, in words; nothing when the catalogs are complete."""
    found: list[str] = []
    # A folder of the project's own, at its top: makemessages files each word under the first
    # catalog folder whose parent holds the word's file, and adds the ./locale it finds after
    # this one, so a folder elsewhere would have the site's own catalogs written instead.
    with tempfile.TemporaryDirectory(dir=ROOT, prefix=".catalogs-checked-") as tmp:
        fresh = Path(tmp)
        for language in languages():
            for domain in DOMAINS:
                po = LOCALE / language / "LC_MESSAGES" / f"{domain}.po"
                if not po.exists():
                    continue
                target = fresh / language / "LC_MESSAGES" / po.name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(po.read_bytes())
        make(fresh, keep_pot=True)
        for domain in DOMAINS:
            pot = fresh / f"{domain}.pot"
            for language in languages():
                po = LOCALE / language / "LC_MESSAGES" / f"{domain}.po"
                if not po.exists():
                    if pot.exists():
                        found.append(f"{po.relative_to(ROOT)} is missing")
                    continue
                if pot.exists():  # every word marked in the code is in the catalog
                    compared = _run("msgcmp", "--use-untranslated", str(po), str(pot))
                    if compared.returncode:
                        found.append(f"{po.relative_to(ROOT)} lacks words:\n{compared.stderr}")
                checked = _run("msgfmt", "--check", "--statistics", "-o", os.devnull, str(po))
                report = checked.stderr.strip()
                if checked.returncode or "untranslated" in report or "fuzzy" in report:
                    found.append(f"{po.relative_to(ROOT)}: {report}")
    return found


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, check=False)


def main(argv: list[str]) -> int:
    action = argv[1] if len(argv) > 1 else "make"
    if action != "compile":
        _django()
    if action == "make":
        make()
        compile_all()
    elif action == "compile":
        compile_all()
    elif action == "part":
        part(argv[2], argv[3:])
    elif action == "merge":
        merge()
    elif action == "check":
        found = problems()
        print("\n".join(found) or "The catalogs are complete.")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
