"""Reading inputs: listings, JSONL/CSV records, one corpus of papers."""
