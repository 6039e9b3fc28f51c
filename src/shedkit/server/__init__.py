"""``shedkit serve``: tables in the browser with friends and bots.

The server is an adapter over the game contract: it sends each connection
only its seat's view (spectators the public view), plays bots through the
agents registry, and stores every table and finished deal as records.
"""

from shedkit.core.extras import require_extra

require_extra("server", "shedkit.server", "fastapi", "uvicorn", "sqlalchemy", "orjson")

from shedkit.server.app import create_app  # noqa: E402

__all__ = ["create_app"]
