"""The write path: the ledger that records each ruling atomically (encoded, hash-linked,
sealed), the assembly of a ruling's events, the one clock seam, and the narration a
ruling is recorded with."""
