-- TIME streams release blocks on the clock only (docs/adr/0008-streams.md, "Time blocks"): an
-- append never closes a block. Rows whose event time lies in a block after the open one, while the
-- open block has ended but the scheduler has not released it yet, go into this one pending block
-- (exact packed Gram, secret like the open block; its row count private). It becomes the open
-- block when the blocks before it close; the blocks in between are empty.
ALTER TABLE stream ADD COLUMN pending_index bigint;
ALTER TABLE stream ADD COLUMN pending_rows bigint NOT NULL DEFAULT 0 CHECK (pending_rows >= 0);
ALTER TABLE stream ADD COLUMN pending_block bytea;
ALTER TABLE stream ALTER COLUMN pending_block SET STORAGE EXTERNAL;
ALTER TABLE stream ADD CONSTRAINT stream_pending_after_open CHECK (
    (pending_index IS NULL AND pending_block IS NULL AND pending_rows = 0)
    OR (pending_index > completed_blocks AND pending_block IS NOT NULL));
