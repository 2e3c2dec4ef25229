"""Settings come from the environment through typed readers that refuse bad values."""

import pytest

from hearts_site.env import (
    EnvironmentError_,
    check_secret_key,
    env_bool,
    env_https_header,
    env_int,
    env_list,
    env_str,
    env_url,
)


def test_a_boolean_accepts_the_usual_words(monkeypatch):
    monkeypatch.setenv("FLAG", "yes")
    assert env_bool("FLAG", False) is True
    monkeypatch.setenv("FLAG", "off")
    assert env_bool("FLAG", True) is False


def test_a_boolean_that_is_neither_true_nor_false_is_refused(monkeypatch):
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(EnvironmentError_, match="FLAG must be true or false"):
        env_bool("FLAG", False)


def test_an_unset_value_takes_its_default(monkeypatch):
    monkeypatch.delenv("FLAG", raising=False)
    assert env_bool("FLAG", True) is True
    assert env_int("FLAG", 7) == 7
    assert env_list("FLAG", ["a"]) == ["a"]


def test_a_required_string_must_be_set(monkeypatch):
    monkeypatch.delenv("NEEDED", raising=False)
    with pytest.raises(EnvironmentError_, match="NEEDED must be set"):
        env_str("NEEDED")


def test_a_number_must_be_whole_and_in_range(monkeypatch):
    monkeypatch.setenv("COUNT", "ten")
    with pytest.raises(EnvironmentError_, match="whole number"):
        env_int("COUNT", 1)
    monkeypatch.setenv("COUNT", "0")
    with pytest.raises(EnvironmentError_, match="at least 1"):
        env_int("COUNT", 1, minimum=1)


def test_a_list_is_split_on_commas(monkeypatch):
    monkeypatch.setenv("HOSTS", "a.example, b.example,,")
    assert env_list("HOSTS", []) == ["a.example", "b.example"]


def test_a_url_must_have_an_allowed_scheme(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "mysql://db/hearts")
    with pytest.raises(EnvironmentError_, match="postgres"):
        env_url("DATABASE_URL", ("postgres", "sqlite"))
    monkeypatch.setenv("DATABASE_URL", "postgres://db/hearts")
    assert env_url("DATABASE_URL", ("postgres", "sqlite")) == "postgres://db/hearts"


def test_the_https_header_is_named_as_the_proxy_sends_it(monkeypatch):
    monkeypatch.setenv("SECURE_PROXY_SSL_HEADER", "X-Forwarded-Proto")
    assert env_https_header("SECURE_PROXY_SSL_HEADER") == ("HTTP_X_FORWARDED_PROTO", "https")
    monkeypatch.setenv("SECURE_PROXY_SSL_HEADER", "X-Forwarded-Ssl: on")
    assert env_https_header("SECURE_PROXY_SSL_HEADER") == ("HTTP_X_FORWARDED_SSL", "on")
    monkeypatch.delenv("SECURE_PROXY_SSL_HEADER")
    assert env_https_header("SECURE_PROXY_SSL_HEADER") is None


def test_an_https_header_that_is_not_a_header_name_is_refused(monkeypatch):
    monkeypatch.setenv("SECURE_PROXY_SSL_HEADER", "HTTP_X_FORWARDED_PROTO=https")
    with pytest.raises(EnvironmentError_, match="header name such as X-Forwarded-Proto"):
        env_https_header("SECURE_PROXY_SSL_HEADER")


def test_a_secret_key_needs_fifty_characters_of_five_kinds_or_more():
    strong = "0123456789" * 5
    assert check_secret_key(strong) == strong
    for weak in (strong[:-1], "ab" * 30, "django-insecure-" + strong):
        with pytest.raises(EnvironmentError_, match="SECRET_KEY is too weak"):
            check_secret_key(weak)
