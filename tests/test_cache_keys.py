"""Cache keys name what an extraction depends on: the encoder's weights and the libraries that run it for the
encoder, nothing of the encoder's for `--extractors rules`."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kg.extractors import extract_spec

ROOT = Path(__file__).resolve().parents[1]
# Run inside a copy of the package: each setup's cache fingerprint before and after the encoder's manifest changes.
KEYS_AFTER_NEW_WEIGHTS = """
import json
from pathlib import Path
from kg.extractors import extract_spec
setups = {"rules": ("rules",), "fast": ("fast",), "default": ("default",)}
before = {name: extract_spec(names).fingerprint() for name, names in setups.items()}
manifest = Path("kg/extractors/encoder/weights/manifest.json")
manifest.write_text(manifest.read_text(encoding="utf-8") + "\\n", encoding="utf-8")  # as new weights would
after = {name: extract_spec(names).fingerprint() for name, names in setups.items()}
print(json.dumps({name: before[name] != after[name] for name in setups}))
"""




def test_new_encoder_weights_change_the_encoders_key_only(installed_copy: Path) -> None:
    done = subprocess.run([sys.executable, "-c", KEYS_AFTER_NEW_WEIGHTS], cwd=installed_copy, capture_output=True,
                          text=True, check=True, timeout=300)
    assert json.loads(done.stdout) == {"rules": False, "fast": False, "default": True}


@pytest.mark.parametrize("module", ["onnxruntime", "tokenizers", "numpy"])
def test_the_encoders_key_names_the_libraries_that_run_it(module: str, monkeypatch) -> None:
    before, rules = extract_spec(("default",)).fingerprint(), extract_spec(("rules",)).fingerprint()
    monkeypatch.setattr(__import__(module), "__version__", "0.0.0-other")
    assert extract_spec(("default",)).fingerprint() != before
    assert extract_spec(("rules",)).fingerprint() == rules  # the rules alone run none of them
