"""Text preparation: markup stripping and abbreviation detection."""
