"""The three levels of computer detective (defined in engine/computer.py)."""

from __future__ import annotations

from engine.computer import Level

__all__ = ["Level"]
