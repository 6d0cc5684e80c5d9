"""Export and import: the export file's format and its line-by-line check, the scratch
store an import checks in, and what a player checks with nothing but an export."""
