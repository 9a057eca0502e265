"""kg/torchless.py: spaCy runs without torch in paperkg's processes, and torch stays importable for training."""
from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support import ROOT

pytest.importorskip("torch", reason="torch is not installed: nothing to keep out")


def run(code: str) -> str:
    """The stdout of `code` in a fresh interpreter."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return done.stdout.strip()


def test_a_parse_imports_no_torch_and_torch_still_imports_after():
    out = run("import sys, kg\n"
              "from kg.nlp import DEFAULT_MODEL\n"
              "from kg.nlp.load import load_nlp\n"
              "nlp, _ = load_nlp(DEFAULT_MODEL)\n"
              "tags = [t.pos_ for t in nlp('We train the Zorb tagger on the Blip corpus.')]\n"
              "import thinc.compat\n"
              "print('torch' in sys.modules, thinc.compat.has_torch, 'NOUN' in tags or 'PROPN' in tags)\n"
              "import torch\n"
              "print(float(torch.ones(3).sum()))")
    assert out.splitlines() == ["False False True", "3.0"]


def test_a_process_that_imported_torch_first_is_left_alone():
    assert run("import torch, kg, thinc.compat, sys\n"
               "print(thinc.compat.has_torch, any('Torchless' in type(f).__name__ for f in sys.meta_path))") == "True False"


def test_without_paperkg_thinc_imports_torch():  # the cost the finder removes, so the first test can fail
    assert run("import sys, thinc.compat\nprint('torch' in sys.modules)") == "True"
