-- A graph's vertex universe is public and declared by its owner at creation (docs/adr/0005):
-- the declared labels are written to graph_vertex then, with ids in declared order, and an upload
-- may only use them. NULL for matrices and for graphs created before the declaration existed
-- (their vertex set is derived from the edges).
ALTER TABLE dataset ADD COLUMN declared_vertices integer CHECK (declared_vertices > 0);
ALTER TABLE dataset ADD CONSTRAINT declared_vertices_graph_only
    CHECK (declared_vertices IS NULL OR kind = 'GRAPH');
