"""The spaCy pipeline: loading it and the exact fast stand-in components."""
