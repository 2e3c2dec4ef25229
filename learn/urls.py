from django.urls import path

from . import views

urlpatterns = [
    path("", views.index, name="learn"),
    path("rules/", views.table_rules, name="learn_table_rules"),
    path("rules/<slug:key>/", views.preset_rules, name="learn_rules"),
    path("glossary/", views.glossary, name="learn_glossary"),
    path("strategy/", views.strategy, name="learn_strategy"),
    path("drills/", views.drill_list, name="learn_drills"),
    path("drills/<slug:kind>/<int:seed>/", views.drill, name="learn_drill"),
]
