-- fault.lua: the request of request.lua (method, body and headers from the
-- script arguments), plus what the faults need beyond the reporter's
-- statuses: a count of the answers saying "active":true (the faults
-- introspect revoked tokens: it must stay 0) and wrk's socket errors by
-- kind (a SIGTERM tells the connections it closes from lost requests).
-- Each thread counts in its own Lua state; done() (in wrk's main state)
-- adds the counts up and writes one JSON line to the file named by the
-- argument out=FILE.
local fault_threads = {}
active = 0
fault_out = nil

function init(args)
  local o = signet.options(args)
  signet.apply(o)
  fault_out = o.out
end

function setup(thread)
  table.insert(fault_threads, thread)
end

function response(status, headers, body)
  if status == 200 and body and body:find('"active":true', 1, true) then
    active = active + 1
  end
end

function done(summary, latency, requests)
  local total, path = 0, nil
  for _, t in ipairs(fault_threads) do
    total = total + (t:get("active") or 0)
    path = path or t:get("fault_out")
  end
  if not path then error("fault.lua: out=FILE missing") end
  local e = summary.errors
  local f = assert(io.open(path, "w"))
  f:write(string.format('{"active":%.0f,"connect":%.0f,"read":%.0f,"write":%.0f,"timeout":%.0f,"status":%.0f}\n',
    total, e.connect, e.read, e.write, e.timeout, e.status))
  f:close()
end
