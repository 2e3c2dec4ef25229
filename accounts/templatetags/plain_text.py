"""``{{ text|shown_plain }}``: people's text with its invisible characters written out.

New text is refused with them (``accounts.validators.validate_visible_text``); this is for
what was stored before, such as an added seed that a finished game keeps exactly as typed.
"""

from __future__ import annotations

from django import template

from accounts import validators

register = template.Library()


@register.filter
def shown_plain(text: object) -> str:
    return validators.shown_plain(str(text))
