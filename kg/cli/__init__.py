"""The `kg` command line."""
