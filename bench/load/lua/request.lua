-- request.lua: one fixed request (method, body, headers from the script
-- arguments, see lib.lua). wrk builds it once per thread: no per-request
-- Lua on the request side.
function init(args)
  signet.apply(signet.options(args))
end
