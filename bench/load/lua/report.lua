-- report.lua: the HTTP lab's reporter. RunWrk appends it to every
-- scenario script: it counts response statuses per thread in response()
-- and prints one line in done():
--   SIGNET-WRK {"requests":…,"duration_us":…,"errors":{…},"latency_us":{…,"p999":…},"statuses":{"200":…}}
-- A script's own setup, response and done still run (wrapped here).
local signet_threads = {}
local user_setup, user_response, user_done = setup, response, done

statuses = {}

function setup(thread)
  table.insert(signet_threads, thread)
  if user_setup then user_setup(thread) end
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if user_response then return user_response(status, headers, body) end
end

function done(summary, latency, requests)
  if user_done then user_done(summary, latency, requests) end
  local agg = {}
  for _, t in ipairs(signet_threads) do
    local s = t:get("statuses")
    if s then
      for k, v in pairs(s) do agg[k] = (agg[k] or 0) + v end
    end
  end
  local parts = {}
  for k, v in pairs(agg) do
    parts[#parts + 1] = string.format('"%.0f":%.0f', k, v)
  end
  local e = summary.errors
  io.write(string.format(
    'SIGNET-WRK {"requests":%.0f,"duration_us":%.0f,"bytes":%.0f,' ..
    '"errors":{"connect":%.0f,"read":%.0f,"write":%.0f,"status":%.0f,"timeout":%.0f},' ..
    '"latency_us":{"min":%.0f,"mean":%.1f,"max":%.0f,"p50":%.0f,"p90":%.0f,"p99":%.0f,"p999":%.0f},' ..
    '"statuses":{%s}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.mean, latency.max,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    table.concat(parts, ",")))
end
