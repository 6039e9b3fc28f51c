"""What the benchmarks print about where they ran: the processor, the Python, the load."""

from __future__ import annotations

import os
import platform
from pathlib import Path

__all__ = ["load", "machine"]


def machine() -> str:
    """One line naming the processor, the Python and the pinned core."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}; {os.cpu_count()} cores, 1 used; Python {platform.python_version()}"


def load() -> str:
    """The 1, 5 and 15-minute load averages."""
    if not hasattr(os, "getloadavg"):
        return "n/a"
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
