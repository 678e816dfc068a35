-- Neovim's wait of vigor#request() (autoload/vigor.vim), in Lua: the
-- condition of a Vim-script wait() is a String (or a lambda) that Neovim
-- interprets after every event, and Vim script costs microseconds a line.
-- Only the wait and the tokens are here: the request is sent, and its
-- answer kept and taken, in Vim script (host.vim), so that its values
-- never pass through Lua (where a Float 1.0 would come back a Number and
-- a Blob a String).
-- Vim never loads this file.
local M = {}

-- The tokens whose answer host#reply() has put in its Dict, until the
-- wait of that token sees it. host#reply() adds (arrived()), wait()
-- removes its own token.
local arrived = {}
-- The tokens whose wait ended without the answer (host#abandon()), until
-- the answer comes and is dropped (arrived()). A token is never in both.
local abandoned = {}
-- The channels that have closed (process.vim's s:ended(), closed()); a
-- wait on one of them ends. Neovim never gives a channel id twice.
local closed = {}

-- The answer to the request {token} has come: true when host#reply()
-- is to keep it for the wait, false when its wait ended without it.
function M.arrived(token)
  if abandoned[token] then
    abandoned[token] = nil
    return false
  end
  arrived[token] = true
  return true
end

-- The request {token} will not take its answer: it is dropped when it
-- comes.
function M.abandon(token)
  abandoned[token] = true
end

-- The channel {chan} is done: the waits on it end.
function M.closed(chan)
  closed[chan] = true
end

-- Waits up to {look} ms for the answer to the request {token} on channel
-- {chan}, while Neovim runs the plugin's calls, timers and other events.
-- Returns 0 when the answer is there or the channel has closed, -1 after
-- {look} ms without either, -2 when CTRL-C stopped the wait.
function M.wait(token, chan, look)
  local done, why = vim.wait(look, function()
    return arrived[token] or closed[chan]
  end, 50)
  -- vim.wait() can end by its timeout after the event that brought the
  -- answer (a call of the plugin that ran past {look} ms), without
  -- looking at the condition again: look here.
  done = done or arrived[token] or closed[chan]
  arrived[token] = nil
  if done then
    return 0
  end
  return why
end

return M
