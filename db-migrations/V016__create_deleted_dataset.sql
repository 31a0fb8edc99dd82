-- Who owned a deleted dataset: the ledger outlives the dataset (its entries have no foreign key),
-- and its owner may still read it (docs/reliability.md). Only the id and the owner's subject.
CREATE TABLE deleted_dataset (
    id          uuid        PRIMARY KEY,
    owner       text        NOT NULL,
    deleted_at  timestamptz NOT NULL
);
