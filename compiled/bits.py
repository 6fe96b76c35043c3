"""Two machine instructions the kernels (compiled/kernels.py) need and numba does not
offer: how many bits of a word are set, and how many zeros end it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from llvmlite import ir
from numba import types
from numba.extending import intrinsic


def _set_bits(typingctx: object, word: object) -> tuple[Any, Any]:
    def codegen(context: object, builder: ir.IRBuilder, signature: object, args: list[Any]) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


def _trailing_zeros(typingctx: object, word: object) -> tuple[Any, Any]:
    def codegen(context: object, builder: ir.IRBuilder, signature: object, args: list[Any]) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.int64(types.int64), codegen


# how many bits of a word are set (one instruction)
set_bits = cast(Callable[[int], int], intrinsic(_set_bits))
# the index of a word's lowest set bit (never asked of 0)
trailing_zeros = cast(Callable[[int], int], intrinsic(_trailing_zeros))
