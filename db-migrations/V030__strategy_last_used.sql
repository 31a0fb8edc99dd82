-- Strategies are pruned when unused (issue 36): last_used_at is when a plan last read the strategy
-- (each replica updates it at most hourly per strategy), and a scheduled job deletes strategies
-- unused for privmat.strategies.retention, or beyond privmat.strategies.max-stored-bytes least
-- recently used first; never one that a stored estimate release names (release.meta->>'strategyKey').
-- A deleted strategy is recomputed, to the same bytes, by the next request that needs it.
ALTER TABLE strategy ADD COLUMN last_used_at timestamptz;
UPDATE strategy SET last_used_at = created_at;
ALTER TABLE strategy ALTER COLUMN last_used_at SET NOT NULL;
CREATE INDEX strategy_last_used_idx ON strategy (last_used_at, id);
CREATE INDEX release_strategy_key_idx ON release ((meta->>'strategyKey'));
