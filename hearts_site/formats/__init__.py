"""How each language writes a date, a time of day and both together: one format of each a
language, which every page uses (Django's ``|date`` and ``|time`` filters without a format, or
with ``"DATETIME_FORMAT"``), in the reader's time zone (accounts/time_zones.py). Numbers follow
Django's own formats of each language ("2,3" in German, "2.3" in English).

The month is written out, as each language writes it in a sentence ("6 December 2026", "6.
Dezember 2026", "6 décembre 2026", "6 de diciembre de 2026"), and times are of 24 hours
("18:48"), as the table's chat writes them in the browser too (static/js/table_chat.js).
"""
