-- lib.lua: helpers for the HTTP lab's wrk scripts. RunWrk puts this file
-- before the scenario's script (and lua/report.lua after it), so every
-- script can use the table `signet`.
--
-- Script arguments (after `--` on wrk's command line, WrkSpec.Args) are
-- key=value pairs, read by signet.options:
--   method=POST                 the request method
--   body=TEXT | body=@FILE      the request body, literal or read from FILE
--   header=Name: value          a header (repeatable)
--   tokens=FILE                 tokens.lua: one token per line, cycled
--   token_header=Authorization  tokens.lua: the header carrying the token
--   token_prefix=Bearer\32      tokens.lua: what goes before it ("Bearer " by default)
signet = {}

-- signet.read returns a file's whole content.
function signet.read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

-- signet.lines returns a file's non-empty lines.
function signet.lines(path)
  local t = {}
  local f = assert(io.open(path, "r"))
  for l in f:lines() do
    l = l:gsub("\r$", "")
    if l ~= "" then t[#t + 1] = l end
  end
  f:close()
  return t
end

-- signet.options parses key=value script arguments (see above).
function signet.options(args)
  local o = { headers = {} }
  for _, a in ipairs(args or {}) do
    local k, v = a:match("^([%w_]+)=(.*)$")
    if not k then error("lab script: argument " .. a .. " is not key=value") end
    if k == "header" then
      local name, value = v:match("^([^:]+):%s*(.*)$")
      if not name then error("lab script: header " .. v .. " is not Name: value") end
      o.headers[name] = value
    elseif k == "body" and v:sub(1, 1) == "@" then
      o.body = signet.read(v:sub(2))
    else
      o[k] = v
    end
  end
  return o
end

-- signet.apply sets wrk's method, body and headers from parsed options.
function signet.apply(o)
  if o.method then wrk.method = o.method end
  if o.body then wrk.body = o.body end
  for k, v in pairs(o.headers) do wrk.headers[k] = v end
end
