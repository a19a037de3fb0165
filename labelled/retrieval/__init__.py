"""Labelled retrieval sets (Harbor in dataset.py, transcripts, agent notes), each with NOTES, QUERIES and
validate(), written and frozen before any ranking was tuned on them; harness.py scores a set."""
