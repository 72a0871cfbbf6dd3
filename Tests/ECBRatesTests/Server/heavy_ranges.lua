-- wrk script: every request a distinct one-year range of every currency (/v2/rates?from=…&to=…);
-- each thread counts its answers by status, and 503s without Retry-After; `done` sums them.
local threads = {}

setup = function(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

init = function(args)
  counter = 0
  statuses = {}
  withoutRetryAfter = 0
end

request = function()
  counter = counter + 1
  local start = 10957 + (id * 4099 + counter * 37) % 9000 -- days since 1970: 2000-01-01 and on
  local from = os.date("!%Y-%m-%d", start * 86400)
  local to = os.date("!%Y-%m-%d", (start + 365) * 86400)
  return wrk.format("GET", "/v2/rates?from=" .. from .. "&to=" .. to)
end

response = function(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if status == 503 and headers["Retry-After"] == nil then
    withoutRetryAfter = withoutRetryAfter + 1
  end
end

done = function(summary, latency, requests)
  local total, missing = {}, 0
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses")) do
      total[status] = (total[status] or 0) + count
    end
    missing = missing + thread:get("withoutRetryAfter")
  end
  for status, count in pairs(total) do
    io.write(string.format("status %d %d\n", status, count))
  end
  io.write(string.format("without-retry-after %d\n", missing))
end
