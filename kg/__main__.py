"""`python -m kg` runs the command line."""
from kg.cli.main import app

app()
