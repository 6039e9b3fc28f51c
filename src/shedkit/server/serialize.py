"""The view JSON of the web client; it lives in `shedkit.protocol.views`.

The serialisers need no server dependency, so the bot protocol uses them
without the ``[server]`` extra; this module keeps the old import path.
"""

from shedkit.protocol.views import SERIALIZERS, Json, cards_json, serialize_view

__all__ = ["SERIALIZERS", "Json", "cards_json", "serialize_view"]
