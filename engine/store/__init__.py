"""Where the log lives and how it is read back: the store and its recorders (SQLite,
PostgreSQL, memory), the envelopes and snapshots it holds, the cattrs mapper that encodes
them, the hash chain that links them, loading a stream, the write lock, the log of
rulings as read back, and the event classes a system's campaign may hold."""
