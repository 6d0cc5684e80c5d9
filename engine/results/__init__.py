"""The results of the reads and commands, one type per use, as every front end gives them,
and the log's lines framed the one way."""
