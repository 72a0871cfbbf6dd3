-- wrk script of replicas_check.py: requests through nginx, half of them a fixed set of cacheable
-- URLs (v1, v2, /api/), half a distinct conversion each (a random day and amount: a cache miss,
-- answered by a replica). Each thread counts the answers by status and keeps every distinct
-- (target, status, body) with its count; `done` writes them to $REPLICAS_WRK_OUT, one per line:
-- count TAB status TAB target TAB body (newlines in a body as \n); to stdout, the counts by status
-- and by X-Cache-Status (nginx's $upstream_cache_status), and the latency's p99 and maximum.
-- The target is the X-Ecbrates-Target header that the check's nginx adds (the request's URI).
-- $REPLICAS_WRK_MIX=fixed asks the fixed URLs only (cache hits once warm).
local threads = {}

local fixed = {
  "/latest",
  "/2024-03-28",
  "/2024-03-28?symbols=USD",
  "/v2/rates?date=2024-03-28",
  "/api/rate?currencies=USD&date=2024-03-28",
  "/v2/rate/USD/JPY?date=2024-03-28",
  "/2020-01-02..2020-01-31?symbols=USD,GBP",
  "/2024-03-30?amount=100&symbols=USD,JPY",
}

setup = function(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

init = function(args)
  counter = 0
  statuses = {}
  caches = {}
  seen = {}
  mix = os.getenv("REPLICAS_WRK_MIX") or "mixed"
  math.randomseed(1000 + id)
end

request = function()
  counter = counter + 1
  if mix == "fixed" or counter % 2 == 0 then
    return wrk.format("GET", fixed[(counter % #fixed) + 1])
  end
  -- a day from 1999-01-04 (10595 days after 1970-01-01) to 2026-09-30 (20726)
  local day = os.date("!%Y-%m-%d", math.random(10595, 20726) * 86400)
  local amount = math.random(1, 999999)
  return wrk.format("GET", "/" .. day .. "?amount=" .. amount .. "&symbols=USD,JPY")
end

response = function(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  local cache = headers["X-Cache-Status"] or "-"
  caches[cache] = (caches[cache] or 0) + 1
  local key = (headers["X-Ecbrates-Target"] or "?") .. "\t" .. status .. "\t" .. (body or ""):gsub("\n", "\\n")
  seen[key] = (seen[key] or 0) + 1
end

done = function(summary, latency, requests)
  local out = assert(io.open(os.getenv("REPLICAS_WRK_OUT") or "/dev/null", "w"))
  local total, cached = {}, {}
  for _, thread in ipairs(threads) do
    for cache, count in pairs(thread:get("caches")) do
      cached[cache] = (cached[cache] or 0) + count
    end
    for status, count in pairs(thread:get("statuses")) do
      total[status] = (total[status] or 0) + count
    end
    for key, count in pairs(thread:get("seen")) do
      local target, status, body = key:match("^([^\t]*)\t([^\t]*)\t(.*)$")
      out:write(count, "\t", status, "\t", target, "\t", body, "\n")
    end
  end
  out:close()
  for status, count in pairs(total) do
    io.write(string.format("status %d %d\n", status, count))
  end
  for cache, count in pairs(cached) do
    io.write(string.format("cache %s %d\n", cache, count))
  end
  io.write(string.format("latency-max-ms %.1f\n", latency.max / 1000))
  io.write(string.format("latency-p99-ms %.1f\n", latency:percentile(99) / 1000))
end
