"""What the live layer's tests share: a channel layer of each test's own."""

import pytest


@pytest.fixture(autouse=True)
def _live(channel_layer_of_its_own: None) -> None:
    """Every test here joins groups on the channel layer."""
