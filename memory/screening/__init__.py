"""One screening gate on every write path: see gate.py for what it does and patterns.py for what it finds."""
