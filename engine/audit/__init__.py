"""`campaign verify`: the walk over a store's raw rows (chains, seals, committed dice,
rulings, read models, replay) and the report it gives."""
