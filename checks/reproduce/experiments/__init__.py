"""The experiments of CLAIMS.md, one module each (``EXPERIMENT``); names start with the paper."""
