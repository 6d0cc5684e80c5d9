"""Reads over the log: the materialized read models (SQLite, PostgreSQL, memory), recaps
and timelines, history at a point, reads that cost what they show, narration, search,
and the log as one reader may read it."""
