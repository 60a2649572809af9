"""Messages between the build's process and its git reader: pickles with an 8-byte length.

One process talking to its own child over the child's pipes, so pickle is safe here.
"""

from __future__ import annotations

import pickle
from typing import IO, Any

__all__ = ["read_message", "write_message"]


def write_message(stream: IO[bytes], message: tuple[Any, ...]) -> None:
    """Write one message and flush it."""
    data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(8, "little") + data)
    stream.flush()


def read_message(stream: IO[bytes]) -> Any:
    """The next message (None: the stream ended)."""
    head = stream.read(8)
    if len(head) < 8:
        return None
    size = int.from_bytes(head, "little")
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("a message was cut short")
    return pickle.loads(data)
