-- tokens.lua: the request of request.lua with a token per request, cycled
-- from the file named by tokens=FILE (one per line), in the header
-- token_header (Authorization) after token_prefix ("Bearer "). The
-- requests are formatted once in init; request() only picks the next.
local reqs, n, i = {}, 0, 0

function init(args)
  local o = signet.options(args)
  signet.apply(o)
  if not o.tokens then error("tokens.lua: tokens=FILE missing") end
  local header = o.token_header or "Authorization"
  local prefix = o.token_prefix or "Bearer "
  for _, t in ipairs(signet.lines(o.tokens)) do
    local h = {}
    for k, v in pairs(wrk.headers) do h[k] = v end
    h[header] = prefix .. t
    reqs[#reqs + 1] = wrk.format(nil, nil, h)
  end
  n = #reqs
  if n == 0 then error("tokens.lua: no tokens in " .. o.tokens) end
end

function request()
  i = i % n + 1
  return reqs[i]
end
