"""What the API's tests share (tests/api/, tests/browser/test_api_in_browser.py)."""

# Every endpoint of the open API, as its schema and its docs page name them.
ENDPOINTS = (
    "/api/v1/players/{name}",
    "/api/v1/players/{name}/games",
    "/api/v1/players/{name}/games.ndjson",
    "/api/v1/games/{game_id}",
    "/api/v1/games/running",
    "/api/v1/leaderboard",
    "/api/v1/arenas",
    "/api/v1/arenas/{arena_id}",
)
