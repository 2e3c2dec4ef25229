"""What an admin list with actions checks before it acts: that the rows chosen are ids at all.

The admin puts the chosen ids into a query as they came. One that is not a number is a server
error on every database, and one too large for the column is one on SQLite; a request made by
hand can send either. So they are checked first, and a choice that is not rows of the list is
refused with a message, as the admin refuses an action it does not know.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Any]
else:  # the class is generic to the type checker only
    ModelAdmin = admin.ModelAdmin


class CheckedSelection(ModelAdmin):
    """A model admin whose actions only ever see ids its primary key could hold."""

    def response_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        if not self._selection_is_ids(request):
            what = self.opts.verbose_name_plural
            self.message_user(
                request, f"Those {what} could not be found: choose again.", messages.ERROR
            )
            return None  # back to the list
        return super().response_action(request, queryset)

    def _selection_is_ids(self, request: HttpRequest) -> bool:
        key = self.opts.pk
        try:
            for value in request.POST.getlist(ACTION_CHECKBOX_NAME):
                key.run_validators(key.to_python(value))  # the column's range is a validator
        except ValidationError:
            return False
        return True
