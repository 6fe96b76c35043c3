"""The outbound limiter shared by every worker, kept in Redis (Telegram's limits are per bot).

The same sliding-window logs as `SlidingWindowLimiter`, as sorted sets: per chat and for the
whole bot, one set of answered slots (score: the moment Telegram answered) and one of slots
in flight (score: the moment by which their answer must have come, `horizon` seconds after
the reservation, so the slots of a worker that died mid-send expire too). A reservation is
one Lua script, atomic in Redis: it drops what left the window, counts, and either takes the
slots or answers the seconds until they free. All keys share one hash tag (one cluster slot).
Nothing here waits: the sender defers, the request limiter sleeps the given seconds.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.delivery.limiter import LimiterUnavailable, Limits, Reservation

OVERALL = 0

RESERVE = """
local now, count, horizon = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[7])
local function free_at(log, flight, limit, window)
  redis.call('ZREMRANGEBYSCORE', log, '-inf', now - window)
  redis.call('ZREMRANGEBYSCORE', flight, '-inf', now - window)
  local stamped = redis.call('ZCARD', log)
  local excess = stamped + redis.call('ZCARD', flight) + count - limit
  if excess <= 0 then return now end
  if excess <= stamped then
    local nth = redis.call('ZRANGE', log, excess - 1, excess - 1, 'WITHSCORES')
    return tonumber(nth[2]) + window
  end
  return now + window
end
local chat_window, all_window = tonumber(ARGV[4]), tonumber(ARGV[6])
local until_ = math.max(
  tonumber(redis.call('GET', KEYS[5]) or '0'),
  free_at(KEYS[1], KEYS[2], tonumber(ARGV[3]), chat_window),
  free_at(KEYS[3], KEYS[4], tonumber(ARGV[5]), all_window))
if until_ > now then return string.format('%.17g', until_ - now) end
for i = 1, count do
  local token = ARGV[8] .. ':' .. i
  redis.call('ZADD', KEYS[2], now + horizon, token)
  redis.call('ZADD', KEYS[4], now + horizon, token)
end
local ttl = math.ceil((horizon + math.max(chat_window, all_window)) * 1000)
for k = 1, 4 do redis.call('PEXPIRE', KEYS[k], ttl) end
return ''
"""

PAUSE = """
local until_ = tonumber(ARGV[1])
if until_ > tonumber(redis.call('GET', KEYS[1]) or '0') then
  redis.call('SET', KEYS[1], string.format('%.17g', until_), 'PX', ARGV[2])
end
return 1
"""


class RedisLimiter:
    """Sliding-window logs per chat and overall in Redis, shared by every worker."""

    def __init__(
        self,
        limits: Limits,
        clock: Callable[[], float],
        url: str,
        *,
        horizon: float = 60.0,
        namespace: str = "whodunit",
    ) -> None:
        self.limits = limits
        self.clock = clock
        self.horizon = horizon
        self.namespace = namespace
        self.redis: Redis = Redis.from_url(url)
        self._reserve = self.redis.register_script(RESERVE)
        self._pause = self.redis.register_script(PAUSE)

    def _key(self, chat_id: int, kind: str) -> str:
        return f"{{{self.namespace}:limit}}:{chat_id}:{kind}"

    async def reserve(self, chat_id: int, count: int = 1) -> Reservation | float:
        now = self.clock()
        count = self.limits.clamp(chat_id, count)
        chat_count, chat_window = self.limits.of(chat_id)
        prefix = uuid.uuid4().hex
        keys = [
            self._key(chat_id, "log"),
            self._key(chat_id, "flight"),
            self._key(OVERALL, "log"),
            self._key(OVERALL, "flight"),
            self._key(chat_id, "pause"),
        ]
        args: list[Any] = [
            repr(now),
            count,
            chat_count,
            repr(chat_window),
            self.limits.overall_count,
            repr(self.limits.overall_window),
            repr(self.horizon),
            prefix,
        ]
        try:
            answer = await self._reserve(keys=keys, args=args)
        except RedisError as error:
            raise LimiterUnavailable(str(error)) from error
        if answer:
            return max(float(answer), 1e-3)
        return Reservation(chat_id, tokens=[f"{prefix}:{i}" for i in range(1, count + 1)])

    async def release(self, reservation: Reservation) -> None:
        """Record the answered slots with their moments; drop the unused ones."""
        chat = reservation.chat_id
        pipe = self.redis.pipeline(transaction=True)
        for index, token in enumerate(reservation.tokens):
            for key in (chat, OVERALL):
                pipe.zrem(self._key(key, "flight"), token)
                if index < len(reservation.stamps):
                    pipe.zadd(self._key(key, "log"), {token: reservation.stamps[index]})
        try:
            await pipe.execute()
        except RedisError as error:  # the slots expire after the horizon anyway
            raise LimiterUnavailable(str(error)) from error
        reservation.tokens = reservation.tokens[: reservation.used]

    async def pause(self, chat_id: int, seconds: float) -> None:
        until = self.clock() + max(0.0, seconds)
        ttl = max(1, int(seconds * 1000) + 1000)
        try:
            await self._pause(keys=[self._key(chat_id, "pause")], args=[repr(until), ttl])
        except RedisError as error:
            raise LimiterUnavailable(str(error)) from error

    async def close(self) -> None:
        await self.redis.aclose()
