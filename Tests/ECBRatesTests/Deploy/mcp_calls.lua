-- wrk script for replicas_check.py (c): MCP tool calls through nginx's /mcp, each a POST of one
-- JSON-RPC message in the stateless 2026-07-28 form; counts the statuses and the answers that
-- are not the call's result, and prints them when wrk is done ("mcp status S N", "mcp bad N").
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.body = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"convert",'
    .. '"arguments":{"amount":"100","from":"USD","to":"JPY","date":"2024-03-28"},'
    .. '"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
    .. '"io.modelcontextprotocol/clientCapabilities":{}}}}'

local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init()
    statuses = {}
    bad = 0
end

function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
    if status ~= 200 or not string.find(body, '"id":7', 1, true)
        or not string.find(body, '\\"result\\":15119', 1, true) then
        bad = bad + 1
    end
end

function done(summary, latency, requests)
    local totals, bads = {}, 0
    for _, thread in ipairs(threads) do
        for status, count in pairs(thread:get("statuses")) do
            totals[status] = (totals[status] or 0) + count
        end
        bads = bads + thread:get("bad")
    end
    for status, count in pairs(totals) do
        io.write(string.format("mcp status %d %d\n", status, count))
    end
    io.write(string.format("mcp bad %d\n", bads))
end
