"""Read models built from the log (recaps, timelines, audits) and the text each event reads as."""
