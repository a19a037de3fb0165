"""Labelled retrieval sets beyond Harbor (tests/retrieval/dataset.py), each a module with NOTES, QUERIES
and validate(), written and frozen before any ranking was tuned on them."""
